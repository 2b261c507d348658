"""Lines from a file descriptor that can also say, without blocking, whether one is waiting.

``sys.stdin`` buffers ahead, so ``select()`` on its descriptor can miss a line already read
into that buffer; this reader keeps the only buffer itself, which is what pondering needs to
stop the moment the opponent's move arrives.
"""

from __future__ import annotations

import os
import select


class FdLines:
    """``readline()`` (blocking, ``""`` at end of input) and ``ready()`` (non-blocking)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.eof = False

    def readline(self) -> str:
        """The next line with its newline (the rest of the input at its end, then ``""``)."""
        while b"\n" not in self.buffer and not self.eof:
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.buffer += chunk
            else:
                self.eof = True
        line, newline, self.buffer = self.buffer.partition(b"\n")
        return (line + newline).decode("utf-8", "replace")

    def ready(self) -> bool:
        """Whether input (a line, the start of one, or its end) is waiting to be read."""
        if b"\n" in self.buffer or self.eof:
            return True
        try:
            return bool(select.select([self.fd], [], [], 0)[0])
        except (OSError, ValueError):  # a descriptor select() cannot watch: do not ponder
            return True
