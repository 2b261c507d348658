"""A game to play (a ``Task``) and playing it into a record."""

import socket
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Mapping

from arena.core.players.base import Player
from arena.core.referee import GameOutcome, play_game
from records.board import Board
from records.game import GameKey, GameRecord
from records.result import Side


class BatchError(Exception):
    """A game could not be played for a reason that is not a player's fault (a bug, a bad spec)."""


@dataclass(frozen=True)
class Task:
    """One game to play: its key, its board and the time limit per move (seconds)."""

    key: GameKey
    board: Board
    time_limit: float


def to_record(task: Task, outcome: GameOutcome) -> GameRecord:
    """The referee's first/second outcome as a record from the pairing's A/B view."""
    k, b, first = task.key, task.board, task.key.first
    fault = outcome.fault(first)
    # Players' stderr is kept where it explains something: in games lost by a fault.
    stderr = ({first.value: outcome.stderr[0], first.other.value: outcome.stderr[1]} if fault
              else {"a": "", "b": ""})
    return GameRecord(
        batch=k.batch, seed=k.seed, round=k.round, leg=k.leg, a=k.a, b=k.b, M=b.M, N=b.N,
        no_x=b.no_x, no_y=b.no_y, time_limit=task.time_limit, code=int(outcome.code(first)),
        reason=outcome.reason, moves=[list(m) for m in outcome.moves],
        times=list(outcome.times), fault=fault,
        win_line=[list(c) for c in outcome.win_line] or None, stderr=stderr,
        finished=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        host=socket.gethostname())


def play_task(players: Mapping[str, Player], task: Task) -> GameRecord:
    """Play one game of the batch between two of the given players (by name)."""
    pa, pb = players[task.key.a], players[task.key.b]
    first, second = (pa, pb) if task.key.first is Side.A else (pb, pa)
    return to_record(task, play_game(first, second, task.board, task.time_limit))
