"""The one count of finished games (W-D-L by side, player, colour, pairing; game pairs) that
every reader uses, over any ``Finished`` game: a ``GameRecord`` or a course's ``CourseGame``."""

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Protocol, Tuple, TypeVar

from records.codes import FaultKind
from records.game import GameKey
from records.result import Fault, Outcome, Result, Side


class Finished(Protocol):
    """What counting needs of a finished game."""

    @property
    def key(self) -> GameKey: ...

    @property
    def result(self) -> Result: ...

    @property
    def fault(self) -> Optional[Fault]: ...


G = TypeVar("G", bound=Finished)


@dataclass(frozen=True)
class WDL:
    """Wins, draws and losses of one player or side (a fault is the faulter's loss)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> int:
        """The course's points: 2 a win, 1 a draw, 0 a loss."""
        return 2 * self.wins + self.draws

    @property
    def score(self) -> float:
        """Points over the points available, in [0, 1]; NaN for no games."""
        return self.points / (2 * self.games) if self.games else math.nan

    def __add__(self, other: "WDL") -> "WDL":
        return WDL(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"

    @classmethod
    def of(cls, outcomes: Iterable[Outcome]) -> "WDL":
        count = Counter(outcomes)
        return cls(count[Outcome.WIN], count[Outcome.DRAW], count[Outcome.LOSS])


def wdl(games: Iterable[Finished], side: Side = Side.A) -> WDL:
    """One side's W-D-L over some games."""
    return WDL.of(g.result.outcome(side) for g in games)


def wdl_of(games: Iterable[Finished], player: str) -> WDL:
    """A player's W-D-L over the games it played, on whichever side (A against itself)."""
    return WDL.of(g.result.outcome(Side.A if g.key.a == player else Side.B) for g in games
                  if player in (g.key.a, g.key.b))


def by_colour(games: Iterable[Finished], side: Side = Side.A) -> Tuple[WDL, WDL]:
    """One side's W-D-L when it moved first, then when it moved second."""
    games = list(games)
    return (wdl([g for g in games if g.key.first is side], side),
            wdl([g for g in games if g.key.first is not side], side))


def by_pairing(games: Iterable[G]) -> Dict[Tuple[str, str], List[G]]:
    """Games by (A, B), in name order."""
    out: Dict[Tuple[str, str], List[G]] = defaultdict(list)
    for g in games:
        out[(g.key.a, g.key.b)].append(g)
    return dict(sorted(out.items()))


def players(games: Iterable[Finished]) -> List[str]:
    """Every player's name, in the order of their first game (A before B)."""
    return list(dict.fromkeys(name for g in games for name in (g.key.a, g.key.b)))


def faults(games: Iterable[Finished]) -> "Counter[Tuple[Side, FaultKind]]":
    """How many games each side lost by each kind of fault."""
    return Counter((g.fault.side, g.fault.kind) for g in games if g.fault is not None)


def pairs(games: Iterable[G]) -> Iterator[Tuple[G, G]]:
    """Both legs of each (pairing, batch, seed, round): one board with colours swapped, the
    SPRT's sample unit (two batches pooled in one log keep their own pairs)."""
    legs: Dict[Tuple[str, str, str, int, int], Dict[int, G]] = {}
    for g in games:
        k = g.key
        legs.setdefault((k.a, k.b, k.batch, k.seed, k.round), {})[k.leg] = g
    for key in sorted(legs):
        pair = legs[key]
        if 0 in pair and 1 in pair:
            yield pair[0], pair[1]


def pair_scores(games: Iterable[Finished]) -> List[float]:
    """A's score over each board's two games (both colours): 0, 1/4, 1/2, 3/4 or 1."""
    return [(g0.result.outcome(Side.A).score + g1.result.outcome(Side.A).score) / 2
            for g0, g1 in pairs(games)]
