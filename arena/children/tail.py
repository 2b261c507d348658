"""Drain a child's stderr in a thread and keep only its last bytes: a player that floods stderr
neither blocks on a full pipe (losing on time) nor fills the arena's memory."""
import os
import threading
from typing import Optional

STDERR_TAIL_BYTES = 4096  # how much of a player's stderr is kept for the record


def _partial_suffix(data: bytes, marker: bytes) -> int:
    """Length of the longest end of ``data`` that could be the start of ``marker``."""
    for n in range(min(len(marker) - 1, len(data)), 0, -1):
        if marker.startswith(data[-n:]):
            return n
    return 0


class StderrTail:
    """Reads ``fd`` until end of file (then closes it), keeping the last ``limit`` bytes. A
    writer sharing the pipe (the ``.so`` host) writes ``marker`` to say "all before this is
    mine to report": markers are cut out and counted, and ``wait_mark`` waits for the next."""

    def __init__(self, fd: int, limit: int = STDERR_TAIL_BYTES, marker: bytes = b"") -> None:
        self._fd, self._limit, self._marker = fd, limit, marker
        self._buf = bytearray()
        self._carry = b""  # a possible marker cut in two by a read
        self._marks = 0
        self._closed = False
        self._cond = threading.Condition()
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
                    self._keep(self._carry)
                    os.close(self._fd)
                    self._closed = True
                    self._cond.notify_all()
                    return
                data = self._carry + chunk
                if self._marker:
                    self._marks += data.count(self._marker)
                    data = data.replace(self._marker, b"")
                    cut = _partial_suffix(data, self._marker)
                    data, self._carry = data[:len(data) - cut], data[len(data) - cut:]
                self._keep(data)
                self._cond.notify_all()

    def _keep(self, data: bytes) -> None:
        self._buf += data
        del self._buf[:-self._limit]

    def wait_mark(self, timeout: float) -> bool:
        """Wait for the next marker (consuming it); False on timeout or end of file."""
        with self._cond:
            self._cond.wait_for(lambda: self._marks > 0 or self._closed, timeout)
            if self._marks == 0:
                return False
            self._marks -= 1
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
