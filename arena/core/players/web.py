"""A person in a browser as an arena player (the play page): `move` waits for the page's column
(`submit`, from a request's thread) or the person's leaving (`abandon`). A column off the board,
full or out of turn is refused and changes nothing, so a stray click never loses the game."""

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
            self._cond.wait_for(lambda: self._column is not None or bool(self._gone))
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

    def close(self) -> None:
        self.abandon("the server closed the game")
