"""A suite's position on the referee's own board (arena/core/rules.py, never the bot's): whether a
game reaches it, its legal moves, the positions that are no test (one legal move, a single
forced block), so a suite is checked by rules other than the search that proved it."""

import hashlib
from typing import List, Optional, Sequence

from arena.core.rules import Grid
from arena.engine.position import from_moves
from records.board import Board
from records.move import Move
from records.result import Seat

ONE_MOVE = "one legal move"
FORCED_BLOCK = "a single forced block"


def reach(board: Board, moves: Sequence[Move]) -> Grid:
    """The grid after ``moves`` from the empty board; arena.engine.position.PositionError (one
    line) for a move no game allows there, GameOver where a four or a full board ended it."""
    from_moves(board, [m.to_list() for m in moves])
    grid = Grid(board.M, board.N, board.no_x, board.no_y)
    for ply, move in enumerate(moves):
        grid.play(move.x, move.y, Seat.of_ply(ply).stone)
    return grid


def legal_moves(grid: Grid) -> List[Move]:
    """The cell each column that is not full takes next, left to right."""
    return [Move(grid.top[y] - 1, y) for y in range(grid.N) if grid.top[y] > 0]


def fours_at(grid: Grid, stone: int) -> List[Move]:
    """The legal moves on which ``stone`` would make four at once."""
    found = []
    for move in legal_moves(grid):
        grid.cells[move.x * grid.N + move.y] = stone
        if grid.four_through(move.x, move.y):
            found.append(move)
        grid.cells[move.x * grid.N + move.y] = 0
    return found


def refusal(grid: Grid, to_move: Seat) -> Optional[str]:
    """Why the position is no test whatever the search says (a single legal move; the
    opponent's one immediate four to block while the side to move has none), else None."""
    if len(legal_moves(grid)) < 2:
        return ONE_MOVE
    if not fours_at(grid, to_move.stone) and len(fours_at(grid, to_move.other.stone)) == 1:
        return FORCED_BLOCK
    return None


def stones_id(board: Board, grid: Grid) -> str:
    """A position's id from its board and stones alone (the same stones reached by other
    moves are the same position): the shape, then 10 hex digits of a SHA-1."""
    text = f"{board.to_list()}:{''.join(map(str, grid.cells))}"
    return f"{board.M}x{board.N}-{hashlib.sha1(text.encode()).hexdigest()[:10]}"
