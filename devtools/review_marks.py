"""A game review's marks held against a much deeper look (docs/web.md, "Game review"): the
first pass's marks (before the check) and the marks the check kept (after), each judged again
by a look as the check's (`arena.engine.review.look`: a search of the position before the
marked move, and of the one after it where the move played has few play-outs there) at --deep
seconds (10 by default), a fresh engine for every game, with every proof either look found.

A mark is *confirmed* where the deep look marks the move at least as hard, *weaker* where it
marks it by a smaller step (a mistake it calls an inaccuracy), *refuted* where it marks it not
at all; a recommended move is *proven worse* where a proof says it is worse than the move
played. The deep look judges by the review's own rule (`arena.engine.review.judge`), with
every fall mark shown.

    python -m devtools.review_marks -j 2

reviews the games the bot lost in the files of docs/results it played as it ships against the
native UCT (partner-*.jsonl: at 2.4 s a move, and at 1 s as `bot1s`, whose name `--lost-by bot`
takes as it takes any name it starts) at the server's budget, 0.5 s a position,
the reviews kept in a temporary folder (--folder to keep them; a review kept there at the
budget is read, not made again), then prints the marks before and after the check, what the
deep look says of each, the recommendations proven worse, and the seconds a game each part
took.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from arena.engine.client import ARGV, Engine
from arena.engine.limit import Limit
from arena.engine.position import game_positions
from arena.engine.review import (
    BUDGET,
    SEVERITY,
    Mark,
    Position,
    confirmed,
    judge,
    known,
    look,
    proven_worse,
    review_all,
)
from records.game import GameRecord
from records.log import losses, read_games, write_log

ROOT = Path(__file__).resolve().parents[1]
RECORDS = sorted((ROOT / "docs" / "results").glob("partner-*.jsonl"))
DEEP_SECONDS = 10.0
VERDICTS = ("confirmed", "weaker", "refuted")
CHECK_ONLY = "the check alone"
NO_MARGIN = "after, no margin"
ROWS = ("before", CHECK_ONLY, "after", NO_MARGIN)


def lost_games_parser(doc: str, records: Sequence[Path] = RECORDS) -> argparse.ArgumentParser:
    """The review tools' common arguments: logs, whose games lost by a player, the budget."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("records", nargs="*", type=Path, default=list(records))
    parser.add_argument("--lost-by", default="bot")
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--playouts", type=int)
    return parser


def lost_games(args: argparse.Namespace) -> List[GameRecord]:
    """The games of ``args.records`` lost on the board by ``args.lost_by``."""
    out = []
    for path in args.records:
        records = read_games(path)
        out += [records[i] for i in losses(records, args.lost_by)]
    return out


def verdict(mark: Mark, deep: Optional[Mark]) -> str:
    """What the deep look's own mark of the move says of ``mark``."""
    if deep is None:
        return "refuted"
    return "confirmed" if SEVERITY[deep.mark] >= SEVERITY[mark.mark] else "weaker"


def recommended_worse(best: Optional[Sequence[int]], move: Sequence[int],
                      looked: Position) -> bool:
    """Whether ``best``, recommended over ``move``, is proven worse than it in ``looked``."""
    found = {tuple(m.move): m for m in looked.moves}
    if best is None or tuple(best) not in found or tuple(move) not in found:
        return False
    return proven_worse(found[tuple(best)], found[tuple(move)])


def deep_looks(work: List[Tuple[GameRecord, List[Mark]]], limit: Limit,
               jobs: int) -> List[Dict[int, Position]]:
    """Each game's marked moves looked at by `look` at ``limit``, a fresh engine a game."""
    def one(item: Tuple[GameRecord, List[Mark]]) -> Dict[int, Position]:
        record, marks = item
        setups = game_positions(record.board, record.moves)
        engine = Engine(list(ARGV))
        try:
            return {m.index: look(engine, setups, m.index, m.move, limit) for m in marks}
        finally:
            engine.close()

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        return list(pool.map(one, work))


