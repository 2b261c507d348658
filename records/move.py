"""A move in course coordinates and its three written forms: ``[x, y]`` (JSON) and ``"x.y"`` (as a
person writes it), each parsed and printed here, and two base-36 digits (the replay page's)."""

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, List

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Move:
    """A cell: row ``x`` (0 the top), column ``y``, course coordinates."""

    x: int
    y: int

    @classmethod
    def from_list(cls, value: Any) -> "Move":
        """A move from ``[x, y]`` (a tuple too); ValueError for anything but two whole numbers."""
        if (not isinstance(value, (list, tuple)) or len(value) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
            raise ValueError(f"expected [x, y], two whole numbers, got {value!r}")
        return cls(value[0], value[1])

    def to_list(self) -> List[int]:
        return [self.x, self.y]

    @classmethod
    def from_text(cls, text: str) -> "Move":
        """A move from ``"x.y"`` (``"8.4"``); ValueError otherwise."""
        x, dot, y = text.strip().partition(".")
        try:
            if not dot:
                raise ValueError
            return cls(int(x), int(y))
        except ValueError:
            raise ValueError(f"expected x.y, two whole numbers, got {text!r}") from None

    def to_text(self) -> str:
        return f"{self.x}.{self.y}"

    def to_base36(self) -> str:
        """Two base-36 digits, row then column (``"8c"``: 8, 12); ValueError off 0..35."""
        if not (0 <= self.x < len(DIGITS) and 0 <= self.y < len(DIGITS)):
            raise ValueError(f"{self.to_text()} has no base-36 form")
        return DIGITS[self.x] + DIGITS[self.y]


def moves_from_text(text: str) -> List[Move]:
    """A move list written ``x.y,x.y,...`` (the analysis board's URL; blanks between commas
    skipped); ValueError naming the first word that is not a move."""
    return [Move.from_text(word) for word in text.split(",") if word.strip()]


def moves_from_paste(text: str) -> List[Move]:
    """The moves a person pastes: a JSON list of ``[x, y]``, ``x.y`` words (``8.4,7.4``), or
    whole numbers read in pairs (``8 4 7 4``); ValueError saying which form it is not."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, list):
        return [Move.from_list(m) for m in data]
    words = re.findall(r"-?\d+(?:\.-?\d+)?", text)
    if not words:
        raise ValueError("no moves in the text: paste a move list (8.4,7.4 or 8 4 7 4) or a "
                         "line of games.jsonl")
    if all("." in w for w in words):
        return [Move.from_text(w) for w in words]
    numbers = [int(n) for n in re.findall(r"-?\d+", text)]
    if len(numbers) % 2:
        raise ValueError(f"{len(numbers)} numbers: a move list has two a move (x y)")
    return [Move(*numbers[i:i + 2]) for i in range(0, len(numbers), 2)]


def moves_to_base36(moves: Iterable[Iterable[int]]) -> str:
    """A game's moves (``[x, y]`` each) packed: two base-36 digits a move."""
    return "".join(Move.from_list(list(m)).to_base36() for m in moves)
