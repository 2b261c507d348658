"""One aggregation over finished games: W-D-L by side, player, colour and pairing, and pairs."""

import math

from records.codes import FaultKind
from records.game import GameKey
from records.result import Fault, Result, Side
from records.tally import (
    WDL,
    by_colour,
    by_pairing,
    faults,
    pair_scores,
    pairs,
    players,
    wdl,
    wdl_of,
)


class Game:
    """A finished game as counting sees it."""

    def __init__(self, a, b, rnd, leg, result, fault=None, batch="t", seed=1):
        self.key = GameKey(batch, a, b, seed, rnd, leg)
        self.result, self.fault = result, fault


# bot vs uct: round 0 bot wins as first, loses as second; round 1 bot wins both, the second
# by uct's timeout; bot vs greedy: round 0 a draw and a win.
GAMES = [
    Game("bot", "uct", 0, 0, Result.A), Game("bot", "uct", 0, 1, Result.B),
    Game("bot", "uct", 1, 0, Result.A),
    Game("bot", "uct", 1, 1, Result.A, Fault(Side.B, FaultKind.TIMEOUT)),
    Game("bot", "greedy", 0, 0, Result.DRAW), Game("bot", "greedy", 0, 1, Result.A),
]


def test_wdl_counts_points_and_score_as_the_course_does():
    count = wdl(GAMES)
    assert (count.wins, count.draws, count.losses) == (4, 1, 1) and str(count) == "4-1-1"
    assert (count.games, count.points, count.score) == (6, 9, 0.75)
    assert math.isnan(WDL().score)
    assert wdl(GAMES, Side.B) == WDL(1, 1, 4)


def test_a_players_count_follows_it_to_either_side():
    assert wdl_of(GAMES, "uct") == WDL(1, 0, 3)
    assert wdl_of(GAMES, "bot") == WDL(4, 1, 1)
    assert players(GAMES) == ["bot", "uct", "greedy"]  # in the order of their first game


def test_colour_splits_by_who_moved_first():
    first, second = by_colour(GAMES)
    assert (first, second) == (WDL(2, 1, 0), WDL(2, 0, 1))
    assert by_colour(GAMES, Side.B) == (WDL(1, 0, 2), WDL(0, 1, 2))  # B moves first in leg 1


def test_pairings_faults_and_pairs():
    assert list(by_pairing(GAMES)) == [("bot", "greedy"), ("bot", "uct")]
    assert faults(GAMES) == {(Side.B, FaultKind.TIMEOUT): 1}
    assert pair_scores(GAMES) == [0.75, 0.5, 1.0]  # greedy r0; uct r0; uct r1
    again = [Game("bot", "uct", 0, leg, Result.A, batch="again") for leg in (0, 1)]
    assert len(list(pairs(GAMES + again))) == 4  # another batch's round 0 is its own pair
    assert len(list(pairs(GAMES[:1]))) == 0  # one leg is no pair
