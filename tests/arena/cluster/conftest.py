"""Real Dask clusters on loopback for the cluster tests: `dask scheduler` and `dask worker`
processes started as a user starts them on lab machines, from a virtual environment with only
`distributed` installed (worker_env.py), in a folder outside the project and without
PYTHONPATH, so they cannot import the project; every process killed at the end."""

import os
import signal
import socket
import subprocess
import time
import warnings
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest
from skips import import_or_skip

distributed = import_or_skip("distributed", "Python 3.8 without distributed")

import worker_env  # noqa: E402  (needs distributed's requirements, checked just above)

ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(argv: List[str], cwd: Path, env: Optional[Dict[str, str]] = None) -> subprocess.Popen:
    """A process as a user starts it on a machine without the project (no PYTHONPATH)."""
    full = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    full.update(env or {})
    return subprocess.Popen(argv, cwd=cwd, env=full, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def start_scheduler(venv: Path, folder: Path) -> Tuple[str, subprocess.Popen]:
    address = f"tcp://127.0.0.1:{free_port()}"
    return address, start([str(venv / "bin" / "dask"), "scheduler", "--host", "127.0.0.1",
                           "--port", address.rsplit(":")[-1], "--no-dashboard"], folder)


def start_worker(venv: Path, scheduler: str, folder: Path, port: int = 0,
                 env: Optional[Dict[str, str]] = None) -> subprocess.Popen:
    """`dask worker` with one thread, its scratch space in `folder` (`port` 0: any)."""
    argv = [str(venv / "bin" / "dask"), "worker", scheduler, "--host", "127.0.0.1",
            "--nthreads", "1", "--no-dashboard", "--local-directory", str(folder)]
    if port:
        argv += ["--worker-port", str(port)]
    return start(argv, folder.parent, env)


def wait_for_workers(address: str, count: int) -> None:
    with warnings.catch_warnings():  # the workers lack the client's numpy, as they should
        warnings.simplefilter("ignore", distributed.versions.VersionMismatchWarning)
        with distributed.Client(address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(count, timeout=START_TIMEOUT)


@pytest.fixture(scope="session")
def only_distributed(tmp_path_factory) -> Path:
    """A venv with only distributed (and what it requires) installed; proven unable to import
    the project or numpy from a folder outside the project."""
    folder = tmp_path_factory.mktemp("only-distributed")
    python = worker_env.build(folder / "venv")
    probe = ("import importlib.util as u; import distributed; "
             "print([m for m in ('arena', 'records', 'bot', 'opponents', 'numpy', 'tqdm') "
             "if u.find_spec(m)])")
    out = subprocess.run([str(python), "-c", probe], cwd=folder, capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
                         check=True)
    assert out.stdout.strip() == "[]", out.stdout
    return folder / "venv"


@pytest.fixture(scope="session")
def player_bin(tmp_path_factory) -> Path:
    """A folder with `arena-test-player`, a command (our bot at fixed play-outs) that only
    workers with this folder on PATH can start."""
    folder = tmp_path_factory.mktemp("bin")
    script = folder / "arena-test-player"
    script.write_text("#!/bin/sh\nexec python3 -m bot --playouts 20 --seed 1 --cores 1 "
                      "--no-ponder\n")
    script.chmod(0o755)
    return folder


def kill(proc: subprocess.Popen) -> None:
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
        """The worker processes proper: each `dask worker` is a nanny with one worker child,
        spawned by multiprocessing (beside it, multiprocessing's resource tracker)."""
        import psutil

        return [c.pid for w in self.workers for c in psutil.Process(w.pid).children()
                if "spawn_main" in " ".join(c.cmdline())]


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory, only_distributed, player_bin) -> Iterator[DaskCluster]:
    """A scheduler and two workers with only distributed; the workers can start
    `arena-test-player`."""
    folder = tmp_path_factory.mktemp("dask")
    address, scheduler = start_scheduler(only_distributed, folder)
    procs = [scheduler]
    path = {"PATH": f"{player_bin}{os.pathsep}{os.environ['PATH']}"}
    try:
        for i in range(2):
            procs.append(start_worker(only_distributed, address, folder / f"w{i}", env=path))
        wait_for_workers(address, 2)
        yield DaskCluster(address, procs[1:])
    finally:
        for proc in reversed(procs):
            kill(proc)


def wait_for_lines(path: Path, count: int, proc: subprocess.Popen) -> None:
    """Until `path` has `count` lines (or the process ended): a bounded wait."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {count} records")


def wait_for_text(path: Path, text: str, proc: subprocess.Popen) -> None:
    """Until `path` holds `text` (or the process ended): a bounded wait."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and text in path.read_text():
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never held {text!r}")


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
