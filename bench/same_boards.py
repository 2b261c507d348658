"""Two batches on the same boards, game by game: which games changed hands between versions.

Batches from the same seed play the same boards (round r, leg l), so two versions of our bot
can be compared game by game, not only by their totals: a change that swaps many games while
the total stays put says how much of a batch's result is chance.

    .venv/bin/python bench/same_boards.py docs/results/final4.jsonl docs/results/final3.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.results import GameRecord, ResultsError, read_log  # noqa: E402

Outcome = Tuple[str, bool, int]  # "W"/"D"/"L" for the player, moved first, plies


def outcomes(records: List[GameRecord], prefix: str) -> Dict[Tuple[int, int], Outcome]:
    """(round, leg) -> the outcome for the player whose name starts with ``prefix``."""
    found = {}
    for r in records:
        side = "a" if r.a.startswith(prefix) else "b" if r.b.startswith(prefix) else ""
        if side:
            result = "D" if r.result == "draw" else "W" if r.result == side else "L"
            found[(r.round, r.leg)] = (result, r.first == side, len(r.moves))
    return found


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path, help="arena results (.jsonl) of one version")
    parser.add_argument("old", type=Path, help="arena results (.jsonl) of the other")
    parser.add_argument("--player", default="bot",
                        help="the compared player's name, or its start (default: bot)")
    args = parser.parse_args(argv)
    try:
        new, old = (outcomes(read_log(p), args.player) for p in (args.new, args.old))
    except (OSError, ResultsError) as err:
        parser.error(str(err))
    common = sorted(set(new) & set(old))
    if not common:
        parser.error(f"no game of {args.player!r} on the same round and leg in both files")
    changed = [k for k in common if new[k][0] != old[k][0]]
    for k in changed:
        (a, first, plies), (b, _, old_plies) = new[k], old[k]
        print(f"round {k[0]} leg {k[1]} ({'first' if first else 'second'}): "
              f"{a} in {plies} plies, was {b} in {old_plies}")
    gained = sum(new[k][0] == "W" for k in changed)
    lost = sum(old[k][0] == "W" for k in changed)
    wins = [sum(side[k][0] == "W" for k in common) for side in (new, old)]
    print(f"{len(common)} games on the same boards: {len(changed)} changed hands, {gained} won "
          f"only by the first file, {lost} only by the second; wins {wins[0]} against {wins[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
