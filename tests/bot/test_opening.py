"""The second player's first reply (bot.search.opening) on hand-checked boards."""

from __future__ import annotations

from bot.choose import choose_move
from bot.rules import Position
from bot.search.clock import Limit
from bot.search.opening import follow_up


def after(M: int, N: int, no_cell, *columns: int) -> Position:
    p = Position.new(M, N, *no_cell)
    for column in columns:
        p = p.play(column)
    return p


def reply(p: Position):
    move = follow_up(p)
    return None if move is None else p.xy(move)


def test_second_player_answers_on_top_of_the_first_stone():
    assert reply(after(9, 9, (0, 0), 4)) == (7, 4)
    assert reply(after(12, 10, (0, 0), 9)) == (10, 9)  # right edge


def test_forbidden_cell_between_puts_the_reply_above_it():
    assert reply(after(9, 11, (7, 2), 2)) == (6, 2)  # first stone (8, 2), forbidden (7, 2)


def test_forbidden_cell_on_the_bottom_row_lifts_both_stones():
    assert reply(after(10, 9, (9, 0), 0)) == (7, 0)  # left edge: first stone lands on (8, 0)


def test_no_book_move_outside_the_second_players_first_move():
    assert follow_up(after(9, 9, (0, 0))) is None  # empty board: the first player searches
    assert follow_up(after(9, 9, (0, 0), 4, 4)) is None
    assert follow_up(after(9, 9, (0, 0), 4, 4, 3)) is None


class NoSearch:
    def search(self, position, deadline):
        raise AssertionError("the book move needs no search")


def test_get_point_plays_the_reply_without_searching():
    M, N = 11, 10
    top, board = [M] * N, [0] * (M * N)
    board[(M - 1) * N + 0] = 1  # the opponent's first stone, bottom of column 0
    top[0] = M - 1
    # Had the search run, its failure would be answered by the central fallback move.
    assert choose_move(M, N, top, board, M - 1, 0, 0, 5, Limit(0.1), NoSearch()) == (M - 2, 0)
