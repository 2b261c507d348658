"""Watching a game in the terminal: a Player wrapper that draws the board after its moves.

The referee knows nothing of watching; each player of a watched game is wrapped, and since a
player sees the whole board (its own view) and its own answer, it can draw the board as it
stands after that move. X moved first, O second, # is the forbidden cell.
"""

import time
from typing import List, Optional, TextIO

from arena.players.base import MoveResult, Player


def draw(M: int, N: int, cells: List[str], last: Optional[tuple] = None) -> str:
    """Rows top to bottom (x = 0 first), column numbers underneath; the last move bracketed."""
    lines = []
    for x in range(M):
        row = ""
        for y in range(N):
            c = cells[x * N + y]
            row += f"[{c}]" if last == (x, y) else f" {c} "
        lines.append(f"{x:2d} {row}")
    lines.append("   " + "".join(f"{y:^3d}" for y in range(N)))
    return "\n".join(lines)


class Watched(Player):
    """Delegates to `inner`; after each of its moves prints the board to `out`."""

    def __init__(self, inner: Player, mark: str, out: TextIO, delay: float = 0.0) -> None:
        self.inner, self.mark, self.out, self.delay = inner, mark, out, delay
        self.name = inner.name
        self.other = "O" if mark == "X" else "X"
        self.shape = (0, 0, -1, -1)

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        self.shape = (M, N, no_x, no_y)
        return self.inner.start_game(M, N, no_x, no_y)

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        res = self.inner.move(top, board, last_x, last_y, time_limit)
        M, N, no_x, no_y = self.shape
        cells = [{0: ".", 1: self.other, 2: self.mark}[v] for v in board]
        cells[no_x * N + no_y] = "#"
        if res.point is not None and 0 <= res.point[0] < M and 0 <= res.point[1] < N:
            cells[res.point[0] * N + res.point[1]] = self.mark
        what = f"plays {res.point}" if res.fault is None else f"faults: {res.fault.value}"
        self.out.write(f"\n{self.mark} {self.name} {what} ({res.elapsed * 1000:.0f} ms)\n")
        self.out.write(draw(M, N, cells, res.point) + "\n")
        self.out.flush()
        time.sleep(self.delay)
        return res

    def end_game(self) -> None:
        self.inner.end_game()

    def stderr_tail(self) -> str:
        return self.inner.stderr_tail()

    def close(self) -> None:
        self.inner.close()
