"""Who got a game's points and why, as the course's code says it from A's view (A and B: the
pairing's sides, `<A>_<B>.txt`); every reader asks these types, never maps codes again."""

from dataclasses import dataclass
from enum import Enum
from typing import Any, Dict, Mapping, Optional, Union

from records.codes import Code, FaultKind, fault_code


class Side(str, Enum):
    """A side of a pairing: A (the result file's first name) or B."""

    A = "a"
    B = "b"

    @property
    def other(self) -> "Side":
        return Side.B if self is Side.A else Side.A


class Seat(str, Enum):
    """A seat at the board, first or second to move; its value is JSON's and the command line's."""

    FIRST = "first"
    SECOND = "second"

    @classmethod
    def parse(cls, text: Any) -> "Seat":
        """The seat a word names; ValueError naming both words otherwise."""
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f"'first' or 'second', got {text!r}") from None

    @classmethod
    def of_ply(cls, ply: int) -> "Seat":
        """The seat that makes move ``ply`` (0-based), or is to move after ``ply`` moves."""
        return cls.FIRST if ply % 2 == 0 else cls.SECOND

    @property
    def other(self) -> "Seat":
        return Seat.SECOND if self is Seat.FIRST else Seat.FIRST

    @property
    def stone(self) -> int:
        """The stone it plays on the referee's grid: 1 the first player's, 2 the second's."""
        return 1 if self is Seat.FIRST else 2

    @property
    def symbol(self) -> str:
        """Its stone in the engine's board rows: X the first player's, O the second's."""
        return "X" if self is Seat.FIRST else "O"


class Outcome(str, Enum):
    """One player's view of a result."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    @property
    def letter(self) -> str:
        """W, D or L, as W-D-L counts print them."""
        return self.value[0].upper()

    @property
    def verdict(self) -> str:
        """The outcome told to the player it is about: You won, You lost, A draw."""
        return {Outcome.WIN: "You won", Outcome.DRAW: "A draw", Outcome.LOSS: "You lost"}[self]

    @property
    def score(self) -> float:
        """The game's score: 1 a win, 1/2 a draw, 0 a loss."""
        return {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}[self]

    @property
    def reversed(self) -> "Outcome":
        """The same game as the other player sees it."""
        return {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}.get(self, self)


@dataclass(frozen=True)
class WinChance:
    """A win chance in [0, 1] and whose it is (python-chess's ``PovScore``): ``pov`` gives it
    from either seat, so no reader flips ``1 - p`` by hand."""

    chance: float
    seat: Seat

    def pov(self, seat: Seat) -> float:
        """The chance of ``seat`` winning (a draw counts half, as ``Outcome.score``)."""
        return self.chance if seat is self.seat else 1.0 - self.chance

    @classmethod
    def of(cls, outcome: Union[Outcome, str], seat: Seat) -> "WinChance":
        """A settled game's chance: 1 a win, 1/2 a draw, 0 a loss, for ``seat``."""
        return cls(Outcome(outcome).score, seat)


class Result(str, Enum):
    """Who got the points: side A, side B, or neither (a draw). A fault is the faulter's loss."""

    A = "a"
    B = "b"
    DRAW = "draw"

    @classmethod
    def of_code(cls, code: int) -> "Result":
        """The result a course code records; ValueError for a number that is not one."""
        code = Code(code)
        if code == Code.TIE:
            return cls.DRAW
        a_wins = {Code.A_WON, Code.B_BUG, Code.B_ILLEGAL, Code.B_TIMEOUT, Code.B_LOAD,
                  Code.B_NO_ENTRY}
        return cls.A if code in a_wins else cls.B

    @property
    def winner(self) -> Optional[Side]:
        """The side that got the points; None for a draw."""
        return None if self is Result.DRAW else Side(self.value)

    def outcome(self, side: Side) -> Outcome:
        if self is Result.DRAW:
            return Outcome.DRAW
        return Outcome.WIN if self.value == side.value else Outcome.LOSS


@dataclass(frozen=True)
class Fault:
    """A game lost outside the board: by which side, of which kind, and what happened (the
    referee's one line, e.g. "no complete reply within 3 s")."""

    side: Side
    kind: FaultKind
    detail: str = ""

    @property
    def code(self) -> Code:
        return fault_code(self.kind, by_a=self.side is Side.A)

    @classmethod
    def of_code(cls, code: int, detail: str = "") -> Optional["Fault"]:
        """The fault a course code records (7 -> A timed out), None for a game decided on the
        board; ValueError for a number that is not a code."""
        code = Code(code)
        return next((cls(side, kind, detail) for kind in FaultKind for side in Side
                     if fault_code(kind, side is Side.A) == code), None)

    def to_dict(self) -> Dict[str, str]:
        return {"side": self.side.value, "kind": self.kind.value, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Fault":
        """A fault from the log's object; KeyError or ValueError when it is not one."""
        return cls(Side(data["side"]), FaultKind(data["kind"]), str(data.get("detail", "")))


def board_code(winner: Optional[Side]) -> Code:
    """The course's code for a game decided on the board (None: a tie)."""
    if winner is None:
        return Code.TIE
    return Code.A_WON if winner is Side.A else Code.B_WON
