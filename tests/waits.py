"""Waiting for an event, never for a guessed time: the tests poll for what they need (a process
gone, a process started, CPU time spent, records logged) until it holds or a generous deadline
passes, so that a busy machine makes them slower, never red. One module for every test folder
(tests/ is on each one's path)."""
import subprocess
import time
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")

PATIENCE = 30.0  # seconds before an awaited event counts as never coming


def wait_until(probe: Callable[[], T], done: Callable[[T], bool] = bool,
               timeout: float = PATIENCE, every: float = 0.02) -> T:
    """``probe()``'s value once ``done`` holds for it, else its value when ``timeout`` ends."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if done(value) or time.monotonic() >= deadline:
            return value
        time.sleep(every)


def nothing(values) -> bool:
    """``done`` for a probe of what is left: nothing is."""
    return not values


def wait_for_lines(path: Path, count: int, proc: "subprocess.Popen[bytes]",
                   timeout: float = PATIENCE) -> None:
    """Until the log at `path` holds `count` lines; AssertionError when `proc` (the batch that
    writes it) ends first or `timeout` seconds pass."""
    def lines() -> int:
        return path.read_bytes().count(b"\n") if path.exists() else 0

    if wait_until(lambda: lines() >= count or proc.poll() is not None, timeout=timeout) \
            and lines() >= count:
        return
    raise AssertionError(f"{path} never reached {count} records (batch exit {proc.poll()})")
