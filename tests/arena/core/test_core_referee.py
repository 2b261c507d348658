"""Whole games through the referee with scripted in-process players."""
import time

from arena.core.players.python import PythonPlayer
from arena.core.referee import play_game
from records.board import Board
from records.codes import Code, FaultKind
from records.result import Side

GENEROUS = 30.0  # seconds a move: a script answers in microseconds, however busy the machine


class Script:
    """Plays a fixed list of moves and records what it was shown."""

    def __init__(self, moves):
        self.moves, self.seen = list(moves), []

    def __call__(self, M, N, top, board, last_x, last_y, no_x, no_y):
        self.seen.append((list(top), list(board), last_x, last_y))
        return self.moves.pop(0)


def scripted(first_moves, second_moves, M=9, N=9, no_x=0, no_y=8):
    a, b = Script(first_moves), Script(second_moves)
    outcome = play_game(PythonPlayer("a", a), PythonPlayer("b", b), Board(M, N, no_x, no_y),
                        GENEROUS)
    return outcome, a, b


def test_first_player_wins_on_the_bottom_row():
    outcome, _, _ = scripted([(8, 0), (8, 1), (8, 2), (8, 3)], [(7, 0), (7, 1), (7, 2)])
    assert (outcome.winner, outcome.faulter, outcome.reason) == (1, 0, "four in a row")
    assert outcome.win_line == [(8, 0), (8, 1), (8, 2), (8, 3)]
    assert len(outcome.moves) == len(outcome.times) == 7
    assert outcome.code(Side.A) == Code.A_WON
    assert outcome.code(Side.B) == Code.B_WON


def test_second_player_wins_vertically():
    outcome, _, _ = scripted([(8, 0), (8, 2), (7, 0), (7, 2)], [(8, 4), (7, 4), (6, 4), (5, 4)])
    assert outcome.winner == 2 and outcome.win_line == [(5, 4), (6, 4), (7, 4), (8, 4)]


def test_forbidden_cell_breaks_a_bottom_row_line():
    # X X # X X X on the bottom row is no four; O then lands on the forbidden cell's column
    # at row 7 (the cell is skipped) and makes five above it.
    outcome, _, _ = scripted([(8, 0), (8, 1), (8, 3), (8, 4), (8, 5)],
                             [(7, 0), (7, 1), (7, 3), (7, 4), (7, 2)], no_x=8, no_y=2)
    assert (outcome.winner, outcome.faulter) == (2, 0) and len(outcome.moves) == 10
    assert outcome.win_line == [(7, 0), (7, 1), (7, 2), (7, 3), (7, 4)]


def test_players_see_their_own_view_and_the_last_move():
    _, a, b = scripted([(8, 0), (8, 1), (8, 2), (8, 3)], [(7, 0), (7, 1), (7, 2)])
    top, board, last_x, last_y = a.seen[0]
    assert (last_x, last_y) == (-1, -1) and set(board) == {0} and top == [9] * 9
    top, board, last_x, last_y = b.seen[0]
    assert (last_x, last_y) == (8, 0) and board[72] == 1 and top[0] == 8
    top, board, last_x, last_y = a.seen[1]
    assert (last_x, last_y) == (7, 0) and board[72] == 2 and board[63] == 1


def tie_moves(M, N, no_x, no_y):
    """An order filling the board with colour (y // 2 + x) % 2 (0 first player), which has no
    four in any direction: rows go in pairs, columns alternate, diagonals go a, b, b, a, a."""
    top = [M] * N
    if no_x == M - 1:
        top[no_y] = M - 1
    order = []

    def search(turn):
        if all(t == 0 for t in top):
            return True
        for y in range(N):
            x = top[y] - 1
            if x >= 0 and (y // 2 + x) % 2 == turn:
                jump = 1 + (x == no_x + 1 and y == no_y)
                top[y] -= jump
                order.append((x, y))
                if search(1 - turn):
                    return True
                order.pop()
                top[y] += jump
        return False

    assert search(0)
    return order[0::2], order[1::2]


def test_tie_on_a_full_board():
    first, second = tie_moves(9, 9, 8, 0)  # a colour-0 cell, so both colours have 40 cells
    outcome, _, _ = scripted(first, second, no_x=8, no_y=0)
    assert (outcome.winner, outcome.faulter, outcome.reason) == (0, 0, "board full")
    assert len(outcome.moves) == 80
    assert outcome.code(Side.A) == Code.TIE


def test_illegal_move_loses():
    outcome, _, _ = scripted([(8, 0)], [(8, 0)])
    assert outcome.winner == 1 and outcome.faulter == 2
    assert outcome.fault_kind == FaultKind.ILLEGAL
    assert outcome.code(Side.A) == Code.B_ILLEGAL
    assert outcome.code(Side.B) == Code.A_ILLEGAL
    assert len(outcome.times) == 2 and len(outcome.moves) == 1


def test_forbidden_cell_is_illegal():
    outcome, _, _ = scripted([(8, 8)], [], no_x=8, no_y=8)
    assert outcome.fault_kind == FaultKind.ILLEGAL and outcome.faulter == 1


def test_slow_python_player_loses_on_time():
    def slow(*_):
        time.sleep(0.05)  # at least 0.05 s, five times the limit, however the machine runs
        return 8, 0

    outcome = play_game(PythonPlayer("slow", slow), PythonPlayer("b", Script([])),
                        Board(9, 9, 0, 0), 0.01)
    assert outcome.fault_kind == FaultKind.TIMEOUT and outcome.winner == 2
    assert outcome.code(Side.A) == Code.A_TIMEOUT


def test_exception_and_nonsense_reply_are_bugs():
    def broken(*_):
        raise KeyError("oops")

    outcome = play_game(PythonPlayer("a", Script([(8, 0)])), PythonPlayer("b", broken),
                        Board(9, 9, 0, 0), GENEROUS)
    assert outcome.fault_kind == FaultKind.CRASH and outcome.faulter == 2
    assert "KeyError" in outcome.stderr[1]
    assert outcome.code(Side.B) == Code.A_BUG
    outcome = play_game(PythonPlayer("a", lambda *_: "8 0"), PythonPlayer("b", broken),
                        Board(9, 9, 0, 0), GENEROUS)
    assert outcome.fault_kind == FaultKind.CRASH and outcome.faulter == 1
