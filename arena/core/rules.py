"""The referee's own board: plain lists, slow and obvious on purpose, as the judge the fast bot
is checked against. ``x`` is the row from the top, ``y`` the column; ``cells[x * N + y]`` holds
0 (empty, always for the forbidden cell), 1 (first player) or 2 (second player); ``top[y]`` is
the course's (the next piece lands on row ``top[y] - 1``, the forbidden cell skipped)."""
from typing import List, Tuple

Cell = Tuple[int, int]

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # horizontal, vertical, both diagonals


class Grid:
    """A game in progress on one board; pieces are 1 (first player) and 2 (second player)."""

    def __init__(self, M: int, N: int, no_x: int, no_y: int) -> None:
        self.M, self.N, self.no_x, self.no_y = M, N, no_x, no_y
        self.cells: List[int] = [0] * (M * N)
        self.top: List[int] = [M] * N
        if no_x == M - 1:
            self.top[no_y] = M - 1

    def is_legal(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` is where the next piece of column ``y`` lands."""
        return (0 <= x < self.M and 0 <= y < self.N and self.top[y] == x + 1
                and (x, y) != (self.no_x, self.no_y))

    def play(self, x: int, y: int, piece: int) -> None:
        """Drop ``piece`` at ``(x, y)``; the move must be legal."""
        if not self.is_legal(x, y):
            raise ValueError(f"illegal move ({x}, {y})")
        self.cells[x * self.N + y] = piece
        self.top[y] -= 1
        if x == self.no_x + 1 and y == self.no_y:
            self.top[y] -= 1

    def at(self, x: int, y: int) -> int:
        """The piece at ``(x, y)``, 0 when empty or off the board."""
        if 0 <= x < self.M and 0 <= y < self.N:
            return self.cells[x * self.N + y]
        return 0

    def four_through(self, x: int, y: int) -> List[Cell]:
        """The longest line of four or more through the piece at ``(x, y)``, else ``[]`` (the
        forbidden cell, always empty, breaks every line through it)."""
        piece = self.at(x, y)
        best: List[Cell] = []
        for dx, dy in _DIRECTIONS:
            line = [(x, y)]
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while piece and self.at(cx, cy) == piece:
                    line.append((cx, cy))
                    cx, cy = cx + sign * dx, cy + sign * dy
            if len(line) >= 4 and len(line) > len(best):
                best = sorted(line)
        return best

    def is_full(self) -> bool:
        """Every column full (``top[y] == 0``): the course's tie condition."""
        return all(t == 0 for t in self.top)

    def view(self, piece: int) -> List[int]:
        """The cells as ``piece`` sees them in getPoint: 2 its own, 1 the opponent's, 0 empty."""
        return [0 if c == 0 else (2 if c == piece else 1) for c in self.cells]
