"""A player that waits instead of thinking: sleeps ``delay`` seconds, then moves as random does.

It stands in for a bot at a time limit when the arena itself is measured or tested: a sleeping
player uses no CPU, so throughput past this machine's cores (more cluster workers than cores)
measures the arena, and games last long enough for a test to interrupt them.
"""

from __future__ import annotations

import time
from typing import Sequence, Tuple

from opponents import random_player


def get_point(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
              last_y: int, no_x: int, no_y: int, delay: float = 0.05) -> Tuple[int, int]:
    """getPoint-style entry: random's move, after `delay` seconds (a python spec's `args`)."""
    time.sleep(delay)
    return random_player.get_point(M, N, top, board, last_x, last_y, no_x, no_y)
