"""How late the exact solver proves games, and what one solver node costs next to a play-out.

Positions come from seeded random non-losing play on 12x12 (and 9x9) boards, stopped at a given
number of empty cells. For each, the solver gets a time budget; the script prints its nodes a
second, how many positions it settled (a win found, or every move valued), and MCTS's
play-outs a second on the same positions, whose ratio is NODES_PER_PLAYOUT in
bot/search/endgame.py.

    .venv/bin/python bench/endgame.py --seconds 0.4 --positions 6
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Position, bits  # noqa: E402
from bot.search.clock import Deadline, Limit  # noqa: E402
from bot.search.mcts import MCTS  # noqa: E402
from bot.search.solver import Solver  # noqa: E402


def random_position(size: int, empties: int, seed: int) -> Position:
    """Random non-losing, non-winning play until ``empties`` cells are left (seeded)."""
    rng = random.Random(seed)
    while True:
        p = Position.new(size, size, rng.randrange(size), rng.randrange(size))
        while size * size - 1 - p.ply > empties:
            quiet = p.non_losing_moves() & ~p.winning_cells()
            if not quiet:
                break
            p = p.play_bit(rng.choice(list(bits(quiet))))
        safe = p.non_losing_moves()
        if size * size - 1 - p.ply == empties and safe & (safe - 1) and not p.can_win_now():
            return p


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.4, help="solver budget a position")
    parser.add_argument("--positions", type=int, default=6, help="positions per row")
    parser.add_argument("--empties", default="70,60,50,40,30")
    args = parser.parse_args()
    print(f"size empties settled  solver nodes/s  mcts play-outs/s  ({args.seconds} s each)")
    for size in (12, 9):
        for empties in (int(e) for e in args.empties.split(",")):
            if empties >= size * size - 10:
                continue
            nodes = spent = playouts = mcts_spent = 0.0
            settled = 0
            for seed in range(args.positions):
                p = random_position(size, empties, seed)
                solver = Solver()
                start = time.perf_counter()
                proven = solver.solve_moves(p, seconds=args.seconds)
                spent += time.perf_counter() - start
                nodes += solver.nodes
                safe = p.non_losing_moves()
                settled += 1 in proven.values() or len(proven) == bin(safe).count("1")
                result = MCTS(seed=seed).search(p, Deadline(Limit(seconds=args.seconds / 2)))
                playouts += result.playouts
                mcts_spent += result.seconds
            print(f"{size:4d} {empties:7d} {settled:3d}/{args.positions:<3d} "
                  f"{nodes / spent:14.0f} {playouts / mcts_spent:17.0f}")


if __name__ == "__main__":
    main()
