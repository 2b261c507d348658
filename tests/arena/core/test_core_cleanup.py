"""Nothing the arena started outlives it, even when it is interrupted mid-game."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from waits import PATIENCE, wait_until

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# Seconds from Ctrl-C to the driver's exit, on a busy machine; waiting on the game (60 s a move)
# or on the host's bookkeeping (5 s) would take longer.
PROMPT = 4.0


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
