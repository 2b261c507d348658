"""The Python members of the ladder: hand-checked tactics and legality everywhere."""

from __future__ import annotations

import pytest

from opponents import greedy, heuristic, random_player
from opponents.chance import SEED_ENV
from tests.opponents.positions import (
    BLOCK_ABOVE_FORBIDDEN,
    BLOCK_VERTICAL,
    DOUBLE_THREAT,
    DOUBLE_THREAT_MOVES,
    UNDER_THREAT,
    UNDER_THREAT_PAST_FORBIDDEN,
    WIN_BEFORE_BLOCK,
    call,
    is_legal,
)

MEMBERS = [random_player.get_point, greedy.get_point, heuristic.get_point]
TACTICAL = [greedy.get_point, heuristic.get_point]
SEEDS = ["0", "1", "2", "3", "4", "5"]


@pytest.mark.parametrize("player", MEMBERS, ids=["random", "greedy", "heuristic"])
def test_members_return_legal_moves_on_reachable_positions(player, reachable):
    for v in reachable:
        assert is_legal(v, call(player, v)), v


@pytest.mark.parametrize("player", TACTICAL, ids=["greedy", "heuristic"])
@pytest.mark.parametrize("seed", SEEDS)
def test_tactical_members_win_before_blocking(player, seed, monkeypatch):
    monkeypatch.setenv(SEED_ENV, seed)
    assert call(player, WIN_BEFORE_BLOCK) == (8, 3)


@pytest.mark.parametrize("player", TACTICAL, ids=["greedy", "heuristic"])
@pytest.mark.parametrize("seed", SEEDS)
def test_tactical_members_block_an_immediate_threat(player, seed, monkeypatch):
    monkeypatch.setenv(SEED_ENV, seed)
    assert call(player, BLOCK_VERTICAL) == (5, 4)
    assert call(player, BLOCK_ABOVE_FORBIDDEN) == (7, 4)


@pytest.mark.parametrize("seed", SEEDS)
def test_heuristic_never_plays_under_the_opponents_winning_cell(seed, monkeypatch):
    monkeypatch.setenv(SEED_ENV, seed)
    assert call(heuristic.get_point, UNDER_THREAT) != (7, 4)
    assert call(heuristic.get_point, UNDER_THREAT_PAST_FORBIDDEN) != (8, 4)


@pytest.mark.parametrize("seed", SEEDS)
def test_heuristic_makes_a_double_threat(seed, monkeypatch):
    monkeypatch.setenv(SEED_ENV, seed)
    assert call(heuristic.get_point, DOUBLE_THREAT) in DOUBLE_THREAT_MOVES


def test_random_player_repeats_per_position_and_varies_with_the_seed(monkeypatch, reachable):
    v = reachable[0]  # an empty 9x9 board
    first = call(random_player.get_point, v)
    assert call(random_player.get_point, v) == first
    moves = set()
    for seed in range(20):
        monkeypatch.setenv(SEED_ENV, str(seed))
        moves.add(call(random_player.get_point, v))
    assert len(moves) >= 4


def test_heuristic_windows_skip_the_forbidden_cell():
    # 9x9: 9*6 vertical + 6*9 horizontal + 2 * 6*6 diagonal windows.
    corner = heuristic.windows(9, 9, 0, 0)   # on 1 horizontal, 1 vertical, 1 diagonal
    centre = heuristic.windows(9, 9, 4, 4)   # on 4 + 4 + 4 + 4 (centre of 9 in each line)
    assert len(corner) == 180 - 3
    assert len(centre) == 180 - 16
