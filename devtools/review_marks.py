"""A game review's marks by the plain rule and by the review's, on the same positions
(docs/web.md, "Game review"): how many moves each marks, and why each mark of the plain rule
the review leaves out or changes, by the rule that says so.

The plain rule (`plain_marks`: lichess's thresholds on every move, proofs read from the
positions alone): a fall of the mover's chances on -1..1 of 0.1, 0.2 or 0.3 is an inaccuracy,
a mistake or a blunder on any move; a move from a position proven won to one not proven lost
for the opponent "gave away a proven win"; a move from a position not proven lost to one
proven lost "walked into a proven loss". The review's is its own (`arena.engine.review.mark_moves`).

    python -m devtools.review_marks --playouts 2000 --seed 1 -j 2

reviews the games the bot lost in docs/results/partner-2.4s-seed2039.jsonl at 2000 play-outs
a position with seed 1 (so it repeats; a few minutes on two cores), the reviews kept in a
temporary folder (--folder to keep them), then prints the counts and the reasons.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from arena.engine.limit import Limit
from arena.engine.review import (
    FALLS,
    GAVE_AWAY,
    WALKED_INTO,
    Position,
    Review,
    review_all,
)
from records.game import GameRecord
from records.log import losses, read_games, write_log
from records.result import Outcome, Seat

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "docs" / "results" / "partner-2.4s-seed2039.jsonl"
NAMES = [name for _, name in FALLS][::-1] + [WALKED_INTO, GAVE_AWAY]


def plain_marks(moves: Sequence[List[int]], positions: Sequence[Position]) -> List[Tuple[int, str]]:
    """The plain rule's marks (index, mark)."""
    marks = []
    for i, _ in enumerate(moves):
        mover = Seat.of_ply(i)
        before, after = positions[i], positions[i + 1]
        fall = 2 * (before.win_chance.pov(mover) - after.win_chance.pov(mover))
        proof_after = after.proof.reversed if after.proof else None
        if before.proof is Outcome.WIN and proof_after is not Outcome.WIN:
            mark = GAVE_AWAY
        elif before.proof is not Outcome.LOSS and proof_after is Outcome.LOSS:
            mark = WALKED_INTO
        else:
            mark = next((name for size, name in FALLS if fall >= size - 1e-9), "")
        if mark:
            marks.append((i, mark))
    return marks


def why_gone(record: GameRecord, review: Review, index: int, mark: str) -> str:
    """The review's rule that leaves a plain mark out."""
    move, before = record.moves[index], review.positions[index]
    after = review.positions[index + 1]
    proven = before.proof_of(move) or (after.proof.reversed if after.proof else None)
    if review.settled is not None and index >= review.settled:
        return "after the decisive move: the loss analysis proves the result settled"
    if mark == WALKED_INTO:
        return "walked into a loss where no move held"
    if mark == GAVE_AWAY:
        return "the move played is the proven win (its own proof, or the engine's best)"
    if list(move) == before.best:
        return "a fall on the engine's own move"
    if before.proof is Outcome.LOSS or proven is Outcome.LOSS:
        return "a fall in (or into) a loss where no move held"
    if before.proof is not None and proven is before.proof:
        return "a fall where the move kept the proven result"
    if mark in review.hidden:
        return f"a fall too small for the budget (noise {review.noise:.3f})"
    return "?"


def lost_games_parser(doc: str) -> argparse.ArgumentParser:
    """The review tools' common arguments: a log, whose games lost by a player, the budget."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("records", nargs="?", type=Path, default=RECORDS)
    parser.add_argument("--lost-by", default="bot")
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--playouts", type=int)
    return parser


def lost_games(args: argparse.Namespace) -> List[GameRecord]:
    """The games of ``args.records`` lost on the board by ``args.lost_by``."""
    records = read_games(args.records)
    return [records[i] for i in losses(records, args.lost_by)]


def main() -> None:
    parser = lost_games_parser(__doc__)
    parser.add_argument("--seed", type=int)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--folder", type=Path, help="where the reviews are kept (default: a "
                                                    "temporary folder)")
    args = parser.parse_args()
    records = lost_games(args)
    budget = Limit(args.seconds, args.playouts)
    with tempfile.TemporaryDirectory(prefix="review-marks-") as tmp:
        folder = args.folder or Path(tmp)
        write_log(folder / "games.jsonl", records)
        reviews, _ = review_all(records, folder, budget, args.jobs, quiet=True, seed=args.seed)
    before: Counter[str] = Counter()
    after: Counter[str] = Counter()
    gone: Counter[str] = Counter()
    won_checked = won_named = won_kept = 0
    moves = 0
    for record, review in zip(records, reviews):
        moves += len(record.moves)
        old = dict(plain_marks(record.moves, review.positions))
        new = {m.index: m.mark for m in review.marks}
        before.update(old.values())
        after.update(new.values())
        for index, mark in old.items():
            if new.get(index) != mark:
                gone[f"{mark} -> {new[index]}" if index in new
                     else f"{mark}: {why_gone(record, review, index, mark)}"] += 1
        for index, mark in new.items():
            if old.get(index) is None:
                gone[f"(none) -> {mark}"] += 1
        for i, p in enumerate(review.positions[:-1]):  # proven won: is a winning move named?
            if p.proof is Outcome.WIN:
                won_checked += 1
                won_named += any(m.proof is Outcome.WIN for m in p.moves)
                # the move played kept the win: the opponent proven lost after it
                won_kept += review.positions[i + 1].proof is Outcome.LOSS
    decisive: Optional[List[str]] = [str(r.decisive) for r in reviews]
    print(f"{args.records.name}: {len(records)} games lost by {args.lost_by}, {moves} moves, "
          f"reviewed at {budget}" + (f", seed {args.seed}" if args.seed is not None else "")
          + f"; decisive moves (index) {', '.join(decisive or [])}")
    width = max(len(n) for n in NAMES)
    print(f"{'mark':<{width}}  before  after")
    for name in NAMES:
        print(f"{name:<{width}}  {before[name]:>6}  {after[name]:>5}")
    print(f"{'moves marked':<{width}}  {sum(before.values()):>6}  {sum(after.values()):>5}")
    print("each change, by the rule that makes it:")
    for reason, count in gone.most_common():
        print(f"  {count:>3}  {reason}")
    print(f"positions proven won before a move: {won_checked}; the engine proves a move "
          f"winning in {won_named} (the others: the forced-win search proved the position, "
          f"its best move the win); the move played kept the win in {won_kept}")


if __name__ == "__main__":
    main()
