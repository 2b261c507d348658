"""The boards, drawn as the course draws them: round r's from `random.Random(f"{seed}/{r}")`
alone, so any game replays by itself and a batch, the ladder (bench/ladder.py) and the speed
bench (bench/speed.py) meet the same boards for the same seed."""

import random

from records.board import Board


def draw_board(seed: int, round_: int) -> Board:
    """The board of one round, drawn as the course draws it (uniform sizes, uniform cell)."""
    rng = random.Random(f"{seed}/{round_}")
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    return Board(M, N, rng.randrange(M), rng.randrange(N))
