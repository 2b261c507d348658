"""The scheduler: seeded boards, both colours, resume after a SIGKILL, Ctrl-C, a load batch."""

import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import psutil
import pytest
from procs import alive
from waits import PATIENCE, nothing, wait_for_lines, wait_until

from arena.batch.config import Config
from arena.batch.scheduler import plan, run_batch
from arena.core.boards import draw_board
from arena.core.referee import GameOutcome
from arena.core.tasks import Task, to_record
from arena.report.results import read_course_folder
from bench.arena_speed import build_libraries
from records.board import Board
from records.codes import FaultKind
from records.game import GameKey
from records.log import LOG_NAME, read_log
from records.result import Fault, Result, Side

ROOT = Path(__file__).resolve().parents[3]

# A game that must still be running when the test interrupts the batch waits at a gate: the
# first `free` games to start (counted across processes by the files they create in the gate
# folder) play at once, the others wait for the file `open` there before their first move.
GATE = """\
import os
import time


def wait_at(gate, free):
    \"\"\"Claim this game's number in `gate`; past `free`, wait until the gate is open.\"\"\"
    number = 0
    while True:
        try:
            os.close(os.open(os.path.join(gate, f"game{number}"), os.O_CREAT | os.O_EXCL))
            break
        except FileExistsError:
            number += 1
    while number >= free and not os.path.exists(os.path.join(gate, "open")):
        time.sleep(0.01)
"""

STRATEGIES = GATE + """\


class Column:
    \"\"\"The leftmost (or rightmost) free column; with a gate, a game past the free ones waits
    before its first move.\"\"\"

    def __init__(self, order="left", gate=None, free=0):
        self.order, self.gate, self.free = order, gate, free

    def __call__(self, M, N, top, board, last_x, last_y, no_x, no_y):
        if self.gate is not None:
            wait_at(self.gate, self.free)
            self.gate = None
        cols = range(N) if self.order == "left" else range(N - 1, -1, -1)
        y = next(y for y in cols if top[y] > 0)
        return top[y] - 1, y
"""

# A process player on the platform protocol that plays the leftmost free column; argv: the
# gate folder and the number of free games.
GATED_BOT = GATE + """\

import struct
import sys

M, N, no_x, no_y = map(int, sys.stdin.readline().split())
top = [M] * N
if no_x == M - 1:
    top[no_y] = M - 1
def drop(x, y):
    top[y] -= 1
    if x == no_x + 1 and y == no_y:
        top[y] -= 1
gate = sys.argv[1]
for line in sys.stdin:
    x, y = map(int, line.split())
    if x >= 0:
        drop(x, y)
    if gate is not None:
        wait_at(gate, int(sys.argv[2]))
        gate = None
    y = next(y for y in range(N) if top[y] > 0)
    x = top[y] - 1
    drop(x, y)
    reply = f"{x} {y}".encode()
    sys.stdout.buffer.write(struct.pack(">I", len(reply)) + reply)
    sys.stdout.buffer.flush()
"""


def players(gate=None, free=0):
    """Leftmost against rightmost; with a gate, the games after the first `free` wait at it."""
    left = {"order": "left"} if gate is None else {"order": "left", "gate": str(gate),
                                                   "free": free}
    return {"left": {"python": "strategies:Column", "args": left},
            "right": {"python": "strategies:Column", "args": {"order": "right"}}}


@pytest.fixture
def strategies(tmp_path, monkeypatch):
    (tmp_path / "strategies.py").write_text(STRATEGIES)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def config_yaml(path, output, rounds, jobs, specs, pairing=("left", "right"), time_limit=2):
    lines = [f"batch: t\nrounds: {rounds}\ntime_limit: {time_limit}\njobs: {jobs}\nseed: 5\n"
             f"output: {output}\nplayers:"]
    lines += [f"  {name}: {spec!r}".replace("'", '"') for name, spec in specs.items()]
    lines.append(f"gauntlet: {{a: [{pairing[0]}], b: [{pairing[1]}]}}")
    path.write_text("\n".join(lines) + "\n")
    return path


