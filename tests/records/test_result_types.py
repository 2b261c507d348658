"""The result, the fault and the key: each course code read both ways, by hand."""

import json

import pytest

from records.codes import Code, FaultKind
from records.game import GameKey, GameRecord
from records.result import Fault, Outcome, Result, Side, board_code

# The course's table (RULES.md), from A's view: code -> (who gets the points, the fault).
COURSE = {
    0: (Result.DRAW, None), 1: (Result.A, None), 2: (Result.B, None),
    3: (Result.B, (Side.A, FaultKind.CRASH)), 4: (Result.B, (Side.A, FaultKind.ILLEGAL)),
    5: (Result.A, (Side.B, FaultKind.CRASH)), 6: (Result.A, (Side.B, FaultKind.ILLEGAL)),
    7: (Result.B, (Side.A, FaultKind.TIMEOUT)), 8: (Result.A, (Side.B, FaultKind.TIMEOUT)),
    -1: (Result.B, (Side.A, FaultKind.LOAD_ERROR)), -2: (Result.A, (Side.B, FaultKind.LOAD_ERROR)),
    -3: (Result.B, (Side.A, FaultKind.NO_ENTRY)), -4: (Result.A, (Side.B, FaultKind.NO_ENTRY)),
}


@pytest.mark.parametrize("code", sorted(COURSE))
def test_every_course_code_reads_as_its_result_and_fault(code):
    result, fault = COURSE[code]
    assert Result.of_code(code) is result
    found = Fault.of_code(code, "why")
    assert (None if found is None else (found.side, found.kind)) == fault
    if found is not None:
        assert found.code == code and found.detail == "why"  # and back to the same code


def test_a_number_that_is_no_course_code_is_refused():
    for bad in (9, -5, 100):
        with pytest.raises(ValueError):
            Result.of_code(bad)
        with pytest.raises(ValueError):
            Fault.of_code(bad)


def test_a_result_seen_from_each_side():
    assert (Result.A.outcome(Side.A), Result.A.outcome(Side.B)) == (Outcome.WIN, Outcome.LOSS)
    assert Result.DRAW.outcome(Side.B) is Outcome.DRAW
    assert [o.letter for o in Outcome] == ["W", "D", "L"]
    assert [o.score for o in Outcome] == [1.0, 0.5, 0.0]
    assert (Result.B.winner, Result.DRAW.winner) == (Side.B, None)
    assert Side.A.other is Side.B and Side.B.other is Side.A


def test_board_codes_name_the_winner_from_as_view():
    assert (board_code(None), board_code(Side.A), board_code(Side.B)) == (
        Code.TIE, Code.A_WON, Code.B_WON)


def test_a_fault_round_trips_through_its_json_form():
    fault = Fault(Side.B, FaultKind.TIMEOUT, "no complete reply within 3 s")
    assert fault.to_dict() == {"side": "b", "kind": "timeout",
                               "detail": "no complete reply within 3 s"}
    assert Fault.from_dict(fault.to_dict()) == fault
    with pytest.raises(ValueError):
        Fault.from_dict({"side": "c", "kind": "timeout"})


def test_a_key_from_its_json_or_a_query_string():
    key = GameKey("arena", "bot", "uct", 7, 3, 1)
    assert GameKey.from_dict(key.to_dict()) == key
    query = {"batch": "arena", "a": "bot", "b": "uct", "seed": "7", "round": "3", "leg": "1"}
    assert GameKey.from_dict(query) == key
    with pytest.raises(ValueError):
        GameKey.from_dict(dict(query, seed="seven"))
    with pytest.raises(KeyError):
        GameKey.from_dict({"batch": "arena"})


def record(code, leg=0, fault=None):
    return GameRecord(batch="t", seed=1, round=0, leg=leg, a="bot", b="uct", M=9, N=9, no_x=0,
                      no_y=0, time_limit=1.0, code=code, reason="", fault=fault)


def test_a_record_names_who_moved_first_won_and_lost():
    won = record(2, leg=1)  # B moved first and won
    assert (won.first, won.result, won.loser) == (Side.B, Result.B, Side.A)
    assert record(0).loser is None
    timed_out = record(7, fault=Fault.of_code(7, "late"))
    assert (timed_out.result, timed_out.loser) == (Result.B, None)  # no loss on the board


def test_a_records_json_line_writes_the_typed_fields_as_the_log_always_had_them():
    line = record(8, leg=1, fault=Fault(Side.B, FaultKind.TIMEOUT, "late")).to_json()
    assert '"fault":{"side":"b","kind":"timeout","detail":"late"}' in line
    assert line.endswith('"v":1,"first":"b","result":"a"}')
    again = GameRecord.from_dict(json.loads(line))
    assert again.fault == Fault(Side.B, FaultKind.TIMEOUT, "late") and again.to_json() == line


def test_an_outcome_reversed_is_the_other_players():
    assert [o.reversed for o in Outcome] == [Outcome.LOSS, Outcome.DRAW, Outcome.WIN]
