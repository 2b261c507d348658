"""A game's key and its record; what follows from a record's code and leg (who moved first, who
got the points, who lost on the board) is a property here, so no reader derives it again."""

import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, Dict, List, Mapping, Optional

from records.analysis import Analysis, analysis_from_dict
from records.board import Board
from records.result import Fault, Result, Seat, Side

RECORD_VERSION = 1


@dataclass(frozen=True)
class GameKey:
    """Identifies one game of a batch; resuming skips the keys already in the log."""

    batch: str
    a: str
    b: str
    seed: int
    round: int
    leg: int

    def to_dict(self) -> Dict[str, Any]:
        """The key as JSON carries it (live files, the watch page, links to a game)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "GameKey":
        """A key from its JSON object or a query string's values (numbers may be text);
        KeyError or ValueError when it is not one."""
        return cls(str(data["batch"]), str(data["a"]), str(data["b"]), int(data["seed"]),
                   int(data["round"]), int(data["leg"]))

    @property
    def first(self) -> Side:
        """Side that moves first: A in leg 0, B in leg 1."""
        return Side.A if self.leg == 0 else Side.B

    def name(self, side: Side) -> str:
        return self.a if side is Side.A else self.b


@dataclass
class GameRecord:
    """One finished game from the pairing's A/B view: a line of the log (docs/design.md)."""

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
    fault: Optional[Fault] = None
    win_line: Optional[List[List[int]]] = None
    stderr: Dict[str, str] = field(default_factory=dict)
    finished: str = ""
    host: Optional[str] = None  # the machine that played the game (None in older logs)
    # where the game was decided, added by `python -m arena analyse` (docs/analyse.md)
    analysis: Optional[Analysis] = None
    v: int = RECORD_VERSION

    @property
    def first(self) -> Side:
        return self.key.first

    def side(self, seat: Seat) -> Side:
        return self.first if seat is Seat.FIRST else self.first.other

    def seat(self, side: Side) -> Seat:
        return Seat.FIRST if side is self.first else Seat.SECOND

    @property
    def result(self) -> Result:
        """Who got the points."""
        return Result.of_code(self.code)

    @property
    def loser(self) -> Optional[Side]:
        """Side that lost on the board; None for a tie or a game lost by a fault."""
        winner = self.result.winner
        return None if self.fault or winner is None else winner.other

    @property
    def key(self) -> GameKey:
        return GameKey(self.batch, self.a, self.b, self.seed, self.round, self.leg)

    @property
    def board(self) -> Board:
        return Board(self.M, self.N, self.no_x, self.no_y)

    def name(self, side: Side) -> str:
        return self.key.name(side)

    def side_times(self, side: Side) -> List[float]:
        """Move times (seconds) of one side: moves alternate, starting with the first mover."""
        start = 0 if side == self.first else 1
        return self.times[start::2]

    def to_json(self) -> str:
        """The record's one line of the log (no newline)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if self.fault is not None:
            data["fault"] = self.fault.to_dict()
        if self.analysis is None:
            del data["analysis"]  # a batch's records carry none
        else:
            data["analysis"] = self.analysis.to_dict()
        data.update(first=self.first.value, result=self.result.value)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "GameRecord":
        """A record from its JSON object; keys it does not know (``first``, ``result``) are
        derived, not read. ValueError naming the fields a record needs and this one lacks."""
        values = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        missing = [f.name for f in fields(cls) if f.name not in values
                   and f.default is MISSING and f.default_factory is MISSING]
        if missing:
            raise ValueError(f"no {', '.join(missing)}")
        if values.get("analysis") is not None:
            values["analysis"] = analysis_from_dict(values["analysis"])
        if values.get("fault") is not None:
            values["fault"] = Fault.from_dict(values["fault"])
        return cls(**values)
