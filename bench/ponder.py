"""What pondering buys: the bot as a process (platform protocol, DEBUG log) against the native
UCT called in this process, so the bot ponders exactly while the partner thinks.

    .venv/bin/python bench/ponder.py [--games 2] [--time 2.4] [--uct-time 2.6] [--seed 1]

Per game and overall: play-outs pondered per partner move, play-outs already below the root
when the bot's own search starts (pondering and tree reuse), play-outs of its own search, and
the bot's reply time from the move being written to the reply read. Run it alone on the
machine (the bot ponders on one core while the partner thinks on the other).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Position  # noqa: E402
from opponents.native import DEFAULT_LIBRARY, NativeStrategy, build  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PONDERED = re.compile(r"pondered: (\d+) playouts")
SEARCHED = re.compile(r"search: (\d+) playouts \((\d+) reused\)")


def read_exactly(stream, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            raise EOFError("the bot closed its stdout")
        data += chunk
    return data


def play(game: int, seed: int, bot_time: float, uct: NativeStrategy) -> Dict[str, List[float]]:
    """One game; the bot opens the even-numbered ones. Returns the figures of its log."""
    rng = random.Random(f"{seed}/{game}")
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    no_x, no_y = rng.randrange(M), rng.randrange(N)
    pos = Position.new(M, N, no_x, no_y)
    proc = subprocess.Popen([sys.executable, "-m", "bot", "--time", str(bot_time),
                             "--log-level", "DEBUG"], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    log: List[str] = []
    reader = threading.Thread(target=lambda: log.extend(
        line.decode() for line in proc.stderr), daemon=True)
    reader.start()
    replies: List[float] = []
    proc.stdin.write(f"{M} {N} {no_x} {no_y}\n".encode())
    last = (-1, -1)
    bot_turn = game % 2 == 0
    try:
        while not (pos.last_mover_won() or pos.is_full()):
            if bot_turn:
                sent = time.perf_counter()
                proc.stdin.write(f"{last[0]} {last[1]}\n".encode())
                proc.stdin.flush()
                (n,) = struct.unpack(">I", read_exactly(proc.stdout, 4))
                x, y = map(int, read_exactly(proc.stdout, n).split())
                replies.append(time.perf_counter() - sent)
            else:
                x, y = uct.get_point(M, N, pos.top(), pos.board(), last[0], last[1], no_x, no_y)
            pos = pos.play_xy(x, y)
            last = (x, y)
            bot_turn = not bot_turn
        proc.stdin.close()
        proc.wait(timeout=60)
    finally:
        proc.kill()
        reader.join(timeout=5)
    text = "".join(log)
    searched = [(int(p), int(r)) for p, r in SEARCHED.findall(text)]
    return {"pondered": [int(n) for n in PONDERED.findall(text) if int(n) > 0],
            "own": [p for p, _ in searched], "reused": [r for _, r in searched],
            "reply": replies, "plies": [pos.ply]}


def summary(name: str, f: Dict[str, List[float]]) -> str:
    def med(key: str) -> str:
        return f"{statistics.median(f[key]):,.0f}" if f[key] else "-"
    share = sum(f["reused"]) / max(1, sum(f["own"]))
    return (f"{name:>8} {sum(f['plies']):>6} {len(f['pondered']):>8} {med('pondered'):>14} "
            f"{med('reused'):>12} {med('own'):>10} {share:>13.0%} "
            f"{max(f['reply'], default=0):>10.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--time", type=float, default=2.4, help="the bot's --time")
    parser.add_argument("--uct-time", type=float, default=2.6, help="the partner's UCT_TIME")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ.update(UCT_TIME=str(args.uct_time), UCT_PLAYOUTS="0")
    if not DEFAULT_LIBRARY.exists():
        build()
    uct = NativeStrategy(DEFAULT_LIBRARY)
    print(f"{'game':>8} {'plies':>6} {'ponders':>8} {'pondered (med)':>14} "
          f"{'reused (med)':>12} {'own (med)':>10} {'reused / own':>13} {'max reply':>10}")
    total: Dict[str, List[float]] = {}
    for game in range(args.games):
        figures = play(game, args.seed, args.time, uct)
        print(summary(str(game), figures), flush=True)
        for key, values in figures.items():
            total.setdefault(key, []).extend(values)
    print(summary("all", total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
