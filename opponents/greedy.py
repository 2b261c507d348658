"""One step above random: win now, else block the opponent's immediate win, else random."""

from __future__ import annotations

from typing import Sequence, Tuple

from bot.rules import Position
from opponents.chance import choose_bit, position_rng


def get_point(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
              last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
    """getPoint-style entry (board from the mover's view: 2 own, 1 opponent)."""
    pos = Position.from_view(M, N, top, board, no_x, no_y)
    possible = pos.possible()
    choices = (pos.winning_moves() or possible & pos.opponent_winning_cells() or possible)
    return pos.xy(choose_bit(position_rng(M, N, board, no_x, no_y), choices))
