"""What hosting a course .so costs per game, for the host-reuse decision in docs/arena.md.

Prints milliseconds per game for: the arena's design (one warm host, a forked child that loads
the library afresh per game), a fresh Python host per game, and, in this process for reference,
a library kept loaded (no per-game cost, but its static state leaks between games) versus
dlopen of a per-game copy. Also the round trip of one getPoint of the (instant) test strategy
through the host: the protocol's own cost.

    .venv/bin/python bench/so_hosting.py [LIBRARY.so] [--games 40]

The test strategy (leftmost column) is built with gcc; it is also the library measured when
none is given.
"""
import argparse
import ctypes
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.players.shared_lib import SharedLibPlayer  # noqa: E402

STRATEGY = Path(__file__).resolve().parents[1] / "tests/arena/core/hostile/strategy.c"
M, N, NO_X, NO_Y = 12, 12, 3, 4


def ms(samples: List[float]) -> str:
    return (f"median {statistics.median(samples) * 1e3:7.2f} ms, "
            f"mean {statistics.fmean(samples) * 1e3:7.2f} ms")


def timed(games: int, one: Callable[[], None]) -> List[float]:
    out = []
    for _ in range(games):
        start = time.perf_counter()
        one()
        out.append(time.perf_counter() - start)
    return out


def first_move(player: SharedLibPlayer) -> float:
    res = player.move([M] * N, [0] * (M * N), -1, -1, 3.0)
    assert res.fault is None, res.detail
    return res.elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library", nargs="?", help="a course-ABI .so (default: build a test one)")
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="so_hosting_"))
    leftmost = str(tmp / "leftmost.so")
    subprocess.run(["gcc", "-O2", "-shared", "-fpic", str(STRATEGY), "-o", leftmost], check=True)
    lib = args.library or leftmost

    warm = SharedLibPlayer("warm", lib)
    assert warm.start_game(M, N, NO_X, NO_Y) is None
    warm.end_game()

    def reuse_host() -> None:
        assert warm.start_game(M, N, NO_X, NO_Y) is None
        warm.end_game()

    def fresh_host() -> None:
        player = SharedLibPlayer("fresh", lib)
        assert player.start_game(M, N, NO_X, NO_Y) is None
        player.close()

    print(f"library: {lib}; {args.games} games each")
    print(f"warm host, forked child loads per game: {ms(timed(args.games, reuse_host))}")
    print(f"fresh Python host per game:             {ms(timed(args.games, fresh_host))}")

    ctypes.CDLL("libstdc++.so.6", mode=ctypes.RTLD_GLOBAL)
    ctypes.CDLL(lib)
    copies = iter(range(args.games))

    def load_copy() -> None:
        copy = tmp / f"copy{next(copies)}.so"
        shutil.copyfile(lib, copy)
        ctypes.CDLL(str(copy))

    print(f"in-process dlopen of a per-game copy:   {ms(timed(args.games, load_copy))}")
    print("in-process library kept loaded:          0 ms a game (static state carries over)")

    warm.close()
    quick = SharedLibPlayer("quick", leftmost)
    assert quick.start_game(M, N, NO_X, NO_Y) is None
    trips = [first_move(quick) for _ in range(200)]
    quick.close()
    print(f"getPoint round trip through the host:   {ms(trips)}")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
