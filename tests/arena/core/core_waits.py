"""Waiting for an event, never for a guessed time: the core tests poll for what they need (a
process gone, a process started, CPU time spent) until it holds or a generous deadline passes,
so that a busy machine makes them slower, never red."""
import time
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
