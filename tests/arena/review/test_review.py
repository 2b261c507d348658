"""The game review (arena/engine/review.py): the marking rules on hand-made evaluations (each
mark one rule's: no fall mark on the engine's own move, "walked into a proven loss" only where a
move held, "gave away a proven win" only where one was proven, nothing once the loss analysis
proves the game settled, falls hidden at budgets too noisy for them), a short real game
reviewed by the engine and kept with the loss analysis's decisive move, and `python -m arena
review` on a log."""

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena.__main__ import main
from arena.engine import review as rv
from arena.engine.client import Info
from arena.engine.limit import Limit
from arena.engine.review import (
    GAVE_AWAY,
    WALKED_INTO,
    MoveValue,
    Position,
    mark_moves,
    position_of,
)
from devtools.terminal import run_on_a_terminal
from records.game import GameRecord
from records.log import write_log
from records.result import Seat

ROOT = Path(__file__).resolve().parents[3]
# An opening lost at once (tests/analysis/games.py): X stacks column 0, O answers in column 8
# until its third move, (6, 8), lets X make four at (5, 0).
OPENING = [[8, 0], [8, 8], [7, 0], [7, 8], [6, 0], [6, 8], [5, 0]]
BUDGET = Limit(None, 200)


def game(moves=OPENING, code=1, round_=0, **kw) -> GameRecord:
    return GameRecord(batch="hand", seed=0, round=round_, leg=0, a="alice", b="bob", M=9, N=9,
                      no_x=0, no_y=4, time_limit=3.0, code=code, reason="four in a row",
                      moves=moves, times=[0.01] * len(moves), **kw)


def marks_of(chances, proofs=None, moves=None, best=None, falls=rv.FALLS, settled=None):
    """The marks (index, mark) of a game of len(chances) - 1 moves, each (0, 0), the first
    player's win chance before each move and after the last, with the proofs, the moves'
    proofs (a list of (move, proof) a position) and the engine's move of each position."""
    n = len(chances)
    proofs, moves, best = proofs or [None] * n, moves or [[]] * n, best or [None] * n
    positions = [Position(c, b, p, [MoveValue(list(m), None, q) for m, q in ms])
                 for c, p, ms, b in zip(chances, proofs, moves, best)]
    return [(m.index, m.mark) for m in mark_moves([[0, 0]] * (n - 1), positions, falls,
                                                  settled)]


# ---- the rule ---------------------------------------------------------------------------
def test_a_small_fall_is_not_marked():
    # the first player's chance 0.5 -> 0.46 (a fall of 0.08 on -1..1), then the second's
    # 0.54 -> 0.5
    assert marks_of([0.5, 0.46, 0.5]) == []


@pytest.mark.parametrize("after, mark", [(0.54, "inaccuracy"), (0.49, "mistake"),
                                         (0.44, "blunder"), (0.1, "blunder")])
def test_the_first_players_fall_is_marked_by_its_size(after, mark):
    assert marks_of([0.6, after]) == [(0, mark)]


def test_the_second_players_fall_is_read_from_its_side():
    # move 1 is the second player's: its chance falls from 0.5 to 0.4, 0.2 on -1..1
    assert marks_of([0.5, 0.5, 0.6]) == [(1, "mistake")]
    # the first player's chance falling is the second player's gain: no mark
    assert marks_of([0.5, 0.5, 0.2]) == []


def test_the_engines_own_move_carries_no_fall_mark():
    # the same fall of 0.4: a blunder when another move was the engine's, nothing when the
    # move played is the one the engine plays there (the fall is two searches disagreeing)
    assert marks_of([0.6, 0.4], best=[[8, 3], None]) == [(0, "blunder")]
    assert marks_of([0.6, 0.4], best=[[0, 0], None]) == []


def test_falls_the_budget_cannot_tell_from_noise_are_not_marked():
    shown = rv.falls(Limit(0.5))  # 0.5 s: a move's fall moves by 0.12 between two reviews
    assert [name for _, name in shown] == ["blunder", "mistake"]
    assert marks_of([0.6, 0.54], falls=shown) == []  # an inaccuracy's fall, hidden
    assert marks_of([0.6, 0.49], falls=shown) == [(0, "mistake")]
    assert rv.falls(Limit(None, 100)) == ()  # below every budget measured: no fall shown
    assert rv.falls(Limit(5.0, 100)) == ()  # the noisier of the two counts


def test_a_proven_win_given_away_is_marked_however_small_the_fall():
    # before: the first player to move, proven won, (8, 3) proven to win; after: the second
    # to move, not proven lost
    won = [[([8, 3], "win"), ([0, 0], None)], []]
    assert marks_of([1.0, 0.97], ["win", None], won) == [(0, GAVE_AWAY)]
    # still proven won after the move (the second player to move is proven lost): no mark
    assert marks_of([1.0, 1.0], ["win", "loss"], won) == []
    # the move played is the one proven to win, whatever the search after it saw: no mark
    assert marks_of([1.0, 0.8], ["win", None], [[([0, 0], "win")], []]) == []
    # the forced-win search proved the position, no move: the engine's best is the win
    unnamed = [[([8, 3], None), ([0, 0], None)], []]
    assert marks_of([1.0, 0.8], ["win", None], unnamed, best=[[0, 0], None]) == []
    assert marks_of([1.0, 0.8], ["win", None], unnamed, best=[[8, 3], None]) == [
        (0, GAVE_AWAY)]


