"""Watching a game in the terminal: an observer (arena.core.players.observed) that draws the
board after a side's moves; X moved first, O second, # is the forbidden cell."""

import time
from typing import List, TextIO

from arena.core.players.base import MoveResult
from arena.core.players.human import render
from records.board import Board
from records.result import Seat


class TerminalBoard:
    """An observer of the side `name` (arena.core.players.observed), in ``seat``: after each
    of its moves, prints the board to `out`, its pieces as the seat's symbol, and waits `delay`
    seconds."""

    def __init__(self, board: Board, name: str, seat: Seat, out: TextIO,
                 delay: float = 0.0) -> None:
        self.board, self.name, self.out, self.delay = board, name, out, delay
        self.mark, self.other = seat.symbol, seat.other.symbol

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
