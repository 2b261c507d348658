"""No process outlives the bot: killed (SIGKILL) or at end of input, while its forked leaf
worker is busy with its move or while it ponders, the bot as it ships leaves nothing behind
(its worker exits when its pipe to the main process ends: within a second; the tests wait
up to botio.WAIT, so that a loaded machine does not fail them). The bot runs in a session of
its own, so its session finds whatever it started, whoever its parent is then.
tests/arena/core/test_core_bot_exit.py does the same through the arena's process player."""

from __future__ import annotations

import os
import signal
from contextlib import contextmanager
from typing import Iterator, List

import pytest
from botio import BotProcess, children, searching
from skips import skip_if
from waits import wait_until

from arena.children.reaper import in_session
from bot.search.fork import spare_cores

pytestmark = skip_if(spare_cores() < 1, "one core")


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


def left_behind(bot: BotProcess) -> List[int]:
    """The bot's processes still alive once none is, or once botio.WAIT has passed."""
    session = bot.proc.pid
    wait_until(lambda: not in_session(session))
    return in_session(session)


@pytest.mark.parametrize("end", ["SIGKILL", "end of input"])
def test_the_bot_leaves_nothing_when_it_ends_mid_move(end):
    """Its worker busy with leaves of the bot's move; end of input is read after the move."""
    # SIGKILL comes as soon as the worker is busy, so a long move costs nothing and is still
    # on however late that is; end of input waits for the move to be played out
    move_time = 10.0 if end == "SIGKILL" else 1.0
    with bot_session(["--time", str(move_time)]) as bot:
        bot.send("12 12 5 5\n")
        worker = bot.pondering()  # so the move gets its whole time, however slow the start
        busy = searching(worker)
        bot.send("-1 -1\n")
        assert wait_until(busy), "the worker never played leaves out"
        if end == "SIGKILL":
            bot.proc.kill()
            assert left_behind(bot) == []
        else:
            bot.end_input()
            bot.read_frame()  # it finishes the move it was asked for, then reads the end
            assert left_behind(bot) == []
            assert bot.finish() == (0, b"", b"")


@pytest.mark.parametrize("end", ["SIGKILL", "end of input"])
def test_the_bot_leaves_nothing_when_it_ends_while_pondering(end):
    with bot_session(["--time", "0.1"]) as bot:
        bot.send("12 12 5 5\n-1 -1\n")
        bot.read_frame()
        assert len(children(bot.proc.pid)) == 1  # the worker, idle while the bot ponders
        assert wait_until(searching(bot.proc.pid)), "the bot never pondered"
        if end == "SIGKILL":
            os.kill(bot.proc.pid, signal.SIGKILL)
        else:
            bot.end_input()
        assert left_behind(bot) == []
        if end == "end of input":
            assert bot.finish() == (0, b"", b"")
