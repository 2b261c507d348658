"""The games of a batch: one task per game on the seeded boards, and playing a task into a record.

Round r's board comes from `arena.boards` alone, so any game can be replayed by itself, on any
machine, and every pairing meets the same boards. Each board is played twice, A first (leg 0)
then B first (leg 1): the course's two lines per round.
"""

import socket
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Dict, List

from arena.boards import BoardSpec, draw_board
from arena.config import Config
from arena.players.base import Player
from arena.referee import GameOutcome, play_game
from records.game import GameKey, GameRecord


class BatchError(Exception):
    """A game could not be played for a reason that is not a player's fault (a bug, a bad spec)."""


@dataclass(frozen=True)
class Task:
    """One game to play: its key, its board and the time limit per move (seconds)."""

    key: GameKey
    board: BoardSpec
    time_limit: float


def plan(config: Config) -> List[Task]:
    """Every game of the batch, round by round, so a cut-short batch is balanced."""
    return [Task(GameKey(config.batch, a, b, config.seed, r, leg), draw_board(config.seed, r),
                 config.time_limit)
            for r in range(config.rounds) for a, b in config.pairings for leg in (0, 1)]


def to_record(task: Task, outcome: GameOutcome) -> GameRecord:
    """The referee's first/second outcome as a record from the pairing's A/B view."""
    k, b = task.key, task.board
    a_first = k.leg == 0
    side_of = {1: "a" if a_first else "b", 2: "b" if a_first else "a"}
    fault = outcome.fault
    # Players' stderr is kept where it explains something: in games lost by a fault.
    stderr = ({side_of[1]: outcome.stderr[0], side_of[2]: outcome.stderr[1]} if fault
              else {"a": "", "b": ""})
    return GameRecord(
        batch=k.batch, seed=k.seed, round=k.round, leg=k.leg, a=k.a, b=k.b, M=b.M, N=b.N,
        no_x=b.no_x, no_y=b.no_y, time_limit=task.time_limit,
        code=int(outcome.course_code(a_first)), reason=outcome.reason,
        moves=[list(m) for m in outcome.moves], times=list(outcome.times),
        fault=None if fault is None else {"side": side_of[fault.side], "kind": fault.kind.value,
                                          "detail": fault.detail},
        win_line=[list(c) for c in outcome.win_line] or None, stderr=stderr,
        finished=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        host=socket.gethostname())


def play_task(players: Dict[str, Player], task: Task) -> GameRecord:
    """Play one game of the batch between two of a worker's players."""
    pa, pb = players[task.key.a], players[task.key.b]
    first, second = (pa, pb) if task.key.leg == 0 else (pb, pa)
    b = task.board
    return to_record(task, play_game(first, second, b.M, b.N, b.no_x, b.no_y, task.time_limit))
