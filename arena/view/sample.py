"""Synthetic game records (random legal games) for the page's tests, benchmark and screenshot.

The games are the arena's: its boards (``arena.boards``), its referee and its Python player,
between two seeded random movers, so the records follow the docs/design.md schema and the
course's rules, and the page can be exercised on any number of games without running bots.
A few games end in a fault, with a stderr tail, like real batches do.
"""

import dataclasses
import random
from pathlib import Path
from typing import List, Tuple, Union

from arena.boards import draw_board
from arena.players.python import PythonPlayer
from arena.referee import play_game
from arena.rules import Board
from arena.tasks import Task, to_record
from records.codes import FaultKind, fault_code
from records.game import GameKey, GameRecord
from records.log import write_log

# (kind, detail) of the faults sample games end in
FAULTS = ((FaultKind.TIMEOUT, "no reply within 3.0 s"),
          (FaultKind.CRASH, "exit status -11 (SIGSEGV)"),
          (FaultKind.ILLEGAL, "illegal move (0, 0)"))
FINISHED = "2026-11-23T02:00:00Z"  # one fixed time, so a sample is the same file every run


class RandomMover:
    """A getPoint strategy of seeded random legal moves. Until ``min_plies`` cells are filled it
    avoids completing a four where it can, so games last as long as real ones between strong
    players (random players end most games in about 25 plies)."""

    def __init__(self, rng: random.Random, min_plies: int = 0) -> None:
        self.rng, self.min_plies = rng, min_plies

    def __call__(self, M: int, N: int, top: List[int], board: List[int], last_x: int,
                 last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
        columns = [y for y in range(N) if top[y] > 0]
        if sum(1 for c in board if c) < self.min_plies:
            own = Board(M, N, no_x, no_y)
            own.cells = list(board)  # getPoint's view: 2 is this side's piece
            columns = [y for y in columns
                       if not _completes_four(own, top[y] - 1, y)] or columns
        y = self.rng.choice(columns)
        return top[y] - 1, y


def _completes_four(board: Board, x: int, y: int) -> bool:
    board.cells[x * board.N + y] = 2
    try:
        return bool(board.four_through(x, y))
    finally:
        board.cells[x * board.N + y] = 0


def sample_record(rng: random.Random, seed: int, index: int, a: str, b: str,
                  fault_rate: float = 0.05, min_plies: int = 0) -> GameRecord:
    """Game `index` of `a` against `b`, played by the arena's referee between two
    ``RandomMover``s: round index // 2 on the board of (seed, round), played twice as in a batch,
    legs alternating who moves first. Move times are drawn to look like a batch at 3 s (the
    mover's up to 2.9 s, the other's a few ms), and a share ``fault_rate`` of the games is cut
    short by a fault, with a stderr tail, as real batches are."""
    round_, leg = divmod(index, 2)
    task = Task(GameKey("sample", a, b, seed, round_, leg), draw_board(seed, round_), 3.0)
    players = [PythonPlayer(side, RandomMover(rng, min_plies)) for side in ("first", "second")]
    board = task.board
    outcome = play_game(players[0], players[1], board.M, board.N, board.no_x, board.no_y,
                        float("inf"))
    record = dataclasses.replace(to_record(task, outcome), finished=FINISHED, host=None)
    record.times = [round(rng.uniform(0.001, 2.9) if i % 2 == leg else rng.uniform(0.0, 0.05), 4)
                    for i in range(len(record.moves))]
    if rng.random() < fault_rate and len(record.moves) > 4:
        _cut_by_fault(rng, record)
    return record


def _cut_by_fault(rng: random.Random, record: GameRecord) -> None:
    """End ``record`` early with a fault of the side to move at a random ply."""
    kind, detail = rng.choice(FAULTS)
    cut = rng.randrange(2, len(record.moves) - 1)
    first, second = ("a", "b") if record.leg == 0 else ("b", "a")
    side = first if cut % 2 == 0 else second
    record.moves, record.win_line = record.moves[:cut], None
    record.times = record.times[:cut] + [3.0 if kind == FaultKind.TIMEOUT else 0.2]
    record.fault = {"side": side, "kind": kind.value, "detail": detail}
    record.stderr = {"a": "", "b": ""}
    record.stderr[side] = (f"{side}: thinking...\nTraceback (most recent call last):\n"
                           f"  boom <{kind.value}>\n")
    record.reason, record.code = (f"{side.upper()} {kind.value}",
                                  int(fault_code(kind, by_a=side == "a")))


def write_sample(path: Union[str, Path], games: int, seed: int = 1, min_plies: int = 0,
                 opponents: Tuple[str, ...] = ("random", "greedy", "heuristic", "uct")) -> Path:
    """Write `games` sample records of "bot" against `opponents` in turn as JSON Lines."""
    rng = random.Random(seed)
    out = Path(path)
    write_log(out, [sample_record(rng, seed, i, "bot", opponents[(i // 2) % len(opponents)],
                                  min_plies=min_plies) for i in range(games)])
    return out
