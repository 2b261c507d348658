"""The ladder's floor: a uniformly random legal move (repeatable, see ``opponents.chance``)."""

from __future__ import annotations

from typing import Sequence, Tuple

from opponents.chance import position_rng


def get_point(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
              last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
    """getPoint-style entry: (x, y) of a uniformly chosen non-full column's free cell."""
    columns = [y for y in range(N) if top[y] > 0]
    y = position_rng(M, N, board, no_x, no_y).choice(columns)
    return top[y] - 1, y
