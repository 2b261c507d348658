"""A suite's valued item: a middle-game position whose every column keeps its engine value, read
back only when its position is one a game reaches, its values cover exactly the legal columns
with numbers in 0..1, and one column stands clear of the rest (the keep rule, `clear_best`); a
folder holding exact and valued items gives both."""

import json
from typing import Optional, Sequence, Tuple

import hand_puzzles
import pytest

from arena.suite.item import (
    CLOSE,
    EVEN,
    RUNS_DIFFER,
    Item,
    SuiteError,
    Valuation,
    Value,
    ValuedItem,
    clear_best,
    parse_line,
    read_items,
    read_suite,
)
from arena.suite.position import legal_moves, reach, stones_id
from records.board import Board
from records.move import Move
from records.result import Outcome, Seat

BOARD = Board(9, 9, 0, 4)
MOVES = [[8, 5], [8, 4], [8, 1], [8, 6], [8, 7], [7, 7], [7, 6], [7, 1]]  # X to move, 9 columns
BUDGET = Valuation(10_000, (1, 2))


def columns(*runs: Tuple[float, float],
            proofs: Sequence[Optional[Outcome]] = ()) -> Tuple[Value, ...]:
    """One value a legal column of MOVES, left to right, from each column's two runs."""
    legal = legal_moves(reach(BOARD, [Move(*m) for m in MOVES]))
    assert len(runs) == len(legal) == 9
    proofs = list(proofs) + [None] * (len(runs) - len(proofs))
    return tuple(Value(m, r, p) for m, r, p in zip(legal, runs, proofs))


def valued(values: Tuple[Value, ...], moves=MOVES) -> ValuedItem:
    played = tuple(Move(*m) for m in moves)
    return ValuedItem(stones_id(BOARD, reach(BOARD, played)), BOARD, played, values, BUDGET)


CLEAR = columns((0.40, 0.42), (0.45, 0.44), (0.50, 0.52), (0.61, 0.63), (0.48, 0.47),
                (0.30, 0.31), (0.20, 0.22), (0.35, 0.33), (0.10, 0.12))


def test_a_valued_item_is_printed_and_read_back_as_it_was():
    item = valued(CLEAR)
    assert item.answer == CLEAR[3].move and item.to_move is Seat.FIRST and item.level == "L1"
    data = json.loads(item.to_json())
    assert data["goal"] == "best" and data["answer"] == CLEAR[3].move.to_list()
    assert data["values"][3] == {"move": CLEAR[3].move.to_list(), "value": 0.62,
                                 "runs": [0.61, 0.63], "proof": None}
    assert data["budget"] == {"playouts": 10_000, "seeds": [1, 2]}
    assert parse_line(item.to_json(), "m.jsonl:1") == item


def test_a_proven_column_takes_its_proofs_score_whatever_its_runs():
    values = columns((0.9, 0.7), *[(0.3, 0.3)] * 8, proofs=[Outcome.WIN])
    assert values[0].value == 1.0 and values[0].spread == 0.0
    item = valued(values)
    assert item.answer == values[0].move
    assert parse_line(item.to_json(), "m.jsonl:1") == item
    assert Value(Move(0, 0), (0.6, 0.5), Outcome.LOSS).value == 0.0
    assert Value(Move(0, 0), (0.6, 0.5), Outcome.DRAW).value == 0.5


def test_the_keep_rule_keeps_a_clear_best_and_drops_the_rest():
    assert clear_best(CLEAR) == (CLEAR[3].move, "")
    # the runs disagree on the best column, though the means make one best
    disagree = columns((0.70, 0.50), (0.55, 0.56), *[(0.2, 0.2)] * 7)
    assert clear_best(disagree) == (None, RUNS_DIFFER)
    # one best in both runs, its lead (0.05) within how far its runs differ (0.08)
    noisy = columns((0.64, 0.56), (0.55, 0.55), *[(0.2, 0.2)] * 7)
    assert clear_best(noisy) == (None, CLOSE)
    # ... or within how far the other column's runs differ
    other = columns((0.60, 0.60), (0.50, 0.59), *[(0.2, 0.2)] * 7)
    assert clear_best(other) == (None, CLOSE)
    # every column about the same: no move to find
    assert clear_best(columns(*[(0.5, 0.5)] * 9)) == (None, EVEN)
    assert clear_best(columns((0.515, 0.515), (0.51, 0.51), *[(0.5, 0.5)] * 7)) == (None, EVEN)
    # a lead of more than the runs' difference stands, however small, where the worst column
    # is more than the floor behind: the second column gives away almost nothing
    assert clear_best(columns((0.51, 0.51), (0.5, 0.5), *[(0.2, 0.2)] * 7))[1] == ""
    assert clear_best(columns((0.53, 0.53), (0.5, 0.5), *[(0.2, 0.2)] * 7))[1] == ""


