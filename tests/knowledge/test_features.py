"""The pattern features, hand-checked, and the weights file's round trip."""

import json

import numpy as np

from knowledge.features import (
    DUMMY,
    PATTERNS,
    SENTINEL,
    Game,
    empty_parity,
    pattern_indices,
    positions,
)
from knowledge.train import Model


def test_empty_parity_hand_checked():
    # 9x9 (T = 80, even): the bottom cell (r = 0) is the first mover's; the forbidden cell in
    # column 1 at height 2 (course row 6) shifts the parity of the cells above it.
    grid = empty_parity(9, 9, 6, 1)
    assert list(grid[:5, 0]) == [0, 1, 0, 1, 0]
    assert list(grid[:5, 1]) == [0, 1, SENTINEL, 0, 1]
    assert grid[9, 0] == SENTINEL and grid[0, 9] == SENTINEL
    # 10x9 (T = 89, odd): the roles swap.
    assert list(empty_parity(10, 9, 0, 0)[:3, 4]) == [1, 0, 1]


def test_positions_mark_pieces_and_playable_cells():
    # Forbidden cell on the bottom row of column 2: that column's playable cell is height 1,
    # its first playable cell (r = 0, the first mover's parity on 9x9: playable, 2).
    game = Game(9, 9, 8, 2, 0, (2, 2, 0), (-1, -1, -1))
    codes = [grid for _, grid in positions(game)]
    start, after = codes[0], codes[-1]
    assert start[0, 2] == SENTINEL and start[1, 2] == 2 and start[2, 2] == 1
    assert after[1, 2] == 4 and after[2, 2] == 5 and after[3, 2] == 2
    assert after[0, 0] == 4 and after[1, 0] == 3
    # The forbidden cell just above a piece: column 4's cell at height 1 is forbidden, so the
    # piece at height 0 makes height 2 playable.
    below = Game(9, 9, 7, 4, 0, (4,), (-1,))
    grid = [g for _, g in positions(below)][-1]
    assert grid[0, 4] == 4 and grid[1, 4] == SENTINEL and grid[2, 4] == 2 + 1


def test_a_line_index_hand_checked():
    # 9x9, forbidden cell top right; the first mover played column 0. The horizontal line from
    # the bottom-left corner: the piece (4), then three playable cells of the first mover's
    # parity (2): 4 + 2*6 + 2*36 + 2*216.
    game = Game(9, 9, 0, 8, 0, (0,), (-1,))
    grid = [g for _, g in positions(game)][-1]
    index = pattern_indices(grid[None])[0]
    assert index[0] == 4 + 2 * 6 + 2 * 36 + 2 * 216
    # vertical from the same corner: the piece, then playable (3), 0, 1 by row parity
    assert index[1 * 144] == PATTERNS + 4 + 3 * 6 + 0 * 36 + 1 * 216


def test_lines_skip_the_forbidden_cell_and_the_edges():
    game = Game(9, 9, 4, 4, 0, (), ())  # forbidden cell in the middle
    index = pattern_indices(next(g for _, g in positions(game))[None])[0]
    # 6*9 horizontal + 9*6 vertical + 2*6*6 diagonal lines; the middle cell removes 4 of each
    assert (index != DUMMY).sum() == 54 + 54 + 72 - 16


def test_weights_file_round_trip():
    rng = np.random.default_rng(3)
    model = Model()
    model.weights[:DUMMY] = np.round(rng.normal(0, 0.3, DUMMY), 4)  # as the file rounds them
    model.bias[:] = np.round(rng.normal(0, 0.3, 2), 4)
    data = json.loads(json.dumps(model.to_json({"games": 0})))
    back = Model.from_json(data)
    game = Game(10, 11, 3, 5, 1, (5, 5, 4, 6, 3), (-1,) * 5)
    grids = np.array([g for _, g in positions(game)])
    to_move = np.arange(len(grids)) % 2
    assert np.allclose(back.predict(pattern_indices(grids), to_move),
                       model.predict(pattern_indices(grids), to_move))
    assert data["format"] == "c4-line-patterns/1" and len(data["weights"]) == 4
