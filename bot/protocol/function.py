"""get_point(): the course's C entry point, as a Python function."""

from __future__ import annotations

from typing import Sequence, Tuple

from bot.choose import DEFAULT_LIMIT, choose_move
from bot.search.clock import Limit


def get_point(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
              last_y: int, no_x: int, no_y: int,
              limit: Limit = DEFAULT_LIMIT) -> Tuple[int, int]:
    """The move (x, y) with getPoint's meaning: ``board[x * N + y]`` is 2 for the caller's
    pieces, 1 for the opponent's; ``-1, -1`` as last move when the caller opens.
    Raises bot.rules.InvalidPosition on a position that cannot arise in a game."""
    return choose_move(M, N, top, board, last_x, last_y, no_x, no_y, limit)
