"""How well the learned patterns predict, against the bot's own search and the exact solver.

On held-out self-play games (the trainer's split: no position of a training game), at the
positions with 20, 40 and 60 filled cells, three predictors of the side to move's result:
- the learned patterns (``--weights``, as knowledge.train writes them),
- the bot's root value after ``--seconds`` of its search (the most visited move's mean
  play-out score, or the proven result),
- the generator's own search value (the native UCT's, recorded with the game),
each scored by how often it names the winner of the game (drawn games left out), and, where
the exact solver settles the position within ``--solver-seconds``, by how often it names the
solver's result (a win for the side to move or not; proven draws left out).

    python -m knowledge.measure data/selfplay --games 200
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

import numpy as np

from bot.rules import Position
from bot.search.clock import Deadline, Limit
from bot.search.mcts import MCTS, SCORE
from bot.search.node import sort_key
from bot.search.solver import Solver
from knowledge.features import Game, pattern_indices, positions
from knowledge.train import Model, load_games, split

FILLED = (20, 40, 60)
PREDICTORS = ("patterns", "search", "generator")


def root_value(position: Position, seconds: float) -> float:
    """The bot's value of ``position`` for its side to move after ``seconds`` of search."""
    searcher = MCTS(seed=0)
    result = searcher.search(position, Deadline(Limit(seconds=seconds)))
    if result.outcome is not None:
        return SCORE[result.outcome]
    best = max(searcher.tree.children, key=sort_key)
    return best.value / best.visits


def solved(position: Position, seconds: float) -> Optional[bool]:
    """Whether the side to move wins (True), does not (False: draw or loss), or None when the
    solver runs out of time."""
    return Solver().wins(position, time.perf_counter() + seconds)


def pattern_value(model: Model, game: Game, filled: int) -> float:
    """The patterns' chance that the side to move wins after ``filled`` plies of ``game``."""
    grid = next(grid for ply, grid in positions(game) if ply == filled)
    first = float(model.predict(pattern_indices(grid[None]), np.array([filled % 2]))[0])
    return first if filled % 2 == 0 else 1.0 - first


def measure(games: List[Game], seconds: float, solver_seconds: float, model: Model,
            progress: bool = True) -> Dict[int, Dict[str, List]]:
    """{filled: {"winner": [...], "solver": [...], predictor: [...]}}: per position, the game's
    winner for the side to move (1, 0.5, 0), the solver's verdict, and each prediction."""
    rows: Dict[int, Dict[str, List]] = {f: {k: [] for k in ("winner", "solver", *PREDICTORS)}
                                        for f in FILLED}
    jobs = [(g, f) for g in games for f in FILLED if len(g.columns) > f]
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(jobs), unit="position", desc="measure")
    for game, filled in jobs:
        position = Position.new(game.M, game.N, game.no_x, game.no_y)
        for column in game.columns[:filled]:
            position = position.play(column)
        mover = 1 if filled % 2 == 0 else 2
        row = rows[filled]
        row["winner"].append(0.5 if game.winner == 0 else float(game.winner == mover))
        row["solver"].append(solved(position, solver_seconds))
        row["patterns"].append(pattern_value(model, game, filled))
        row["search"].append(root_value(position, seconds))
        v = game.values[filled]
        row["generator"].append(None if v < 0 else v / 100)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return rows


def score(predictions: List[Optional[float]], truth: List) -> str:
    """'right%  (n)': how often prediction > 0.5 matches a decided truth."""
    pairs = [(p, t) for p, t in zip(predictions, truth)
             if p is not None and t is not None and t != 0.5]
    if not pairs:
        return "-"
    right = sum((p > 0.5) == (float(t) > 0.5) for p, t in pairs)
    return f"{right / len(pairs):.1%} ({len(pairs)})"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m knowledge.measure", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+", help="folders of self-play shards")
    parser.add_argument("--weights", type=Path, default=Path("data/patterns.json"))
    parser.add_argument("--games", type=int, default=200, help="held-out games to use")
    parser.add_argument("--held-out", type=float, default=0.1,
                        help="the trainer's held-out share (default 0.1)")
    parser.add_argument("--seconds", type=float, default=0.1, help="the bot's search a position")
    parser.add_argument("--solver-seconds", type=float, default=1.0)
    args = parser.parse_args(argv)
    games = [g for folder in args.data for g in load_games(folder)]
    held_out = split(games, args.held_out)[1][:args.games]
    if not held_out:
        print("knowledge.measure: no held-out games", file=sys.stderr)
        return 2
    try:
        model = Model.from_json(json.loads(args.weights.read_text()))
    except (OSError, ValueError) as e:
        print(f"knowledge.measure: {args.weights}: {e}", file=sys.stderr)
        return 2
    rows = measure(held_out, args.seconds, args.solver_seconds, model)
    print(f"{len(held_out)} held-out games; the bot's search {args.seconds} s a position, "
          f"the solver {args.solver_seconds} s")
    print("| filled cells | truth | " + " | ".join(PREDICTORS) + " |")
    print("|---|---|" + "---|" * len(PREDICTORS))
    for filled, row in rows.items():
        for truth in ("winner", "solver"):
            cells = [score(row[p], row[truth]) for p in PREDICTORS]
            name = "game's winner" if truth == "winner" else "solver's verdict"
            print(f"| {filled} | {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
