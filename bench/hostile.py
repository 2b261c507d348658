"""The arena's hostile suite, measured: the course code and the wall time of one game per player.

Every hostile player of hostile/ (strategy.c compiled once per -DMODE_<X> as
tests/arena/core/conftest.py does, the C++ library linked without libstdc++, a non-ELF file, a
missing file; proto_bot.py in each of its modes, a missing program) plays one game against an
in-process Python player that always takes the leftmost legal column, the hostile player
moving first and, where the order changes what happens, also second. For each game it prints
the course's code from the hostile side's view as player A, the fault's detail (the referee's
reason when the game ended on the board), the number of moves played and the game's wall time
(play_game, from start_game to the last reap; a library player's host is started inside it).
Every player's environment carries a mark of its own (a variable that descendants inherit,
found in /proc/*/environ as conftest.marked_pids does): a row names any marked process still
alive 1 s after its player closed, and the last line says whether any of the run's is alive
after all games. proto_bot.py runs with PYTHONUNBUFFERED unset, so that "never flushes" holds.

    .venv/bin/python bench/hostile.py [--time-limit 1.0] [--load-timeout 1.0]

A row ends in "!" when its code is not the one the tests expect or its wall time exceeds the
limit (load_timeout for a load fault) + 1 s. Libraries are built in a temporary folder.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.core.players import make_player  # noqa: E402
from arena.core.players.python import PythonPlayer  # noqa: E402
from arena.core.referee import play_game  # noqa: E402
from hostile.build import HERE as HOSTILE  # noqa: E402
from hostile.build import build_libraries  # noqa: E402
from records.board import Board
from records.codes import Code, FaultKind, fault_code  # noqa: E402
from records.result import Side

MARK_VAR = "BENCH_HOSTILE_MARK"
M, N, NO_X, NO_Y = 9, 10, 4, 5  # the board of the core tests

LABELS = {Code.TIE: "tie", Code.A_WON: "A won", Code.B_WON: "B won", Code.A_BUG: "bug",
          Code.A_ILLEGAL: "illegal", Code.A_TIMEOUT: "timeout", Code.A_LOAD: "load",
          Code.A_NO_ENTRY: "no entry"}


class Case(NamedTuple):
    kind: str  # "so" or "process"
    mode: str  # strategy.c's MODE_<X>, a library's name, or proto_bot.py's mode
    what: str
    expect: Optional[FaultKind]  # None: the game is decided on the board
    both: bool = False  # also played with the hostile player second


CASES = [
    Case("so", "SEGV", "segfault in getPoint", FaultKind.CRASH),
    Case("so", "DOUBLE_FREE", "double free in clearPoint", FaultKind.CRASH),
    Case("so", "ABORT", "abort()", FaultKind.CRASH),
    Case("so", "LOOP", "endless loop", FaultKind.TIMEOUT),
    Case("so", "SLEEP", "sleep(10)", FaultKind.TIMEOUT),
    Case("so", "STDOUT_FLOOD", "1 MB to stdout, then leftmost", None),
    Case("so", "NULL", "returns NULL", FaultKind.CRASH),
    Case("so", "OFFBOARD", "off-board point (M, 0)", FaultKind.ILLEGAL),
    Case("so", "FULLCOL", "column 0 even when full", FaultKind.ILLEGAL, both=True),
    Case("so", "FORBIDDEN", "the forbidden cell", FaultKind.ILLEGAL),
    Case("so", "EXIT0", "exit(0) in getPoint", FaultKind.CRASH),
    Case("so", "UNDEFINED_SYMBOL", "does not load: undefined symbol", FaultKind.LOAD_ERROR),
    Case("so", "not_elf", "does not load: not ELF", FaultKind.LOAD_ERROR),
    Case("so", "missing", "does not load: no file", FaultKind.LOAD_ERROR),
    Case("so", "INIT_SEGV", "segfault in static init", FaultKind.LOAD_ERROR),
    Case("so", "INIT_LOOP", "endless static init", FaultKind.LOAD_ERROR),
    Case("so", "NO_CLEAR", "no clearPoint", FaultKind.NO_ENTRY),
    Case("so", "STDERR_NOTE", "stderr note, segfault 3rd call", FaultKind.CRASH),
    Case("so", "STATEFUL", "illegal unless statics fresh", None),
    Case("so", "FORK_SLEEPER", "forks a child that sleeps 60 s", None),
    Case("so", "cpp", "C++ without libstdc++ (good)", None),
    Case("process", "exit_first", "exits before its first move", FaultKind.CRASH, both=True),
    Case("process", "garbage", "prints a line of text", FaultKind.CRASH),
    Case("process", "lying_header", "header 50, sends 3 bytes", FaultKind.TIMEOUT),
    Case("process", "flood_stdout", "100 MB to stdout", FaultKind.CRASH),
    Case("process", "no_flush", "never flushes", FaultKind.TIMEOUT),
    Case("process", "close_stdout", "closes stdout, sleeps", FaultKind.CRASH),
    Case("process", "grandchild", "grandchild holds pipes, sleeps", FaultKind.CRASH),
    Case("process", "grandchild_setsid", "same, grandchild in own session", FaultKind.CRASH),
    Case("process", "grandchild_hang", "setsid grandchild; bot hangs", FaultKind.TIMEOUT),
    Case("process", "ignore_term", "ignores SIGTERM, hangs", FaultKind.TIMEOUT),
    Case("process", "flood_stderr", "10 MB to stderr each move", None),
    Case("process", "slow_start", "sleeps 5 s before reading", FaultKind.TIMEOUT, both=True),
    Case("process", "crash_later", "exception on its 3rd move", FaultKind.CRASH),
    Case("process", "illegal", "the forbidden cell", FaultKind.ILLEGAL),
    Case("process", "missing", "program does not exist", FaultKind.LOAD_ERROR),
]


def leftmost(M, N, top, board, last_x, last_y, no_x, no_y):
    """The well-behaved opponent: the leftmost column that is not full."""
    y = next(c for c in range(N) if top[c] > 0)
    return top[y] - 1, y


def marked_pids(prefix: str) -> Dict[int, str]:
    """Live processes whose environment has MARK_VAR starting with ``prefix``: pid -> mark."""
    needle = f"{MARK_VAR}={prefix}".encode()
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                items = f.read().split(b"\0")
        except OSError:
            continue
        for item in items:
            if item.startswith(needle):
                found[int(entry)] = item.decode(errors="replace").partition("=")[2]
    return found


def spec(case: Case, libs: Dict[str, str], mark: str, load_timeout: float) -> dict:
    env = {MARK_VAR: mark}
    if case.kind == "so":
        return {"so": libs[case.mode.lower()], "env": env, "load_timeout": load_timeout}
    if case.mode == "missing":
        return {"process": ["/nonexistent/bot", "--fast"], "env": env}
    # PYTHONUNBUFFERED="" undoes an inherited PYTHONUNBUFFERED=1, under which "never flushes"
    # would not hold (every write would go out at once)
    env["PYTHONUNBUFFERED"] = ""
    return {"process": [sys.executable, str(HOSTILE / "proto_bot.py"), case.mode], "env": env}


class Row(NamedTuple):
    case: Case
    first: bool
    code: Code
    reason: str
    moves: int
    wall: float
    left: List[int]  # marked processes of this game still alive 1 s after its player closed
    problems: List[str]


def play(case: Case, first: bool, libs: Dict[str, str], mark: str, limit: float,
         load_timeout: float, tmp_dir: str) -> Row:
    good = PythonPlayer("leftmost", leftmost)
    with make_player(f"{case.kind}-{case.mode}", spec(case, libs, mark, load_timeout)) as bad:
        pair: Tuple = (bad, good) if first else (good, bad)
        start = time.monotonic()
        outcome = play_game(*pair, Board(M, N, NO_X, NO_Y), limit)
        wall = time.monotonic() - start
    deadline = time.monotonic() + 1.0  # SIGKILLed processes take a moment to go
    while marked_pids(mark) and time.monotonic() < deadline:
        time.sleep(0.02)
    code = outcome.code(Side.A if first else Side.B)  # the hostile player is A
    problems = []
    if case.expect is not None and code != fault_code(case.expect, by_a=True):
        problems.append(f"expected {int(fault_code(case.expect, by_a=True))}")
    if case.expect is None and outcome.faulter:
        problems.append("expected no fault")
    bound = (load_timeout if code == Code.A_LOAD else limit) + 1.0
    if wall > bound:
        problems.append(f"wall over {bound:g} s")
    detail = outcome.fault_detail if outcome.fault else outcome.reason
    detail = " ".join(detail.replace(tmp_dir, "$TMP").split())
    return Row(case, first, code, detail, len(outcome.moves), wall,
               sorted(marked_pids(mark)), problems)


def print_table(rows: List[Row], reason_width: int = 200) -> None:
    head = ("kind", "mode", "what it does", "A", "code", "moves", "wall s", "reason / detail")
    table = [head]
    for r in rows:
        reason = r.reason if len(r.reason) <= reason_width else r.reason[:reason_width - 3] + "..."
        if r.left:
            reason += f" [left alive: {r.left}]"
        table.append((r.case.kind, r.case.mode, r.case.what, "1st" if r.first else "2nd",
                      f"{int(r.code)} {LABELS.get(r.code, r.code.name)}", str(r.moves),
                      f"{r.wall:.2f}", reason + ("  ! " + "; ".join(r.problems)
                                                  if r.problems else "")))
    widths = [max(len(row[i]) for row in table) for i in range(len(head) - 1)]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=1.0, help="seconds a move (1.0)")
    ap.add_argument("--load-timeout", type=float, default=1.0,
                    help="seconds a library may take to load (1.0)")
    args = ap.parse_args()
    run = uuid.uuid4().hex[:12]
    tmp = Path(tempfile.mkdtemp(prefix="hostile_"))
    started = time.monotonic()
    try:
        modes = sorted({c.mode for c in CASES if c.kind == "so" and c.mode.isupper()})
        libs = build_libraries(tmp, modes)
        print(f"board {M}x{N}, forbidden cell ({NO_X}, {NO_Y}); time limit {args.time_limit:g} s, "
              f"load timeout {args.load_timeout:g} s; opponent: in-process leftmost; "
              f"built in {time.monotonic() - started:.1f} s", flush=True)
        rows = []
        for i, case in enumerate(CASES):
            for first in (True, False) if case.both else (True,):
                rows.append(play(case, first, libs, f"{run}-{i}-{int(first)}",
                                 args.time_limit, args.load_timeout, str(tmp)))
        print()
        print_table(rows)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    deadline = time.monotonic() + 2.0
    while marked_pids(run) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = marked_pids(run)
    print()
    print(f"{len(rows)} games in {time.monotonic() - started:.1f} s; "
          f"{sum(1 for r in rows if r.problems)} with a '!'")
    if left:
        print(f"processes carrying {MARK_VAR}={run}-* still alive: "
              + ", ".join(f"{pid} ({mark})" for pid, mark in sorted(left.items())))
    else:
        print(f"processes carrying {MARK_VAR}={run}-* alive after all games: none")


if __name__ == "__main__":
    main()
