"""The tables stat.py prints, from `CourseGame`s (no log needed) and, for move times, our log's
records. Rows are from A's view, A being the first name of `<A>_<B>.txt`."""

import math
from collections import Counter, defaultdict
from typing import Dict, Iterable, List, Sequence, Tuple

from arena.report.render import Table
from arena.report.results import CourseGame, course_game
from arena.report.stats import elo_estimate, pentanomial, sprt
from records.codes import FaultKind
from records.game import GameRecord
from records.result import Result, Seat, Side
from records.tally import WDL, by_colour, by_pairing, faults, pair_scores, players, wdl, wdl_of

COURSE_COLUMNS = ["id", "wina", "winb", "losea", "loseb", "tie", "bug", "debug", "illegal",
                  "deillegal", "timeout", "detimeout", "loaderr", "deloaderr", "noentry",
                  "denoentry"]
_FAULT_COLUMN = {FaultKind.CRASH: "bug", FaultKind.ILLEGAL: "illegal",
                 FaultKind.TIMEOUT: "timeout", FaultKind.LOAD_ERROR: "loaderr",
                 FaultKind.NO_ENTRY: "noentry"}
# A won or lost (the course's view), in leg 0 (A moved first) or leg 1
_WIN_COLUMN = {(True, 0): "wina", (True, 1): "winb", (False, 0): "losea", (False, 1): "loseb"}


def course_table(games: Iterable[CourseGame]) -> Table:
    """The course's stat.txt: per id (A), wins/losses as first (a) and second (b) player, ties,
    and each fault kind, own and the opponent's (de-). Fault games count only as faults."""
    rows: Dict[str, Counter] = defaultdict(Counter)
    for g in games:
        row = rows[g.key.a]
        if g.fault:
            row[("" if g.fault.side is Side.A else "de") + _FAULT_COLUMN[g.fault.kind]] += 1
        elif g.result is Result.DRAW:
            row["tie"] += 1
        else:
            row[_WIN_COLUMN[g.result is Result.A, g.key.leg]] += 1
    return Table("stat", "stat", COURSE_COLUMNS,
                 [[a] + [rows[a][c] for c in COURSE_COLUMNS[1:]] for a in sorted(rows)])


def _score_row(label: Sequence[str], count: WDL) -> List[object]:
    est = elo_estimate(count)
    elo = (est.elo, est.low, est.high) if est else (None, None, None)
    return [*label, count.games, count.wins, count.draws, count.losses, count.points,
            count.score, *elo]


SCORE_COLUMNS = ["games", "W", "D", "L", "points", "score", "elo", "elo_low95", "elo_high95"]


def per_opponent_table(games: Sequence[CourseGame]) -> Table:
    """Points (2/1/0), score and Elo difference with its 95% interval, per pairing (A's view)."""
    rows = [_score_row((a, b), wdl(gs)) for (a, b), gs in by_pairing(games).items()]
    return Table("per_opponent", "per opponent (A's view)", ["A", "B"] + SCORE_COLUMNS, rows)


def overall_table(games: Sequence[CourseGame]) -> Table:
    """Every player over all its games, whichever side of the file it was on."""
    totals = {p: wdl_of(games, p) for p in players(games)}
    rows = [_score_row((p,), w) for p, w in sorted(totals.items(), key=lambda kv: -kv[1].score)]
    return Table("overall", "overall", ["player"] + SCORE_COLUMNS, rows)


COLOUR_COLUMNS = [c for seat in Seat for c in (seat.value, f"score_{seat.value}")]


def _by_colour(games: Sequence[CourseGame]) -> List[object]:
    """A's W/D/L and score as first player (leg 0), then as second (leg 1)."""
    return [cell for c in by_colour(games) for cell in (f"{c.wins}/{c.draws}/{c.losses}", c.score)]


