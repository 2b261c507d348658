"""A game's board (../shared/RULES.md) and its JSON form ``[M, N, no_x, no_y]``, parsed here with
one line per mistake."""

from dataclasses import dataclass
from typing import Any, List

SIZES = range(9, 13)  # the course's rows and columns


class BoardError(ValueError):
    """A board that is not one of the course's: the message is one line."""


@dataclass(frozen=True)
class Board:
    """M rows by N columns (9..12 each); the forbidden cell: row no_x from the top, column no_y."""

    M: int
    N: int
    no_x: int
    no_y: int

    def to_list(self) -> List[int]:
        """``[M, N, no_x, no_y]``, the board's JSON form."""
        return [self.M, self.N, self.no_x, self.no_y]

    @classmethod
    def from_list(cls, value: Any) -> "Board":
        """A course board from ``[M, N, no_x, no_y]``; BoardError naming what is wrong."""
        if not isinstance(value, (list, tuple)) or len(value) != 4 or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise BoardError(f"board: expected [M, N, no_x, no_y] (four whole numbers), "
                             f"got {value!r}")
        M, N, no_x, no_y = value
        for name, size in (("M", M), ("N", N)):
            if size not in SIZES:
                raise BoardError(f"board: {name} = {size} is not within 9..12")
        if not (0 <= no_x < M and 0 <= no_y < N):
            raise BoardError(f"board: the forbidden cell ({no_x}, {no_y}) is not on a "
                             f"{M}x{N} board")
        return cls(M, N, no_x, no_y)

    def __str__(self) -> str:
        return f"{self.M}x{self.N}, forbidden ({self.no_x}, {self.no_y})"
