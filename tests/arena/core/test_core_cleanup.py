"""Nothing the arena started outlives it, even when it is interrupted mid-game."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]


@pytest.mark.parametrize("lib, alive", [
    ("good", 4),  # the host, its game child, the bot and the grandchild the bot left in a setsid
    ("loop", 3),  # the host and its child looping in getPoint, the bot waiting for its turn
])
def test_ctrl_c_mid_game_kills_hosts_bots_and_grandchildren(lib, alive, libs, mark, find_marked):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    driver = subprocess.Popen([sys.executable, str(HERE / "interrupted_game.py"),
                               "ARENA_CORE_TEST_MARK",
                               mark, libs[lib]], env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while len(find_marked(mark)) < alive and time.monotonic() < deadline:
        assert driver.poll() is None, driver.stderr.read().decode()
        time.sleep(0.05)
    time.sleep(0.2)
    assert len(find_marked(mark)) == alive
    escaped = [p for p in find_marked(mark) if os.getsid(p) != os.getsid(driver.pid)]
    assert escaped, "the players run in sessions of their own"
    driver.send_signal(signal.SIGINT)
    start = time.monotonic()
    assert driver.wait(timeout=10) != 0
    assert time.monotonic() - start < 2.0
    driver.stderr.close()
