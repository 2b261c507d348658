"""Play-outs per second of the native UCT (opponents/uct.cpp) on an empty board.

Builds build/opponents/uct.so, then times getPoint calls capped at a fixed play-out count (the
time limit set far away), and one uncapped call to show how closely it keeps UCT_TIME.

    .venv/bin/python bench/uct_speed.py [--playouts 200000] [--size 12] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from opponents.native import DEFAULT_LIBRARY, NativeStrategy, build  # noqa: E402


def timed_call(uct: NativeStrategy, size: int) -> float:
    """Seconds for one getPoint on an empty size x size board (forbidden cell in a top corner)."""
    start = time.perf_counter()
    uct(size, size, [size] * size, [0] * (size * size), -1, -1, 0, 0)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=200_000, help="cap per timed call")
    parser.add_argument("--size", type=int, default=12, help="M = N of the empty board")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls (median reported)")
    parser.add_argument("--time", type=float, default=1.0, help="UCT_TIME of the uncapped call")
    args = parser.parse_args()

    uct = NativeStrategy(build(DEFAULT_LIBRARY))
    os.environ.update(UCT_TIME="1000", UCT_PLAYOUTS=str(args.playouts))
    seconds = statistics.median(timed_call(uct, args.size) for _ in range(args.repeat))
    print(f"{args.size}x{args.size} empty, {args.playouts} play-outs: {seconds:.3f} s, "
          f"{args.playouts / seconds:,.0f} play-outs/s (median of {args.repeat})")

    os.environ.update(UCT_TIME=str(args.time), UCT_PLAYOUTS="0")
    print(f"uncapped, UCT_TIME={args.time}: returned after {timed_call(uct, args.size):.3f} s")


if __name__ == "__main__":
    main()
