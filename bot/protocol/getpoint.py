"""The getpoint line protocol (docs/protocol.md): stateless requests for tools and tests.

Each request is three lines: ``M N noX noY lastX lastY``; ``top`` (N ints); ``board`` (M*N
ints, 0/1/2 from the bot's side). Each reply is ``x y`` and a newline.
"""

from __future__ import annotations

from typing import TextIO

from bot.choose import choose_move
from bot.protocol.parse import LineSource, ints, next_line
from bot.rules import InvalidPosition, geometry
from bot.search.clock import Limit
from bot.search.mcts import MCTS


def serve(stdin: LineSource, stdout: TextIO, limit: Limit, searcher: MCTS) -> None:
    """Answer requests until end of input; raises InvalidPosition on a bad request."""
    while True:
        head = next_line(stdin)
        if head is None:
            return
        M, N, no_x, no_y, last_x, last_y = ints(head, 6, "request `M N noX noY lastX lastY`")
        geometry(M, N, no_x, no_y)  # validates the sizes before reading M*N numbers
        top = ints(_required(stdin, "top"), N, "top")
        board = ints(_required(stdin, "board"), M * N, "board")
        x, y = choose_move(M, N, top, board, last_x, last_y, no_x, no_y, limit, searcher)
        stdout.write(f"{x} {y}\n")
        stdout.flush()


def _required(stdin: LineSource, what: str) -> str:
    line = next_line(stdin)
    if line is None:
        raise InvalidPosition(f"end of input before the {what} line")
    return line
