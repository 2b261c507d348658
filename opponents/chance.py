"""Repeatable randomness for the Python opponents.

Each call draws from a generator seeded by the position itself (plus ``OPPONENTS_SEED``), so a
game between deterministic players replays move for move, while different positions and
different seeds still give varied games.
"""

from __future__ import annotations

import hashlib
import os
import random
from typing import Sequence

SEED_ENV = "OPPONENTS_SEED"


def position_rng(M: int, N: int, board: Sequence[int], no_x: int, no_y: int) -> random.Random:
    """A generator seeded by the position and the ``OPPONENTS_SEED`` environment variable."""
    text = f"{os.environ.get(SEED_ENV, '0')}|{M}|{N}|{no_x}|{no_y}|{''.join(map(str, board))}"
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def choose_bit(rng: random.Random, cells: int) -> int:
    """One member, uniformly, of a non-empty set of single-bit cells."""
    members = []
    while cells:
        b = cells & -cells
        members.append(b)
        cells ^= b
    return rng.choice(members)
