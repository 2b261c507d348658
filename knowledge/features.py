"""The pattern features of a position, in numpy, for training and measuring the evaluation.

Every four-cell line of the board (horizontal, vertical and both diagonals; none through the
forbidden cell) is one pattern; each of its cells is in one of ``STATES`` states, seen from
the FIRST mover:

    0  empty, and the first mover's under follow-up (claimeven) play
    1  empty, and the second mover's under follow-up play
    2  empty like 0, and playable now        3  empty like 1, and playable now
    4  the first mover's piece               5  the second mover's piece

An empty cell's owner under follow-up play: with T playable cells on the board, a cell whose
index among its column's playable cells (counted from 0 at the bottom, the forbidden cell
skipped) is r goes to the first mover if r + T is even. So the forbidden cell shifts the
parity of the cells above it, and boards of an odd T swap the roles, with one set of weights.

A line's pattern is sum(state_k * 6**k) over its cells k = 0..3 in the direction's order; one
weight table per direction (tests/knowledge/test_features.py checks hand-made positions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, List, Sequence, Tuple

import numpy as np

STATES = 6
PATTERNS = STATES ** 4
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (rows up, columns right): H, V, D1, D2
SIZE = 12  # the largest board side; smaller boards are padded
PAD = 3  # room for a line to run off the board
SENTINEL = STATES  # code of a cell outside the board or the forbidden cell: no line through it


@dataclass(frozen=True)
class Game:
    """A self-play game: board, winner (1 first, 2 second, 0 draw), columns, search values."""

    M: int
    N: int
    no_x: int
    no_y: int
    winner: int
    columns: Tuple[int, ...]
    values: Tuple[int, ...]  # percent for the side to move before each ply; -1 unknown


def parse_game(line: str) -> Game:
    """One line of knowledge/selfplay.cpp's output."""
    head, columns, values = line.split("|")
    M, N, no_x, no_y, winner = (int(v) for v in head.split())
    return Game(M, N, no_x, no_y, winner, tuple(int(c) for c in columns.split()),
                tuple(int(v) for v in values.split()))


def empty_parity(M: int, N: int, no_x: int, no_y: int) -> np.ndarray:
    """(SIZE, SIZE) by height from the bottom: 0 where an empty cell is the first mover's under
    follow-up play, 1 where it is the second's (module docstring); SENTINEL off the board."""
    grid = np.full((SIZE, SIZE), SENTINEL, dtype=np.int8)
    total = M * N - 1
    forbidden_h = M - 1 - no_x
    for y in range(N):
        for h in range(M):
            if y == no_y and h == forbidden_h:
                continue
            r = h - (1 if y == no_y and h > forbidden_h else 0)
            grid[h, y] = (r + total) % 2
    return grid


def positions(game: Game) -> Iterator[Tuple[int, np.ndarray]]:
    """(ply, codes) before every ply of the game and after the last: codes is (SIZE, SIZE) of
    STATES by height from the bottom, SENTINEL off the board and at the forbidden cell."""
    parity = empty_parity(game.M, game.N, game.no_x, game.no_y)
    codes = parity.copy()
    heights = [0] * game.N
    forbidden_h = game.M - 1 - game.no_x
    for y in range(game.N):
        if y == game.no_y and forbidden_h == 0:
            heights[y] = 1
        if heights[y] < game.M:
            codes[heights[y], y] += 2
    for ply in range(len(game.columns) + 1):
        yield ply, codes.copy()
        if ply == len(game.columns):
            return
        y = game.columns[ply]
        h = heights[y]
        codes[h, y] = 4 + ply % 2
        h += 1
        if y == game.no_y and h == forbidden_h:
            h += 1
        heights[y] = h
        if h < game.M:
            codes[h, y] += 2


def _window_cells() -> List[np.ndarray]:
    """For each direction, the flat indices into the padded grid of every line's four cells:
    an array (lines, 4), lines starting at every cell of the SIZE x SIZE board."""
    side = SIZE + 2 * PAD
    out = []
    for dh, dy in DIRECTIONS:
        starts = [(h, y) for h in range(SIZE) for y in range(SIZE)]
        cells = np.array([[(PAD + h + k * dh) * side + PAD + y + k * dy for k in range(4)]
                          for h, y in starts], dtype=np.int32)
        out.append(cells)
    return out


WINDOWS = _window_cells()


def pattern_indices(codes: np.ndarray) -> np.ndarray:
    """(P, 4 * SIZE * SIZE) indices into the flat weights (direction d's table at d * PATTERNS),
    ``DUMMY`` for a line that leaves the board or meets the forbidden cell."""
    P = codes.shape[0]
    side = SIZE + 2 * PAD
    padded = np.full((P, side, side), SENTINEL, dtype=np.int8)
    padded[:, PAD:PAD + SIZE, PAD:PAD + SIZE] = codes
    flat = padded.reshape(P, -1).astype(np.int32)
    parts = []
    for d, cells in enumerate(WINDOWS):
        c = flat[:, cells]  # (P, lines, 4)
        index = c[..., 0] + STATES * c[..., 1] + STATES ** 2 * c[..., 2] + STATES ** 3 * c[..., 3]
        valid = (c < SENTINEL).all(axis=2)
        parts.append(np.where(valid, index + d * PATTERNS, DUMMY))
    return np.concatenate(parts, axis=1)


DUMMY = len(DIRECTIONS) * PATTERNS  # the slot of lines that do not exist; its weight stays 0
WEIGHTS = DUMMY + 1


def dataset(games: Sequence[Game], every: int = 1) -> Tuple[np.ndarray, ...]:
    """Every ``every``-th position of each game, before its end: codes (P, SIZE, SIZE), to-move
    (0 first, 1 second), the outcome for the first mover (1, 0.5, 0), the generator's search
    value for the first mover (NaN where none ran) and the filled cells."""
    codes, to_move, outcome, value, filled = [], [], [], [], []
    for game in games:
        result = {1: 1.0, 2: 0.0, 0: 0.5}[game.winner]
        for ply, grid in positions(game):
            if ply % every or ply == len(game.columns):
                continue
            v = game.values[ply]
            codes.append(grid)
            to_move.append(ply % 2)
            outcome.append(result)
            value.append(np.nan if v < 0 else (v if ply % 2 == 0 else 100 - v) / 100)
            filled.append(ply)
    return (np.array(codes, dtype=np.int8), np.array(to_move, dtype=np.int8),
            np.array(outcome, dtype=np.float32), np.array(value, dtype=np.float32),
            np.array(filled, dtype=np.int16))
