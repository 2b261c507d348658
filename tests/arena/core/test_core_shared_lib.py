"""Course-ABI libraries in the forking host: every fault code, crash isolation, fresh state."""
import os
import signal
import subprocess
import sys
import time

import pytest

from arena.players import make_player
from arena.referee import play_game
from records.board import Board
from records.codes import Code, FaultKind
from records.result import Side

LIMIT = 0.5


@pytest.fixture
def so(libs, mark):
    """Spec of a built hostile library, its host marked for the survivor check."""
    def spec(name: str) -> dict:
        return {"so": libs[name], "env": {"ARENA_CORE_TEST_MARK": mark}, "load_timeout": 1}
    return spec


def game(first, second, no=(4, 5)):
    start = time.monotonic()
    outcome = play_game(first, second, Board(9, 10, no[0], no[1]), LIMIT)
    return outcome, time.monotonic() - start


def test_good_library_plays_a_whole_game(so, leftmost_player):
    with make_player("good", so("good")) as good:
        outcome, _ = game(good, leftmost_player)
    assert not outcome.faulter and outcome.winner in (1, 2) and outcome.win_line
    assert all(0 <= t < LIMIT for t in outcome.times)


def test_cpp_library_without_libstdcxx_loads_in_the_host(so, libs, leftmost_player):
    plain = subprocess.run([sys.executable, "-c", f"import ctypes; ctypes.CDLL({libs['cpp']!r})"],
                           capture_output=True, text=True)
    assert plain.returncode != 0 and "undefined symbol" in plain.stderr  # needs the host's help
    with make_player("cpp", so("cpp")) as cpp:
        outcome, _ = game(leftmost_player, cpp)
    assert not outcome.faulter
    assert "cpp strategy thinking" in outcome.stderr[1]


@pytest.mark.parametrize("name, kind, words", [
    ("segv", FaultKind.CRASH, "SIGSEGV"),
    ("double_free", FaultKind.CRASH, "killed by"),
    ("abort", FaultKind.CRASH, "SIGABRT"),
    ("exit0", FaultKind.CRASH, "exited with status 0"),
    ("null", FaultKind.CRASH, "NULL"),
    ("loop", FaultKind.TIMEOUT, "no reply"),
    ("sleep", FaultKind.TIMEOUT, "no reply"),
    ("offboard", FaultKind.ILLEGAL, "(9, 0)"),
    ("forbidden", FaultKind.ILLEGAL, "(4, 5)"),
    ("fullcol", FaultKind.ILLEGAL, "(0, 0)"),
    ("undefined_symbol", FaultKind.LOAD_ERROR, "undefined symbol"),
    ("not_elf", FaultKind.LOAD_ERROR, ""),
    ("missing", FaultKind.LOAD_ERROR, "No such file"),
    ("init_segv", FaultKind.LOAD_ERROR, "SIGSEGV while loading"),
    ("init_loop", FaultKind.LOAD_ERROR, "loading took over 1 s"),
    ("no_clear", FaultKind.NO_ENTRY, "clearPoint"),
])
def test_hostile_library_loses_in_time_with_the_right_code(name, kind, words, so,
                                                           leftmost_player):
    with make_player(name, so(name)) as hostile:
        outcome, wall = game(hostile, leftmost_player)
    assert (outcome.faulter, outcome.fault_kind) == (1, kind), outcome.reason
    assert words in outcome.fault_detail
    assert wall < (1.0 if kind == FaultKind.LOAD_ERROR else LIMIT) + 1.0
    assert outcome.code(Side.A) == {
        FaultKind.CRASH: Code.A_BUG, FaultKind.TIMEOUT: Code.A_TIMEOUT,
        FaultKind.ILLEGAL: Code.A_ILLEGAL, FaultKind.LOAD_ERROR: Code.A_LOAD,
        FaultKind.NO_ENTRY: Code.A_NO_ENTRY}[kind]
    assert outcome.code(Side.B) == {
        FaultKind.CRASH: Code.B_BUG, FaultKind.TIMEOUT: Code.B_TIMEOUT,
        FaultKind.ILLEGAL: Code.B_ILLEGAL, FaultKind.LOAD_ERROR: Code.B_LOAD,
        FaultKind.NO_ENTRY: Code.B_NO_ENTRY}[kind]


def test_stdout_flood_does_not_corrupt_the_protocol(so, leftmost_player):
    with make_player("flood", so("stdout_flood")) as flood:
        outcome, _ = game(flood, leftmost_player)
    assert not outcome.faulter
    assert 0 < len(outcome.stderr[0].encode()) <= 4096 and set(outcome.stderr[0]) == {"x"}


def test_stderr_before_a_crash_is_kept(so, leftmost_player):
    with make_player("note", so("stderr_note")) as note:
        outcome, _ = game(leftmost_player, note)
    assert outcome.fault_kind == FaultKind.CRASH and outcome.faulter == 2
    assert outcome.stderr[1].splitlines()[-1] == "strategy note: call 3"


def test_library_state_is_fresh_in_every_game(so, leftmost_player):
    with make_player("stateful", so("stateful")) as stateful:
        outcomes = [game(stateful, leftmost_player)[0] for _ in range(3)]
    assert [o.faulter for o in outcomes] == [0, 0, 0]


def test_one_host_survives_crashes_and_timeouts(so, leftmost_player):
    with make_player("segv", so("segv")) as segv, make_player("loop", so("loop")) as loop:
        for _ in range(2):
            assert game(segv, leftmost_player)[0].fault_kind == FaultKind.CRASH
            assert game(leftmost_player, loop)[0].fault_kind == FaultKind.TIMEOUT
        hosts = {segv.host_pid, loop.host_pid}
        assert game(segv, leftmost_player)[0].fault_kind == FaultKind.CRASH
        assert {segv.host_pid, loop.host_pid} == hosts and None not in hosts


def test_a_dead_host_is_replaced(so, leftmost_player):
    with make_player("good", so("good")) as good:
        assert game(good, leftmost_player)[0].faulter == 0
        old = good.host_pid
        os.kill(old, signal.SIGKILL)
        assert game(good, leftmost_player)[0].faulter == 0
        assert good.host_pid not in (None, old)


def test_what_a_library_forked_dies_with_its_game(so, leftmost_player, mark, find_marked):
    with make_player("forker", so("fork_sleeper")) as forker:
        outcome, _ = game(forker, leftmost_player)
        assert not outcome.faulter
        deadline = time.monotonic() + 1.0  # SIGKILL is sent; dying takes a moment
        while find_marked(mark) != [forker.host_pid] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert find_marked(mark) == [forker.host_pid]  # only the host is left between games
