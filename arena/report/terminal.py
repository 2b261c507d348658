"""Watching a game in the terminal: an observer that draws the board after a side's moves.

The referee knows nothing of watching; each player of a watched game is wrapped
(arena.core.players.observed), and since a player sees the whole board (its own view) and its own
answer, its observer can draw the board as it stands after that move. X moved first, O
second, # is the forbidden cell.
"""

import time
from typing import List, TextIO

from arena.core.players.base import MoveResult
from arena.core.players.human import render
from records.board import Board


class TerminalBoard:
    """An observer of the side `name` (arena.core.players.observed): after each of its moves,
    prints the board to `out`, the side's pieces as `mark`, and waits `delay` seconds."""

    def __init__(self, board: Board, name: str, mark: str, out: TextIO,
                 delay: float = 0.0) -> None:
        self.board, self.name, self.mark, self.out, self.delay = board, name, mark, out, delay
        self.other = "O" if mark == "X" else "X"

    def __call__(self, res: MoveResult, view: List[int]) -> None:
        M, N, no_x, no_y = self.board.M, self.board.N, self.board.no_x, self.board.no_y
        after = list(view)
        if res.point is not None and 0 <= res.point[0] < M and 0 <= res.point[1] < N:
            after[res.point[0] * N + res.point[1]] = 2
        what = f"plays {res.point}" if res.fault is None else f"faults: {res.fault.value}"
        self.out.write(f"\n{self.mark} {self.name} {what} ({res.elapsed * 1000:.0f} ms)\n")
        self.out.write(render(M, N, no_x, no_y, after, res.point, self.mark, self.other) + "\n")
        self.out.flush()
        time.sleep(self.delay)