def test_walking_into_a_proven_loss_needs_a_move_that_held():
    # the second player moves (0, 0), proven lost after it (the first, to move, proven to
    # win); (5, 0) was not proven lost: it held
    held = [[], [([0, 0], "loss"), ([5, 0], None)], []]
    assert marks_of([0.5, 0.48, 1.0], [None, None, "win"], held) == [(1, WALKED_INTO)]
    # every other move proven lost too: nothing held, no mark (not even the fall's)
    lost = [[], [([0, 0], "loss"), ([5, 0], "loss")], []]
    assert marks_of([0.5, 0.48, 1.0], [None, None, "win"], lost) == []
    # the engine's own proof of the move played says lost, the search after it did not
    assert marks_of([0.5, 0.48, 0.7], [None, None, None], held) == [(1, WALKED_INTO)]
    # already proven lost before the move (the first player to move): no mark
    assert marks_of([0.0, 0.0], ["loss", "win"], [[([0, 0], "loss"), ([5, 0], "loss")],
                                                  []]) == []


def test_a_move_in_a_proven_loss_or_keeping_a_proven_result_is_not_marked_by_its_fall():
    assert marks_of([0.3, 0.0], ["loss", None]) == []  # every move loses
    assert marks_of([0.5, 0.3], ["draw", None], [[([0, 0], "draw")], []]) == []


def test_nothing_is_marked_once_the_loss_analysis_proves_the_result_settled():
    chances = [0.6, 0.4, 0.7, 0.2]  # three blunders
    assert [i for i, _ in marks_of(chances)] == [0, 1, 2]
    assert [i for i, _ in marks_of(chances, settled=2)] == [0, 1]


def test_the_engines_line_is_turned_to_the_first_players_view():
    line = {"done": True, "best": [8, 1], "proof": None,
            "moves": [{"move": [8, 0], "value": 0.7, "proof": None},
                      {"move": [8, 1], "value": 0.6, "proof": {"result": "loss", "plies": 2}}]}
    moves = [MoveValue([8, 0], 0.7, None), MoveValue([8, 1], 0.6, "loss")]
    # the best move's value, and each move's value and proof as the engine gave them
    assert position_of(Info.parse(line, Seat.FIRST)) == Position(0.6, [8, 1], None, moves)
    assert position_of(Info.parse(line, Seat.SECOND)) == Position(0.4, [8, 1], None, moves)
    proven = {**line, "proof": {"result": "loss", "plies": 2}}
    # the proof wins
    assert position_of(Info.parse(proven, Seat.FIRST)) == Position(0.0, [8, 1], "loss", moves)
    assert position_of(Info.parse(proven, Seat.SECOND)) == Position(1.0, [8, 1], "loss", moves)


# ---- a real game ------------------------------------------------------------------------
def test_a_short_game_is_reviewed_kept_and_read_back(tmp_path, monkeypatch):
    record = game()
    reviews, made = rv.review_all([record], tmp_path, BUDGET, quiet=True)
    assert made == 1
    review = reviews[0]
    assert len(review.positions) == len(OPENING) + 1
    assert review.positions[-1] == Position(1.0, None, "loss")  # X made four; O to move
    # the loss analysis proves the game lost for O from move 6 on: that position is its
    # proof (X to move, won), not searched again
    assert review.settled == 6
    assert review.positions[-2] == Position(1.0, None, "win")
    # O's (6, 8) let X's four in: proven lost after it, while (5, 0), the block, was not
    # proven lost before it (every other move lost at once); the record has no loss
    # analysis, so the review ran one: it names the same move
    assert review.positions[5].proof_of([6, 8]) == "loss"
    assert review.positions[5].proof_of([5, 0]) is None
    assert [(m.index, m.mark) for m in review.marks] == [(5, WALKED_INTO)]
    # the check, at ten times the play-outs, and the second look, at twice that, prove the
    # same: (5, 0) the move that held
    assert [(m.index, m.mark) for m in review.candidates] == [(5, WALKED_INTO)]
    assert (review.check, review.confirm) == (Limit(None, 2000), Limit(None, 4000))
    assert len(review.checks[0]) == 2 and review.marks[0].best == [5, 0]
    assert review.decisive == 5
    path = rv.review_path(tmp_path, record.key)
    assert path == tmp_path / "reviews" / "hand_alice_bob_0_0_0.json"
    kept = path.read_bytes()
    assert json.loads(kept)["budget"] == {"seconds": None, "playouts": 200}

    # a second look at the same budget starts no engine and changes nothing
    def no_engine(*args, **kw):
        raise AssertionError("an engine was started for a game already reviewed")

    monkeypatch.setattr(rv.EnginePool, "acquire", no_engine)
    again, made = rv.review_all([record], tmp_path, BUDGET, quiet=True)
    assert made == 0 and again == reviews and path.read_bytes() == kept
    # another budget is another review
    assert rv.load_review(tmp_path, record.key, Limit(None, 300)) is None
    assert rv.load_review(tmp_path, record.key, BUDGET) == review


