"""Synthetic game records (random legal games) for the page's tests, benchmark and screenshot.

The records follow the docs/design.md schema and the course's rules (forbidden cell skipped,
four in a row wins, full board ties), so the page can be exercised on any number of games
without running bots. A few games end in a fault, with a stderr tail, like real batches do.
"""

import json
import random
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from arena.rules import Board, Cell

# (kind, the course's code when A faults, when B faults, detail)
FAULTS = (("timeout", 7, 8, "no reply within 3.0 s"),
          ("crash", 3, 5, "exit status -11 (SIGSEGV)"),
          ("illegal", 4, 6, "illegal move (0, 0)"))


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


def sample_record(rng: random.Random, index: int, a: str, b: str, fault_rate: float = 0.05,
                  min_plies: int = 0) -> Dict[str, Any]:
    """One record of `a` against `b`, legs alternating who moves first."""
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    no_x, no_y = rng.randrange(M), rng.randrange(N)
    moves, line, winner = random_game(rng, M, N, no_x, no_y, min_plies)
    leg = index % 2
    first, second = ("a", "b") if leg == 0 else ("b", "a")
    times = [round(rng.uniform(0.001, 2.9) if i % 2 == leg else rng.uniform(0.0, 0.05), 4)
             for i in range(len(moves))]
    fault: Optional[Dict[str, str]] = None
    stderr = {"a": "", "b": ""}
    reason = {0: "board full", 1: "four in a row", 2: "four in a row"}[winner]
    result = {0: "draw", 1: first, 2: second}[winner]
    if rng.random() < fault_rate and len(moves) > 4:
        kind, code_a, code_b, detail = rng.choice(FAULTS)
        cut = rng.randrange(2, len(moves) - 1)
        side = first if cut % 2 == 0 else second
        moves, line, times = moves[:cut], [], times[:cut] + [3.0 if kind == "timeout" else 0.2]
        fault = {"side": side, "kind": kind, "detail": detail}
        stderr[side] = f"{side}: thinking...\nTraceback (most recent call last):\n  boom <{kind}>\n"
        reason, result = f"{side.upper()} {kind}", "b" if side == "a" else "a"
        code = code_a if side == "a" else code_b
    else:
        code = {"draw": 0, "a": 1, "b": 2}[result]
    return {"v": 1, "batch": "sample", "seed": index // 2, "round": index // 2, "leg": leg,
            "a": a, "b": b, "first": first, "M": M, "N": N, "no_x": no_x, "no_y": no_y,
            "time_limit": 3.0, "moves": [list(m) for m in moves], "times": times,
            "code": code, "result": result, "reason": reason, "fault": fault,
            "win_line": [list(c) for c in line], "stderr": stderr,
            "finished": "2026-11-23T02:00:00Z"}


def write_sample(path: Union[str, Path], games: int, seed: int = 1, min_plies: int = 0,
                 opponents: Tuple[str, ...] = ("random", "greedy", "heuristic", "uct")) -> Path:
    """Write `games` sample records of "bot" against `opponents` in turn as JSON Lines."""
    rng = random.Random(seed)
    out = Path(path)
    with out.open("w", encoding="utf-8") as f:
        for i in range(games):
            rec = sample_record(rng, i, "bot", opponents[(i // 2) % len(opponents)],
                                min_plies=min_plies)
            f.write(json.dumps(rec) + "\n")
    return out
