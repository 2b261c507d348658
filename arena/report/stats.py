"""Pure statistics over W-D-L counts and game pairs (Elo difference with an interval, SPRT). A
score is a fraction of the points (win 1, draw 1/2, loss 0): the course's 2/1/0 divided by 2."""

import math
from dataclasses import dataclass
from typing import Dict, Iterable, Optional, Tuple

from records.tally import WDL

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


def elo_from_score(score: float) -> float:
    """Elo difference that the logistic model maps to this expected score (+-inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0.0" at an even score


def score_from_elo(elo: float) -> float:
    """Expected score of a player `elo` points stronger (logistic model)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference and its 95% interval (from the trinomial variance of one game's score)."""

    elo: float
    low: float
    high: float


def elo_estimate(wdl: WDL) -> Optional[EloEstimate]:
    """Elo difference with a 95% normal interval on the mean score; None without games.
    When every game ended alike the spread is zero and the interval is unknown (NaN bounds)."""
    n = wdl.games
    if n == 0:
        return None
    s = wdl.score
    var = (wdl.wins * (1 - s) ** 2 + wdl.draws * (0.5 - s) ** 2 + wdl.losses * s**2) / n
    if var == 0.0:
        return EloEstimate(elo_from_score(s), math.nan, math.nan)
    half = Z95 * math.sqrt(var / n)
    return EloEstimate(elo_from_score(s), elo_from_score(s - half), elo_from_score(s + half))


PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def pentanomial(pair_scores: Iterable[float]) -> Tuple[int, int, int, int, int]:
    """Counts of game-pair scores 0, 1/4, 1/2, 3/4, 1 (a pair: one board, both colours)."""
    counts: Dict[float, int] = {s: 0 for s in PAIR_SCORES}
    for s in pair_scores:
        if s not in counts:
            raise ValueError(f"a pair score must be one of {PAIR_SCORES}, got {s}")
        counts[s] += 1
    return counts[0.0], counts[0.25], counts[0.5], counts[0.75], counts[1.0]


@dataclass(frozen=True)
class SprtResult:
    """LLR of H1 (elo1) against H0 (elo0) and the verdict at the given error rates."""

    llr: float
    lower: float
    upper: float
    verdict: str  # "accept" (H1 holds), "reject" (H0 holds) or "continue" (play more pairs)
    pairs: int


def sprt(penta: Tuple[int, int, int, int, int], elo0: float, elo1: float,
         alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """Generalised SPRT over game pairs (fishtest's normal approximation), Wald's bounds. Pairs,
    not games, are the samples: the two games on one board share its bias, so counting them
    apart would understate the variance."""
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    n = sum(penta)
    if n == 0:
        return SprtResult(0.0, lower, upper, "continue", 0)
    mean = sum(c * s for c, s in zip(penta, PAIR_SCORES)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(penta, PAIR_SCORES)) / n
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    if var <= 0.0:
        # Every pair scored the same: no spread to weigh, decide by which side the mean lies.
        llr = math.inf if mean > (s0 + s1) / 2 else -math.inf
    else:
        llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    verdict = "accept" if llr >= upper else "reject" if llr <= lower else "continue"
    return SprtResult(llr, lower, upper, verdict, n)