# ---- the command ------------------------------------------------------------------------
def arena_review(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena", "review", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def arena_review_on_a_terminal(*args: str) -> subprocess.CompletedProcess:
    """The command as a user at a shell runs it: its progress bar is drawn (stderr)."""
    argv = [sys.executable, "-m", "arena", "review", *args]
    status, out, shown = run_on_a_terminal(argv, ROOT)
    return subprocess.CompletedProcess(argv, status, out, shown)


def test_the_command_reviews_a_log_then_skips_what_it_reviewed(tmp_path):
    tie = replace(game(OPENING[:4], code=0, round_=1), reason="a tie")
    write_log(tmp_path / "games.jsonl", [game(), tie])
    proc = arena_review_on_a_terminal(str(tmp_path), "--playouts", "100", "-j", "2",
                                      "--lost-by", "b")
    assert proc.returncode == 0, proc.stderr
    # bob's lost game only: its 6 positions before the loss analysis proves it lost, then
    # the two looks at its one mark of the first pass
    assert "review: 100%" in proc.stderr and "8/8" in proc.stderr
    assert proc.stdout.splitlines()[0].startswith("1 games reviewed at 100 play-outs a "
                                                  "position (1 now, 0 kept from before)")
    assert [p.name for p in (tmp_path / "reviews").iterdir()] == ["hand_alice_bob_0_0_0.json"]
    proc = arena_review_on_a_terminal(str(tmp_path / "games.jsonl"), "--playouts", "100",
                                      "-j", "2")
    assert proc.returncode == 0, proc.stderr
    assert "(1 now, 1 kept from before)" in proc.stdout
    assert "4/4" in proc.stderr  # only the tie's four positions were searched
    lines = proc.stdout.splitlines()
    # both budgets and what the check cost; the loss analysis's budget
    assert lines[1].startswith("each mark checked at 1000 play-outs a position and confirmed "
                               "at 2000 play-outs a position: 1 of the first pass's 1 kept, ")
    assert lines[1].endswith(" s a game; decisive moves by the loss analysis at 1 s a position")
    lines = lines[1:]
    assert lines[1].split() == ["player", "inaccuracy", "mistake", "blunder", "walked", "into",
                                "a", "proven", "loss", "gave", "away", "a", "proven", "win"]
    assert any(line.split()[0] == "bob" and line.split()[4] == "1" for line in lines[2:])


@pytest.mark.parametrize("args, message", [
    (["nowhere"], "nowhere: no such file"),
    (["LOG", "--lost-by", "carol"], "no game lost on the board by a player named 'carol'*"),
    (["LOG", "--seconds", "0"], "--seconds and --playouts must be positive"),
    (["LOG", "-j", "0"], "--jobs must be at least 1"),
    (["EMPTY"], "no game records"),
    (["FLOATING"], "review: move 2 (0, 0) is not legal there"),  # no engine is asked
])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, args, message):
    write_log(tmp_path / "games.jsonl", [game()])
    (tmp_path / "empty.jsonl").write_text("")
    write_log(tmp_path / "floating.jsonl", [game([[8, 0], [0, 0]])])
    where = {"LOG": str(tmp_path), "EMPTY": str(tmp_path / "empty.jsonl"),
             "FLOATING": str(tmp_path / "floating.jsonl")}
    proc = arena_review(*[where.get(a, a) for a in args])
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1 and message in proc.stderr
    assert not (tmp_path / "reviews").exists()


def test_ctrl_c_keeps_the_reviews_finished_and_the_same_command_reviews_the_rest(
        tmp_path, monkeypatch, capsys):
    tie = replace(game(OPENING[:4], code=0, round_=1), reason="a tie")
    write_log(tmp_path / "games.jsonl", [game(), tie])
    review_game = rv.review_game

    def ctrl_c_at_the_second(record, *args, **kwargs):
        if record.round == 1:
            raise KeyboardInterrupt  # what Ctrl-C raises in the command's thread
        return review_game(record, *args, **kwargs)

    monkeypatch.setattr(rv, "review_game", ctrl_c_at_the_second)
    argv = ["review", str(tmp_path), "--playouts", "100", "-j", "1", "-q"]
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "interrupted; 1 of 2 games are reviewed and kept" in err
    assert [p.name for p in (tmp_path / "reviews").iterdir()] == ["hand_alice_bob_0_0_0.json"]
    monkeypatch.setattr(rv, "review_game", review_game)
    assert main(argv) == 0
    assert "(1 now, 1 kept from before)" in capsys.readouterr().out
