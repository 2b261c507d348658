"""The fast tactical rollout and winning-cell sets against slow, obviously correct versions."""

from __future__ import annotations

import random

import pytest

from bot.rules import Position, bits, has_four, winning_cells
from bot.search.rollout import TacticalRollout


def random_position(rng: random.Random, M: int, N: int) -> Position:
    """A position reached by random moves that stops before anyone has four."""
    p = Position.new(M, N, rng.randrange(M), rng.randrange(N))
    for _ in range(rng.randrange(M * N)):
        nxt = p.play(rng.choice(p.legal_columns()))
        if nxt.last_mover_won() or nxt.is_full():
            break
        p = nxt
    return p


def reference_rollout(p: Position, rand) -> float:
    """The rollout's policy written with Position's methods, drawing ``rand`` the same way."""
    me = 1.0
    while True:
        if p.is_full():
            return 0.5
        if p.winning_moves():
            return me
        threats = p.opponent_winning_cells()
        danger = p.geo.danger(threats)
        forced = p.possible() & threats
        if forced:
            if forced & (forced - 1) or forced & danger:
                return 1.0 - me
            move = forced
        else:
            candidates = list(bits(p.possible() & ~danger))
            if not candidates:
                return 1.0 - me
            move = candidates[int(rand() * len(candidates))]
        p = p.play_bit(move)
        me = 1.0 - me


@pytest.mark.parametrize("M,N", [(9, 9), (9, 12), (12, 9), (12, 12)])
def test_winning_cells_match_brute_force(M, N):
    rng = random.Random(M * 100 + N)
    for _ in range(40):
        p = random_position(rng, M, N)
        g = p.geo
        for stones in (p.current, p.opponent()):
            empty = g.board_mask & ~p.mask
            expected = sum(c for c in bits(empty) if has_four(stones | c, g.stride))
            assert winning_cells(stones, p.mask, g.stride, g.board_mask) == expected


class CountingRand:
    """A seeded ``random()`` that counts its draws: two rollouts that drew the same numbers
    the same number of times almost surely walked the same game."""

    def __init__(self, seed: int) -> None:
        self.random, self.calls = random.Random(seed).random, 0

    def __call__(self) -> float:
        self.calls += 1
        return self.random()


@pytest.mark.parametrize("M,N", [(9, 10), (11, 12), (12, 12)])
def test_rollout_plays_exactly_the_reference_policy(M, N):
    rng = random.Random(M * 100 + N)
    rollout = TacticalRollout()
    scores = set()
    for seed in range(150):
        p = random_position(rng, M, N)
        fast, slow = CountingRand(seed), CountingRand(seed)
        score = rollout.evaluate(p.geo, p.current, p.mask, fast)
        assert (score, fast.calls) == (reference_rollout(p, slow), slow.calls)
        scores.add(score)
    assert {0.0, 1.0} <= scores  # both sides win some
