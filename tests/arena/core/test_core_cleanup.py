"""Nothing the arena started outlives it, even when it is interrupted mid-game, and even where
there is no /proc (macOS): the reaper then goes without its pipe-holder scan."""
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from waits import PATIENCE, nothing, wait_until

from arena.children import reaper, system
from arena.core.players import make_player
from arena.core.referee import play_game
from records.board import Board

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# Seconds from Ctrl-C to the driver's exit, on a busy machine; waiting on the game (60 s a move)
# or on the host's bookkeeping (5 s) would take longer.
PROMPT = 4.0
GENEROUS = PATIENCE  # seconds a move for a game that ends on a fault other than a timeout
LIMIT = 0.5  # seconds a move for a game that ends on a timeout: its player never answers


@pytest.mark.parametrize("lib, alive", [
    ("good", 4),  # the host, its game child, the bot and the grandchild the bot left in a setsid
    ("loop", 3),  # the host and its child looping in getPoint, the bot waiting for its turn
])
def test_ctrl_c_mid_game_kills_hosts_bots_and_grandchildren(lib, alive, libs, mark, find_marked):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    driver = subprocess.Popen([sys.executable, str(HERE / "interrupted_game.py"),
                               "ARENA_CORE_TEST_MARK",
                               mark, libs[lib]], env=env, stderr=subprocess.PIPE)

    def players():
        assert driver.poll() is None, driver.stderr.read().decode()
        return find_marked(mark)

    # Every process of the game started, and each waits (the game's limit is 60 s a move).
    assert len(wait_until(players, lambda pids: len(pids) == alive)) == alive
    escaped = [p for p in players() if os.getsid(p) != os.getsid(driver.pid)]
    assert escaped, "the players run in sessions of their own"
    driver.send_signal(signal.SIGINT)
    start = time.monotonic()
    assert driver.wait(timeout=PATIENCE) != 0
    assert time.monotonic() - start < PROMPT
    driver.stderr.close()


@pytest.fixture
def as_on_macos(monkeypatch):
    """The reaper without its pipe-holder scan, as where there is no /proc (macOS)."""
    monkeypatch.setattr(system, "PROC_SCAN", False)


@pytest.mark.parametrize("mode, limit", [
    ("grandchild", GENEROUS),  # forks a grandchild that keeps its pipes, then exits
    ("grandchild_setsid", GENEROUS),  # the same grandchild in a session of its own
    ("grandchild_hang", LIMIT),  # a grandchild in a session of its own, the bot hanging
    ("ignore_term", LIMIT),  # ignores SIGTERM and hangs
])
def test_without_the_proc_scan_a_process_player_leaves_nothing(mode, limit, as_on_macos, proto,
                                                               leftmost_player, mark,
                                                               find_marked):
    with make_player("hostile", proto(mode)) as hostile:  # its fault kills it, else closing
        outcome = play_game(leftmost_player, hostile, Board(9, 10, 4, 5), limit)
    assert outcome.faulter == 2, outcome.reason
    assert wait_until(lambda: find_marked(mark), nothing) == []


# A player that starts a grandchild in a session of its own and lives on: the grandchild says
# its pid on the player's stdout, closes every pipe it has and waits for a signal (the kill).
FAMILY = """
import os, signal
if os.fork() == 0:
    os.setsid()
    os.write(1, b"%d\\n" % os.getpid())
    os.closerange(0, 3)
    signal.pause()
    os._exit(0)
signal.pause()
"""


@pytest.mark.parametrize("environ_readable", [True, False])
def test_a_grandchild_in_a_new_session_without_the_pipes_is_found_without_proc(
        environ_readable, as_on_macos, monkeypatch, mark, mark_env, find_marked):
    # macOS does not let every process read another's environment (a hardened Python):
    # then the grandchild is found as a descendant, its parent still alive
    if not environ_readable:
        monkeypatch.setattr(reaper, "_marked", lambda proc, mark: False)
    child = reaper.spawn([sys.executable, "-c", FAMILY], env=mark_env)
    assert select.select([child.stdout], [], [], PATIENCE)[0], "the grandchild never started"
    grandchild = int(child.stdout.readline())
    assert grandchild in reaper.leftovers(child) and child.pid in reaper.leftovers(child)
    reaper.kill_tree(child)
    os.close(child.stderr_fd)
    assert wait_until(lambda: find_marked(mark), nothing) == []


def test_an_orphan_in_a_new_session_without_the_pipes_is_found_by_its_mark(
        as_on_macos, mark, mark_env, find_marked):
    # its parent gone, nothing ties the grandchild to the player but the mark it inherited
    script = FAMILY.rsplit("signal.pause()", 1)[0] + "os.read(0, 1)\n"  # exits at our word
    child = reaper.spawn([sys.executable, "-c", script], env=mark_env)
    assert select.select([child.stdout], [], [], PATIENCE)[0], "the grandchild never started"
    grandchild = int(child.stdout.readline())
    child.stdin.write(b"x")
    assert child.proc.wait(timeout=PATIENCE) == 0
    assert reaper.leftovers(child) == [grandchild]
    reaper.kill_tree(child)
    os.close(child.stderr_fd)
    assert wait_until(lambda: find_marked(mark), nothing) == []


def test_a_kill_interrupted_while_it_looks_still_kills_the_group(monkeypatch, mark_env):
    # the reaper looks before it kills; a batch's worker that is closing its players when the
    # batch's end sends it SIGTERM (raised as SystemExit) stops looking, and the player's group
    # still dies
    child = reaper.spawn([sys.executable, "-c", "import sys; sys.stdin.read()"], env=mark_env)

    def interrupted(child):
        raise SystemExit(143)

    monkeypatch.setattr(reaper, "leftovers", interrupted)
    with pytest.raises(SystemExit):
        reaper.kill_tree(child)
    assert child.proc.wait(timeout=PATIENCE) == -signal.SIGKILL
    for fd in (child.stdin, child.stdout):
        fd.close()
    os.close(child.stderr_fd)
    reaper._live.pop(child.pid, None)
