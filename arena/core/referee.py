"""Plays one game between two Players under the course's rules, independent of ``bot/``: every
move is checked on the referee's own board (``arena.core.rules``) and timed by the player (wall
clock, request written -> reply read); a fault ends the game at once."""
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from arena.core.players.base import MoveResult, Player
from arena.core.rules import Cell, Grid
from records.board import Board
from records.codes import Code, FaultKind
from records.result import Fault, Side, board_code


@dataclass
class GameOutcome:
    """A finished game, in first/second terms: player 1 moved first, player 2 second."""

    winner: int  # 0 tie, 1 first player, 2 second player
    faulter: int = 0  # the player (1 or 2) whose fault ended the game; 0 for none
    fault_kind: Optional[FaultKind] = None
    fault_detail: str = ""
    moves: List[Cell] = field(default_factory=list)
    times: List[float] = field(default_factory=list)  # seconds; times[i] belongs to moves[i]
    reason: str = ""
    win_line: List[Cell] = field(default_factory=list)
    stderr: Tuple[str, str] = ("", "")  # bounded stderr tails of (first, second)

    def side_of(self, player: int, first: Side) -> Side:
        """The pairing's side of player 1 or 2, when `first` is the side that moved first."""
        return first if player == 1 else first.other

    def fault(self, first: Side) -> Optional[Fault]:
        """The fault that ended the game, from the pairing's view; None if the board did."""
        if not self.faulter:
            return None
        return Fault(self.side_of(self.faulter, first), self.fault_kind or FaultKind.CRASH,
                     self.fault_detail)

    def code(self, first: Side) -> Code:
        """The course's code, from the pairing's view."""
        fault = self.fault(first)
        if fault is not None:
            return fault.code
        return board_code(self.side_of(self.winner, first) if self.winner else None)


def _lost_by_fault(side: int, res: MoveResult, moves: List[Cell],
                   times: List[float]) -> GameOutcome:
    kind = res.fault or FaultKind.CRASH
    return GameOutcome(winner=3 - side, faulter=side, fault_kind=kind, fault_detail=res.detail,
                       moves=moves, times=times,
                       reason=f"{kind.value} by player {side}: {res.detail}")


def _play(players: Tuple[Player, Player], board: Grid, time_limit: float) -> GameOutcome:
    moves: List[Cell] = []
    times: List[float] = []
    # The second player is loaded first, so that its loading (untimed for a library) does not
    # run on the clock of a process that opens the game; a load fault of the first still wins.
    started = {side: players[side - 1].start_game(board.M, board.N, board.no_x, board.no_y)
               for side in (2, 1)}
    for side in (1, 2):
        if (load := started[side]) is not None:
            return _lost_by_fault(side, load, moves, times)
    last = (-1, -1)
    side = 1
    while True:
        player = players[side - 1]
        res = player.move(list(board.top), board.view(side), last[0], last[1], time_limit)
        if res.fault is None and player.timed and res.elapsed > time_limit:
            res = MoveResult(None, res.elapsed, FaultKind.TIMEOUT,
                             f"answered {res.point} after {res.elapsed:.3f} s")
        point = res.point  # None exactly when res carries a fault
        if res.fault is None and point is not None and not board.is_legal(*point):
            res = MoveResult(None, res.elapsed, FaultKind.ILLEGAL, f"illegal move {point}")
        times.append(res.elapsed)
        if res.fault is not None or point is None:
            return _lost_by_fault(side, res, moves, times)
        x, y = point
        board.play(x, y, side)
        moves.append((x, y))
        line = board.four_through(x, y)
        if line:
            return GameOutcome(winner=side, moves=moves, times=times, reason="four in a row",
                               win_line=line)
        if board.is_full():
            return GameOutcome(winner=0, moves=moves, times=times, reason="board full")
        last, side = (x, y), 3 - side


def play_game(first: Player, second: Player, board: Board, time_limit: float) -> GameOutcome:
    """Play a whole game on `board`, `time_limit` seconds a move; both players' games are ended
    (processes reaped) whatever happens."""
    try:
        outcome = _play((first, second), Grid(board.M, board.N, board.no_x, board.no_y), time_limit)
    finally:
        try:
            first.end_game()
        finally:
            second.end_game()
    outcome.stderr = (first.stderr_tail(), second.stderr_tail())
    return outcome
