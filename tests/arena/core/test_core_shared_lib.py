"""Course-ABI libraries in the forking host: every fault code, crash isolation, fresh state."""
import os
import signal
import subprocess
import sys
import time

import pytest
from waits import PATIENCE, nothing, wait_until

from arena.core.players import make_player
from arena.core.referee import play_game
from records.board import Board
from records.codes import Code, FaultKind
from records.result import Side

GENEROUS = PATIENCE  # seconds a move (and a load) for a library that must not time out
LIMIT = 0.5  # seconds a move in a game that must end on a timeout: the library never answers
LOAD_LIMIT = 1.0  # seconds a load may take in a test of a load that never ends
# Seconds a game may take past its limit: the host's Python start-up (in a player's first
# game, untimed), the kill and the reaping, on a busy machine; still under the 5 s
# (shared_lib.HOST_REPLY_TIMEOUT) that waiting on a stuck host would cost.
SLACK = 3.0


@pytest.fixture
def so(libs, mark):
    """Spec of a built hostile library, its host marked for the survivor check."""
    def spec(name: str, load_timeout: float = GENEROUS) -> dict:
        return {"so": libs[name], "env": {"ARENA_CORE_TEST_MARK": mark},
                "load_timeout": load_timeout}
    return spec


def game(first, second, no=(4, 5), limit=GENEROUS):
    start = time.monotonic()
    outcome = play_game(first, second, Board(9, 10, no[0], no[1]), limit)
    return outcome, time.monotonic() - start


def test_good_library_plays_a_whole_game(so, leftmost_player):
    with make_player("good", so("good")) as good:
        outcome, _ = game(good, leftmost_player)
    assert not outcome.faulter and outcome.winner in (1, 2) and outcome.win_line
    assert len(outcome.times) == len(outcome.moves) and all(t >= 0 for t in outcome.times)


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
    ("undefined_symbol", FaultKind.LOAD_ERROR, "no_such_function_anywhere"),
    ("not_elf", FaultKind.LOAD_ERROR, ""),
    ("missing", FaultKind.LOAD_ERROR, "No such file"),
    ("init_segv", FaultKind.LOAD_ERROR, "SIGSEGV while loading"),
    ("init_loop", FaultKind.LOAD_ERROR, "loading took over 1 s"),
    ("no_clear", FaultKind.NO_ENTRY, "clearPoint"),
])
def test_hostile_library_loses_in_time_with_the_right_code(name, kind, words, so,
                                                           leftmost_player):
    # Only a timeout waits for its limit: any other fault is seen at once, however generous.
    limit = LIMIT if kind == FaultKind.TIMEOUT else GENEROUS
    load_limit = LOAD_LIMIT if kind == FaultKind.LOAD_ERROR else GENEROUS
    with make_player(name, so(name, load_limit)) as hostile:
        outcome, wall = game(hostile, leftmost_player, limit=limit)
    assert (outcome.faulter, outcome.fault_kind) == (1, kind), outcome.reason
    assert words in outcome.fault_detail
    waited = {FaultKind.TIMEOUT: LIMIT, FaultKind.LOAD_ERROR: LOAD_LIMIT}.get(kind, 0.0)
    assert wall < waited + SLACK
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
            assert game(leftmost_player, loop, limit=LIMIT)[0].fault_kind == FaultKind.TIMEOUT
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
        host = [forker.host_pid]  # all that is left between games, once the killed are gone
        assert wait_until(lambda: find_marked(mark), lambda pids: pids == host) == host


def interrupted(fd, *args, **kwargs):
    """A stderr reader whose start is interrupted (Ctrl-C, or a worker's SIGTERM) after its
    thread took the pipe (and closed it)."""
    os.close(fd)
    raise KeyboardInterrupt


def test_a_host_interrupted_as_it_starts_is_killed(so, monkeypatch, mark, find_marked):
    import arena.core.players.shared_lib as shared_lib
    good = make_player("good", so("good"))
    monkeypatch.setattr(shared_lib, "StderrTail", interrupted)
    with pytest.raises(KeyboardInterrupt):
        good.start_game(9, 10, 4, 5)
    good.close()  # the interruption goes on, not an error of the half-started host
    assert wait_until(lambda: find_marked(mark), nothing) == []
