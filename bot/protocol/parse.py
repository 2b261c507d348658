"""Reading whitespace-separated integers from protocol lines, with one-line errors."""

from __future__ import annotations

from typing import List, Optional, TextIO

from bot.rules import InvalidPosition


def ints(line: str, count: int, what: str) -> List[int]:
    """Exactly ``count`` integers from ``line``; InvalidPosition naming ``what`` otherwise."""
    parts = line.split()
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise InvalidPosition(f"{what}: expected {count} integers, got {line.strip()!r}") from None
    if len(values) != count:
        raise InvalidPosition(f"{what}: expected {count} integers, got {len(values)}")
    return values


def next_line(stream: TextIO) -> Optional[str]:
    """The next non-blank line, or None at end of input."""
    while True:
        line = stream.readline()
        if not line:
            return None
        if line.strip():
            return line
