"""What a forced-win question costs: nodes and seconds of the blunder checks the deep probes ask.

From recorded games, every STEP-th position between plies FROM and TO is taken; for each legal
move there, the question "after this move, does the opponent force a win within DEPTH plies?"
is asked with a fresh table per position (the in-tree probes keep theirs, so this is the
pessimistic cost). Prints the answers' tally, the nodes and the CPU seconds, in total and for
the slowest question, so two versions of bot.search.tactics can be compared on equal work.

    .venv/bin/python bench/probe_cost.py docs/results/final2.jsonl --depth 7 --step 10
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Iterator, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.results import ResultsError, read_log  # noqa: E402
from bot.rules import Position, bits  # noqa: E402
from bot.search.tactics import ForcedWin  # noqa: E402


def positions(paths: List[Path], first: int, last: int, step: int) -> Iterator[Position]:
    """Positions of the recorded games at plies first, first + step, ... up to last."""
    for path in paths:
        for record in read_log(path):
            position = Position.new(record.M, record.N, record.no_x, record.no_y)
            for ply, (x, y) in enumerate(record.moves):
                if ply > last:
                    break
                if ply >= first and (ply - first) % step == 0:
                    yield position
                position = position.play_xy(x, y)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path, help="arena results (.jsonl)")
    parser.add_argument("--depth", type=int, default=7, help="plies searched (default 7)")
    parser.add_argument("--nodes", type=int, default=200_000,
                        help="node budget of one question (default 200,000)")
    parser.add_argument("--from", dest="first", type=int, default=10, help="first ply (10)")
    parser.add_argument("--to", dest="last", type=int, default=60, help="last ply (60)")
    parser.add_argument("--step", type=int, default=6, help="plies between positions (6)")
    args = parser.parse_args(argv)
    if min(args.depth, args.nodes, args.step) < 1 or args.first < 0:
        parser.error("--depth, --nodes and --step must be positive, --from not negative")
    for path in args.logs:
        if not path.is_file():
            parser.error(f"{path}: no such results file")
    tally = {True: 0, False: 0, None: 0}
    total_nodes = worst_nodes = count = 0
    cpu = worst_cpu = 0.0
    try:
        for position in positions(args.logs, args.first, args.last, args.step):
            search = ForcedWin(position.geo, args.nodes)
            for move in bits(position.possible()):
                after = position.play_bit(move)
                if after.last_mover_won():
                    continue
                start = time.process_time()
                answer = search.settle(after.current, after.mask, args.depth)
                spent = time.process_time() - start
                tally[answer] += 1
                count += 1
                total_nodes += search.nodes
                cpu += spent
                worst_nodes, worst_cpu = max(worst_nodes, search.nodes), max(worst_cpu, spent)
    except ResultsError as err:
        parser.error(str(err))
    print(f"{count} questions at depth {args.depth}: {tally[True]} lose, {tally[False]} safe, "
          f"{tally[None]} cut by the budget")
    print(f"nodes {total_nodes:,} (mean {total_nodes / max(count, 1):,.0f}, max {worst_nodes:,}); "
          f"CPU {cpu:.2f} s (mean {1000 * cpu / max(count, 1):.1f} ms, "
          f"max {1000 * worst_cpu:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
