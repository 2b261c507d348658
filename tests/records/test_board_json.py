"""A board in its JSON form, [M, N, no_x, no_y], checked against the course's sizes."""

import pytest

from records.board import Board, BoardError


def test_a_course_board_round_trips():
    for board in (Board(9, 9, 8, 0), Board(12, 12, 0, 11), Board(10, 11, 9, 10)):
        assert Board.from_list(board.to_list()) == board
    assert str(Board(9, 10, 8, 3)) == "9x10, forbidden (8, 3)"


@pytest.mark.parametrize("value, words", [
    ([13, 9, 0, 0], "M = 13 is not within 9..12"),
    ([9, 8, 0, 0], "N = 8 is not within 9..12"),
    ([9, 9, 9, 0], "the forbidden cell (9, 0) is not on a 9x9 board"),
    ([9, 9, 0, -1], "the forbidden cell (0, -1)"),
    ([9, 9, 0], "expected [M, N, no_x, no_y]"),
    ([9, 9, 0, 0.5], "expected [M, N, no_x, no_y]"),
    ([9, 9, True, 0], "expected [M, N, no_x, no_y]"),
    ("9x9", "expected [M, N, no_x, no_y]"),
])
def test_a_board_no_course_game_has_is_refused_in_one_line(value, words):
    with pytest.raises(BoardError) as err:
        Board.from_list(value)
    assert words in str(err.value) and "\n" not in str(err.value)
