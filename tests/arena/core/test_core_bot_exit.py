"""The bot as it ships, run by the arena's process player and ended by it (SIGKILL to its
session) while its forked leaf worker is busy with a move that ran out of time, and while it
ponders: nothing of it is left within a second. tests/bot/test_exit.py ends the bot itself,
by SIGKILL and by end of input."""
import os
import sys
import time
from functools import partial
from pathlib import Path
from typing import Callable, List

import pytest
from skips import skip_if

from arena.players.process import ProcessPlayer
from records.codes import FaultKind

ROOT = Path(__file__).resolve().parents[3]
GONE_WITHIN = 1.0

pytestmark = skip_if(len(os.sched_getaffinity(0)) < 2, "one core")


def bot_player(mark_env, move_time: float) -> ProcessPlayer:
    return ProcessPlayer("bot", [sys.executable, "-m", "bot", "--time", str(move_time)],
                         cwd=str(ROOT), env=dict(mark_env, PYTHONPATH=str(ROOT)))


def seconds_to_end(player: ProcessPlayer, alive: Callable[[], List[int]]) -> float:
    """End the game; seconds until none of the bot's processes is ``alive()`` (10 at most)."""
    start = time.monotonic()
    player.end_game()
    while alive() and time.monotonic() < start + 10:
        time.sleep(0.01)
    return time.monotonic() - start


@pytest.mark.parametrize("when", ["worker busy", "pondering"])
def test_the_arena_ends_the_shipped_bot_and_its_worker(when, mark, mark_env, find_marked):
    alive = partial(find_marked, mark)
    timed_out = when == "worker busy"
    player = bot_player(mark_env, 5.0 if timed_out else 0.2)
    try:
        player.start_game(12, 12, 5, 5)
        result = player.move([12] * 12, [0] * 144, -1, -1, 0.8 if timed_out else 5.0)
        if timed_out:
            assert result.fault == FaultKind.TIMEOUT, result
        else:
            assert result.fault is None and result.point[0] == 11, result
            time.sleep(0.3)  # it ponders on the opponent's time
        assert len(alive()) == 2  # the bot and its worker
        assert seconds_to_end(player, alive) < GONE_WITHIN
    finally:
        player.close()