def main() -> None:
    parser = lost_games_parser(__doc__)
    parser.add_argument("--deep", type=float, default=DEEP_SECONDS,
                        help=f"the deep look's seconds a position (default {DEEP_SECONDS:g})")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--folder", type=Path, help="where the reviews are kept (default: a "
                                                    "temporary folder)")
    args = parser.parse_args()
    records = lost_games(args)
    budget = (BUDGET if args.seconds is None and args.playouts is None
              else Limit(args.seconds, args.playouts))
    with tempfile.TemporaryDirectory(prefix="review-marks-") as tmp:
        folder = args.folder or Path(tmp)
        write_log(folder / "games.jsonl", records)
        reviews, _ = review_all(records, folder, budget, args.jobs, quiet=True)
    limit = Limit(args.deep)
    work = [(r, rv.candidates) for r, rv in zip(records, reviews)]
    deep = deep_looks(work, limit, args.jobs)
    counts: Dict[str, Counter[str]] = {name: Counter() for name in ROWS}
    worse: Counter[str] = Counter()
    lines = []
    for record, review, deep_of in zip(records, reviews, deep):
        budgets = [review.check, review.confirm]
        after = {m.index: m for m in review.marks}
        for mark, found in zip(review.candidates, review.checks):
            looked = known(mark, deep_of[mark.index], found, review.positions)
            own = judge(mark.index, mark.move, looked, limit)
            shown: Dict[str, Optional[Mark]] = {
                "before": mark,
                CHECK_ONLY: confirmed(mark, found[:1], budgets[:1], review.positions),
                "after": after.get(mark.index),
                NO_MARGIN: confirmed(mark, found, budgets, review.positions, margins=False)}
            # the first pass recommends its own best move
            shown_best = {"before": review.positions[mark.index].best}
            for name, kept in shown.items():
                if kept is not None and (name == "before" or found):
                    counts[name][verdict(kept, own)] += 1
                    worse[name] += recommended_worse(shown_best.get(name, kept.best),
                                                     mark.move, looked)
            lines.append(f"  {record.key.seed} r{record.key.round} move {mark.index + 1:>2} "
                         f"{mark.mark} {mark.fall:.2f} -> "
                         + ("(not checked)" if not found else
                            "; ".join(f"{lim.seconds:g} s: " + (
                                f"{m.mark} {m.fall:.2f}" if (m := confirmed(
                                    mark, [f], [lim], review.positions)) else "no mark")
                                for f, lim in zip(found, budgets)))
                         + (f" -> shown: {shown['after'].mark}" if shown["after"] else "")
                         + f"; at {args.deep:g} s: "
                         + (f"{own.mark} {own.fall:.2f}" if own else "no mark"))
    n = len(records)
    moves = sum(len(r.moves) for r in records)
    print(f"{n} games lost by {args.lost_by}, {moves} moves, reviewed at {budget}, marks "
          f"checked at {reviews[0].check if reviews else '-'} and confirmed at "
          f"{reviews[0].confirm if reviews else '-'}, the deep look at {limit}")
    print(f"{'marks':<17}{'count':>7}" + "".join(f"{v:>11}" for v in VERDICTS)
          + f"{'recommended proven worse':>26}")
    for name in ROWS:
        c = counts[name]
        print(f"{name:<17}{sum(c.values()):>7}" + "".join(f"{c[v]:>11}" for v in VERDICTS)
              + f"{worse[name]:>26}")
    by_kind: Counter[str] = Counter(m.mark for rv in reviews for m in rv.marks)
    print("after, by mark: " + ", ".join(f"{k} {v}" for k, v in by_kind.most_common()))
    print(f"seconds a game: review {sum(rv.elapsed for rv in reviews) / max(n, 1):.1f} "
          f"(of which the check {sum(rv.check_elapsed for rv in reviews) / max(n, 1):.1f}; "
          f"longest review {max((rv.elapsed for rv in reviews), default=0):.1f})")
    print(f"marks the first pass made: {sum(len(rv.candidates) for rv in reviews)}; not "
          f"looked at (the review's seconds spent): {sum(rv.unchecked for rv in reviews)}")
    print("each mark of the first pass:")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
