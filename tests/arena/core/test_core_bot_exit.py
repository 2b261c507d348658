"""The bot as it ships, run by the arena's process player and ended by it (SIGKILL to its
session) while its forked leaf worker is busy with a move that ran out of time, and while it
ponders: nothing of it is left (the test waits up to waits.PATIENCE for that; the move
alone would last a minute). tests/bot/test_exit.py ends the bot itself, by SIGKILL and by end
of input."""
import os
import sys
from functools import partial
from pathlib import Path

import psutil
import pytest
from procs import cpu_seconds
from skips import skip_if
from waits import PATIENCE, nothing, wait_until

from arena.core.players.process import ProcessPlayer
from bot.search.fork import spare_cores
from records.codes import FaultKind

ROOT = Path(__file__).resolve().parents[3]
LONG_MOVE = 60.0  # seconds the bot thinks where its move must time out (at 0.8 s)
BUSY = 0.1  # CPU seconds a process spends, once watched, before it counts as busy

pytestmark = skip_if(spare_cores() < 1, "one core")


def bot_player(mark_env, move_time: float) -> ProcessPlayer:
    return ProcessPlayer("bot", [sys.executable, "-m", "bot", "--time", str(move_time)],
                         cwd=str(ROOT), env=dict(mark_env, PYTHONPATH=str(ROOT)))


@pytest.mark.parametrize("when", ["worker busy", "pondering"])
def test_the_arena_ends_the_shipped_bot_and_its_worker(when, mark, mark_env, find_marked):
    alive = partial(find_marked, mark)
    timed_out = when == "worker busy"
    player = bot_player(mark_env, LONG_MOVE if timed_out else 0.2)
    try:
        player.start_game(12, 12, 5, 5)
        result = player.move([12] * 12, [0] * 144, -1, -1, 0.8 if timed_out else PATIENCE)
        if timed_out:
            assert result.fault == FaultKind.TIMEOUT, result
        else:
            assert result.fault is None and result.point[0] == 11, result
        pids = wait_until(alive, lambda pids: len(pids) == 2)
        assert len(pids) == 2, pids  # the bot and its worker (forked as the bot starts)
        (bot,) = [p for p in pids if psutil.Process(p).ppid() == os.getpid()]
        # The worker plays out leaves of the bot's move; pondering runs in the bot alone.
        busy = bot if not timed_out else next(p for p in pids if p != bot)
        start = cpu_seconds(busy)
        assert wait_until(lambda: cpu_seconds(busy) - start >= BUSY), f"not busy: {when}"
        player.end_game()
        assert wait_until(alive, nothing) == []
    finally:
        player.close()
