"""The one interface every kind of arena player implements: the referee talks only to
``Player``, whether a process, a course ``.so`` in a host process or a Python function."""
from abc import abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import List, Optional, Tuple

from records.codes import FaultKind


@dataclass
class MoveResult:
    """One request's answer: a point or a fault, and the wall-clock seconds it took."""

    point: Optional[Tuple[int, int]]  # (x, y) course coordinates, None on a fault
    elapsed: float  # seconds, wall clock, request written -> whole reply read
    fault: Optional[FaultKind]
    detail: str = ""  # one line for humans


def fault(kind: FaultKind, detail: str, elapsed: float = 0.0) -> MoveResult:
    return MoveResult(None, elapsed, kind, detail)


class Player(AbstractContextManager["Player"]):
    """A bot as the referee sees it. One game at a time; ``start_game`` begins each one."""

    name: str
    timed: bool = True  # False: the referee does not hold it to the limit (a person)

    @abstractmethod
    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        """Load or start the player for a new game; a MoveResult with a fault if it cannot."""

    @abstractmethod
    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        """Ask for a move; ``board`` is from this player's view (2 own, 1 opponent, 0 empty)."""

    @abstractmethod
    def end_game(self) -> None:
        """Finish the game: stop what belongs to it (processes are killed and reaped)."""

    def stderr_tail(self) -> str:
        """The last few KiB of the player's stderr in the current or last game."""
        return ""

    def close(self) -> None:
        """Release everything the player holds; it may not be used afterwards."""
        self.end_game()

    def __exit__(self, *exc: object) -> None:
        self.close()
