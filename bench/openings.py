"""Does the second player's first reply matter? Second-player results by that reply.

For every game of the given JSON Lines logs, the second player's first stone either goes on
top of the first player's (same column: the start of Allis' follow-up) or elsewhere. The
table gives the second player's wins and games in each case, per second player and pooled.
This is the measurement behind bot.search.opening (docs/strength.md):

    .venv/bin/python bench/openings.py docs/results/*.jsonl
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.results import GameRecord, ResultsError, read_log  # noqa: E402

Tally = Dict[Tuple[str, bool], List[int]]  # (second player, stacked) -> [wins, games]


def stacked(record: GameRecord) -> Optional[bool]:
    """Whether the second stone went into the first stone's column (None: under two moves)."""
    if len(record.moves) < 2:
        return None
    return record.moves[0][1] == record.moves[1][1]


def tally(records: Iterable[GameRecord]) -> Tally:
    """Second-player wins and games by (its name, whether its first reply was stacked)."""
    counts: Tally = defaultdict(lambda: [0, 0])
    for record in records:
        on_top = stacked(record)
        if on_top is None:
            continue
        second = "b" if record.first == "a" else "a"
        name = record.a if second == "a" else record.b
        for key in ((name, on_top), ("all", on_top)):
            counts[key][0] += record.result == second
            counts[key][1] += 1
    return counts


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("logs", nargs="+", type=Path, help="JSON Lines game logs")
    args = parser.parse_args(argv)
    records: List[GameRecord] = []
    for path in args.logs:
        try:
            records += read_log(path)
        except (OSError, ResultsError) as exc:
            print(f"openings: {path}: {exc}", file=sys.stderr)
            return 2
    counts = tally(records)
    print(f"{'second player':>16} {'reply':>9} {'wins':>5} {'games':>6} {'score':>6} {'+-se':>5}")
    for (name, on_top), (wins, games) in sorted(counts.items()):
        p = wins / games
        se = math.sqrt(p * (1 - p) / games)
        print(f"{name:>16} {'on top' if on_top else 'elsewhere':>9} {wins:>5} {games:>6} "
              f"{p:>6.2f} {se:>5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
