"""The native UCT (uct.cpp), compiled here and called through the course's ABI with ctypes."""

from __future__ import annotations

import shutil
import time

import pytest

from opponents.native import NativeStrategy, build
from tests.opponents.positions import (
    BLOCK_ABOVE_FORBIDDEN,
    BLOCK_VERTICAL,
    DOUBLE_THREAT,
    DOUBLE_THREAT_MOVES,
    UNDER_THREAT,
    UNDER_THREAT_PAST_FORBIDDEN,
    WIN_BEFORE_BLOCK,
    View,
    call,
    is_legal,
)

EMPTY_12 = View(12, 12, [12] * 12, [0] * 144, -1, -1, 5, 5)


@pytest.fixture(scope="module")
def uct(tmp_path_factory) -> NativeStrategy:
    assert shutil.which("g++"), "g++ is not installed (the arena's core tests need it too)"
    return NativeStrategy(build(tmp_path_factory.mktemp("uct") / "uct.so"))


@pytest.fixture
def budget(monkeypatch):
    """Sets the library's budget; the library reads the environment at every call."""
    def set_budget(time_s: float = 5.0, playouts: int = 0, seed: int = 1) -> None:
        monkeypatch.setenv("UCT_TIME", str(time_s))
        monkeypatch.setenv("UCT_PLAYOUTS", str(playouts))
        monkeypatch.setenv("UCT_SEED", str(seed))
    return set_budget


def test_returns_legal_moves_on_reachable_positions(uct, budget, reachable):
    budget(playouts=40)
    for v in reachable:
        assert is_legal(v, call(uct, v)), v


def test_takes_the_win_and_blocks_the_loss(uct, budget):
    budget(playouts=200)
    assert call(uct, WIN_BEFORE_BLOCK) == (8, 3)
    assert call(uct, BLOCK_VERTICAL) == (5, 4)
    assert call(uct, BLOCK_ABOVE_FORBIDDEN) == (7, 4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_never_plays_under_the_opponents_winning_cell(uct, budget, seed):
    budget(playouts=300, seed=seed)
    assert call(uct, UNDER_THREAT) != (7, 4)
    assert call(uct, UNDER_THREAT_PAST_FORBIDDEN) != (8, 4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_finds_a_double_threat(uct, budget, seed):
    budget(playouts=3000, seed=seed)
    assert call(uct, DOUBLE_THREAT) in DOUBLE_THREAT_MOVES


def test_a_small_playout_cap_returns_long_before_the_time_limit(uct, budget):
    budget(time_s=30.0, playouts=500)
    start = time.perf_counter()
    assert is_legal(EMPTY_12, call(uct, EMPTY_12))
    assert time.perf_counter() - start < 5.0


def test_the_time_limit_stops_an_uncapped_search(uct, budget):
    budget(time_s=0.2)
    start = time.perf_counter()
    assert is_legal(EMPTY_12, call(uct, EMPTY_12))
    assert time.perf_counter() - start < 2.0


def test_a_seeded_capped_search_repeats_across_calls(uct, budget, reachable):
    budget(playouts=2000, seed=7)
    first = call(uct, EMPTY_12)
    call(uct, reachable[5])  # another board in between: nothing carries over
    assert call(uct, EMPTY_12) == first
