"""One finished game, as the JSON Lines log holds it (the schema is in docs/design.md).

Records are from the pairing's A/B view: ``code`` is the course's code, ``leg`` 0 has A move
first. What follows from those (who moved first, who got the points, who lost on the board) is
a property here, so no reader derives it again.
"""

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from records.analysis import Analysis, analysis_from_dict
from records.codes import Code, FaultKind, fault_code, winner_of

RECORD_VERSION = 1

_FAULTS = {int(fault_code(kind, side == "a")): (side, kind.value)
           for kind in FaultKind for side in ("a", "b")}


def winner_of_code(code: int) -> str:
    """Who gets the points for a course code: "a", "b" or "draw" (a fault loses the game).
    Raises ValueError for a number that is not a course code."""
    return winner_of(Code(code)) or "draw"


def fault_of_code(code: int) -> Optional[Tuple[str, str]]:
    """(side, kind) of the fault a course code records, e.g. 7 -> ("a", "timeout"); else None."""
    return _FAULTS.get(code)


@dataclass(frozen=True)
class GameKey:
    """Identifies one game of a batch; resuming skips the keys already in the log."""

    batch: str
    a: str
    b: str
    seed: int
    round: int
    leg: int


@dataclass
class GameRecord:
    """One finished game, as written to the JSON Lines log (see docs/design.md)."""

    batch: str
    seed: int
    round: int
    leg: int
    a: str
    b: str
    M: int
    N: int
    no_x: int
    no_y: int
    time_limit: float
    code: int
    reason: str
    moves: List[List[int]] = field(default_factory=list)
    times: List[float] = field(default_factory=list)
    fault: Optional[Dict[str, str]] = None
    win_line: Optional[List[List[int]]] = None
    stderr: Dict[str, str] = field(default_factory=dict)
    finished: str = ""
    host: Optional[str] = None  # the machine that played the game (None in older logs)
    # where the game was decided, added by `python -m arena analyse` (docs/analyse.md)
    analysis: Optional[Analysis] = None
    v: int = RECORD_VERSION

    @property
    def first(self) -> str:
        """Side that moved first: "a" in leg 0, "b" in leg 1."""
        return "a" if self.leg == 0 else "b"

    @property
    def result(self) -> str:
        """Who got the points: "a", "b" or "draw"."""
        return winner_of_code(self.code)

    @property
    def loser(self) -> Optional[str]:
        """Side that lost on the board; None for a tie or a game lost by a fault."""
        if self.fault or self.result == "draw":
            return None
        return "b" if self.result == "a" else "a"

    @property
    def key(self) -> GameKey:
        return GameKey(self.batch, self.a, self.b, self.seed, self.round, self.leg)

    def name(self, side: str) -> str:
        """The player's name on one side ("a" or "b")."""
        return self.a if side == "a" else self.b

    def side_times(self, side: str) -> List[float]:
        """Move times (seconds) of one side: moves alternate, starting with the first mover."""
        start = 0 if side == self.first else 1
        return self.times[start::2]

    def to_json(self) -> str:
        """The record's one line of the log (no newline)."""
        data = asdict(self)
        if self.analysis is None:
            del data["analysis"]  # a batch's records carry none
        else:
            data["analysis"] = self.analysis.to_dict()
        data["first"] = self.first
        data["result"] = self.result
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "GameRecord":
        """A record from its JSON object; keys it does not know (``first``, ``result``) are
        derived, not read."""
        names = cls.__dataclass_fields__.keys()
        values = {k: v for k, v in data.items() if k in names}
        if values.get("analysis") is not None:
            values["analysis"] = analysis_from_dict(values["analysis"])
        return cls(**values)
