"""Lines from a file descriptor that can also say, without blocking, whether one is waiting.

``sys.stdin`` buffers ahead, so ``select()`` on its descriptor can miss a line already read
into that buffer; this reader keeps the only buffer itself, which is what pondering needs to
stop the moment the opponent's move arrives. Both protocols read stdin through it, so bytes
that are not UTF-8 become U+FFFD (and then a bad-input error, never a decoding exception).
"""

from __future__ import annotations

import os
import select

CHUNK = 65536  # bytes a read asks for


class FdLines:
    """``readline()`` (blocking, ``""`` at end of input) and ``ready()`` (non-blocking)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.start = 0  # where the unread part of ``buffer`` begins
        self.scanned = 0  # no newline in buffer[start:scanned]
        self.eof = False

    def readline(self, size: int = -1) -> str:
        """The next line with its newline (the rest of the input at its end, then ``""``);
        only its first ``size`` bytes when ``size`` >= 0 and the line is longer."""
        while True:
            newline = self.buffer.find(b"\n", max(self.start, self.scanned))
            if newline >= 0 or self.eof:
                stop = newline + 1 if newline >= 0 else len(self.buffer)
                break
            self.scanned = len(self.buffer)
            if 0 <= size <= self.scanned - self.start:
                stop = self.scanned
                break
            chunk = os.read(self.fd, CHUNK)
            self.buffer += chunk
            self.eof = not chunk
        if 0 <= size < stop - self.start:
            stop = self.start + size
        line = bytes(self.buffer[self.start:stop])
        self.start = stop
        if self.start >= CHUNK:  # drop what was read, now and then
            del self.buffer[:self.start]
            self.scanned = max(0, self.scanned - self.start)
            self.start = 0
        return line.decode("utf-8", "replace")

    def ready(self) -> bool:
        """Whether input (a line, the start of one, or its end) is waiting to be read."""
        if self.buffer.find(b"\n", self.start) >= 0 or self.eof:
            return True
        try:
            return bool(select.select([self.fd], [], [], 0)[0])
        except (OSError, ValueError):  # a descriptor select() cannot watch: do not ponder
            return True
