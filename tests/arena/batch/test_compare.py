"""`python -m arena compare`: game-by-game comparison of two batches on the same boards."""

import subprocess
import sys
from pathlib import Path

import pytest

from arena.report.compare import Played, compare, outcomes
from records.codes import Code
from records.game import GameRecord
from records.log import ResultsError
from records.result import Outcome, Seat

ROOT = Path(__file__).resolve().parents[3]
MOVES = [("a", 2), ("b", 8), ("a", 3), ("b", 8), ("a", 4), ("b", 1), ("a", 5)]


def record(code: Code, leg: int = 0, no_y: int = 8) -> GameRecord:
    """A game on an empty 9x9 board, forbidden top-right; "a" moves first in leg 0."""
    return GameRecord(batch="t", seed=1, round=0, leg=leg, a="x", b="y", M=9, N=9, no_x=0,
                      no_y=no_y, time_limit=3.0, code=int(code), reason="four in a row",
                      moves=[[8 - sum(1 for _, c in MOVES[:i] if c == col), col]
                             for i, (_, col) in enumerate(MOVES)])


def test_outcomes_are_from_the_players_view_by_round_and_leg():
    won, tie = record(Code.A_WON), record(Code.TIE, leg=1)
    board = (9, 9, 0, 8)
    assert outcomes([won, tie], "x") == {(0, 0, board): Played(Outcome.WIN, Seat.FIRST, 7),
                                         (0, 1, board): Played(Outcome.DRAW, Seat.SECOND, 7)}
    assert outcomes([won], "y") == {(0, 0, board): Played(Outcome.LOSS, Seat.SECOND, 7)}
    assert outcomes([won], "nobody") == {}


def test_compare_lists_the_games_that_changed_hands(tmp_path):
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    new.write_text(record(Code.A_WON).to_json() + "\n")
    old.write_text(record(Code.B_WON).to_json() + "\n")
    assert compare(new, old, "x") == [
        "round 0 leg 0 (first): W in 7 plies, was L in 7",
        "1 games on the same boards: 1 changed hands, 1 won only by the first file, "
        "0 only by the second; wins 1 against 0"]
    with pytest.raises(ResultsError, match="no game of 'z'"):
        compare(new, old, "z")


def test_games_of_the_same_round_on_other_boards_are_not_compared(tmp_path):
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    new.write_text(record(Code.A_WON).to_json() + "\n")
    old.write_text(record(Code.B_WON, no_y=7).to_json() + "\n")  # another forbidden cell
    with pytest.raises(ResultsError, match="same round, leg and board"):
        compare(new, old, "x")


def test_the_command_compares_the_shipped_records_and_refuses_a_missing_file(tmp_path):
    results = ROOT / "docs" / "results"
    done = subprocess.run([sys.executable, "-m", "arena", "compare",
                           str(results / "partner-2.4s-seed2037.jsonl"),
                           str(results / "partner-2.4s-seed2037.jsonl")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("40 games on the same boards:")
    other_seed = subprocess.run([sys.executable, "-m", "arena", "compare",
                                 str(results / "partner-2.4s-seed2038.jsonl"),
                                 str(results / "partner-2.4s-seed2037.jsonl")],
                                cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert other_seed.returncode == 2 and "same round, leg and board" in other_seed.stderr
    missing = subprocess.run([sys.executable, "-m", "arena", "compare", str(tmp_path / "no"),
                              str(results / "partner-2.4s-seed2037.jsonl")],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and missing.stderr.startswith("arena: ")
    assert missing.stderr == f"arena: {tmp_path / 'no'}: no such file\n"
