"""Watching a game in the terminal: an observer that draws the board after a side's moves.

The referee knows nothing of watching; each player of a watched game is wrapped
(arena.players.observed), and since a player sees the whole board (its own view) and its own
answer, its observer can draw the board as it stands after that move. X moved first, O
second, # is the forbidden cell.
"""

import time
from typing import List, Optional, TextIO

from arena.boards import BoardSpec
from arena.players.base import MoveResult


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


class TerminalBoard:
    """An observer of the side `name` (arena.players.observed): after each of its moves,
    prints the board to `out`, the side's pieces as `mark`, and waits `delay` seconds."""

    def __init__(self, board: BoardSpec, name: str, mark: str, out: TextIO,
                 delay: float = 0.0) -> None:
        self.board, self.name, self.mark, self.out, self.delay = board, name, mark, out, delay
        self.other = "O" if mark == "X" else "X"

    def __call__(self, res: MoveResult, view: List[int]) -> None:
        M, N, no_x, no_y = self.board.M, self.board.N, self.board.no_x, self.board.no_y
        cells = [{0: ".", 1: self.other, 2: self.mark}[v] for v in view]
        cells[no_x * N + no_y] = "#"
        if res.point is not None and 0 <= res.point[0] < M and 0 <= res.point[1] < N:
            cells[res.point[0] * N + res.point[1]] = self.mark
        what = f"plays {res.point}" if res.fault is None else f"faults: {res.fault.value}"
        self.out.write(f"\n{self.mark} {self.name} {what} ({res.elapsed * 1000:.0f} ms)\n")
        self.out.write(draw(M, N, cells, res.point) + "\n")
        self.out.flush()
        time.sleep(self.delay)
