"""Synthetic game records (random legal games) for the page's tests, benchmark and screenshot.

The games are the arena's from end to end: its boards (``arena.core.boards``), its referee and its
Python player, between two seeded random movers, so the records follow the docs/design.md
schema and the course's rules, and the page can be exercised on any number of games without
running bots. Their thinking is drawn, not spent: each mover reports a drawn time (A up to
2.9 s, as a bot at 3 s; B a few ms) that the referee judges like any other. A few games end in
a fault, caused as a player causes one and judged by the referee: a reply past the time
limit, a crash (its traceback the stderr tail) or a move onto the forbidden cell.
"""

import dataclasses
import random
from pathlib import Path
from typing import List, Optional, Tuple, Union

from arena.core.boards import draw_board
from arena.core.players.base import MoveResult
from arena.core.players.python import PythonPlayer
from arena.core.rules import Grid
from arena.core.tasks import Task, play_task
from records.codes import FaultKind
from records.game import GameKey, GameRecord
from records.log import write_log

FAULTS = (FaultKind.TIMEOUT, FaultKind.CRASH, FaultKind.ILLEGAL)  # the faults samples end in
FINISHED = "2026-11-23T02:00:00Z"  # one fixed time, so a sample is the same file every run
THINKING = {"a": (0.001, 2.9), "b": (0.0, 0.05)}  # seconds a move, drawn uniformly
TIME_LIMIT = 3.0  # seconds a move, as the course's

FaultAt = Tuple[int, Optional[FaultKind]]  # (the ply it happens at, its kind); (-1, None): none


class RandomMover:
    """A getPoint strategy of seeded random legal moves. Until ``min_plies`` cells are filled it
    avoids completing a four where it can, so games last as long as real ones between strong
    players (random players end most games in about 25 plies). At the ply of ``fault`` it
    crashes or plays the forbidden cell, as that fault's kind says."""

    def __init__(self, rng: random.Random, min_plies: int = 0, fault: FaultAt = (-1, None)) -> None:
        self.rng, self.min_plies, self.fault = rng, min_plies, fault

    def __call__(self, M: int, N: int, top: List[int], board: List[int], last_x: int,
                 last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
        filled = sum(1 for c in board if c)
        if filled == self.fault[0] and self.fault[1] is FaultKind.CRASH:
            raise RuntimeError("boom <crash>")
        if filled == self.fault[0] and self.fault[1] is FaultKind.ILLEGAL:
            return no_x, no_y
        columns = [y for y in range(N) if top[y] > 0]
        if filled < self.min_plies:
            own = Grid(M, N, no_x, no_y)
            own.cells = list(board)  # getPoint's view: 2 is this side's piece
            columns = [y for y in columns
                       if not _completes_four(own, top[y] - 1, y)] or columns
        y = self.rng.choice(columns)
        return top[y] - 1, y


def _completes_four(board: Grid, x: int, y: int) -> bool:
    board.cells[x * board.N + y] = 2
    try:
        return bool(board.four_through(x, y))
    finally:
        board.cells[x * board.N + y] = 0


class SamplePlayer(PythonPlayer):
    """The arena's Python player of a RandomMover whose reply times are drawn from
    ``thinking`` (seconds, low and high); at a TIMEOUT fault's ply the reply comes too late."""

    def __init__(self, name: str, mover: RandomMover, clock: random.Random,
                 thinking: Tuple[float, float]) -> None:
        super().__init__(name, mover)
        self.mover, self.clock, self.thinking = mover, clock, thinking

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        result = super().move(top, board, last_x, last_y, time_limit)
        late = self.mover.fault == (sum(1 for c in board if c), FaultKind.TIMEOUT)
        drawn = time_limit + self.clock.uniform(0.01, 0.5) if late else \
            round(self.clock.uniform(*self.thinking), 4)
        return dataclasses.replace(result, elapsed=drawn)


def _played(task: Task, game_seed: int, min_plies: int, fault: FaultAt = (-1, None)) -> GameRecord:
    """The task's game between two SamplePlayers seeded by ``game_seed`` (so the same seed
    replays the same moves), the fault happening to whichever side moves at its ply."""
    moves, clock = random.Random(game_seed), random.Random(game_seed + 1)
    players = {name: SamplePlayer(name, RandomMover(moves, min_plies, fault), clock,
                                  THINKING[side])
               for side, name in (("a", task.key.a), ("b", task.key.b))}
    return dataclasses.replace(play_task(players, task), finished=FINISHED, host=None)


def sample_record(rng: random.Random, seed: int, index: int, a: str, b: str,
                  fault_rate: float = 0.05, min_plies: int = 0) -> GameRecord:
    """Game `index` of `a` against `b`: round index // 2 on the board of (seed, round), played
    twice as in a batch, legs alternating who moves first. A share ``fault_rate`` of the games
    is played again from the same seed with a fault at a random ply of its first playing."""
    round_, leg = divmod(index, 2)
    task = Task(GameKey("sample", a, b, seed, round_, leg), draw_board(seed, round_), TIME_LIMIT)
    game_seed = rng.getrandbits(32)
    record = _played(task, game_seed, min_plies)
    if rng.random() < fault_rate and len(record.moves) > 4:
        fault = (rng.randrange(2, len(record.moves) - 1), rng.choice(FAULTS))
        record = _played(task, game_seed, min_plies, fault)
    return record


def write_sample(path: Union[str, Path], games: int, seed: int = 1, min_plies: int = 0,
                 opponents: Tuple[str, ...] = ("random", "greedy", "heuristic", "uct")) -> Path:
    """Write `games` sample records of "bot" against `opponents` in turn as JSON Lines."""
    rng = random.Random(seed)
    out = Path(path)
    write_log(out, [sample_record(rng, seed, i, "bot", opponents[(i // 2) % len(opponents)],
                                  min_plies=min_plies) for i in range(games)])
    return out
