"""Arena throughput with two fast course-ABI libraries, against the course's Compete.

The course's Compete plays 200 games of 2.so against 4.so in about 6 s (30 ms a game), both
libraries in its own process. Ours hosts each library in a child process of its own and plays
`-j` games at once. This script compiles two small strategies (random, greedy: win now, else
block, else the most central column), plays them against each other, and prints games per
second, milliseconds per game, and the arena's overhead per move (request written -> reply read,
for strategies that think for microseconds) and per game (what is left outside the moves).

    .venv/bin/python bench/arena_speed.py [--games 200] [-j 2]
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.config import Config  # noqa: E402
from arena.scheduler import run_batch  # noqa: E402

HEADER = r"""
#include <cstdlib>
struct Point { int x; int y; Point(int a, int b) : x(a), y(b) {} };
extern "C" void clearPoint(Point* p) { delete p; }
"""

SOURCES: Dict[str, str] = {
    "random": HEADER + r"""
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    int legal[16], n = 0;
    for (int y = 0; y < N; y++) if (top[y] > 0) legal[n++] = y;
    int y = legal[rand() % n];
    return new Point(top[y] - 1, y);
}
""",
    "greedy": HEADER + r"""
static int run(const int* b, int M, int N, int x, int y, int dx, int dy, int v) {
    int k = 0;
    for (x += dx, y += dy; x >= 0 && x < M && y >= 0 && y < N && b[x * N + y] == v;
         x += dx, y += dy) k++;
    return k;
}
static bool wins(const int* b, int M, int N, int x, int y, int v) {
    const int d[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int i = 0; i < 4; i++)
        if (1 + run(b, M, N, x, y, d[i][0], d[i][1], v)
              + run(b, M, N, x, y, -d[i][0], -d[i][1], v) >= 4) return true;
    return false;
}
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    for (int v = 2; v >= 1; v--)  // win now (2: own), else block (1: opponent)
        for (int y = 0; y < N; y++)
            if (top[y] > 0 && wins(board, M, N, top[y] - 1, y, v)) return new Point(top[y] - 1, y);
    int best = -1;
    for (int y = 0; y < N; y++)
        if (top[y] > 0 && (best < 0 || abs(2 * y - N + 1) < abs(2 * best - N + 1))) best = y;
    return new Point(top[best] - 1, best);
}
""",
}


def build_libraries(folder: Path) -> Dict[str, Path]:
    """Compile every strategy of SOURCES into folder/<name>.so with the course's flags."""
    out = {}
    for name, source in SOURCES.items():
        cpp = folder / f"{name}.cpp"
        cpp.write_text(source)
        out[name] = folder / f"{name}.so"
        subprocess.run(["g++", "-std=c++11", "-O2", "-fpic", "-shared", str(cpp), "-o",
                        str(out[name])], check=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games (even: both colours)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="arena_speed_"))
    try:
        libs = build_libraries(folder)
        config = Config(batch="speed", rounds=args.games // 2, time_limit=3.0, jobs=args.jobs,
                        seed=1, output=str(folder / "out"), pairings=[("random", "greedy")],
                        players={n: {"so": str(p)} for n, p in libs.items()})
        start = time.perf_counter()
        records = run_batch(config, quiet=True)
        wall = time.perf_counter() - start
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    games = len(records)
    moves = sum(len(r.times) for r in records)
    move_time = sum(sum(r.times) for r in records)
    per_game_outside = (wall * args.jobs - move_time) / games
    faults = sum(1 for r in records if r.fault)
    print(f"{games} games (random vs greedy .so, each in its own host), -j {args.jobs}, "
          f"{moves} moves, {faults} faults")
    print(f"wall {wall:.2f} s: {games / wall:.1f} games/s, {1000 * wall / games:.1f} ms a game "
          f"(course Compete: 30 ms a game, one at a time)")
    print(f"per move, request written -> reply read: {1e6 * move_time / moves:.0f} us")
    print(f"per game outside the moves (start, fork, end, record; per worker): "
          f"{1000 * per_game_outside:.1f} ms")


if __name__ == "__main__":
    main()