def start_batch(cfg, tmp_path):
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}")
    return subprocess.Popen([sys.executable, "-m", "arena", "run", str(cfg), "-q"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def running(marker):
    """Pids of live (non-zombie) processes whose command line mentions `marker`."""
    found = []
    for proc in psutil.process_iter():
        try:
            if any(marker in arg for arg in proc.cmdline()) and alive(proc):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def alive_with(marker):
    """Pids of processes whose command line mentions `marker`, after waiting up to PATIENCE
    seconds for them to go."""
    return wait_until(lambda: running(marker), nothing)


def test_boards_depend_only_on_seed_and_round():
    boards = [draw_board(3, r) for r in range(200)]
    assert boards == [draw_board(3, r) for r in range(200)]
    assert boards != [draw_board(4, r) for r in range(200)]
    assert {b.M for b in boards} == {9, 10, 11, 12} == {b.N for b in boards}
    assert all(0 <= b.no_x < b.M and 0 <= b.no_y < b.N for b in boards)
    assert any(b.no_x == b.M - 1 for b in boards)  # the bottom row is possible


def test_plan_plays_each_board_twice_with_colours_swapped():
    cfg = Config(rounds=3, seed=2, pairings=[("x", "y"), ("x", "z")])
    tasks = plan(cfg)
    assert len(tasks) == 12
    by_round = Counter((t.key.round, t.board) for t in tasks)
    assert all(n == 4 for n in by_round.values()) and len(by_round) == 3
    assert Counter((t.key.b, t.key.leg) for t in tasks) == {(b, leg): 3 for b in "yz"
                                                           for leg in (0, 1)}


def test_outcome_maps_to_the_pairings_view_when_b_moved_first():
    task = Task(GameKey("t", "bot", "uct", 1, 4, 1), Board(9, 10, 3, 4), 1.0)
    lost = GameOutcome(winner=2, faulter=1, fault_kind=FaultKind.TIMEOUT,
                       fault_detail="no reply in 1 s", moves=[(8, 0)], times=[1.5],
                       reason="timeout by player 1", stderr=("uct says", "bot says"))
    rec = to_record(task, lost)  # leg 1: uct (B) moved first and timed out
    assert (rec.code, rec.result, rec.first) == (8, Result.A, Side.B)
    assert rec.fault == Fault(Side.B, FaultKind.TIMEOUT, "no reply in 1 s")
    assert rec.stderr == {"b": "uct says", "a": "bot says"}
    assert (rec.M, rec.N, rec.no_x, rec.no_y, rec.round) == (9, 10, 3, 4, 4)
    won = GameOutcome(winner=1, moves=[(8, 0)], times=[0.1], reason="four",
                      win_line=[(8, 0), (7, 0), (6, 0), (5, 0)], stderr=("x", "y"))
    rec = to_record(task, won)
    assert (rec.code, rec.result) == (2, Result.B)  # the first mover (B) won
    assert rec.win_line == [[8, 0], [7, 0], [6, 0], [5, 0]]
    assert rec.stderr == {"a": "", "b": ""}  # kept only where a fault needs explaining


def test_batch_records_every_game_once_and_rerun_plays_nothing(strategies):
    out = strategies / "out"
    cfg = Config(batch="t", rounds=3, time_limit=2.0, jobs=2, seed=5, output=str(out),
                 pairings=[("left", "right")], players=players())
    records = run_batch(cfg, quiet=True)
    assert sorted((r.round, r.leg) for r in records) == [(r, g) for r in range(3) for g in (0, 1)]
    # Playing the leftmost free column against the rightmost: the first mover stacks four first.
    assert all(r.result.winner is r.first for r in records)
    assert len(read_course_folder(out)) == 6
    again = run_batch(cfg, quiet=True)
    assert len(again) == 6 and len(read_log(out / LOG_NAME)) == 6


def test_sigkill_mid_batch_then_resume_equals_an_uninterrupted_run(strategies):
    tmp = strategies
    whole = run_batch(Config(batch="t", rounds=12, time_limit=2.0, jobs=2, seed=5,
                             output=str(tmp / "whole"), pairings=[("left", "right")],
                             players=players()), quiet=True)
    gate = tmp / "gate"
    gate.mkdir()
    cfg = config_yaml(tmp / "cut.yaml", tmp / "cut", rounds=12, jobs=2,
                      specs=players(gate, free=4))
    log = tmp / "cut" / LOG_NAME
    proc = start_batch(cfg, tmp)
    wait_for_lines(log, 4, proc)  # the free games; every other game waits at the gate
    proc.kill()
    proc.wait()
    assert alive_with(str(cfg)) == []  # the workers followed their parent
    kept = read_log(log)
    assert len(kept) == 4
    with open(log, "a") as handle:  # a record torn by the kill
        handle.write(whole[-1].to_json()[:40])
    (gate / "open").touch()
    proc = start_batch(cfg, tmp)
    assert proc.wait(timeout=120) == 0, proc.communicate()
    resumed = read_log(log)
    by_key = {r.key: r for r in resumed}
    assert all(by_key[r.key] == r for r in kept)  # games already logged are not played again
    assert [r.key for r in resumed] == sorted(by_key, key=lambda k: (k.round, k.leg))
    assert sorted(Counter(r.key for r in resumed).values()) == [1] * 24
    assert read_course_folder(tmp / "cut") == read_course_folder(tmp / "whole")
    assert sorted((r.round, r.leg, r.code) for r in resumed) == sorted(
        (r.round, r.leg, r.code) for r in whole)


def test_ctrl_c_leaves_no_process_behind(strategies):
    tmp = strategies
    (tmp / "gatedbot.py").write_text(GATED_BOT)
    gate = tmp / "gate"
    gate.mkdir()  # never opened: the games after the first two wait until Ctrl-C
    specs = {"gated": {"process": f"{sys.executable} {tmp / 'gatedbot.py'} {gate} 2"},
             "right": players()["right"]}
    # A waiting bot must not lose on time before Ctrl-C, however slow the machine.
    cfg = config_yaml(tmp / "int.yaml", tmp / "int", rounds=500, jobs=2, specs=specs,
                      pairing=("gated", "right"), time_limit=PATIENCE)
    proc = start_batch(cfg, tmp)
    try:
        wait_for_lines(tmp / "int" / LOG_NAME, 2, proc)
        waiting = wait_until(lambda: running(str(tmp / "gatedbot.py")),
                             lambda pids: len(pids) == 2)
        assert len(waiting) == 2  # both workers' games are running, mid-batch
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends
        _, err = proc.communicate(timeout=PATIENCE)
    finally:  # a failed step leaves no batch playing on
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130 and b"resume" in err
    assert alive_with(str(tmp)) == []
    done = read_log(tmp / "int" / LOG_NAME)
    assert len(done) == 2 and all(r.fault is None for r in done)


def test_200_random_games_at_10_ms_with_two_jobs_end(tmp_path):
    libs = build_libraries(tmp_path)
    cfg = Config(batch="load", rounds=100, time_limit=0.010, jobs=2, seed=1,
                 output=str(tmp_path / "out"), pairings=[("r1", "r2")],
                 players={"r1": {"so": str(libs["random"])}, "r2": {"so": str(libs["random"])}})
    records = run_batch(cfg, quiet=True)
    assert len(records) == 200 and len({r.key for r in records}) == 200
    assert len(read_course_folder(tmp_path / "out")) == 200
