"""The boards, drawn as the course draws them (docs/arena.md, "Boards and scheduling")."""

import random

from records.board import Board


def draw_board(seed: int, round_: int) -> Board:
    """Round `round_`'s board, from `random.Random(f"{seed}/{round_}")` alone, so any game
    replays by itself and every user of a seed meets the same boards (uniform sizes and cell)."""
    rng = random.Random(f"{seed}/{round_}")
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    return Board(M, N, rng.randrange(M), rng.randrange(N))
