"""Drain a child's stderr in a thread and keep only its last bytes.

A player that floods stderr must neither block on a full pipe (it would lose on time for
writing diagnostics) nor fill the arena's memory; the student still sees why it failed.
"""
import os
import threading
from typing import Optional

from arena.players.base import STDERR_TAIL_BYTES


class StderrTail:
    """Reads ``fd`` until end of file (then closes it), keeping the last ``limit`` bytes.

    ``mark(token)`` waits until ``token`` has come through the pipe: everything written before
    it (by any writer) is then in the tail. ``reset()`` starts a new game's tail.
    """

    def __init__(self, fd: int, limit: int = STDERR_TAIL_BYTES) -> None:
        self._fd, self._limit = fd, limit
        self._buf = bytearray()
        self._seen = bytearray()  # recent bytes, for finding marks that span reads
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._drain, name="stderr-tail", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self._fd, 65536)
            except OSError:
                chunk = b""
            with self._cond:
                if not chunk:
                    os.close(self._fd)
                    self._closed = True
                    self._cond.notify_all()
                    return
                self._buf += chunk
                del self._buf[:-self._limit]
                self._seen += chunk
                del self._seen[:-256]
                self._cond.notify_all()

    def wait_for(self, token: bytes, timeout: float) -> bool:
        """Wait until ``token`` came through, then drop it from the tail; False on timeout."""
        with self._cond:
            self._cond.wait_for(lambda: token in self._seen or self._closed, timeout)
            if token not in self._seen:
                return False
            self._seen.clear()
            at = self._buf.rfind(token)
            if at >= 0:
                del self._buf[at:at + len(token)]
            return True

    def reset(self) -> None:
        """Forget what was kept (a new game starts)."""
        with self._cond:
            self._buf.clear()

    def text(self) -> str:
        """The kept tail, decoded leniently."""
        with self._cond:
            return self._buf.decode("utf-8", errors="replace")

    def join(self, timeout: Optional[float]) -> None:
        """Wait for end of file (every writer gone), at most ``timeout`` seconds."""
        self._thread.join(timeout)
