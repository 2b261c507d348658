"""Where a lost game was decided (``LossAnalysis``, fields in docs/analyse.md; ``Skipped`` for a
tie or a fault), read from records older than a field too; and a move's exact ``Proof``."""

from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from records.move import Move
from records.result import Outcome, Seat


class Kind(str, Enum):
    """How the win after the decisive mistake goes."""

    MISSED_BLOCK = "missed block"  # the mistake let the winner make four at once
    DOUBLE_THREAT = "double threat"  # two cells to block (or a block that opens a third)
    ZUGZWANG = "zugzwang"  # nothing to block, yet every move opens a cell the winner wins on
    COMBINATION = "combination"  # a short forced four, its line not finished in the budget
    DEEP = "deep"  # proven by the solver, no forced four within the forced-win search's reach


class Phase(str, Enum):
    """When the decisive mistake came, by the share of the board's cells filled."""

    OPENING = "opening"
    MIDDLE = "middle"
    END = "end"


class Value(str, Enum):
    """A move's proven value for the side that had it; UNSETTLED where the budget ran out."""

    WIN = Outcome.WIN.value
    DRAW = Outcome.DRAW.value
    LOSS = Outcome.LOSS.value
    UNSETTLED = "unsettled"


@dataclass
class Alternative:
    """A move the loser had at its mistake that was not proven lost."""

    move: List[int]  # [x, y], course coordinates
    value: Value
    no_four_within: int = 0  # plies within which the opponent is proven to have no forced four


@dataclass
class Decisive:
    """The decisive mistake: the last move the loser made while another was not proven lost."""

    index: int  # 0-based into the record's moves
    move: List[int]
    alternatives: List[Alternative]
    proven: bool  # one of the alternatives is proven to hold
    avoidable: bool = False  # proven, or one is clear of a four as long as the win it allowed


@dataclass
class LossAnalysis:
    """One lost game's analysis (docs/analyse.md has what each field means)."""

    loser: str  # the loser's name
    loser_moved: Seat
    seconds: Optional[float]  # the budget of each searched position
    lost_after: int  # moves played when the loser was first proven lost
    decisive: Optional[Decisive]  # None: lost before its first move
    kind: Kind
    forced_four_in: Optional[int]  # plies of the winner's shortest forced four after the mistake
    win_in: Optional[int]  # plies of the proof's winning line, when it is complete
    line: List[List[int]]  # the winning line, the winner's move first
    line_source: str  # "proof", or "game": the game's own remainder, every position proven lost
    phase: Phase
    positions: int  # positions searched
    elapsed: float  # seconds

    def __post_init__(self) -> None:
        self.loser_moved = Seat.parse(self.loser_moved)  # its word, where one is given

    def to_dict(self) -> Dict[str, Any]:
        """Its JSON object: the fields in order, the decisive mistake's too, enums as words."""
        return asdict(self, dict_factory=_words)


@dataclass
class Skipped:
    """A record the analysis has nothing to search in: a tie, or a game lost by a fault."""

    reason: str  # "tie", "fault: timeout by uct"

    def to_dict(self) -> Dict[str, Any]:
        return {"skipped": self.reason}


Analysis = Union[LossAnalysis, Skipped]


def _words(items: List[Tuple[str, Any]]) -> Dict[str, Any]:
    return {name: v.value if isinstance(v, Enum) else v for name, v in items}


# What a record written before these fields existed stands for.
_OLDER = {"seconds": None, "forced_four_in": None, "win_in": None, "line_source": "proof",
          "positions": 0, "elapsed": 0.0}


def analysis_from_dict(data: Dict[str, Any]) -> Analysis:
    """The analysis a record's JSON object holds."""
    if "skipped" in data:
        return Skipped(data["skipped"])
    d = data.get("decisive")
    decisive = None if d is None else Decisive(**{**d, "alternatives": [
        Alternative(**{**a, "value": Value(a["value"])}) for a in d["alternatives"]]})
    return LossAnalysis(**{**_OLDER, "line": [], **data, "decisive": decisive,
                           "kind": Kind(data["kind"]), "phase": Phase(data["phase"])})


@dataclass(frozen=True)
class Proof:
    """One legal column's exact value for the side to move (analysis/proof.py), and the plies
    to the end with best play where the forced-win search found them (None: a draw, or deeper)."""

    move: Move
    result: Outcome
    plies: Optional[int] = None

    def to_dict(self) -> Dict[str, Any]:
        return {"move": self.move.to_list(), "result": self.result.value, "plies": self.plies}

    @classmethod
    def from_dict(cls, data: Any) -> "Proof":
        if not isinstance(data, Mapping) or set(data) != {"move", "result", "plies"}:
            raise ValueError(f"a proof is {{move, result, plies}}, got {data!r:.80}")
        plies = data["plies"]
        if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int)
                                  or plies < 1):
            raise ValueError(f"plies: expected a positive whole number or null, got {plies!r}")
        return cls(Move.from_list(data["move"]), Outcome(data["result"]), plies)
