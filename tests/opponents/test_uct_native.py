"""The native UCT (uct.cpp), built by opponents/build.py and played through the course's ABI by
the arena's `.so` player (one game a call)."""

from __future__ import annotations

import functools
import shutil
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from arena.core.players.shared_lib import SharedLibPlayer
from devtools.members import one_move
from opponents.build import native_uct
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
def library(tmp_path_factory) -> Path:
    assert shutil.which("g++"), "g++ is not installed (the arena's core tests need it too)"
    return native_uct(tmp_path_factory.mktemp("uct") / "uct.so")


@pytest.fixture
def budget(library) -> Iterator[Callable[..., Callable]]:
    """The library as a getPoint function under a budget (its environment: UCT_TIME seconds,
    UCT_PLAYOUTS, UCT_SEED), each call a game of its own in the arena's host. The time's
    default is a backstop far beyond what the play-out caps take, so that the cap, not the
    machine's load, ends those searches."""
    players = []

    def with_budget(time_s: float = 60.0, playouts: int = 0, seed: int = 1) -> Callable:
        env = {"UCT_TIME": str(time_s), "UCT_PLAYOUTS": str(playouts), "UCT_SEED": str(seed)}
        players.append(SharedLibPlayer("uct", str(library), env=env))
        return functools.partial(one_move, players[-1])

    yield with_budget
    for player in players:
        player.close()


def test_returns_legal_moves_on_reachable_positions(budget, reachable):
    uct = budget(playouts=40)
    for v in reachable:
        assert is_legal(v, call(uct, v)), v


def test_takes_the_win_and_blocks_the_loss(budget):
    uct = budget(playouts=200)
    assert call(uct, WIN_BEFORE_BLOCK) == (8, 3)
    assert call(uct, BLOCK_VERTICAL) == (5, 4)
    assert call(uct, BLOCK_ABOVE_FORBIDDEN) == (7, 4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_never_plays_under_the_opponents_winning_cell(budget, seed):
    uct = budget(playouts=300, seed=seed)
    assert call(uct, UNDER_THREAT) != (7, 4)
    assert call(uct, UNDER_THREAT_PAST_FORBIDDEN) != (8, 4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_finds_a_double_threat(budget, seed):
    uct = budget(playouts=3000, seed=seed)
    assert call(uct, DOUBLE_THREAT) in DOUBLE_THREAT_MOVES


def host_started(uct: Callable) -> Callable:
    """``uct`` with its host started (a game begun and ended, no move), so that the timed call
    that follows is the game's alone, not the host interpreter's start-up."""
    player = uct.args[0]
    assert player.start_game(12, 12, 5, 5) is None
    player.end_game()
    return uct


def test_a_small_playout_cap_returns_long_before_the_time_limit(budget):
    uct = host_started(budget(time_s=30.0, playouts=500))
    start = time.perf_counter()
    assert is_legal(EMPTY_12, call(uct, EMPTY_12))
    assert time.perf_counter() - start < 10.0  # a loaded machine's slack, a third of the limit


def test_the_time_limit_stops_an_uncapped_search(budget):
    uct = host_started(budget(time_s=0.2))
    start = time.perf_counter()
    assert is_legal(EMPTY_12, call(uct, EMPTY_12))
    # 0.2 s and a loaded machine's slack, short of the library's default of 2.6 s
    assert time.perf_counter() - start < 2.0


def test_a_seeded_capped_search_repeats_across_calls(budget, reachable):
    uct = budget(playouts=2000, seed=7)
    first = call(uct, EMPTY_12)
    call(uct, reachable[5])  # another board in between: nothing carries over
    assert call(uct, EMPTY_12) == first
