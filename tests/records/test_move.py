"""A move in its three written forms: [x, y], "x.y" and two base-36 digits, each round trip."""

import re

import pytest

from records.move import Move, moves_from_paste, moves_to_base36


@pytest.mark.parametrize("move", [Move(0, 0), Move(8, 4), Move(11, 11), Move(35, 10)])
def test_each_form_round_trips(move):
    assert Move.from_list(move.to_list()) == move
    assert Move.from_text(move.to_text()) == move
    assert [int(digit, 36) for digit in move.to_base36()] == move.to_list()  # as the page reads it


def test_the_forms_as_written():
    assert Move(8, 4).to_list() == [8, 4] and Move.from_list((8, 4)) == Move(8, 4)
    assert Move(8, 4).to_text() == "8.4" and Move.from_text(" 10.11 ") == Move(10, 11)
    assert Move(8, 11).to_base36() == "8b" and Move(10, 0).to_base36() == "a0"


def test_a_game_packs_two_digits_a_move():
    moves = [[8, 0], [11, 10], [7, 0]]
    assert moves_to_base36(moves) == "80ba70"  # row then column, as the replay page reads it
    assert [[int(d, 36) for d in "80ba70"[i:i + 2]] for i in range(0, 6, 2)] == moves


@pytest.mark.parametrize("parse, value", [
    (Move.from_list, [1]), (Move.from_list, [1, 2.0]), (Move.from_list, [True, 2]),
    (Move.from_list, "1 2"), (Move.from_text, "8,4"), (Move.from_text, "8.x"),
])
def test_anything_else_is_a_value_error(parse, value):
    with pytest.raises(ValueError):
        parse(value)


def test_a_cell_off_base_36_has_no_packed_form():
    with pytest.raises(ValueError):
        Move(36, 0).to_base36()


@pytest.mark.parametrize("text, moves", [
    ("8.4,7.4, 8.3", [(8, 4), (7, 4), (8, 3)]),
    ("8 4 7 4", [(8, 4), (7, 4)]),
    ("[[8, 4], [7, 4]]", [(8, 4), (7, 4)]),
])
def test_a_pasted_move_list_in_each_form(text, moves):
    assert [(m.x, m.y) for m in moves_from_paste(text)] == moves


@pytest.mark.parametrize("text, message", [
    ("hello world", "no moves in the text"),
    ("8 4 7", "3 numbers: a move list has two a move"),
    ("[[8, 4], [7]]", "expected [x, y]"),
])
def test_a_paste_that_is_no_move_list_says_why(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        moves_from_paste(text)
