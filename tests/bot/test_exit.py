"""No process outlives the bot: killed (SIGKILL) or at end of input, while its forked leaf
worker is busy with its move or while it ponders, the bot as it ships leaves nothing behind
within a second (its worker exits when its pipe to the main process ends). The bot runs in a
session of its own, so /proc finds whatever it started, whoever its parent is then.
tests/arena/core/test_core_bot_exit.py does the same through the arena's process player."""

from __future__ import annotations

import os
import signal
import time
from contextlib import contextmanager
from typing import Callable, Iterator, List

import pytest
from botio import BotProcess, children, cpu_seconds, in_session
from skips import skip_if

GONE_WITHIN = 1.0  # seconds after the kill, or after the move that end of input follows
BUSY = 0.05  # CPU seconds a process spends before it counts as searching

pytestmark = skip_if(len(os.sched_getaffinity(0)) < 2, "one core")


@contextmanager
def bot_session(args: List[str]) -> Iterator[BotProcess]:
    """``python -m bot ARGS`` in a session of its own; what is left of it at the end is killed
    (a leftover holds the bot's stderr, which the end of a failed test would wait on)."""
    with BotProcess(args, new_session=True) as bot:
        try:
            yield bot
        finally:
            for pid in in_session(bot.proc.pid):
                os.kill(pid, signal.SIGKILL)


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def left_after(bot: BotProcess, seconds: float) -> List[int]:
    """The bot's processes still alive ``seconds`` from now (fewer as soon as it is empty)."""
    session = bot.proc.pid
    wait_for(lambda: not in_session(session), seconds)
    return in_session(session)


def searching(pid: int) -> Callable[[], bool]:
    """Whether ``pid`` has used BUSY CPU seconds since now."""
    start = cpu_seconds(pid)
    return lambda: cpu_seconds(pid) - start >= BUSY


@pytest.mark.parametrize("end", ["SIGKILL", "end of input"])
def test_the_bot_leaves_nothing_when_it_ends_mid_move(end):
    """Its worker busy with leaves of the bot's move; end of input is read after the move."""
    move_time = 1.0
    with bot_session(["--time", str(move_time)]) as bot:
        bot.send("12 12 5 5\n")
        assert wait_for(lambda: bool(children(bot.proc.pid)))
        (worker,) = children(bot.proc.pid)
        busy = searching(worker)
        time.sleep(0.05)  # a request that comes later than the header gets its whole time
        asked = time.monotonic()
        bot.send("-1 -1\n")
        assert wait_for(busy, move_time * 0.6), "the worker never played leaves out"
        if end == "SIGKILL":
            bot.proc.kill()
            assert left_after(bot, GONE_WITHIN) == []
        else:
            bot.end_input()
            bot.read_frame()  # it finishes the move it was asked for, then reads the end
            assert left_after(bot, asked + move_time + GONE_WITHIN - time.monotonic()) == []
            assert bot.finish() == (0, b"", b"")


@pytest.mark.parametrize("end", ["SIGKILL", "end of input"])
def test_the_bot_leaves_nothing_when_it_ends_while_pondering(end):
    with bot_session(["--time", "0.1"]) as bot:
        bot.send("12 12 5 5\n-1 -1\n")
        bot.read_frame()
        assert len(children(bot.proc.pid)) == 1  # the worker, idle while the bot ponders
        assert wait_for(searching(bot.proc.pid), 2.0), "the bot never pondered"
        if end == "SIGKILL":
            os.kill(bot.proc.pid, signal.SIGKILL)
        else:
            bot.end_input()
        assert left_after(bot, GONE_WITHIN) == []
        if end == "end of input":
            assert bot.finish() == (0, b"", b"")
