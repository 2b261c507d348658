"""A person in a browser as an arena player (`python -m arena serve`, the play page).

The referee runs in a thread of the web server and asks this player for a move like any other;
`move` waits until the page sends a column (`submit`, from an HTTP request's thread) or until
the person is gone (`abandon`: the tab closed). A column that is off the board or full, or one
sent while it is not the person's turn, is refused with a reason and changes nothing, so a
stray click never loses the game; whether the cell is legal is still the referee's judgment.
The person's thinking time is recorded honestly and never limited (`timed = False`); leaving
the game is recorded as the person's crash (code 3 or 5), as closing the terminal's input is.
"""

import threading
import time
from typing import Callable, List, Optional

from arena.core.players.base import MoveResult, Player, fault
from records.codes import FaultKind


class NotYourTurn(Exception):
    """A column sent while the referee is not waiting for the person."""


class WebPlayer(Player):
    """Moves come from `submit` (another thread); `move` blocks until one comes."""

    timed = False

    def __init__(self, name: str = "human",
                 on_change: Optional[Callable[[], None]] = None) -> None:
        self.name = name
        self._on_change = on_change or (lambda: None)  # the page has something new to show
        self._cond = threading.Condition()
        self._top: Optional[List[int]] = None  # the referee's top while it waits for a move
        self._column: Optional[int] = None
        self._gone = ""  # why the person left, once they have

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        with self._cond:
            self._top = self._column = None
        return None

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        start = time.monotonic()
        with self._cond:
            self._top, self._column = list(top), None
        self._on_change()
        with self._cond:
            while self._column is None and not self._gone:
                self._cond.wait()
            top_now, y = self._top or top, self._column
            self._top = None
        elapsed = time.monotonic() - start
        if y is None:
            return fault(FaultKind.CRASH, self._gone, elapsed)
        return MoveResult((top_now[y] - 1, y), elapsed, None)

    def waiting(self) -> bool:
        """Whether the referee waits for the person's move now."""
        with self._cond:
            return self._top is not None and self._column is None and not self._gone

    def submit(self, column: int) -> None:
        """Play `column` (0 = left). NotYourTurn when the referee does not wait for the
        person; ValueError for a column that is off the board or full."""
        with self._cond:
            if self._top is None or self._column is not None or self._gone:
                raise NotYourTurn("it is not your turn")
            N = len(self._top)
            if not 0 <= column < N:
                raise ValueError(f"there is no column {column} (0..{N - 1})")
            if self._top[column] == 0:
                raise ValueError(f"column {column} is full")
            self._column = column
            self._cond.notify_all()

    def abandon(self, why: str) -> None:
        """The person left: a move being waited for, or the next one, is their crash."""
        with self._cond:
            self._gone = self._gone or why
            self._cond.notify_all()

    def end_game(self) -> None:
        """Nothing to stop: the page stays open."""

    def stderr_tail(self) -> str:
        return ""

    def close(self) -> None:
        self.abandon("the server closed the game")
