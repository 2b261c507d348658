"""Rules on hand-checked positions: fours in every direction, the forbidden cell, full columns."""

from __future__ import annotations

import random

import pytest
from plain_referee import naive_winner

from bot.rules import InvalidPosition, Position, geometry, parse_board


def pos(*bottom_rows: str, M: int = 9, no_cell=None) -> Position:
    """A 9-wide position from its lowest rows (top row first); empty rows are added above."""
    N = len(bottom_rows[0])
    rows = ["." * N] * (M - len(bottom_rows)) + list(bottom_rows)
    return parse_board(rows, no_cell=no_cell)


def cells(p: Position, s: int) -> set:
    """Course (x, y) cells of a bitboard set."""
    out = set()
    while s:
        b = s & -s
        out.add(p.xy(b))
        s ^= b
    return out


def test_empty_board_top_and_forbidden_on_bottom_row_is_skipped():
    p = Position.new(9, 10, 8, 3)
    assert p.top() == [9, 9, 9, 8, 9, 9, 9, 9, 9, 9]
    q = p.play(3)
    assert q.opponent() == q.geo.bit(7, 3)
    assert q.top()[3] == 7


def test_forbidden_cell_right_above_a_piece_is_skipped():
    p = Position.new(9, 9, 7, 4)  # forbidden cell one above the bottom
    p = p.play(4)
    assert p.top()[4] == 7  # landed at row 8, top skips row 7
    p = p.play(4)
    assert p.current == p.geo.bit(8, 4) and p.opponent() == p.geo.bit(6, 4)
    assert p.top()[4] == 6


def test_horizontal_line_ending_at_forbidden_cell_is_broken():
    p = pos("OOO......", "XXX#.....", no_cell=(8, 3))
    assert cells(p, p.winning_cells()) == set()


def test_horizontal_win_now():
    p = pos("O.O......", "XXX.O...#", no_cell=(8, 8))
    assert cells(p, p.winning_moves()) == {(8, 3)}


def test_line_beside_the_forbidden_cell_still_wins():
    p = pos(".OOO.....", "#XXX.....", no_cell=(8, 0))
    assert cells(p, p.winning_moves()) == {(8, 4)}


def test_vertical_win_and_forbidden_cell_on_top_of_three():
    p = pos("X........", "X........", "X..O.O.O.", no_cell=(0, 8))
    assert cells(p, p.winning_moves()) == {(5, 0)}
    p = pos("#........", "X........", "X........", "X..O.O.O.", no_cell=(5, 0))
    assert p.winning_cells() == 0
    assert p.top()[0] == 5 and p.move_bit(0) == p.geo.bit(4, 0)


RISING = ("..X......", ".XO......", "XOO.O....")


def test_rising_diagonal_win_cell_not_yet_reachable():
    p = pos(*RISING, no_cell=(0, 0))
    assert cells(p, p.winning_cells()) == {(5, 3)}
    assert p.winning_moves() == 0
    assert cells(p, p.non_losing_moves()) == {(8, 3)}  # O threatens (8, 3): block


def test_rising_diagonal_ending_on_forbidden_cell_is_broken():
    p = pos(*RISING, no_cell=(5, 3))
    assert p.winning_cells() == 0


FALLING = ("X........", "OX.......", "OOX......", "XXO..O...")


def test_falling_diagonal_win_now():
    p = pos(*FALLING, no_cell=(0, 8))
    assert cells(p, p.winning_moves()) == {(8, 3)}


def test_falling_diagonal_through_forbidden_bottom_cell_is_broken():
    p = pos(*FALLING, no_cell=(8, 3))
    assert p.winning_cells() == 0
    assert p.top()[3] == 8  # the forbidden cell on the bottom row is skipped


def test_finished_game_is_rejected():
    p = pos(*FALLING, no_cell=(0, 8)).play(3)
    assert p.last_mover_won()
    with pytest.raises(InvalidPosition, match="already over"):
        Position.from_view(9, 9, p.top(), p.board(), 0, 8)


def test_opponent_threats_and_non_losing_moves_block():
    p = pos(".........", "OOO.XX...", no_cell=(0, 0))
    assert cells(p, p.non_losing_moves()) == {(8, 3)}


def test_two_immediate_threats_lose():
    p = pos(".OOO.X.X.", no_cell=(0, 0))
    assert p.non_losing_moves() == 0


def test_never_play_under_opponent_winning_cell():
    p = pos("..OOOX...", "O.XXOOXX.", no_cell=(0, 0))
    assert cells(p, p.opponent_winning_cells()) == {(7, 1)}
    assert (8, 1) in cells(p, p.possible())
    assert cells(p, p.non_losing_moves()) == cells(p, p.possible()) - {(8, 1)}


def test_danger_below_forbidden_cell_skips_it():
    # O threatens (5, 1); the forbidden cell (6, 1) sits in between: playing (7, 1) opens (5, 1).
    p = pos("..OOOX...", ".#XXOO...", "..XOXX...", "OXOXOX...", no_cell=(6, 1))
    assert cells(p, p.opponent_winning_cells()) == {(5, 1)}
    assert cells(p, p.non_losing_moves()) == cells(p, p.possible()) - {(7, 1)}