def line_with(item: ValuedItem, **changes) -> str:
    data = json.loads(item.to_json())
    data.update(changes)
    return json.dumps(data)


def test_a_line_that_is_no_valued_item_is_refused_with_one_line():
    item = valued(CLEAR)
    data = json.loads(item.to_json())
    out_of_range = json.loads(item.to_json())["values"]
    out_of_range[0] = {**out_of_range[0], "value": 1.5, "runs": [1.5, 1.5]}
    wrong_value = json.loads(item.to_json())["values"]
    wrong_value[0] = {**wrong_value[0], "value": 0.9}
    one_run = [{**v, "runs": v["runs"][:1], "value": v["runs"][0]} for v in data["values"]]
    over = MOVES + [[6, 6], [8, 0], [5, 6], [8, 2], [4, 6]]  # X's four in column 6
    cases = {
        line_with(item, values=data["values"][:8]): "one for each legal move, left to right",
        line_with(item, values=data["values"][::-1]): "one for each legal move, left to right",
        line_with(item, values=out_of_range): "expected win chances within 0..1",
        line_with(item, values=wrong_value): "the line says 0.9, its runs and proof make it",
        line_with(item, answer=data["values"][2]["move"]): "answer: the line says",
        line_with(item, answer=[0, 0]): "answer: the line says",
        line_with(item, level="L2"): "level: the line says",
        line_with(item, to_move="second"): "to_move: the line says",
        line_with(item, id="9x9-0000000000"): "id: the line says",
        line_with(item, moves=over): "the game is over",
        line_with(item, budget={"playouts": 10, "seeds": [1]}): "a budget is",
        line_with(item, values=one_run): "expected 2 runs each",
        line_with(item, avoid=[]): "unknown field 'avoid'",
        valued(columns(*[(0.5, 0.5)] * 9)).to_json(): "no column stands clear",
    }
    for line, message in cases.items():
        with pytest.raises(SuiteError) as raised:
            parse_line(line, "m.jsonl:7")
        text = str(raised.value)
        assert text.startswith("m.jsonl:7: not a suite item (") and message in text, text
        assert "\n" not in text


def test_a_folder_of_both_kinds_gives_both_and_the_exact_read_gives_the_exact(tmp_path):
    hand_puzzles.write_suite(tmp_path / "exact.jsonl")
    (tmp_path / "middle.jsonl").write_text(valued(CLEAR).to_json() + "\n")
    items = read_items(tmp_path)
    assert [type(i) for i in items] == [Item, Item, ValuedItem]
    assert read_suite(tmp_path) == items[:2]
    with pytest.raises(SuiteError, match="no exact items"):
        read_suite(tmp_path / "middle.jsonl")
    assert read_items(tmp_path / "middle.jsonl") == [valued(CLEAR)]


def test_a_move_gives_away_the_best_value_less_its_own_and_a_fault_the_most():
    item = valued(CLEAR)
    assert item.given_away(CLEAR[3].move) == 0.0
    assert item.given_away(CLEAR[4].move) == pytest.approx(0.62 - 0.475)
    assert item.given_away(None) == item.given_away(Move(0, 0)) == pytest.approx(0.62 - 0.11)
    assert item.solves(CLEAR[3].move) and not item.solves(CLEAR[2].move)
    assert item.legal(CLEAR[0].move) and not item.legal(Move(0, 0))
