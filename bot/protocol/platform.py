"""The online platform's protocol (RULES.md): a process per game on stdin/stdout.

stdin: ``M N noX noY``, then ``lastX lastY`` before each of our moves (``-1 -1`` when we open).
stdout: per move, a 4-byte big-endian length, then the ASCII ``x y``, then flush.
The bot tracks the game itself (it is not told its own moves back) and reuses its tree; while
the opponent thinks it can go on searching (pondering) until the opponent's move arrives.
"""

from __future__ import annotations

import logging
import struct
import time
from typing import BinaryIO, Callable, Optional

from bot.choose import check_last_move, safe_decide
from bot.protocol.parse import LineSource, ints, next_line
from bot.rules import InvalidPosition, Position
from bot.search.clock import Deadline, Limit
from bot.search.mcts import MCTS

log = logging.getLogger("bot")

BUFFERED = 0.01  # seconds: a line read faster than this was already in the pipe
# Pondering stops at the opponent's move, else after this much (a bound on the tree's memory
# if the opponent thinks for long: about 300 bytes a node, one node a play-out).
PONDER_LIMIT = Limit(seconds=30.0, playouts=200_000)


def frame(x: int, y: int) -> bytes:
    """The reply for move (x, y): big-endian length, then ``x y`` in ASCII."""
    payload = f"{x} {y}".encode("ascii")
    return struct.pack(">I", len(payload)) + payload


def request_start(started: Optional[float], asked: float, reading: float, arrived: float,
                  quiet: float) -> float:
    """When the clock of a request began (perf_counter seconds), never later than it did.

    ``asked``: when we began to wait for it (before pondering); ``reading``: when we began to
    read it; ``quiet``: the last moment we saw no input (``asked`` unless pondering looked).
    A request we had to wait for began when it arrived. One read at once was already waiting:
    the first one may have been written while the process was starting, so it is timed from
    ``started`` (the process start); any other arrived after ``quiet``. Pondering looks only
    between play-outs, and before its first look it frees most of the last tree (tens of
    milliseconds for a large one): when the opponent replied at once, timing from ``arrived``
    left that time off our clock (docs/strength.md, "The clock and the budget").
    """
    if arrived - reading >= BUFFERED:
        return arrived
    if started is not None and arrived - asked < BUFFERED:
        return started
    return quiet


class LastQuiet:
    """``waiting()`` that also remembers when it last saw no input (``quiet``)."""

    def __init__(self, waiting: Callable[[], bool], since: float) -> None:
        self.waiting = waiting
        self.quiet = since

    def __call__(self) -> bool:
        looked = time.perf_counter()  # taken before the look: the input came after it
        if self.waiting():
            return True
        self.quiet = looked
        return False


def serve(stdin: LineSource, stdout: BinaryIO, limit: Limit, searcher: MCTS,
          started: Optional[float] = None, waiting: Optional[Callable[[], bool]] = None) -> None:
    """Play one game until end of input. ``started``: the process start (perf_counter
    seconds), charged to the first request if it was already waiting (see request_start).
    ``waiting``: says whether input is waiting on ``stdin``; given, the bot ponders until it
    is (``stdin`` must then be unbuffered beyond what ``waiting`` sees: bot.protocol.lines).
    Raises InvalidPosition on bad input."""
    header = next_line(stdin)
    if header is None:
        raise InvalidPosition("no header line `M N noX noY` before end of input")
    M, N, no_x, no_y = ints(header, 4, "header `M N noX noY`")
    position = Position.new(M, N, no_x, no_y)
    while True:
        asked = quiet = time.perf_counter()
        if waiting is not None and not (position.last_mover_won() or position.is_full()):
            look = LastQuiet(waiting, asked)
            log.debug("pondered: %d playouts", searcher.ponder(position, look, PONDER_LIMIT))
            quiet = look.quiet
        reading = time.perf_counter()
        line = next_line(stdin)
        arrived = time.perf_counter()
        if line is None:
            return
        last_x, last_y = ints(line, 2, "move line `lastX lastY`")
        if (last_x, last_y) == (-1, -1):
            check_last_move(position, last_x, last_y)
        else:
            position = position.play_xy(last_x, last_y)
            if position.last_mover_won() or position.is_full():
                raise InvalidPosition(f"the game is over after ({last_x}, {last_y})")
        deadline = Deadline(limit, start=request_start(started, asked, reading, arrived, quiet))
        started = None
        move = safe_decide(position, limit, searcher, deadline)
        stdout.write(frame(*position.xy(move)))
        stdout.flush()
        position = position.play_bit(move)
