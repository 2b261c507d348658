"""How stable is the bot's root choice? The same position searched with several seeds.

Prints, per seed, the move chosen and every root move's visits and mean score. A choice that
changes from seed to seed while the top scores sit within a few hundredths of each other is a
decision the search cannot make at that budget (docs/strength.md, "Where the games are lost").

    .venv/bin/python bench/root_spread.py --board 12,12,4,2 --columns 3 --playouts 20000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import InvalidPosition, Position  # noqa: E402
from bot.search.clock import Deadline, Limit  # noqa: E402
from bot.search.mcts import MCTS  # noqa: E402


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="12,12,4,2", help="M,N,noX,noY (default 12,12,4,2)")
    parser.add_argument("--columns", default="3", help="columns played from the empty board")
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    try:
        M, N, no_x, no_y = (int(v) for v in args.board.split(","))
        position = Position.new(M, N, no_x, no_y)
        for column in (int(c) for c in args.columns.split(",") if c.strip()):
            if column not in position.legal_columns():
                raise InvalidPosition(f"column {column} cannot be played")
            position = position.play(column)
    except (ValueError, InvalidPosition) as err:
        parser.error(f"bad --board or --columns: {err}")
    for seed in range(args.seeds):
        searcher = MCTS(seed=seed)
        result = searcher.search(position, Deadline(Limit(None, args.playouts)))
        children = sorted(searcher.tree.children, key=lambda c: -c.visits)
        cells = " ".join(f"c{position.geo.column(c.move)}:{c.visits}/{c.value / c.visits:.3f}"
                         for c in children)
        print(f"seed {seed}: plays column {position.geo.column(result.move)}  ({cells})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
