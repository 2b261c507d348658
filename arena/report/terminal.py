"""Watching a game in the terminal (`arena game --watch`)."""

import time
from typing import List, TextIO

from arena.core.players.base import MoveResult
from arena.core.players.human import render
from arena.core.players.observed import Observer
from records.board import Board
from records.result import Seat


def terminal_board(board: Board, name: str, seat: Seat, out: TextIO,
                   delay: float = 0.0) -> Observer:
    """An observer (arena.core.players.observed) of the side `name` in `seat`: after each of its
    moves it prints the board to `out` (X moved first, O second, # the forbidden cell) and waits
    `delay` seconds."""
    M, N, no_x, no_y = board.to_list()

    def show(res: MoveResult, view: List[int]) -> None:
        after = list(view)
        if res.point is not None and 0 <= res.point[0] < M and 0 <= res.point[1] < N:
            after[res.point[0] * N + res.point[1]] = 2
        what = f"plays {res.point}" if res.fault is None else f"faults: {res.fault.value}"
        out.write(f"\n{seat.symbol} {name} {what} ({res.elapsed * 1000:.0f} ms)\n")
        out.write(render(M, N, no_x, no_y, after, res.point, seat.symbol, seat.other.symbol)
                  + "\n")
        out.flush()
        time.sleep(delay)

    return show