def test_full_column_is_not_legal_and_play_raises():
    p = Position.new(9, 9, 0, 5)
    for _ in range(9):
        p = p.play(0)
    assert 0 not in p.legal_columns()
    assert p.top()[0] == 0
    with pytest.raises(InvalidPosition, match="full"):
        p.play(0)
    with pytest.raises(InvalidPosition, match="full column"):
        p.play_xy(0, 0)


def test_column_whose_only_free_cell_is_forbidden_counts_as_full():
    p = Position.new(9, 9, 0, 2)
    for _ in range(8):
        p = p.play(2)
    assert p.top()[2] == 0 and 2 not in p.legal_columns()


TIE = (  # no four anywhere; "#" is the forbidden cell; 40 X and 40 O
    "#XOXOXOXO",
    "XOXOXOXOX",
    "XOXOXOXOX",
    "OXOXOXOXO",
    "OXOXOXOXO",
    "XOXOXOXOX",
    "XOXOXOXOX",
    "OXOXOXOXO",
    "OXOXOXOXO",
)


TIE_ORDER = [1, 0, 1, 0, 0, 1, 0, 0, 3, 0, 0, 1, 0, 2, 1, 2, 1, 1, 2, 1, 1, 4, 2, 2, 3, 2, 2, 3,
             2, 2, 5, 3, 3, 4, 3, 3, 4, 3, 3, 6, 4, 4, 5, 4, 4, 5, 4, 4, 7, 5, 5, 6, 5, 5, 6, 5,
             5, 8, 6, 6, 7, 6, 6, 7, 6, 7, 7, 8, 7, 7, 8, 7, 8, 8, 7, 8, 8, 6, 8, 8]


def test_tie_when_board_fills_without_four():
    """Play the columns of TIE_ORDER (X first); every stone lands where TIE draws it."""
    p = Position.new(9, 9, 0, 0)
    side = "X"
    for col in TIE_ORDER:
        assert not p.is_full()
        x = p.top()[col] - 1
        assert TIE[x][col] == side
        p = p.play(col)
        assert not p.last_mover_won()
        side = "O" if side == "X" else "X"
    assert p.is_full() and p.legal_columns() == [] and p.top() == [0] * 9


def test_play_xy_rejects_wrong_row_and_forbidden():
    p = Position.new(10, 9, 9, 4)
    with pytest.raises(InvalidPosition):
        p.play_xy(9, 4)  # the forbidden cell itself
    with pytest.raises(InvalidPosition):
        p.play_xy(5, 0)  # floating
    assert p.play_xy(8, 4).top()[4] == 8


@pytest.mark.parametrize("bad, msg", [
    ({"top": [9, 9, 9, 9, 9, 9, 9, 9, 8]}, "top"),
    ({"float": True}, "floating"),
    ({"value": 3}, "not 0, 1 or 2"),
    ({"on_forbidden": True}, "forbidden"),
    ({"counts": True}, "turn"),
])
def test_from_view_rejects_impossible_states(bad, msg):
    M, N, no_x, no_y = 9, 9, 0, 0
    board = [0] * (M * N)
    top = [M] * N
    if "top" in bad:
        top = bad["top"]
    if "float" in bad:
        board[5 * N + 2] = 1
    if "value" in bad:
        board[8 * N + 1] = bad["value"]
        top[1] = 8
    if "on_forbidden" in bad:
        no_x, no_y = 8, 3
        board[8 * N + 3] = 1
        top[3] = 8
    if "counts" in bad:
        board[8 * N + 1] = 2
        top[1] = 8
    with pytest.raises(InvalidPosition, match=msg):
        Position.from_view(M, N, top, board, no_x, no_y)


def test_geometry_rejects_bad_sizes():
    with pytest.raises(InvalidPosition):
        geometry(8, 9, 0, 0)
    with pytest.raises(InvalidPosition):
        geometry(9, 9, 9, 0)


@pytest.mark.parametrize("M", range(9, 13))
@pytest.mark.parametrize("N", range(9, 13))
def test_random_games_agree_with_plain_loops(M, N):
    """Bitboard win detection, top and view round trip agree with a plain-list referee."""
    rng = random.Random(M * 100 + N)
    for _ in range(6):
        no_x, no_y = rng.randrange(M), rng.randrange(N)
        p = Position.new(M, N, no_x, no_y)
        board = [0] * (M * N)
        top = [M] * N
        if no_x == M - 1:
            top[no_y] = M - 1
        who = 1
        while True:
            assert p.top() == top
            legal = [y for y in range(N) if top[y] > 0]
            assert p.legal_columns() == legal
            if not legal:
                break
            y = rng.choice(legal)
            x = top[y] - 1
            wins = bool(p.winning_moves() & p.geo.bit(x, y))
            p = p.play_xy(x, y)
            board[x * N + y] = who
            top[y] -= 1 + (x == no_x + 1 and y == no_y)
            won = naive_winner(board, M, N, x, y)
            assert won == p.last_mover_won() == wins
            if won:
                break
            view = [0 if v == 0 else (2 if v != who else 1) for v in board]
            q = Position.from_view(M, N, top, view, no_x, no_y)
            assert q.key() == p.key()
            who = 3 - who
