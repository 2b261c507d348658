"""The review's check (arena/engine/review.py, `judge`, `confirmed` and `review_game`): each
mark of the first pass is looked at again at a larger budget, and once more at twice that, and
shown only where both looks mark it, by the milder of their marks;
the move a mark recommends is never proven worse than the one played; the decisive move is the
loss analysis's, the same as `arena analyse` gives at the same budget, and the review says at
which."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

from arena.engine import review as rv
from arena.engine.client import ANALYSIS_SECONDS, Engine, Info
from arena.engine.limit import Limit
from arena.engine.position import Setup
from arena.engine.review import GAVE_AWAY, WALKED_INTO, MoveValue, Position, judge
from records.game import GameRecord
from records.log import read_games, read_log, write_log

ROOT = Path(__file__).resolve().parents[3]
CHECK = Limit(3.0)  # the check's budget: every fall mark shown
CONFIRM = Limit(6.0)  # the confirming look's


def looked(best, *moves, proof=None) -> Position:
    """A search of a position: its best move, each (move, value, proof) for the side to move."""
    return Position(0.5, best, proof, [MoveValue(list(m), v, p) for m, v, p in moves])


# ---- one search's judgement -------------------------------------------------------------
def test_a_fall_the_deeper_search_confirms_is_marked_by_its_own_size():
    mark = judge(0, [8, 0], looked([8, 3], ([8, 0], 0.30, None), ([8, 3], 0.62, None)), CHECK)
    assert (mark.mark, mark.fall, mark.best) == ("blunder", 0.64, [8, 3])
    assert "0.64 below (8,3), the engine's move at 3 s a position" == mark.why
    # a mistake at the first pass that the check finds smaller is an inaccuracy
    mark = judge(0, [8, 0], looked([8, 3], ([8, 0], 0.50, None), ([8, 3], 0.57, None)), CHECK)
    assert (mark.mark, mark.fall) == ("inaccuracy", 0.14)


def test_a_fall_the_deeper_search_does_not_see_is_not_marked():
    assert judge(0, [8, 0], looked([8, 3], ([8, 0], 0.58, None), ([8, 3], 0.6, None)),
                 CHECK) is None
    # the deeper search plays the move itself
    assert judge(0, [8, 0], looked([8, 0], ([8, 0], 0.4, None), ([8, 3], 0.6, None)),
                 CHECK) is None
    # the second player's move is read from its side: index 1
    assert judge(1, [8, 0], looked([8, 3], ([8, 0], 0.3, None), ([8, 3], 0.6, None)),
                 CHECK).mover == "second"


def test_no_fall_mark_where_the_deeper_search_proves_the_position():
    moves = (([8, 0], 0.2, None), ([8, 3], 0.6, None))
    # proven won too: a search that proves its root stops there, and the values of the moves
    # it left (the move played's 0.2 here) judge nothing; only a proof of the move does
    for proof in ("loss", "draw", "win"):
        assert judge(0, [8, 0], looked([8, 3], *moves, proof=proof), CHECK) is None, proof


def test_a_fall_must_clear_its_step_by_the_margin():
    position = looked([8, 3], ([8, 0], 0.50, None), ([8, 3], 0.57, None))  # a fall of 0.14
    assert judge(0, [8, 0], position, CHECK).mark == "inaccuracy"
    assert judge(0, [8, 0], position, CHECK, margin=0.05) is None
    position = looked([8, 3], ([8, 0], 0.45, None), ([8, 3], 0.6, None))  # 0.30
    assert judge(0, [8, 0], position, CHECK, margin=0.05).mark == "mistake"


def test_the_recommended_move_is_never_proven_worse_than_the_move_played():
    # the search's best is proven lost, the move played is not: the best valued move that
    # is not proven lost is recommended
    mark = judge(0, [8, 0], looked([8, 3], ([8, 0], 0.30, None), ([8, 3], 0.65, "loss"),
                                   ([8, 5], 0.50, None)), CHECK)
    assert (mark.mark, mark.best) == ("blunder", [8, 5])
    # every other move is proven lost: nothing better is known, nothing is marked
    assert judge(0, [8, 0], looked([8, 3], ([8, 0], 0.30, None), ([8, 3], 0.65, "loss")),
                 CHECK) is None
    # the move played is proven to draw: an unproven move is not proven worse, a loss is
    mark = judge(0, [8, 0], looked([8, 3], ([8, 0], None, "draw"), ([8, 3], 0.4, "loss"),
                                   ([8, 5], 0.9, None)), CHECK)
    assert mark.best == [8, 5]


def test_the_proof_marks_need_the_deeper_searchs_proofs():
    # the move played proven lost, another not: walked into a proven loss, that one named
    mark = judge(0, [8, 0], looked([8, 3], ([8, 0], None, "loss"), ([8, 3], 0.6, None),
                                   ([8, 5], 0.4, None)), CHECK)
    assert (mark.mark, mark.best) == (WALKED_INTO, [8, 3])
    assert mark.why == "not proven lost at 3 s a position: (8,3), (8,5)"
    # the deeper search proves every other move lost too: no mark
    assert judge(0, [8, 0], looked([8, 3], ([8, 0], None, "loss"), ([8, 3], None, "loss")),
                 CHECK) is None
    # a position proven won, the move played proven to draw: gave the win away
    mark = judge(0, [8, 0], looked([8, 3], ([8, 0], None, "draw"), ([8, 3], None, "win"),
                                   proof="win"), CHECK)
    assert (mark.mark, mark.best) == (GAVE_AWAY, [8, 3])
    # proven won, the move played unproven, however the search valued it: no mark
    for value in (0.97, 0.0):
        assert judge(0, [8, 0], looked([8, 3], ([8, 0], value, None), ([8, 3], None, "win"),
                                       proof="win"), CHECK) is None


def test_every_proof_found_counts_whichever_search_found_it():
    deeper = looked([8, 3], ([8, 0], 0.3, None), ([8, 3], 0.6, None))
    first = looked([8, 3], ([8, 0], 0.4, None), ([8, 3], 0.6, "win"), proof="win")
    merged = rv.with_proofs(deeper, first)
    assert merged.proof == "win" and merged.proof_of([8, 3]) == "win"
    assert [m.value for m in merged.moves] == [0.3, 0.6]  # the values stay the deeper one's
    # the position after the move played proven won for the opponent: the move is lost
    after = Position(0.0, None, "win")
    merged = rv.with_proofs(deeper, played=[8, 0], after=after)
    assert merged.proof_of([8, 0]) == "loss"
    assert judge(0, [8, 0], merged, CHECK).mark == WALKED_INTO


# ---- two looks -------------------------------------------------------------------------
FIRST_MARK = rv.Mark(0, [8, 0], "first", "blunder", 0.6)
PLAIN = [Position(0.5), Position(0.5)]  # the first pass's positions: no proof


def test_a_mark_is_shown_only_where_every_look_marks_it_by_the_milder_mark():
    blunder = looked([8, 3], ([8, 0], 0.30, None), ([8, 3], 0.62, None))  # 0.64
    inaccuracy = looked([8, 5], ([8, 0], 0.40, None), ([8, 5], 0.52, None))  # 0.24
    quiet = looked([8, 3], ([8, 0], 0.58, None), ([8, 3], 0.60, None))  # 0.04
    budgets = [CHECK, CONFIRM]
    mark = rv.confirmed(FIRST_MARK, [blunder, inaccuracy], budgets, PLAIN)
    assert (mark.mark, mark.fall, mark.best) == ("inaccuracy", 0.24, [8, 5])
    mark = rv.confirmed(FIRST_MARK, [inaccuracy, blunder], budgets, PLAIN)
    assert (mark.mark, mark.best) == ("inaccuracy", [8, 5])
    # two alike: the smaller fall's, with its own move, whichever look found it
    again = looked([8, 4], ([8, 0], 0.31, None), ([8, 4], 0.60, None))  # 0.58
    mark = rv.confirmed(FIRST_MARK, [blunder, again], budgets, PLAIN)
    assert (mark.mark, mark.fall, mark.best) == ("blunder", 0.58, [8, 4])
    mark = rv.confirmed(FIRST_MARK, [again, blunder], budgets, PLAIN)
    assert (mark.mark, mark.fall, mark.best) == ("blunder", 0.58, [8, 4])
    assert rv.confirmed(FIRST_MARK, [blunder, quiet], budgets, PLAIN) is None
    assert rv.confirmed(FIRST_MARK, [quiet, blunder], budgets, PLAIN) is None
    # a look not made (the review's seconds spent): not shown
    assert rv.confirmed(FIRST_MARK, [blunder], budgets, PLAIN) is None
    # each look's fall clears its step by its own budget's noise: 0.099 at 3 s, 0.053 at 6 s
    small = looked([8, 3], ([8, 0], 0.50, None), ([8, 3], 0.58, None))  # 0.16
    assert rv.confirmed(FIRST_MARK, [small], [CONFIRM], PLAIN).mark == "inaccuracy"
    assert rv.confirmed(FIRST_MARK, [small], [CHECK], PLAIN) is None
    assert rv.confirmed(FIRST_MARK, [small], [CHECK], PLAIN, margins=False).mark == "inaccuracy"


def test_a_proof_either_look_finds_judges_both():
    # the check: the move played walked into a proven loss, another move not proven lost;
    # the deeper look proves the position lost already: no move held, nothing shown
    walked = looked([8, 3], ([8, 0], 0.1, "loss"), ([8, 3], 0.4, None))
    lost = looked([8, 3], ([8, 0], 0.1, None), ([8, 3], 0.2, None), proof="loss")
    mark = rv.confirmed(FIRST_MARK, [walked], [CHECK], PLAIN)
    assert mark.mark == WALKED_INTO
    assert rv.confirmed(FIRST_MARK, [walked, lost], [CHECK, CONFIRM], PLAIN) is None
    # the first pass's proof of the position after the move counts as the move's
    after_lost = [Position(0.5), Position(0.0, None, "win")]
    unproven = looked([8, 3], ([8, 0], 0.1, None), ([8, 3], 0.4, None))
    assert rv.confirmed(FIRST_MARK, [unproven, unproven], [CHECK, CONFIRM],
                        after_lost).mark == WALKED_INTO


# ---- the review's flow ------------------------------------------------------------------
class FakeEngine:
    """An engine that answers each position by its ply and the budget asked: the first pass's
    lines, the check's or the confirming look's (the check's where none is given)."""

    alive = True

    def __init__(self, first: Dict[int, Dict[str, Any]], check: Dict[int, Dict[str, Any]],
                 confirm: Optional[Dict[int, Dict[str, Any]]] = None) -> None:
        self.lines = {CHECK: check, CONFIRM: check if confirm is None else confirm}
        self.first = first
        self.asked: List[tuple] = []

    def analyse(self, setup: Setup, limit: Limit) -> List[Info]:
        ply = len(setup.moves or ())
        self.asked.append((ply, limit))
        lines = self.lines.get(limit, self.first)
        return [Info.parse({"done": True, **lines[ply]}, setup.seat)]


def line(best, *moves, visits=1000) -> Dict[str, Any]:
    return {"best": best, "proof": None, "moves": [
        {"move": m, "value": v, "proof": None, "visits": visits} for m, v in moves]}


TIE = GameRecord(batch="hand", seed=0, round=0, leg=0, a="alice", b="bob", M=9, N=9, no_x=0,
                 no_y=4, time_limit=3.0, code=0, reason="a tie", moves=[[8, 0], [8, 8]],
                 times=[0.5, 0.5])
# the first player's (8, 0): 0.6 before it (its best (8, 3)), the second's 0.7 after it (a
# fall of 0.6 for the first: a blunder at the first pass); the second's (8, 8) is its best
FIRST = {0: line([8, 3], ([8, 0], 0.45), ([8, 3], 0.6)),
         1: line([8, 8], ([8, 8], 0.7), ([7, 0], 0.5))}
BLUNDER = {0: line([8, 5], ([8, 0], 0.3), ([8, 3], 0.55), ([8, 5], 0.62))}  # 0.64
INACCURACY = {0: line([8, 3], ([8, 0], 0.45), ([8, 3], 0.6))}  # 0.30: 0.247 by the margin


@pytest.mark.parametrize("check, confirm, kept", [
    ({0: line([8, 3], ([8, 0], 0.58), ([8, 3], 0.6))}, None, []),  # the check sees no fall
    # a fall of 0.18: an inaccuracy's, but not by the check budget's noise (0.099 at 3 s)
    ({0: line([8, 3], ([8, 0], 0.51), ([8, 3], 0.6))}, None, []),
    (BLUNDER, None, [(0, "blunder", 0.64, [8, 5])]),  # confirmed, its own best recommended
    (BLUNDER, INACCURACY, [(0, "mistake", 0.3, [8, 3])]),  # the milder: the second look's
    (BLUNDER, {0: line([8, 3], ([8, 0], 0.57), ([8, 3], 0.6))}, []),  # the second sees none
])
def test_each_first_pass_mark_is_shown_only_as_both_looks_judge_it(check, confirm, kept):
    engine = FakeEngine(FIRST, check, confirm)
    progress: List[tuple] = []
    said: List[str] = []
    review = rv.review_game(TIE, engine, Limit(0.5), lambda *a: progress.append(a),
                            said.append)
    assert [(m.index, m.mark) for m in review.candidates] == [(0, "blunder")]
    assert [(m.index, m.mark, m.fall, m.best) for m in review.marks] == kept
    assert (review.check, review.confirm, review.unchecked) == (CHECK, CONFIRM, 0)
    # the first pass's two positions, then the check of position 0, and the second look only
    # where the check marks the move; each counted
    looks = len(review.checks[0])
    assert looks == (2 if check is BLUNDER else 1)
    assert engine.asked == [(0, Limit(0.5)), (1, Limit(0.5)), (0, CHECK), (0, CONFIRM)][:2 + looks]
    assert progress == [(1, 2), (2, 2), (3, 3), (4, 4)][:2 + looks]
    assert review.checks[0][0].moves[0].visits == 1000
    assert said == [f"checking mark 1 of 1 at {b}" for b in (CHECK, CONFIRM)][:looks]
    # the file keeps both passes and reads back equal
    assert rv.Review.from_dict(json.loads(json.dumps(review.to_dict()))) == review


def test_a_move_the_check_hardly_searched_is_valued_by_a_search_after_it():
    # the check's search of position 0 gives the move played 5 play-outs and a value of 0:
    # a few play-outs' mean; the search of the position after it (the second player to move,
    # its chance 0.45) values it 0.55 for the first, a fall of 0.1: nothing clears the margin
    check = {0: {**line([8, 3], ([8, 3], 0.6)), "moves": [
                 {"move": [8, 0], "value": 0.0, "proof": None, "visits": 5},
                 {"move": [8, 3], "value": 0.6, "proof": None, "visits": 9000}]},
             1: line([8, 8], ([8, 8], 0.45), ([7, 0], 0.3))}
    engine = FakeEngine(FIRST, check)
    review = rv.review_game(TIE, engine, Limit(0.5))
    assert engine.asked[2:] == [(0, CHECK), (1, CHECK)]
    assert review.checks[0][0].moves[0] == MoveValue([8, 0], 0.55, None, 5)
    assert [m.index for m in review.candidates] == [0] and review.marks == []


def test_the_marks_left_once_the_reviews_seconds_are_spent_are_not_shown(monkeypatch):
    # a minute's review: a look starts only where twice its budget is left (a look is at
    # most two searches); here the check's fits and the second look's does not
    monkeypatch.setattr(rv, "REVIEW_SECONDS", 2 * 6.0 - 0.5)
    engine = FakeEngine(FIRST, BLUNDER)
    review = rv.review_game(TIE, engine, Limit(0.5))
    assert [m.index for m in review.candidates] == [0] and len(review.checks[0]) == 1
    assert review.unchecked == 1 and review.marks == []
    assert engine.asked == [(0, Limit(0.5)), (1, Limit(0.5)), (0, CHECK)]
    assert rv.Review.from_dict(json.loads(json.dumps(review.to_dict()))) == review
    # neither fits: no look
    monkeypatch.setattr(rv, "REVIEW_SECONDS", 2 * 3.0 - 0.5)
    review = rv.review_game(TIE, FakeEngine(FIRST, BLUNDER), Limit(0.5))
    assert review.checks == [[]] and review.unchecked == 1 and review.marks == []
    # a mark the check drops needs no second look: not counted
    quiet = {0: line([8, 3], ([8, 0], 0.58), ([8, 3], 0.6))}
    monkeypatch.setattr(rv, "REVIEW_SECONDS", 2 * 6.0 - 0.5)
    review = rv.review_game(TIE, FakeEngine(FIRST, quiet), Limit(0.5))
    assert len(review.checks[0]) == 1 and review.unchecked == 0
    # a review by play-outs looks at every mark, so a seeded one repeats
    engine = FakeEngine(FIRST, BLUNDER)
    engine.lines = {Limit(None, 20000): BLUNDER, Limit(None, 40000): BLUNDER}
    by_playouts = rv.review_game(TIE, engine, Limit(None, 2000))
    assert by_playouts.unchecked == 0 and len(by_playouts.checks[0]) == 2
    assert [m.mark for m in by_playouts.marks] == ["blunder"]


def test_the_check_is_at_least_the_courses_limit_the_players_time_and_twice_the_review():
    assert rv.check_budget(TIE, Limit(0.5)) == Limit(3.0)
    slow = GameRecord(**{**TIE.__dict__, "times": [0.5, 3.4]})
    assert rv.check_budget(slow, Limit(0.5)) == Limit(3.4)
    assert rv.check_budget(TIE, Limit(2.0)) == Limit(4.0)
    assert rv.check_budget(TIE, Limit(None, 200)) == Limit(None, 2000)
    # the confirming look: twice the check
    assert rv.confirm_budget(Limit(3.4)) == Limit(6.8)
    assert rv.confirm_budget(Limit(None, 2000)) == Limit(None, 4000)


# ---- the decisive move ------------------------------------------------------------------
def shortest_loss() -> GameRecord:
    records = read_games(ROOT / "docs" / "results" / "partner-2.4s-seed2039.jsonl")
    lost = [r for r in records if r.loser is not None and r.name(r.loser) == "bot"]
    return min(lost, key=lambda r: len(r.moves))


def test_the_decisive_move_is_arena_analyses_at_the_same_budget(tmp_path):
    record = shortest_loss()
    given = tmp_path / "games.jsonl"
    write_log(given, [record])
    proc = subprocess.run([sys.executable, "-m", "arena", "analyse", str(given), "-o",
                           str(tmp_path / "analysed.jsonl"), "--seconds",
                           f"{ANALYSIS_SECONDS:g}", "-q"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    analysed = read_log(tmp_path / "analysed.jsonl")[0].analysis
    engine = Engine()
    try:
        review = rv.review_game(record, engine, Limit(None, 50))
    finally:
        engine.close()
    assert review.decisive == analysed.decisive.index
    assert review.settled == analysed.lost_after
    assert review.analysis_seconds == ANALYSIS_SECONDS


def test_a_records_own_analysis_is_reused_with_its_budget():
    records = read_games(ROOT / "docs" / "results" / "bot-losses-analysed.jsonl")
    record = min(records, key=lambda r: len(r.moves))
    engine = Engine()
    try:
        review = rv.review_game(record, engine, Limit(None, 50))
    finally:
        engine.close()
    analysis: Optional[Any] = record.analysis
    assert review.analysis_seconds == analysis.seconds == 4.0
    assert review.decisive == analysis.decisive.index
