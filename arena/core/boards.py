"""The boards games are played on, drawn from a seed as the course draws them.

Round r's board (M, N, forbidden cell) comes from `random.Random(f"{seed}/{r}")` alone, so any
game can be replayed by itself, on any machine, and every pairing meets the same boards. A
batch, the ladder (bench/ladder.py), the speed bench's games (bench/speed.py) and the replay
page's sample games all draw theirs here: the same seed gives the same boards in each.
"""

import random

from records.board import Board


def draw_board(seed: int, round_: int) -> Board:
    """The board of one round, drawn as the course draws it (uniform sizes, uniform cell)."""
    rng = random.Random(f"{seed}/{round_}")
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    return Board(M, N, rng.randrange(M), rng.randrange(N))
