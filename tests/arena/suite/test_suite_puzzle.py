"""A puzzle played step by step on hand-checked positions (tests/hand_puzzles.py), each step
judged by exact search under a node budget: a win in one is right and solved; a two-step win
is right, answered by the defence that holds out longest, then solved; a wrong move is refuted
by a line ending in the opponent's four; a hold is solved by its one move; a column the budget
cannot settle is neither right nor wrong; and a request no game reaches is one line."""

import pytest
from hand_puzzles import BOARD, HOLD, WIN

from analysis.proof import Prover
from arena.core.rules import Grid
from arena.suite.puzzle import Verdict, attempt_moves, parse_request, play_step
from bot.rules import Position, bits
from records.move import Move
from records.result import Outcome

NODES = 200_000  # far more than these endgames take: every answer here is the search's own


def step(moves, goal, column, nodes=NODES):
    return play_step(parse_request({"board": BOARD.to_list(), "moves": moves, "goal": goal,
                                    "column": column}), nodes)


def last_move_makes_four(moves):
    """By the referee's rules: the last of ``moves`` makes four (and who made it)."""
    grid = Grid(BOARD.M, BOARD.N, BOARD.no_x, BOARD.no_y)
    for ply, (x, y) in enumerate(moves):
        assert grid.is_legal(x, y), (ply, x, y)
        grid.play(x, y, ply % 2 + 1)
    return bool(grid.four_through(*moves[-1])), (len(moves) - 1) % 2 + 1


def test_a_win_in_one_is_right_and_solved():
    done = step(WIN + [[2, 4], [3, 5]], "win", 5)
    assert done.verdict is Verdict.RIGHT and done.result is Outcome.WIN
    assert done.solved and done.over and done.defence is None
    assert done.four == tuple(Move(2, y) for y in (4, 5, 6, 7))


def test_a_two_step_win_is_right_then_defended_then_solved():
    first = step(WIN, "win", 4)
    assert first.verdict is Verdict.RIGHT and first.result is Outcome.WIN
    assert not first.solved and not first.over and first.four == ()
    assert first.defence == Move(3, 5)  # the block: every reply loses at once, it blocks one
    assert attempt_moves([Move(*m) for m in WIN], len(WIN), first) == [[2, 4], [3, 5]]
    second = step(WIN + [[2, 4], [3, 5]], "win", 5)
    assert second.verdict is Verdict.RIGHT and second.solved


def test_the_defence_is_the_reply_that_holds_out_longest():
    # after X's mistake (2, 1), O wins: its (2, 4) is right, and X's reply holds out longest
    moves = WIN + [[2, 1]]
    done = step(moves, "win", 4)
    assert done.verdict is Verdict.RIGHT and done.defence is not None
    position = Position.new(BOARD.M, BOARD.N, BOARD.no_x, BOARD.no_y)
    for x, y in moves + [[2, 4]]:
        position = position.play_xy(x, y)
    prover = Prover(position.geo, 60.0)  # a deadline these endgames never reach
    depth = {position.xy(b): prover.shortest_win(position.play_bit(b))
             for b in bits(position.possible())}
    assert depth[(done.defence.x, done.defence.y)] == max(depth.values()) == 3
    assert done.defence == Move(1, 4)  # of the three that long, the most central


def test_a_wrong_move_is_refuted_by_a_line_ending_in_the_opponents_four():
    done = step(WIN, "win", 1)
    assert done.verdict is Verdict.WRONG and done.result is Outcome.LOSS and done.over
    assert not done.solved and done.defence is None
    line = [m.to_list() for m in done.refutation]
    assert len(line) == 7 and done.complete  # the proofs' 8 plies: the mistake, then 7
    four, maker = last_move_makes_four(WIN + [[2, 1]] + line)
    assert four and maker == 2  # O, the opponent, makes it
    assert Move(*line[-1]) in done.four
    assert {m: v for m, v in done.values.items()} == {
        Move(2, 1): Outcome.LOSS, Move(2, 4): Outcome.WIN, Move(3, 5): Outcome.LOSS,
        Move(0, 6): Outcome.LOSS}


def test_a_move_that_loses_at_once_is_refuted_by_the_four():
    done = step(WIN, "win", 5)
    assert done.verdict is Verdict.WRONG and [m.to_list() for m in done.refutation] == [[2, 5]]
    assert done.complete


def test_a_hold_is_solved_by_its_move_and_refuted_otherwise():
    held = step(HOLD, "hold", 4)
    assert held.verdict is Verdict.RIGHT and held.result is Outcome.DRAW and held.solved
    lost = step(HOLD, "hold", 7)
    assert lost.verdict is Verdict.WRONG and lost.complete
    line = [m.to_list() for m in lost.refutation]
    assert len(line) == 7 and last_move_makes_four(HOLD + [[1, 7]] + line) == (True, 2)
    assert [m for m, v in lost.values.items() if v is Outcome.DRAW] == [Move(2, 4)]
    assert lost.right == (Move(2, 4),)  # the page shows the columns the server judged right
    assert lost.to_dict()["right"] == [[2, 4]]


def test_a_column_the_budget_cannot_settle_is_neither_right_nor_wrong():
    # an opening: no 1,000 nodes settle O's (8, 2)
    done = step([[8, 4], [7, 4], [8, 3]], "hold", 2, nodes=1000)
    assert done.verdict is Verdict.UNSETTLED and done.result is None
    assert not done.over and done.defence is None and done.refutation == ()


def test_the_same_budget_gives_the_same_answer():
    assert step(WIN, "win", 1, nodes=5000) == step(WIN, "win", 1, nodes=5000)


@pytest.mark.parametrize("body, line", [
    ([], "expected a JSON object"),
    ({"board": [9, 9, 0, 4], "moves": [], "goal": "win"}, "no column"),
    ({"board": [9, 99, 0, 4], "moves": [], "goal": "win", "column": 0}, "board:"),
    ({"board": [9, 9, 0, 4], "moves": [[7, 0]], "goal": "win", "column": 0}, "move 1 (7, 0)"),
    ({"board": [9, 9, 0, 4], "moves": "8.4", "goal": "win", "column": 0}, "moves: expected"),
    ({"board": [9, 9, 0, 4], "moves": [], "goal": "draw", "column": 0}, "goal: win or hold"),
    ({"board": [9, 9, 0, 4], "moves": [], "goal": "win", "column": 9}, "column: a whole"),
    ({"board": [9, 9, 0, 4], "moves": [], "goal": "win", "column": True}, "column: a whole"),
    ({"board": [9, 9, 0, 4], "moves": [[8, 0], [8, 8], [7, 0], [7, 8], [6, 0], [6, 8], [5, 0]],
      "goal": "win", "column": 1}, "the game is over: move 7 makes a four"),
    ({"board": [9, 9, 0, 4], "moves": [[8 - i, 4] for i in range(8)], "goal": "win",
      "column": 4}, "column 4 is full"),
])
def test_a_request_no_game_reaches_is_one_line(body, line):
    with pytest.raises(ValueError) as refused:
        parse_request(body)
    assert line in str(refused.value) and "\n" not in str(refused.value)
