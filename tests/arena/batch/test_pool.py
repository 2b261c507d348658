"""The local executor's workers end with their parent, on every system: one waiting for a task
and one in the middle of a game (whose player it kills) end once a SIGKILL took the batch, and
the look at the parent answers at once for a dead parent, from the pid or from the pipe."""
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import psutil
from procs import alive
from test_scheduler import GATED_BOT, STRATEGIES, config_yaml, players, running, start_batch
from waits import PATIENCE, nothing, wait_for_lines, wait_until

from arena.batch.pool import orphaned
from records.log import LOG_NAME

ROOT = Path(__file__).resolve().parents[3]

# A batch's parent that starts one worker with no task to give it, says the worker's pid and
# waits for the test to kill it.
IDLE_PARENT = """\
import multiprocessing as mp
import sys

from arena.batch.pool import _worker

ctx = mp.get_context("fork")
worker = ctx.Process(target=_worker, args=({}, ctx.Queue(), ctx.Queue()), daemon=True)
worker.start()
print(worker.pid, flush=True)
sys.stdin.read()
"""


def gone(*pids: int) -> bool:
    """Whether none of ``pids`` runs (a zombie no one reaps counts as gone)."""
    return not any(alive(psutil.Process(pid)) for pid in pids if psutil.pid_exists(pid))


def ends(call, *args) -> bool:
    """Whether ``call(*args)`` returns within PATIENCE seconds."""
    thread = threading.Thread(target=call, args=args, daemon=True)
    thread.start()
    thread.join(PATIENCE)
    return not thread.is_alive()


def test_a_worker_waiting_for_a_task_ends_when_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", IDLE_PARENT], cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    worker = int(parent.stdout.readline())
    try:
        assert psutil.Process(worker).ppid() == parent.pid and not gone(worker)
        parent.kill()
        parent.wait()
        assert wait_until(lambda: gone(worker)), "the worker outlived its parent"
    finally:  # a failed test leaves neither behind (the worker holds the parent's pipes)
        parent.kill()
        if not gone(worker):
            os.kill(worker, signal.SIGKILL)
        parent.communicate()


def test_a_worker_mid_game_ends_with_its_parent_and_kills_its_player(tmp_path):
    tmp = tmp_path
    (tmp / "strategies.py").write_text(STRATEGIES)
    (tmp / "gatedbot.py").write_text(GATED_BOT)
    gate = tmp / "gate"
    gate.mkdir()  # never opened: the second game waits there until the batch is killed
    specs = {"gated": {"process": f"{sys.executable} {tmp / 'gatedbot.py'} {gate} 1"},
             "right": players()["right"]}
    cfg = config_yaml(tmp / "cut.yaml", tmp / "cut", rounds=5, jobs=1, specs=specs,
                      pairing=("gated", "right"), time_limit=PATIENCE)
    batch = start_batch(cfg, tmp)
    bot = None
    try:
        wait_for_lines(tmp / "cut" / LOG_NAME, 1, batch)
        (bot,) = wait_until(lambda: running(str(gate)), lambda pids: len(pids) == 1)
        worker = psutil.Process(bot).ppid()
        assert psutil.Process(worker).ppid() == batch.pid
        os.kill(batch.pid, signal.SIGKILL)  # the batch alone, not its worker nor the bot
        batch.wait()
        assert wait_until(lambda: gone(worker, bot)), "the worker or its bot outlived the batch"
    finally:  # a failed test leaves nothing behind (the worker holds the batch's pipes)
        os.killpg(batch.pid, signal.SIGKILL)
        if bot is not None and not gone(bot):
            os.killpg(bot, signal.SIGKILL)  # the bot leads a session of its own
        batch.communicate()
    assert wait_until(lambda: running(str(tmp)), nothing) == []


def test_the_look_at_the_parent_answers_at_once_once_the_pid_is_not_the_parent():
    read, write = os.pipe()  # a pipe that stays silent
    try:
        assert ends(orphaned, os.getpid(), read, PATIENCE)  # the parent died before the look
    finally:
        os.close(read)
        os.close(write)


def test_the_look_at_the_parent_answers_at_once_when_the_parents_pipe_ends():
    read, write = os.pipe()
    os.close(write)  # the parent's end, closed as its death closes it
    try:
        assert ends(orphaned, os.getppid(), read, PATIENCE)
    finally:
        os.close(read)
