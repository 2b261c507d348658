"""Small hand-made records for the replay page's tests (plus random ones from devtools.sample)."""

import random
from pathlib import Path
from typing import List, Sequence, Tuple

from arena.core.boards import draw_board
from arena.core.players.python import PythonPlayer
from arena.core.tasks import Task, play_task
from devtools.sample import write_sample
from records.codes import FaultKind
from records.game import GameKey, GameRecord
from records.log import ResultLog, read_log
from records.result import Fault, Side


def forbidden_bottom_win() -> GameRecord:
    """9x10, forbidden cell (8, 3) on the bottom row; B moves first and stacks column 3 on top
    of it (rows 7, 6, 5, 4) while A fills the bottom-left: B wins with a vertical four."""
    moves = [[7, 3], [8, 0], [6, 3], [8, 1], [5, 3], [7, 0], [4, 3]]
    return GameRecord(batch="hand", seed=1, round=0, leg=1, a="bot", b="greedy", M=9, N=10,
                      no_x=8, no_y=3, time_limit=3.0, code=2, reason="four in a row",
                      moves=moves, times=[0.001 * (i + 1) for i in range(len(moves))],
                      win_line=[[4, 3], [5, 3], [6, 3], [7, 3]])


def crash_with_stderr() -> GameRecord:
    """B (uct) crashes on its second move; its stderr would break a naive page."""
    return GameRecord(batch="hand", seed=2, round=0, leg=0, a="bot", b="uct", M=10, N=10,
                      no_x=2, no_y=2, time_limit=3.0, code=5, reason="B crash",
                      moves=[[9, 4], [9, 5], [8, 4]], times=[0.5, 0.02, 0.4, 0.01],
                      fault=Fault(Side.B, FaultKind.CRASH, "exit status -11"),
                      stderr={"a": "", "b": "line one\n</script><b>not bold</b>\nSegfault"})


def write_records(path: Path, extra_random: int = 10) -> List[GameRecord]:
    """Hand-made games first (indices 0 and 1), then random ones; returns them in file order."""
    write_sample(path, extra_random, seed=7)
    random_lines = path.read_text()
    hand = "".join(r.to_json() + "\n" for r in (forbidden_bottom_win(), crash_with_stderr()))
    path.write_text(hand + random_lines)
    append_real_games(path)
    return read_log(path)


def seeded_random(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
                  last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
    """A legal random move, the same for the same position."""
    y = random.Random(f"{board}").choice([c for c in range(N) if top[c] > 0])
    return top[y] - 1, y


def crashes_late(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
                 last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
    """Plays like seeded_random until five of its pieces are down, then raises."""
    if board.count(2) >= 5:
        raise RuntimeError("deliberate crash for the replay page's tests")
    return seeded_random(M, N, top, board, last_x, last_y, no_x, no_y)


def append_real_games(path: Path, rounds: int = 2) -> None:
    """Append games played by the real referee and scheduler: random against random (both
    colours) and random against a player that crashes, so its traceback is the stderr tail."""
    players = {"rand": PythonPlayer("rand", seeded_random),
               "rand2": PythonPlayer("rand2", seeded_random),
               "crashy": PythonPlayer("crashy", crashes_late)}
    with ResultLog(path) as log:
        for r in range(rounds):
            for b in ("rand2", "crashy"):
                for leg in (0, 1):
                    task = Task(GameKey("real", "rand", b, 11, r, leg), draw_board(11, r), 3.0)
                    log.append(play_task(players, task))
