"""Reading whitespace-separated integers from protocol lines, with one-line errors.

Whatever arrives, the reader ends in a value or an InvalidPosition whose one-line message is
short: a line is read up to MAX_LINE characters (so an endless line is an error, not a wait
for its end), integers are ASCII digits (``int`` also takes other scripts' digits) of at most
MAX_DIGITS, and what the message quotes of the input is cut to QUOTED characters.
"""

from __future__ import annotations

import re
from typing import List, Optional, Protocol

from bot.rules import InvalidPosition

MAX_LINE = 1 << 16  # characters; a request line of 144 cells needs a few hundred
MAX_DIGITS = 9  # any value that fits the course's C ints, no number too long to print
QUOTED = 40  # characters of the input quoted in an error message
_INTEGER = re.compile(r"[+-]?[0-9]+")


class LineSource(Protocol):
    """What the protocols read requests from: ``sys.stdin``, a ``StringIO`` in tests, or
    bot.protocol.lines.FdLines in play."""

    def readline(self, __size: int = -1) -> str: ...


def quote(text: str) -> str:
    """``text`` for an error message: stripped, cut to QUOTED characters, ASCII-escaped."""
    text = text.strip()
    return ascii(text if len(text) <= QUOTED else text[:QUOTED] + "...")


def ints(line: str, count: int, what: str) -> List[int]:
    """Exactly ``count`` integers from ``line``; InvalidPosition naming ``what`` otherwise."""
    parts = line.split()
    for part in parts:
        if not _INTEGER.fullmatch(part):
            raise InvalidPosition(f"{what}: expected {count} integers, got {quote(line)}")
        if len(part.lstrip("+-")) > MAX_DIGITS:
            raise InvalidPosition(f"{what}: {quote(part)} is out of range")
    if len(parts) != count:
        raise InvalidPosition(f"{what}: expected {count} integers, got {len(parts)}")
    return [int(part) for part in parts]


def next_line(stream: LineSource) -> Optional[str]:
    """The next non-blank line, or None at end of input."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise InvalidPosition(f"a line of over {MAX_LINE} characters: {quote(line)}")
        if not line:
            return None
        if line.strip():
            return line