def colour_table(games: Sequence[CourseGame]) -> Table:
    rows = [[a, b, *_by_colour(gs)] for (a, b), gs in by_pairing(games).items()]
    return Table("colours", "as first and as second player (A's view, W/D/L)",
                 ["A", "B", *COLOUR_COLUMNS], rows)


def height_table(records: Iterable[GameRecord]) -> Table:
    """A's W/D/L as first and as second player on boards of an even and of an odd number of
    rows: the height sets each column's parity (the forbidden cell shifts one column's), and
    with it which side's threats the final zugzwang favours, so a weakness can hide in one."""
    groups: Dict[Tuple[str, str, str], List[CourseGame]] = defaultdict(list)
    for r in records:
        groups[(r.a, r.b, "even" if r.M % 2 == 0 else "odd")].append(course_game(r))
    rows = [[a, b, height, *_by_colour(gs)] for (a, b, height), gs in sorted(groups.items())]
    return Table("heights", "by board height, rows M even or odd (A's view, W/D/L)",
                 ["A", "B", "rows", *COLOUR_COLUMNS], rows)


def fault_table(games: Sequence[CourseGame]) -> Table:
    """Faults by kind of each side of each pairing (crash = the course's bug)."""
    rows = []
    for (a, b), gs in by_pairing(games).items():
        count = faults(gs)
        rows.append([a, b] + [count[(side, k)] for side in Side for k in FaultKind])
    return Table("faults", "faults by kind", ["A", "B"]
                 + [f"{side.name}_{k.value}" for side in Side for k in FaultKind], rows)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def move_times(records: Iterable[GameRecord]) -> Dict[str, List[float]]:
    """Every move time (seconds) of every player in the records."""
    out: Dict[str, List[float]] = defaultdict(list)
    for r in records:
        out[r.a].extend(r.side_times(Side.A))
        out[r.b].extend(r.side_times(Side.B))
    return dict(sorted(out.items()))


def time_table(records: Iterable[GameRecord]) -> Table:
    """Move time per player in milliseconds: how close each comes to the limit."""
    rows = [[p, len(ts), 1000 * sum(ts) / len(ts), 1000 * percentile(ts, 99), 1000 * max(ts)]
            for p, ts in move_times(records).items() if ts]
    return Table("move_times", "move time (ms, from the JSON Lines log)",
                 ["player", "moves", "mean", "p99", "max"], rows)


def host_table(records: Iterable[GameRecord]) -> Table:
    """Games, move times (ms) and timeouts per worker host: a slow or faulty machine stands out."""
    games: Counter = Counter()
    timeouts: Counter = Counter()
    times: Dict[str, List[float]] = defaultdict(list)
    for r in records:
        host = r.host or "-"
        games[host] += 1
        timeouts[host] += r.fault is not None and r.fault.kind is FaultKind.TIMEOUT
        times[host].extend(r.times)
    rows = [[h, games[h], len(ts), 1000 * sum(ts) / len(ts) if ts else None,
             1000 * percentile(ts, 99) if ts else None, 1000 * max(ts) if ts else None,
             timeouts[h]] for h, ts in sorted(times.items())]
    return Table("hosts", "per worker host (move times in ms, both sides)",
                 ["host", "games", "moves", "mean", "p99", "max", "timeouts"], rows)


def sprt_table(games: Sequence[CourseGame], elo0: float, elo1: float) -> Table:
    """SPRT of H1 (A is elo1 stronger) against H0 (elo0) per pairing, over game pairs."""
    rows = []
    for (a, b), gs in by_pairing(games).items():
        res = sprt(pentanomial(pair_scores(gs)), elo0, elo1)
        rows.append([a, b, res.pairs, res.llr, res.lower, res.upper, res.verdict])
    return Table("sprt", f"SPRT elo0={elo0:g} elo1={elo1:g} (alpha = beta = 0.05, over game pairs)",
                 ["A", "B", "pairs", "llr", "lower", "upper", "verdict"], rows)
