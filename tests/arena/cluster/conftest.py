"""Real Dask clusters on loopback for the cluster tests: `dask scheduler` and two `dask worker`
processes started as a user starts them on lab machines, every process killed at the end."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, List

import pytest

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[3]
DASK = str(Path(sys.executable).parent / "dask")
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(argv: List[str], cwd: Path) -> subprocess.Popen:
    # PYTHONPATH stands for `pip install .` on a worker machine: the project importable.
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


class DaskCluster:
    """A scheduler's address and its `dask worker` processes (one worker process each)."""

    def __init__(self, address: str, workers: List[subprocess.Popen]) -> None:
        self.address, self.workers = address, workers

    def worker_pids(self) -> List[int]:
        """The worker processes proper (each `dask worker` is a nanny with one worker child)."""
        import psutil

        return [c.pid for w in self.workers for c in psutil.Process(w.pid).children()]


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory) -> Iterator[DaskCluster]:
    folder = tmp_path_factory.mktemp("dask")
    address = f"tcp://127.0.0.1:{free_port()}"
    procs = [_start([DASK, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":")[-1],
                     "--no-dashboard"], folder)]
    try:
        for i in range(2):
            procs.append(_start([DASK, "worker", address, "--host", "127.0.0.1", "--nthreads",
                                 "1", "--no-dashboard", "--local-directory",
                                 str(folder / f"w{i}")], folder))
        with distributed.Client(address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield DaskCluster(address, procs[1:])
    finally:
        for proc in reversed(procs):
            _kill(proc)


def wait_for_lines(path: Path, count: int, proc: subprocess.Popen) -> None:
    """Until `path` has `count` lines (or the process ended): a bounded wait."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {count} records")


def session_pids(sid: int) -> List[int]:
    """Live processes of a session (a batch started with start_new_session)."""
    import psutil

    found = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if os.getsid(proc.pid) == sid and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc.pid)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return found


def wait_for_empty_session(sid: int) -> bool:
    """Whether every process of the session is gone within the start-up timeout."""
    deadline = time.monotonic() + START_TIMEOUT
    while session_pids(sid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def kill_session(sid: int) -> None:
    """SIGKILL whatever a test's batch left in its session."""
    for pid in session_pids(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
