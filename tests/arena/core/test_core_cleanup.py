"""Nothing the arena started outlives it, even when it is interrupted mid-game."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]


def test_ctrl_c_mid_game_kills_hosts_bots_and_grandchildren(libs, mark, find_marked):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    driver = subprocess.Popen([sys.executable, str(HERE / "hostile" / "interrupted_game.py"),
                               "ARENA_CORE_TEST_MARK",
                               mark, libs["good"]], env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    # host, its game child, the bot and the bot's escaped grandchild
    while len(find_marked(mark)) < 4 and time.monotonic() < deadline:
        assert driver.poll() is None, driver.stderr.read().decode()
        time.sleep(0.05)
    assert len(find_marked(mark)) == 4
    escaped = [p for p in find_marked(mark) if os.getsid(p) != os.getsid(driver.pid)]
    assert escaped, "the players run in sessions of their own"
    driver.send_signal(signal.SIGINT)
    assert driver.wait(timeout=10) != 0
    driver.stderr.close()
