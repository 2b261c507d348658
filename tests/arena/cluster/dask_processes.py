"""Dask processes for the cluster tests, started as a user starts them on lab machines: `dask
scheduler` and `dask worker` from a virtual environment with only `distributed` installed
(worker_env.py), in a folder outside the project and without PYTHONPATH, so they cannot import
the project. Every port comes from the operating system: the scheduler writes the address it
got to its scheduler file, and a worker is found by the name it was started with."""

import json
import os
import signal
import subprocess
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import distributed
from waits import nothing, wait_until

ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT = 60.0


def start(argv: List[str], cwd: Path, env: Optional[Dict[str, str]] = None) -> subprocess.Popen:
    """A process as a user starts it on a machine without the project (no PYTHONPATH)."""
    full = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    full.update(env or {})
    return subprocess.Popen(argv, cwd=cwd, env=full, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def kill(proc: subprocess.Popen) -> None:
    """SIGKILL a process started by `start` and everything of its process group."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


def start_scheduler(venv: Path, folder: Path) -> Tuple[str, subprocess.Popen]:
    """`dask scheduler` on a port the system chose; its address, read from its file."""
    folder.mkdir(parents=True, exist_ok=True)
    info = folder / "scheduler.json"
    proc = start([str(venv / "bin" / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
                  "--no-dashboard", "--scheduler-file", str(info)], folder)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            return json.loads(info.read_text())["address"], proc
        except (OSError, ValueError, KeyError):
            time.sleep(0.05)  # not written yet (or half written)
    kill(proc)
    raise AssertionError(f"the scheduler wrote no address to {info}")


def start_worker(venv: Path, scheduler: str, folder: Path, name: Optional[str] = None,
                 env: Optional[Dict[str, str]] = None) -> subprocess.Popen:
    """`dask worker` with one thread, its scratch space in `folder`, on a port the system
    chose; `name` finds its address (`worker_addresses`)."""
    argv = [str(venv / "bin" / "dask"), "worker", scheduler, "--host", "127.0.0.1",
            "--nthreads", "1", "--no-dashboard", "--local-directory", str(folder)]
    if name:
        argv += ["--name", name]
    return start(argv, folder.parent, env)


@contextmanager
def client(address: str) -> Iterator[distributed.Client]:
    """A client of the scheduler (the workers lack the client's numpy, as they should)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", distributed.versions.VersionMismatchWarning)
        with distributed.Client(address, timeout=START_TIMEOUT) as c:
            yield c


def wait_for_workers(address: str, count: int) -> None:
    """Until `count` workers have joined the scheduler."""
    with client(address) as c:
        c.wait_for_workers(count, timeout=START_TIMEOUT)


def worker_addresses(address: str, names: List[str]) -> Dict[str, str]:
    """The addresses of the workers started with these names, once each has joined."""
    with client(address) as c:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            found = {w["name"]: a for a, w in c.scheduler_info()["workers"].items()}
            if all(n in found for n in names):
                return {n: found[n] for n in names}
            if time.monotonic() > deadline:
                raise AssertionError(f"workers {names} never joined: {sorted(map(str, found))}")
            time.sleep(0.05)


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


@contextmanager
def dask_cluster_in(folder: Path, venv: Path, env: Dict[str, str],
                    workers: int = 2) -> Iterator[DaskCluster]:
    """A scheduler and `workers` workers of `venv`, every process killed at the end."""
    address, scheduler = start_scheduler(venv, folder)
    procs = [scheduler]
    try:
        for i in range(workers):
            procs.append(start_worker(venv, address, folder / f"w{i}", env=env))
        wait_for_workers(address, workers)
        yield DaskCluster(address, procs[1:])
    finally:
        for proc in reversed(procs):
            kill(proc)


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
    return wait_until(lambda: session_pids(sid), nothing, START_TIMEOUT) == []


def kill_session(sid: int) -> None:
    """SIGKILL whatever a test's batch left in its session."""
    for pid in session_pids(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
