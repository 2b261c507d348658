"""Compact encoding of game records for the replay page (docs/viewer.md, "Size and speed"):
one positional row a game, its field order `FIELDS` (the page's script mirrors it); a fault or
a loss analysis is stored apart by index, so the thousands of clean games carry neither."""

from typing import Any, Dict, Iterable, List

from records.analysis import LossAnalysis
from records.codes import Code
from records.game import GameRecord
from records.move import moves_to_base36
from records.result import Outcome, Result, Seat, Side

FIELDS = (
    "a", "b", "first", "M", "N", "no_x", "no_y", "code", "result", "moves", "times",
    "win", "fault", "reason", "seed", "round", "leg", "batch", "time_limit", "analysis",
    "outcome_a", "outcome_b",
)
RESULTS = {Result.DRAW: 0, Result.A: 1, Result.B: 2}  # the page's result numbers
STDERR_TAIL = 4096  # characters of a faulting player's stderr kept on the page


class _Interner(Dict[str, int]):
    """Maps strings to small indices, its keys in first-seen order."""

    def __call__(self, text: str) -> int:
        return self.setdefault(text, len(self))


def code_labels() -> Dict[int, str]:
    """The course's codes as short labels for the page ("A timeout"), from the one enum."""
    labels = {}
    for code in Code:
        side, _, what = code.name.partition("_")
        labels[int(code)] = f"{side} {what.replace('_', ' ').lower()}" if what else "tie"
    return labels


def encode_records(records: Iterable[GameRecord]) -> Dict[str, Any]:
    """Build the page's data payload from the batch's game records."""
    names, batches, reasons, outcomes = _Interner(), _Interner(), _Interner(), _Interner()
    games: List[List[Any]] = []
    faults: List[Dict[str, Any]] = []
    analyses: List[Dict[str, Any]] = []
    for rec in records:
        fault_index = -1
        if rec.fault:
            tail = (rec.stderr.get(rec.fault.side.value) or "")[-STDERR_TAIL:]
            faults.append({**rec.fault.to_dict(), "stderr": tail})
            fault_index = len(faults) - 1
        games.append([
            names(rec.a), names(rec.b), 0 if rec.first is Side.A else 1,
            rec.M, rec.N, rec.no_x, rec.no_y, rec.code, RESULTS[rec.result],
            moves_to_base36(rec.moves), [round(t * 1000) for t in rec.times],
            [c for cell in rec.win_line or [] for c in cell],
            fault_index, reasons(rec.reason), rec.seed, rec.round, rec.leg, batches(rec.batch),
            rec.time_limit, _add_analysis(rec, analyses),
            outcomes(rec.result.outcome(Side.A).value), outcomes(rec.result.outcome(Side.B).value),
        ])
    return {"fields": list(FIELDS), "codes": code_labels(), "names": list(names),
            "batches": list(batches), "reasons": list(reasons), "outcomes": list(outcomes),
            # the words the page compares and shows, from the types that own them
            "seats": [seat.value for seat in Seat], "outcome_words": [o.value for o in Outcome],
            "faults": faults, "analyses": analyses, "games": games}


def _add_analysis(rec: GameRecord, analyses: List[Dict[str, Any]]) -> int:
    """Append the page's form of a record's loss analysis; its index, or -1 when there is none
    (no analysis, or a tie or a fault's game that the analysis skipped)."""
    a = rec.analysis
    if not isinstance(a, LossAnalysis):
        return -1
    d = a.decisive
    analyses.append({
        "loser": a.loser, "lost_after": a.lost_after, "kind": a.kind.value,
        "win_in": a.win_in, "line": moves_to_base36(a.line), "line_source": a.line_source,
        "seconds": a.seconds,
        "decisive": None if d is None else {
            "index": d.index, "proven": d.proven, "avoidable": d.avoidable,
            "alternatives": [[*alt.move, alt.value.value, alt.no_four_within]
                             for alt in d.alternatives]},
    })
    return len(analyses) - 1
