"""The loss analysis's cost and reach: how much a position's budget buys.

For each budget it analyses the same lost games (`python -m arena analyse`'s code, one game at
a time) and prints the positions searched, seconds a game and a position, how many decisive
mistakes it proved (another move proven to hold), how many it showed avoidable within bounds
(another move clear of a forced four as long as the one the mistake allowed), how many stay
unsettled, and for how many wins it found a forced four.

    python bench/analyse_cost.py [RECORDS.jsonl ...] [--seconds 0.5 2 8] [--lost-by bot]

Records default to docs/results/partner-*.jsonl (the losses behind docs/strength.md).

With --guard ANNOTATED.jsonl (records from `python -m arena analyse`) it prints instead what
the guard of the move played would pay at each decisive mistake: the forced-win search's
nodes and seconds to settle the game's move at 11, 13, 15 and 17 plies (each question afresh,
up to the first that proves it lost), the questions the bot's guard asks in a fifth of the
move's time:

    python bench/analyse_cost.py --guard docs/results/bot-losses-analysed.jsonl
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.game import analyse_game, replay  # noqa: E402
from records.analysis import LossAnalysis  # noqa: E402
from records.log import losses, read_games  # noqa: E402

GUARD_PLIES = (11, 13, 15, 17)


def guard_cost(path: Path) -> None:
    """Each decisive mistake's move, settled at GUARD_PLIES: (plies, verdict, nodes, seconds)."""
    from bot.search.tactics import Budget, ForcedWin
    for record in read_games(path):
        decisive = record.analysis.decisive if isinstance(record.analysis, LossAnalysis) else None
        if not decisive:
            continue
        after = replay(record)[decisive.index + 1]
        search = ForcedWin(after.geo)
        row = []
        for plies in GUARD_PLIES:
            search.table.clear()
            started = time.perf_counter()
            lost = search.settle(after.current, after.mask, plies, Budget(10**8))
            row.append(f"{plies}: {'lost' if lost else 'clear'} {search.nodes:,} nodes "
                       f"{time.perf_counter() - started:.2f} s")
            if lost:
                break
        print(f"seed {record.seed} r{record.round} leg {record.leg} "
              f"move {decisive.index + 1} | " + " | ".join(row), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="*", type=Path,
                        default=sorted((ROOT / "docs/results").glob("partner-*.jsonl")))
    parser.add_argument("--seconds", nargs="+", type=float, default=[0.5, 2.0, 8.0])
    parser.add_argument("--lost-by", default=None, help="only this player's losses")
    parser.add_argument("--guard", type=Path, metavar="ANNOTATED",
                        help="the guard's questions at these analysed losses' decisive moves")
    args = parser.parse_args()
    if args.guard is not None:
        guard_cost(args.guard)
        return
    records = [r for path in args.records for r in read_games(path)]
    games = [records[i] for i in losses(records, args.lost_by)]
    print(f"{len(games)} lost games from {len(args.records)} files")
    print(f"{'budget':>7} {'positions':>9} {'s/game':>7} {'s/position':>10} {'max s/game':>10} "
          f"{'proven':>6} {'avoidable':>9} {'unsettled':>9} {'forced four':>11}")
    for seconds in args.seconds:
        positions, per_game, found = 0, [], Counter()
        for record in games:
            started = time.perf_counter()
            a = analyse_game(record, seconds)
            per_game.append(time.perf_counter() - started)
            positions += a.positions
            d = a.decisive
            found["proven"] += bool(d and d.proven)
            found["avoidable"] += bool(d and d.avoidable and not d.proven)
            found["unsettled"] += not (d and d.avoidable)
            found["four"] += a.forced_four_in is not None
        print(f"{seconds:>7.1f} {positions:>9} {statistics.mean(per_game):>7.1f} "
              f"{sum(per_game) / max(positions, 1):>10.2f} {max(per_game):>10.1f} "
              f"{found['proven']:>6} {found['avoidable']:>9} {found['unsettled']:>9} "
              f"{found['four']:>11}")


if __name__ == "__main__":
    main()
