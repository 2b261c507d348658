"""Small hand-made records for the replay page's tests (plus random ones from arena.view.sample)."""

from pathlib import Path
from typing import List

from arena.results import GameRecord, read_log
from arena.view.sample import write_sample


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
                      fault={"side": "b", "kind": "crash", "detail": "exit status -11"},
                      stderr={"a": "", "b": "line one\n</script><b>not bold</b>\nSegfault"})


def write_records(path: Path, extra_random: int = 10) -> List[GameRecord]:
    """Hand-made games first (indices 0 and 1), then random ones; returns them in file order."""
    write_sample(path, extra_random, seed=7)
    random_lines = path.read_text()
    hand = "".join(r.to_json() + "\n" for r in (forbidden_bottom_win(), crash_with_stderr()))
    path.write_text(hand + random_lines)
    return read_log(path)
