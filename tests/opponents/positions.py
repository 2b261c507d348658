"""Positions for the ladder's tests: hand-checked ones, random reachable ones, and helpers
to call a getPoint-style player and check its answer against the course's rule."""

from __future__ import annotations

import random
from typing import Callable, List, NamedTuple, Sequence, Tuple

from bot.rules import Position, bits, parse_board


class View(NamedTuple):
    """The arguments of a getPoint call (board from the mover's view)."""

    M: int
    N: int
    top: List[int]
    board: List[int]
    last_x: int
    last_y: int
    no_x: int
    no_y: int


def view_of(pos: Position, last: Tuple[int, int] = (-1, -1)) -> View:
    """The getPoint arguments the side to move in ``pos`` is called with."""
    g = pos.geo
    return View(g.M, g.N, pos.top(), pos.board(), last[0], last[1], g.no_x, g.no_y)


def view(rows: Sequence[str]) -> View:
    """A view from readable rows (X to move, O opponent, # forbidden, top row first)."""
    return view_of(parse_board(rows))


def call(player: Callable, v: View) -> Tuple[int, int]:
    """The move a getPoint-style ``player`` answers in ``v``."""
    return tuple(player(v.M, v.N, v.top, v.board, v.last_x, v.last_y, v.no_x, v.no_y))


def is_legal(v: View, point: Tuple[int, int]) -> bool:
    """The course's rule, checked from top alone (independent of any rules engine)."""
    x, y = point
    return 0 <= y < v.N and v.top[y] > 0 and x == v.top[y] - 1 and (x, y) != (v.no_x, v.no_y)


def random_views(rng: random.Random) -> List[View]:
    """For every board size, games of random moves that avoid making four (so they run long),
    with the forbidden cell on the bottom row, the top row and anywhere; a few positions of
    each, from the empty board to the last one before a four or a full board."""
    views = []
    for M in range(9, 13):
        for N in range(9, 13):
            for no_x in (M - 1, 0, rng.randrange(M)):
                pos = Position.new(M, N, no_x, rng.randrange(N))
                line = [(pos, (-1, -1))]
                while True:
                    quiet = pos.possible() & ~pos.winning_cells() or pos.possible()
                    move = rng.choice(list(bits(quiet)))
                    after = pos.play_bit(move)
                    if after.last_mover_won() or after.is_full():
                        break
                    pos = after
                    line.append((pos, pos.xy(move)))
                picks = [line[0], line[-1]] + rng.sample(line, min(2, len(line)))
                views.extend(view_of(p, last) for p, last in picks)
    return views


# Hand-checked positions (9x9; X is to move).
WIN_BEFORE_BLOCK = view([
    "#........", ".........", ".........", ".........", ".........", ".........",
    "........O",
    "........O",
    "XXX.....O",
])  # X wins at (8, 3); O's threat at (5, 8) is ignored.

BLOCK_VERTICAL = view([
    "#........", ".........", ".........", ".........", ".........", ".........",
    "....O....",
    "...XO....",
    "...XO.X..",
])  # O wins at (5, 4) unless X plays there.

BLOCK_ABOVE_FORBIDDEN = view([
    ".........", ".........", ".........", ".........", ".........", ".........",
    ".........",
    "XOOO.....",
    "OXXO#X...",
])  # O wins at (7, 4); the forbidden (8, 4) below it makes it playable now.

UNDER_THREAT = view([
    "#........", ".........", ".........", ".........", ".........", ".........",
    "XOOO.....",
    "OXXO.....",
    "XOXXXO...",
])  # O wins at (6, 4): X must not play (7, 4) under it.

UNDER_THREAT_PAST_FORBIDDEN = view([
    ".........", ".........", ".........", ".........", ".........", ".........",
    "XOOO.....",
    "OXXO#....",
    "XOXX.O...",
])  # O wins at (6, 4): X playing (8, 4) opens it, the forbidden (7, 4) skipped.

DOUBLE_THREAT = view([
    ".........", ".........", ".........", ".........", ".........", ".........",
    ".........",
    ".O#......",
    ".OO...XX.",
])  # Only X at (8, 5) makes three open at both ends: two wins O cannot both stop.
DOUBLE_THREAT_MOVES = {(8, 5)}
