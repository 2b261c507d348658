"""Pure statistics over W-D-L counts and game pairs (Elo difference with an interval, SPRT),
over a pool of games between many players (each one's Elo with a bootstrap interval) and over
rankings (Spearman's correlation). A score is a fraction of the points (win 1, draw 1/2, loss 0):
the course's 2/1/0 divided by 2."""

import math
import random
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, TypeVar

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
    """Elo difference (or one player's rating) and its 95% interval: elo_estimate's from the
    trinomial variance of one game's score, elo_intervals' from a bootstrap."""

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


# Ratings of many players from one pool of games (a round robin), and rank agreement.

Game = Tuple[str, str, float]  # (a player, its opponent, the first's score: 1, 1/2 or 0)
ELO_PER_NAT = 400.0 / math.log(10.0)  # Elo points per unit of the logistic model's log-odds


def elo_ratings(games: Sequence[Game], prior: float = 1.0) -> Dict[str, float]:
    """Each player's Elo, fitted to all the games at once by maximum likelihood (Bradley-Terry
    with the logistic Elo curve, a draw half a win), anchored at mean 0 over the players.
    ``prior`` virtual draws of each player against a field rated 0 keep a player that wins or
    loses every game finite (and pull every rating a little towards the field); with prior 0
    a player must have both won and lost some points, else the fit diverges."""
    names = sorted({name for a, b, _ in games for name in (a, b)})
    index = {name: i for i, name in enumerate(names)}
    played: Dict[Tuple[int, int], List[float]] = {}  # (i, j), i < j -> [games, i's points]
    for a, b, score in games:
        i, j = index[a], index[b]
        key, points = ((i, j), score) if i < j else ((j, i), 1.0 - score)
        tally = played.setdefault(key, [0.0, 0.0])
        tally[0] += 1.0
        tally[1] += points
    theta = [0.0] * len(names)  # log-odds strengths
    for _ in range(100):
        step = _newton_step(theta, played, prior)
        size = 1.0
        while _log_likelihood([t + size * s for t, s in zip(theta, step)], played, prior) < \
                _log_likelihood(theta, played, prior) - 1e-12 and size > 1e-6:
            size /= 2  # a step that overshoots on a steep fit is halved until it climbs
        theta = [t + size * s for t, s in zip(theta, step)]
        if max((abs(s) for s in step), default=0.0) * size < 1e-10:
            break
    mean = sum(theta) / len(theta) if theta else 0.0
    return {name: (t - mean) * ELO_PER_NAT + 0.0 for name, t in zip(names, theta)}


def _win_chance(delta: float) -> float:
    """The logistic model's expected score at a log-odds difference ``delta``."""
    return 1.0 / (1.0 + math.exp(-delta))


def _log_likelihood(theta: Sequence[float], played: Mapping[Tuple[int, int], List[float]],
                    prior: float) -> float:
    """The fit's objective: every game's log-likelihood plus the prior's virtual draws."""
    total = 0.0
    for (i, j), (n, points) in played.items():
        p = min(max(_win_chance(theta[i] - theta[j]), 1e-300), 1.0 - 1e-16)
        total += points * math.log(p) + (n - points) * math.log1p(-p)
    for t in theta:
        p = min(max(_win_chance(t), 1e-300), 1.0 - 1e-16)
        total += prior * 0.5 * (math.log(p) + math.log1p(-p))
    return total


def _newton_step(theta: Sequence[float], played: Mapping[Tuple[int, int], List[float]],
                 prior: float) -> List[float]:
    """The Newton step of the log-likelihood at ``theta``; the prior (or, without one, a tiny
    ridge) keeps the curvature invertible."""
    n = len(theta)
    grad = [prior * (0.5 - _win_chance(t)) for t in theta]
    curv = [[0.0] * n for _ in range(n)]  # minus the Hessian
    for i, t in enumerate(theta):
        p = _win_chance(t)
        curv[i][i] = prior * p * (1.0 - p) + 1e-9
    for (i, j), (games, points) in played.items():
        p = _win_chance(theta[i] - theta[j])
        grad[i] += points - games * p
        grad[j] -= points - games * p
        w = games * p * (1.0 - p)
        curv[i][i] += w
        curv[j][j] += w
        curv[i][j] -= w
        curv[j][i] -= w
    return _solve(curv, grad)


def _solve(matrix: List[List[float]], rhs: List[float]) -> List[float]:
    """x with matrix x = rhs, by Gaussian elimination with partial pivoting (a few players:
    no need for a linear-algebra library)."""
    n = len(rhs)
    rows = [row[:] + [value] for row, value in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


T = TypeVar("T")


def resample(units: Sequence[T], rng: random.Random) -> List[T]:
    """A bootstrap sample: as many units as given, drawn with replacement."""
    return [units[rng.randrange(len(units))] for _ in units]


def percentile_interval(values: Sequence[float], level: float = 0.95) -> Tuple[float, float]:
    """The bootstrap's percentile interval: the values' (1 - level) / 2 and (1 + level) / 2
    quantiles, linearly interpolated (NaN values are left out)."""
    ordered = sorted(v for v in values if not math.isnan(v))
    if not ordered:
        return math.nan, math.nan

    def quantile(q: float) -> float:
        at = q * (len(ordered) - 1)
        low = math.floor(at)
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (at - low) * (ordered[high] - ordered[low])

    return quantile((1.0 - level) / 2), quantile((1.0 + level) / 2)


def elo_bootstrap(groups: Sequence[Sequence[Game]], draws: int = 1000, seed: int = 1,
                  prior: float = 1.0) -> List[Dict[str, float]]:
    """elo_ratings over ``draws`` bootstrap samples of the groups. A group is what is
    resampled: the two games of one board (colours swapped) share the board's bias, so a
    group is a board pair, not a game. A player no drawn group holds is missing from that
    sample's ratings."""
    rng = random.Random(seed)
    return [elo_ratings([g for group in resample(groups, rng) for g in group], prior)
            for _ in range(draws)]


def elo_intervals(fitted: Mapping[str, float],
                  samples: Sequence[Mapping[str, float]]) -> Dict[str, EloEstimate]:
    """Each player's fitted Elo with the 95% percentile interval of its bootstrap samples."""
    return {name: EloEstimate(elo, *percentile_interval([s.get(name, math.nan)
                                                          for s in samples]))
            for name, elo in fitted.items()}


def average_ranks(values: Sequence[float]) -> List[float]:
    """Each value's rank, 1 for the smallest; tied values share the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's over average ranks (ties handled); NaN when
    either side has every value tied or there are fewer than two pairs."""
    if len(xs) != len(ys):
        raise ValueError(f"spearman needs pairs, got {len(xs)} and {len(ys)} values")
    rx, ry = average_ranks(xs), average_ranks(ys)
    n = len(rx)
    if n < 2:
        return math.nan
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((x - mx) * (y - my) for x, y in zip(rx, ry))
    vx = sum((x - mx) ** 2 for x in rx)
    vy = sum((y - my) ** 2 for y in ry)
    return cov / math.sqrt(vx * vy) if vx > 0 and vy > 0 else math.nan
