"""Synthetic game records (random legal games) for the page's tests, benchmark and screenshot.

The records follow the docs/design.md schema and the course's rules (forbidden cell skipped,
four in a row wins, full board ties), so the page can be exercised on any number of games
without running bots. A few games end in a fault, with a stderr tail, like real batches do.
"""

import random
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

from arena.boards import draw_board
from arena.rules import Board, Cell
from records.codes import FaultKind, fault_code, win_code
from records.game import GameRecord
from records.log import write_log

# (kind, detail) of the faults sample games end in
FAULTS = ((FaultKind.TIMEOUT, "no reply within 3.0 s"),
          (FaultKind.CRASH, "exit status -11 (SIGSEGV)"),
          (FaultKind.ILLEGAL, "illegal move (0, 0)"))


def _completes_four(board: Board, x: int, y: int, piece: int) -> bool:
    board.cells[x * board.N + y] = piece
    try:
        return bool(board.four_through(x, y))
    finally:
        board.cells[x * board.N + y] = 0


def random_game(rng: random.Random, M: int, N: int, no_x: int, no_y: int,
                min_plies: int = 0) -> Tuple[List[Cell], List[Cell], int]:
    """Play random legal moves: (moves, winning line, winner 0 tie / 1 / 2). Before ply
    `min_plies` both sides avoid completing a four when they can, so games last as long as
    real ones between strong players (random players end most games in about 25 plies)."""
    board = Board(M, N, no_x, no_y)
    moves: List[Cell] = []
    while not board.is_full():
        piece = len(moves) % 2 + 1
        columns = [c for c in range(N) if board.top[c] > 0]
        if len(moves) < min_plies:
            columns = [c for c in columns
                       if not _completes_four(board, board.top[c] - 1, c, piece)] or columns
        y = rng.choice(columns)
        x = board.top[y] - 1
        board.play(x, y, piece)
        moves.append((x, y))
        line = board.four_through(x, y)
        if line:
            return moves, line, piece
    return moves, [], 0


def sample_record(rng: random.Random, seed: int, index: int, a: str, b: str,
                  fault_rate: float = 0.05, min_plies: int = 0) -> GameRecord:
    """Game `index` of `a` against `b`: round index // 2 on the board of (seed, round), played
    twice as in a batch, legs alternating who moves first."""
    round_, leg = divmod(index, 2)
    board = draw_board(seed, round_)
    moves, line, winner = random_game(rng, board.M, board.N, board.no_x, board.no_y, min_plies)
    first, second = ("a", "b") if leg == 0 else ("b", "a")
    times = [round(rng.uniform(0.001, 2.9) if i % 2 == leg else rng.uniform(0.0, 0.05), 4)
             for i in range(len(moves))]
    fault: Optional[Dict[str, str]] = None
    stderr = {"a": "", "b": ""}
    reason = "four in a row" if winner else "board full"
    code = win_code(None if winner == 0 else (winner == 1) == (leg == 0))
    if rng.random() < fault_rate and len(moves) > 4:
        kind, detail = rng.choice(FAULTS)
        cut = rng.randrange(2, len(moves) - 1)
        side = first if cut % 2 == 0 else second
        moves, line = moves[:cut], []
        times = times[:cut] + [3.0 if kind == FaultKind.TIMEOUT else 0.2]
        fault = {"side": side, "kind": kind.value, "detail": detail}
        stderr[side] = (f"{side}: thinking...\nTraceback (most recent call last):\n"
                        f"  boom <{kind.value}>\n")
        reason, code = f"{side.upper()} {kind.value}", fault_code(kind, by_a=side == "a")
    return GameRecord(batch="sample", seed=seed, round=round_, leg=leg, a=a, b=b, M=board.M,
                      N=board.N, no_x=board.no_x, no_y=board.no_y, time_limit=3.0,
                      code=int(code), reason=reason, moves=[list(m) for m in moves],
                      times=times, fault=fault, win_line=[list(c) for c in line],
                      stderr=stderr, finished="2026-11-23T02:00:00Z")


def write_sample(path: Union[str, Path], games: int, seed: int = 1, min_plies: int = 0,
                 opponents: Tuple[str, ...] = ("random", "greedy", "heuristic", "uct")) -> Path:
    """Write `games` sample records of "bot" against `opponents` in turn as JSON Lines."""
    rng = random.Random(seed)
    out = Path(path)
    write_log(out, [sample_record(rng, seed, i, "bot", opponents[(i // 2) % len(opponents)],
                                  min_plies=min_plies) for i in range(games)])
    return out
