"""A suite's item: the hand-checked positions of tests/analysis/games.py come out of the build's
walk as the hand says (a four now to take, the one move that holds), the positions that are no
test are refused, and a suite line is read back only when its position is one a game reaches
and its fields are what its proofs make them."""

import json

import pytest
from suite_hand import BUDGET, games

from arena.engine.position import GameOver
from arena.suite.build import FOUR, walk
from arena.suite.item import Goal, Item, SuiteError, level_of, parse_line
from arena.suite.position import FORCED_BLOCK, reach, refusal
from records.analysis import Kind
from records.board import Board
from records.move import Move
from records.result import Outcome, Seat


@pytest.fixture(scope="module")
def missed_block():
    """The walk of the missed-block game: QUIET (66 moves), then X holds with (2, 4), both
    play on, and with O threatening (1, 7) X plays (2, 2); O makes four at once."""
    return walk(("hand", games.record(games.MISSED_BLOCK), BUDGET))


def by_ply(walked, ply):
    [item] = [i for i in walked.items if i.source.ply == ply]
    return item


def test_a_four_to_take_is_a_win_item_with_every_columns_proof(missed_block):
    item = by_ply(missed_block, 71)  # O to move, (1, 7) makes four
    assert item.goal is Goal.WIN and item.to_move is Seat.SECOND
    assert item.answer == Move(1, 7) and item.plies == 1
    assert [(p.move, p.result) for p in item.proofs] == [
        (Move(1, 2), Outcome.LOSS), (Move(4, 3), Outcome.LOSS), (Move(1, 7), Outcome.WIN)]
    assert item.avoid == [Move(1, 2), Move(4, 3)]
    assert item.level == "L3R1" and item.theme is Kind.MISSED_BLOCK
    assert item.source.log == "hand" and item.source.game == games.record(games.MISSED_BLOCK).key


def test_the_one_move_that_holds_is_a_hold_item(missed_block):
    item = by_ply(missed_block, 66)  # the hand's QUIET position: only (2, 4) holds
    assert item.goal is Goal.HOLD and item.to_move is Seat.FIRST
    assert item.answer == Move(2, 4)
    assert {p.move: p.result for p in item.proofs} == {
        Move(4, 2): Outcome.LOSS, Move(4, 3): Outcome.LOSS, Move(2, 4): Outcome.DRAW,
        Move(1, 7): Outcome.LOSS}
    assert item.solves(Move(2, 4)) and not item.solves(Move(1, 7))
    assert not item.solves(Move(0, 0))  # no legal move: no proof
    # a hold's depth is the slowest loss it avoids; each loss's plies are the opponent's win
    assert item.plies == max(p.plies for p in item.proofs if p.result is Outcome.LOSS) > 5


def test_a_four_on_the_board_and_a_single_forced_block_are_no_test(missed_block):
    assert missed_block.left_out[FOUR] == 1  # after O's four
    assert missed_block.left_out[FORCED_BLOCK] == 1  # X to block (1, 7), move 71
    assert 70 not in {i.source.ply for i in missed_block.items}
    board = Board(9, 9, 0, 4)
    moves = [Move(*m) for m in games.MISSED_BLOCK]
    assert refusal(reach(board, moves[:70]), Seat.FIRST) == FORCED_BLOCK
    with pytest.raises(GameOver, match="makes a four"):
        reach(board, moves)


def test_an_item_is_printed_and_read_back_as_it_was(missed_block):
    for item in missed_block.items:
        assert Item.from_dict(json.loads(item.to_json())) == item
        assert parse_line(item.to_json(), "s.jsonl:1") == item


def line_with(item: Item, **changes) -> str:
    data = json.loads(item.to_json())
    data.update(changes)
    return json.dumps(data)


def test_a_line_that_is_no_item_is_refused_with_one_line(missed_block):
    item = by_ply(missed_block, 71)
    four = [m.to_list() for m in item.moves] + [[1, 7]]
    cases = {
        "{not json": "Expecting property name",
        line_with(item, colour="x"): "unknown field 'colour'",
        line_with(item, answer=[0, 0]): "the answer (0, 0) is not a legal move here",
        line_with(item, answer=[1, 2]): "answer: the line says",
        line_with(item, moves=[[8, 0]] + four[1:]): "is not legal there",
        line_with(item, moves=four, proofs=[]): "the game is over",
        line_with(item, level="L1R1"): "level: the line says",
        line_with(item, goal="hold"): "not exactly one",
        line_with(item, proofs=json.loads(item.to_json())["proofs"][:2]):
            "one for each legal move",
        line_with(item, board=[9, 8, 0, 4]): "N = 8 is not within 9..12",
        line_with(item, id="9x9-0000000000"): "id: the line says",
    }
    for line, message in cases.items():
        with pytest.raises(SuiteError) as raised:
            parse_line(line, "s.jsonl:3")
        text = str(raised.value)
        assert text.startswith("s.jsonl:3: not a suite item (") and message in text, text
        assert "\n" not in text


def test_the_level_is_the_third_of_the_board_played_and_how_far_the_win_is():
    board = Board(9, 9, 0, 4)  # 80 playable cells
    assert level_of(board, 10, 1) == "L1R1"
    assert level_of(board, 27, 5) == "L2R1"
    assert level_of(board, 53, 7) == "L2R2"
    assert level_of(board, 54, 17) == "L3R2"
    assert level_of(board, 79, 19) == "L3R3"
    assert level_of(board, 79, None) == "L3R3"


def test_the_answer_is_what_the_proofs_say(missed_block):
    data = json.loads(by_ply(missed_block, 66).to_json())
    data["proofs"][2]["result"] = "loss"  # (2, 4), the one move that holds, written lost
    with pytest.raises(ValueError, match="the proofs give 0 columns that hold"):
        Item.from_dict(data)
