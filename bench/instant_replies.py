"""How far past its budget the bot's replies come when the opponent answers at once.

    .venv/bin/python bench/instant_replies.py [--time 2.4] [--games 4] [--seed 9]

Our bot runs as a process (pondering, the leaf worker: as it ships) against an opponent that
replies instantly with a random non-losing move, the case where a request arrives while
pondering is still starting. Each reply is timed from the request written to the reply read,
as the arena does; the figures are the bot's searched moves over its budget
(docs/strength.md, "Move times with the worker").
"""

from __future__ import annotations

import argparse
import random
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.rules import Position, bits  # noqa: E402


def play(budget: float, rng: random.Random) -> List[float]:
    """One game on a random board; the seconds over ``budget`` of each searched reply."""
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    no_x, no_y = rng.randrange(M), rng.randrange(N)
    position = Position.new(M, N, no_x, no_y)
    proc = subprocess.Popen([sys.executable, "-m", "bot", "--time", str(budget)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
    over: List[float] = []
    try:
        proc.stdin.write(f"{M} {N} {no_x} {no_y}\n".encode())
        last = (-1, -1)
        while True:
            sent = time.perf_counter()
            proc.stdin.write(f"{last[0]} {last[1]}\n".encode())
            proc.stdin.flush()
            size, = struct.unpack(">I", proc.stdout.read(4))
            x, y = map(int, proc.stdout.read(size).split())
            took = time.perf_counter() - sent
            if last != (-1, -1) and took > budget / 2:  # a search, not a book or forced move
                over.append(took - budget)
            position = position.play_xy(x, y)
            if position.last_mover_won() or position.is_full():
                return over
            move = rng.choice(list(bits(position.non_losing_moves() or position.possible())))
            last = position.xy(move)
            position = position.play_bit(move)
            if position.last_mover_won() or position.is_full():
                return over
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=2.4, help="the bot's budget a move")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    over = sorted(o for _ in range(args.games) for o in play(args.time, rng))
    if not over:
        raise SystemExit("no searched move: play more games")
    ms = [1000 * o for o in over]
    print(f"{len(ms)} searched moves, over the budget (ms): median {ms[len(ms) // 2]:.1f}, "
          f"p90 {ms[int(0.9 * len(ms))]:.1f}, max {ms[-1]:.1f}")


if __name__ == "__main__":
    main()
