"""Deadline-bounded reads from a child's pipe: nothing a player writes can block the arena past
a deadline or make it hold more than a few bytes beyond what it asked for."""
import os
import select
import time
from typing import Callable, Optional

POLL = 0.05  # seconds between checks that the writer is still alive while the pipe is silent


class PipeTimeout(Exception):
    """The deadline passed before the whole message arrived."""


class PipeClosed(Exception):
    """End of file, or the writer died, before the whole message arrived."""


class PipeReader:
    """Reads exact byte counts or lines from ``fd`` before a deadline; ``alive()``, asked after
    each silent ``POLL``, notices a dead writer whose pipe a stray grandchild holds open."""

    def __init__(self, fd: int, alive: Optional[Callable[[], bool]] = None) -> None:
        self._fd = fd
        self._alive = alive or (lambda: True)
        self._buf = bytearray()
        os.set_blocking(fd, False)

    def _fill(self, deadline: float, want: int) -> None:
        """Read at most ``want`` more bytes (at least one) before ``deadline``."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise PipeTimeout()
            ready, _, _ = select.select([self._fd], [], [], min(left, POLL))
            if not ready:
                if not self._alive():
                    raise PipeClosed("exited")
                continue
            try:
                chunk = os.read(self._fd, max(1, want))
            except BlockingIOError:
                continue
            if not chunk:
                raise PipeClosed("closed its output")
            self._buf += chunk
            return

    def read_exact(self, n: int, deadline: float) -> bytes:
        """Exactly ``n`` bytes; never reads past them."""
        while len(self._buf) < n:
            self._fill(deadline, n - len(self._buf))
        data = bytes(self._buf[:n])
        del self._buf[:n]
        return data

    def read_line(self, deadline: float, limit: int) -> bytes:
        """One line without its newline; ``ValueError`` when it grows past ``limit`` bytes."""
        while True:
            end = self._buf.find(b"\n")
            if end >= 0:
                line = bytes(self._buf[:end])
                del self._buf[:end + 1]
                return line
            if len(self._buf) > limit:
                raise ValueError(f"line longer than {limit} bytes")
            self._fill(deadline, 4096)
