"""Play-outs a move along recorded games: the deep probes in the main process (as shipped),
then in the leaf worker (bot.search.leaves, `--remote-probes`).

A fresh search of a fixed position (python -m bench.speed --leaves) reaches the deep probes'
visit thresholds only a few times; in a game the tree is reused from move to move and its
likely moves cross them during the move. Here one searcher per mode searches every position
of a recorded game's first plies in order, reusing its tree as in a game (no pondering), and
the modes alternate game by game so that both see the same machine.

    .venv/bin/python bench/leaf_probes.py docs/results/final8.jsonl --games 0,7 --plies 30
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Position  # noqa: E402
from bot.search.clock import Deadline, Limit  # noqa: E402
from bot.search.leaves import LeafParallelMCTS  # noqa: E402

MODES = {"probes here": False, "probes in the worker": True}


def game_positions(record: dict, plies: int) -> List[Position]:
    """The positions before each of the first ``plies`` moves of a recorded game."""
    p = Position.new(record["M"], record["N"], record["no_x"], record["no_y"])
    positions = []
    for _, column in record["moves"][:plies]:
        positions.append(p)
        p = p.play(column)
    return positions


def playouts_along(positions: List[Position], remote: bool, seconds: float) -> List[int]:
    """Play-outs of each search along the game with one searcher (its tree reused)."""
    searcher = LeafParallelMCTS(seed=1, remote_probes=remote)
    try:
        return [searcher.search(p, Deadline(Limit(seconds))).playouts for p in positions]
    finally:
        searcher.stop_worker()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", type=Path, help="games.jsonl of a batch")
    parser.add_argument("--games", default="0", help="indices of games in the record, e.g. 0,7")
    parser.add_argument("--plies", type=int, default=30, help="first plies of each game")
    parser.add_argument("--seconds", type=float, default=2.4, help="search time a position")
    args = parser.parse_args()
    try:
        records = [json.loads(line) for line in args.record.read_text().splitlines() if line]
        chosen = [records[int(i)] for i in args.games.split(",")]
    except (OSError, ValueError, IndexError, json.JSONDecodeError) as exc:
        parser.error(f"cannot read games {args.games} of {args.record}: {exc}")
    totals: Dict[str, List[int]] = {mode: [] for mode in MODES}
    print(f"{'game':28} " + " ".join(f"{m + ', median':>28}" for m in MODES) + "   ratio")
    for index, record in zip(args.games.split(","), chosen):
        positions = game_positions(record, args.plies)
        counts = {mode: playouts_along(positions, remote, args.seconds)
                  for mode, remote in MODES.items()}
        for mode in MODES:
            totals[mode] += counts[mode]
        here, there = (statistics.median(counts[m]) for m in MODES)
        name = f"#{index} {record['M']}x{record['N']}, {len(positions)} plies"
        print(f"{name:28} {here:28.0f} {there:28.0f}   x{there / here:.2f}")
    here, there = (sum(totals[m]) for m in MODES)
    print(f"{'all, total play-outs':28} {here:28d} {there:28d}   x{there / here:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
