"""The tables stat.py prints, computed from games (the course's files) and records (our log).

Games come as `CourseGame`s (A/B, round, leg, code), so everything the course's files hold is
usable without our JSON Lines log; the log adds per-move times. Rows are from A's view, A being
the first name of `<A>_<B>.txt` (in a gauntlet, the player under test).
"""

import math
from collections import Counter, defaultdict
from typing import Dict, Iterable, List, Sequence, Tuple

from arena.report.render import Table
from arena.results import CourseGame, course_game, pair_scores
from arena.stats import WDL, elo_estimate, pentanomial, sprt
from records.codes import FaultKind
from records.game import GameRecord, fault_of_code, winner_of_code

COURSE_COLUMNS = ["id", "wina", "winb", "losea", "loseb", "tie", "bug", "debug", "illegal",
                  "deillegal", "timeout", "detimeout", "loaderr", "deloaderr", "noentry",
                  "denoentry"]
_FAULT_COLUMN = {"crash": "bug", "illegal": "illegal", "timeout": "timeout", "load": "loaderr",
                 "noentry": "noentry"}
FAULT_KINDS = [k.value for k in FaultKind]


def course_table(games: Iterable[CourseGame]) -> Table:
    """The course's stat.txt: per id (A), wins/losses as first (a) and second (b) player, ties,
    and each fault kind, own and the opponent's (de-). Fault games count only as faults."""
    rows: Dict[str, Counter] = defaultdict(Counter)
    for g in games:
        row = rows[g.a]
        fault = fault_of_code(g.code)
        if fault:
            side, kind = fault
            row[("" if side == "a" else "de") + _FAULT_COLUMN[kind]] += 1
        elif g.code == 0:
            row["tie"] += 1
        else:
            won = winner_of_code(g.code) == "a"
            row[("win" if won else "lose") + ("a" if g.leg == 0 else "b")] += 1
    return Table("stat", "stat", COURSE_COLUMNS,
                 [[a] + [rows[a][c] for c in COURSE_COLUMNS[1:]] for a in sorted(rows)])


def wdl_of(games: Iterable[CourseGame], side: str = "a") -> WDL:
    """Wins/draws/losses of one side over some games; a fault is the faulter's loss."""
    count = Counter(winner_of_code(g.code) for g in games)
    other = "b" if side == "a" else "a"
    return WDL(count[side], count["draw"], count[other])


def by_pairing(games: Iterable[CourseGame]) -> Dict[Tuple[str, str], List[CourseGame]]:
    out: Dict[Tuple[str, str], List[CourseGame]] = defaultdict(list)
    for g in games:
        out[(g.a, g.b)].append(g)
    return dict(sorted(out.items()))


def _score_row(label: Sequence[str], wdl: WDL) -> List[object]:
    est = elo_estimate(wdl)
    elo = (est.elo, est.low, est.high) if est else (None, None, None)
    return [*label, wdl.games, wdl.wins, wdl.draws, wdl.losses, wdl.points, wdl.score, *elo]


SCORE_COLUMNS = ["games", "W", "D", "L", "points", "score", "elo", "elo_low95", "elo_high95"]


def per_opponent_table(games: Sequence[CourseGame]) -> Table:
    """Points (2/1/0), score and Elo difference with its 95% interval, per pairing (A's view)."""
    rows = [_score_row((a, b), wdl_of(gs)) for (a, b), gs in by_pairing(games).items()]
    return Table("per_opponent", "per opponent (A's view)", ["A", "B"] + SCORE_COLUMNS, rows)


def overall_table(games: Sequence[CourseGame]) -> Table:
    """Every player over all its games, whichever side of the file it was on."""
    totals: Dict[str, WDL] = defaultdict(WDL)
    for g in games:
        totals[g.a] += wdl_of([g], "a")
        totals[g.b] += wdl_of([g], "b")
    rows = [_score_row((p,), w) for p, w in sorted(totals.items(), key=lambda kv: -kv[1].score)]
    return Table("overall", "overall", ["player"] + SCORE_COLUMNS, rows)


COLOUR_COLUMNS = ["first", "score_first", "second", "score_second"]


def _by_colour(games: Sequence[CourseGame]) -> List[object]:
    """A's W/D/L and score when it moved first (leg 0), then when it moved second (leg 1)."""
    cells: List[object] = []
    for leg in (0, 1):
        wdl = wdl_of([g for g in games if g.leg == leg])
        cells += [f"{wdl.wins}/{wdl.draws}/{wdl.losses}", wdl.score]
    return cells


def colour_table(games: Sequence[CourseGame]) -> Table:
    """A's W/D/L when it moved first (leg 0) and when it moved second (leg 1)."""
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
        count = Counter(fault_of_code(g.code) for g in gs)
        rows.append([a, b] + [count[("a", k)] for k in FAULT_KINDS]
                    + [count[("b", k)] for k in FAULT_KINDS])
    return Table("faults", "faults by kind", ["A", "B"] + [f"A_{k}" for k in FAULT_KINDS]
                 + [f"B_{k}" for k in FAULT_KINDS], rows)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def move_times(records: Iterable[GameRecord]) -> Dict[str, List[float]]:
    """Every move time (seconds) of every player in the records."""
    out: Dict[str, List[float]] = defaultdict(list)
    for r in records:
        out[r.a].extend(r.side_times("a"))
        out[r.b].extend(r.side_times("b"))
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
        timeouts[host] += (fault_of_code(r.code) or ("", ""))[1] == FaultKind.TIMEOUT.value
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
