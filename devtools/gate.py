"""A gated player for tests that need a game to last until they have seen it: it plays as the
random player, but each move first waits until the file named by ``ARENA_GATE`` exists.

A test that wants to watch a game in progress starts the batch with this player, waits for the
event it needs (the watch page showing the game, say), then creates the file; the game then
ends at the random player's pace. Give the batch a time a move (``--time``) longer than the
test's own deadline: a Python player's call is timed when it returns.
"""

import os
import time
from pathlib import Path
from typing import Sequence, Tuple

from opponents.random_player import get_point as random_point

GATE_ENV = "ARENA_GATE"
WAIT_S = 120.0  # the longest a move waits for its gate; then it plays anyway


def get_point(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
              last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
    """The random player's move, once the gate file exists (or after WAIT_S seconds)."""
    gate = Path(os.environ[GATE_ENV])
    deadline = time.monotonic() + WAIT_S
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.02)  # a file has no event to wait on: look fifty times a second
    return random_point(M, N, top, board, last_x, last_y, no_x, no_y)
