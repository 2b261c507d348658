"""The fast tactical rollout and winning-cell sets against slow, obviously correct versions."""

from __future__ import annotations

import random

import pytest

from bot.rules import Position, bits, has_four, parse_board, winning_cells
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


def reference_rollout(p: Position, rand, keep_threats: bool = False,
                      follow: float = 0.0) -> float:
    """The rollout's policy written with Position's methods, drawing ``rand`` the same way."""
    me = 1.0
    last_column = None  # the column of the play-out's last move
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
            safe = p.possible() & ~danger
            if not safe:
                return 1.0 - me
            kept = safe & ~p.geo.danger(p.winning_cells())
            chosen = kept if keep_threats and kept else safe
            move = 0
            if follow and last_column is not None and rand() < follow:
                # the next free cell of the last move's column is the one on top of it
                on_top = [b for b in bits(chosen) if p.geo.column(b) == last_column]
                move = on_top[0] if on_top else 0
            # unless it followed up: a random column, twice, then a random member of the list
            for _ in range(0 if move else 2):
                column = int(rand() * p.geo.N)
                if column in [p.geo.column(b) for b in bits(chosen)]:
                    move = p.move_bit(column)
                    break
            if not move:
                candidates = list(bits(chosen))
                move = candidates[int(rand() * len(candidates))]
        p = p.play_bit(move)
        last_column = p.geo.column(move)
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


@pytest.mark.parametrize("keep,follow", [(False, 0.0), (True, 0.0), (True, 0.5), (False, 1.0)])
@pytest.mark.parametrize("M,N", [(9, 10), (11, 12), (12, 12)])
def test_rollout_plays_exactly_the_reference_policy(M, N, keep, follow):
    rng = random.Random(M * 100 + N)
    rollout = TacticalRollout(keep_threats=keep, follow=follow)
    scores = set()
    for seed in range(150):
        p = random_position(rng, M, N)
        fast, slow = CountingRand(seed), CountingRand(seed)
        score = rollout.evaluate(p.geo, p.current, p.mask, fast)
        assert (score, fast.calls) == (reference_rollout(p, slow, keep, follow), slow.calls)
        scores.add(score)
    assert {0.0, 1.0} <= scores  # both sides win some


# X to move; three empty cells: (1, 2) under X's winning cell (0, 2) (row 0: XX.XX), and
# (0, 6), which wins for no one. Playing (0, 6) leaves O only (1, 2), under X's threat: X wins.
# Playing (1, 2) lets O block at (0, 2), then X fills (0, 6): a draw.
KEEP_OR_DRAW = ["XX.XXO.O#", "XO.OXOXOX", "OOXXOXOOO", "OXOXOXOXO", "XOXOXOXOX",
                "XOXOXOXOX", "OXOXOXOXO", "OXOXOXOXO", "XOXOXOXOX"]


def test_keeping_threats_wins_the_zugzwang_that_random_play_throws_away():
    p = parse_board(KEEP_OR_DRAW)
    assert p.winning_cells() == p.geo.bit(0, 2) and p.opponent_winning_cells() == 0
    rand = random.Random(4).random
    kept = {TacticalRollout(keep_threats=True).evaluate(p.geo, p.current, p.mask, rand)
            for _ in range(40)}
    plain = {TacticalRollout(keep_threats=False).evaluate(p.geo, p.current, p.mask, rand)
             for _ in range(40)}
    assert kept == {1.0}
    assert plain == {0.5, 1.0}
