"""The trainer's numpy features and the bot's pure-Python evaluation define the same value."""

import random

import numpy as np
import pytest

from bot.rules import Position
from bot.search.patterns import BoardPatterns, PatternWeights
from knowledge.features import (
    DIRECTIONS,
    PATTERNS,
    SENTINEL,
    Game,
    empty_parity,
    pattern_indices,
    positions,
)
from knowledge.train import Model


def random_game(rng: random.Random, M: int, N: int, no_x: int, no_y: int) -> Game:
    """A game of random legal moves, to its end or to a full board (fours are not checked)."""
    position = Position.new(M, N, no_x, no_y)
    columns = []
    for _ in range(rng.randrange(M * N)):
        legal = position.legal_columns()
        if not legal:
            break
        column = rng.choice(legal)
        columns.append(column)
        position = position.play(column)
    return Game(M, N, no_x, no_y, 0, tuple(columns), tuple(-1 for _ in columns))


def random_model(rng: np.random.Generator) -> Model:
    model = Model()
    model.weights[:-1] = np.round(rng.normal(0, 0.3, len(model.weights) - 1), 4)
    model.bias[:] = np.round(rng.normal(0, 0.3, 2), 4)  # as the shipped file rounds them
    return model


def as_weights(model: Model) -> PatternWeights:
    return PatternWeights(model.to_json({}))


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
    # Forbidden cell on the bottom row of column 2: that column's playable cell is height 1.
    game = Game(9, 9, 8, 2, 0, (2, 2, 0), (-1, -1, -1))
    codes = [grid for _, grid in positions(game)]
    start, after = codes[0], codes[-1]
    assert start[0, 2] == SENTINEL and start[1, 2] in (2, 3) and start[2, 2] in (0, 1)
    assert after[1, 2] == 4 and after[2, 2] == 5 and after[3, 2] in (2, 3)
    assert after[0, 0] == 4 and after[1, 0] in (2, 3)


@pytest.mark.parametrize("board", [(9, 9, 8, 0), (12, 12, 0, 11), (10, 11, 4, 5), (11, 9, 5, 8),
                                   (12, 10, 11, 4)])
def test_bot_value_equals_the_trainers(board):
    rng = random.Random(hash(board) & 0xFFFF)
    model = random_model(np.random.default_rng(rng.randrange(1 << 30)))
    weights = as_weights(model)
    game = random_game(rng, *board)
    board_patterns = BoardPatterns(weights, Position.new(*board).geo)
    grids = np.array([grid for _, grid in positions(game)])
    expected = model.logit(pattern_indices(grids), np.arange(len(grids)) % 2)
    position = Position.new(*board)
    logits = [board_patterns.logit(position.current, position.mask)]
    for column in game.columns:
        move = position.move_bit(column)
        logits.append(board_patterns.child_logit(logits[-1], position.current, position.mask,
                                                 move))
        position = position.play(column)
        assert board_patterns.logit(position.current, position.mask) == pytest.approx(
            logits[-1], abs=1e-3)
    assert np.allclose(logits, expected, atol=1e-3)


def test_lines_skip_the_forbidden_cell_and_the_edges():
    weights = as_weights(Model())
    geo = Position.new(9, 9, 4, 4).geo  # forbidden cell in the middle
    lines = BoardPatterns(weights, geo).lines
    cells = [bit for _, spec in lines for bit, *_ in spec]
    assert geo.forbidden not in cells
    # on an empty 9x9 board: 6*9 horizontal + 9*6 vertical + 2*6*6 diagonal lines; the
    # forbidden cell in the middle removes 4 + 4 + 4 + 4 of them
    assert len(lines) == 54 + 54 + 72 - 16
    assert len(DIRECTIONS) * PATTERNS == len(weights.weights)
