"""How a file's analysed losses split: by colour (also on boards of an even number of rows,
whose height sets which side the final zugzwang favours), by the phase of the decisive mistake,
by the kind of win it allowed, and how many the budget left unsettled; then one line a game."""

from __future__ import annotations

from collections import Counter
from typing import Iterable, List

from records.analysis import Kind, LossAnalysis, Phase, Skipped, Value
from records.game import GameRecord
from records.result import Seat


def _counts(counter: Counter, keys: Iterable[str]) -> str:
    return ", ".join(f"{k} {counter.get(k, 0)}" for k in keys)


def game_line(record: GameRecord, a: LossAnalysis) -> str:
    """One analysed loss: which game, who lost with which colour, where and how."""
    where = (f"r{record.round} leg {record.leg} {record.M}x{record.N} "
             f"{a.loser} ({a.loser_moved.value}), {len(record.moves)} moves")
    d = a.decisive
    if d is None:
        return f"{where}: lost before its first move ({a.kind.value})"
    held = [f"{tuple(alt.move)} {alt.value.value}" if alt.value != Value.UNSETTLED
            else f"{tuple(alt.move)} no four within {alt.no_four_within}"
            for alt in d.alternatives if alt.value != Value.UNSETTLED or alt.no_four_within]
    unsettled = sum(alt.value == Value.UNSETTLED and not alt.no_four_within
                    for alt in d.alternatives)
    if unsettled:
        held.append(f"{unsettled} unsettled")
    mistake = f"move {d.index + 1} {tuple(d.move)} ({a.phase.value})"
    if not d.proven:
        mistake += (", avoidable: another move was clear of a four that soon"
                    if d.avoidable else ", unsettled: no alternative proven to hold")
    n = a.win_in or a.forced_four_in
    win = a.kind.value + (f" in {n} {'ply' if n == 1 else 'plies'}" if n else "")
    return (f"{where}: decisive {mistake}; lost after move {a.lost_after}, {win}; "
            f"other moves: {', '.join(held) or 'none'}")


def summarise(records: List[GameRecord]) -> List[str]:
    """The split of the losses in ``records`` that carry an analysis (others are counted as
    not analysed), then a line for each of them."""
    done = [(r, r.analysis) for r in records if isinstance(r.analysis, LossAnalysis)]
    analyses = [a for _, a in done]
    skipped = Counter(r.analysis.reason.split(":")[0] for r in records
                      if isinstance(r.analysis, Skipped))
    colour = Counter(a.loser_moved.value for a in analyses)
    even = Counter(a.loser_moved.value for r, a in done if r.M % 2 == 0)
    seats = [seat.value for seat in Seat]
    decided = [a.decisive for a in analyses if a.decisive]
    proven = [a for a in analyses if a.decisive and a.decisive.proven]
    avoidable = [d for d in decided if not d.proven and d.avoidable]
    unsettled = [d for d in decided if not d.avoidable]
    phases = Counter(a.phase.value for a in proven)
    kinds = Counter(a.kind.value for a in analyses)
    return [
        f"losses analysed: {len(done)} of {len(records)} games"
        + (f" (not analysed: {_counts(skipped, sorted(skipped))})" if skipped else ""),
        f"  loser moved: {_counts(colour, seats)}; "
        f"on an even number of rows: {_counts(even, seats)}",
        f"  decisive mistake proven: {len(proven)} "
        f"({_counts(phases, [p.value for p in Phase])}); "
        f"avoidable short loss: {len(avoidable)}; unsettled: {len(unsettled)}; "
        f"lost before its first move: {len(analyses) - len(decided)}",
        f"  the win it allowed: {_counts(kinds, [k.value for k in Kind])}",
    ] + ["  " + game_line(r, a) for r, a in done]
