"""The time manager: a per-move limit (seconds and/or play-outs) and the deadline it sets.

The search polls ``Deadline.expired()`` itself between iterations; nothing interrupts it from
outside, so a move is always complete when the clock runs out.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Limit:
    """How much one move may search: ``seconds`` of wall time and/or ``playouts`` (iterations).

    None means no bound of that kind; at least one should be set.
    """

    seconds: Optional[float] = None
    playouts: Optional[int] = None


class Deadline:
    """Started when the move's request arrived; ``expired`` after the limit is reached."""

    __slots__ = ("start", "end", "max_playouts")

    def __init__(self, limit: Limit, start: Optional[float] = None) -> None:
        self.start = time.perf_counter() if start is None else start
        self.end = None if limit.seconds is None else self.start + limit.seconds
        self.max_playouts = limit.playouts

    def expired(self, playouts: int) -> bool:
        """Whether the search must stop after ``playouts`` iterations."""
        if self.max_playouts is not None and playouts >= self.max_playouts:
            return True
        return self.past()

    def clock_only(self) -> bool:
        """Whether only the clock bounds the move (no play-out cap). Only then does its search
        use a second process or search on after the guard: both go by the clock, and a
        capped search's moves must repeat exactly."""
        return self.end is not None and self.max_playouts is None

    def past(self) -> bool:
        """Whether the time (not the play-out count) has run out."""
        return self.end is not None and time.perf_counter() >= self.end

    def shortened(self, share: float) -> Deadline:
        """The same deadline with ``share`` of its time left out at the end (the play-out
        count unchanged): the time a later step of the same move keeps for itself."""
        early = Deadline(Limit(playouts=self.max_playouts), self.start)
        if self.end is not None:
            early.end = self.end - share * (self.end - self.start)
        return early

    def elapsed(self) -> float:
        """Seconds since the request arrived."""
        return time.perf_counter() - self.start


def process_age() -> Optional[float]:
    """Seconds since this process started (interpreter start-up included), from /proc on
    Linux; None where that is not available. The first move's clock starts then."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        return max(0.0, uptime - int(fields[19]) / ticks)
    except (OSError, ValueError, IndexError, AttributeError):
        return None
