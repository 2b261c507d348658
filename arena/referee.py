"""Plays one game between two Players under the course's rules; independent of ``bot/``.

Every move is validated on the referee's own board (``arena.rules``) and timed by the player
(wall clock, request written -> reply read); a fault ends the game at once. The scheduler turns
the outcome into the course's code from its A/B view with ``GameOutcome.course_code``.
"""
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from arena.players.base import MoveResult, Player
from arena.rules import Board, Cell
from records.codes import Code, FaultKind, fault_code, win_code


@dataclass
class Fault:
    """Who lost the game outside the board (1 first player, 2 second) and why."""

    side: int
    kind: FaultKind
    detail: str


@dataclass
class GameOutcome:
    """A finished game, in first/second terms."""

    winner: int  # 0 tie, 1 first player, 2 second player
    fault: Optional[Fault]
    moves: List[Cell] = field(default_factory=list)
    times: List[float] = field(default_factory=list)  # seconds; times[i] belongs to moves[i]
    reason: str = ""
    win_line: List[Cell] = field(default_factory=list)
    stderr: Tuple[str, str] = ("", "")  # bounded stderr tails of (first, second)

    def course_code(self, a_first: bool) -> Code:
        """The course's code for a pairing whose A moved first (``a_first``) or second."""
        if self.fault is not None:
            return fault_code(self.fault.kind, by_a=(self.fault.side == 1) == a_first)
        if self.winner == 0:
            return win_code(None)
        return win_code((self.winner == 1) == a_first)


def _lost_by_fault(side: int, res: MoveResult, moves: List[Cell],
                   times: List[float]) -> GameOutcome:
    kind = res.fault or FaultKind.CRASH
    return GameOutcome(winner=3 - side, fault=Fault(side, kind, res.detail), moves=moves,
                       times=times, reason=f"{kind.value} by player {side}: {res.detail}")


def _play(players: Tuple[Player, Player], board: Board, time_limit: float) -> GameOutcome:
    moves: List[Cell] = []
    times: List[float] = []
    # The second player is loaded first, so that its loading (untimed for a library) does not
    # run on the clock of a process that opens the game; a load fault of the first still wins.
    started = {side: players[side - 1].start_game(board.M, board.N, board.no_x, board.no_y)
               for side in (2, 1)}
    for side in (1, 2):
        if started[side] is not None:
            return _lost_by_fault(side, started[side], moves, times)
    last = (-1, -1)
    side = 1
    while True:
        player = players[side - 1]
        res = player.move(list(board.top), board.view(side), last[0], last[1], time_limit)
        if res.fault is None and player.timed and res.elapsed > time_limit:
            res = MoveResult(None, res.elapsed, FaultKind.TIMEOUT,
                             f"answered {res.point} after {res.elapsed:.3f} s")
        if res.fault is None and not board.is_legal(*res.point):
            res = MoveResult(None, res.elapsed, FaultKind.ILLEGAL, f"illegal move {res.point}")
        if res.fault is not None:
            times.append(res.elapsed)
            return _lost_by_fault(side, res, moves, times)
        x, y = res.point
        board.play(x, y, side)
        moves.append((x, y))
        times.append(res.elapsed)
        line = board.four_through(x, y)
        if line:
            return GameOutcome(winner=side, fault=None, moves=moves, times=times,
                               reason="four in a row", win_line=line)
        if board.is_full():
            return GameOutcome(winner=0, fault=None, moves=moves, times=times,
                               reason="board full")
        last, side = (x, y), 3 - side


def play_game(first: Player, second: Player, M: int, N: int, no_x: int, no_y: int,
              time_limit: float) -> GameOutcome:
    """Play a whole game; both players' games are ended (processes reaped) whatever happens."""
    try:
        outcome = _play((first, second), Board(M, N, no_x, no_y), time_limit)
    finally:
        try:
            first.end_game()
        finally:
            second.end_game()
    outcome.stderr = (first.stderr_tail(), second.stderr_tail())
    return outcome
