"""A forked process that serves one searcher's requests on a pipe, and the checks that decide
whether a second process is worth having (a spare core, a main search that keeps its core)."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

FULL_CORE = 0.7  # CPU seconds per wall second below which the main process is short of a core
STARVED_MOVES = 2  # consecutive starved searches after which the second process is stopped


def spare_cores() -> int:
    """Cores this process may run on, besides its own."""
    try:
        return len(os.sched_getaffinity(0)) - 1
    except AttributeError:  # not Linux
        return (os.cpu_count() or 1) - 1


class CoreShare:
    """Whether the main search keeps a whole core while a second process works beside it:
    ``start()`` and ``stop()`` around a search, then ``starved()``, True once STARVED_MOVES
    searches in a row got less than FULL_CORE CPU seconds a wall second (then the second
    process only splits one core's time, as on a one-core machine)."""

    def __init__(self) -> None:
        self.runs = 0
        self.share = 1.0
        self.cpu = self.wall = 0.0

    def start(self) -> None:
        self.cpu, self.wall = time.process_time(), time.perf_counter()

    def stop(self) -> None:
        elapsed = max(1e-9, time.perf_counter() - self.wall)
        self.share = (time.process_time() - self.cpu) / elapsed

    def starved(self) -> bool:
        self.runs = self.runs + 1 if self.share < FULL_CORE else 0
        return self.runs >= STARVED_MOVES


def _run_forked(conn: Connection, parent_end: Connection, serve: Callable, args: tuple) -> None:
    """Entry point of a forked process: let go of the game's pipes and the main process's
    end of our own, so that nothing waits on this process and its input ends with the game."""
    parent_end.close()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    serve(conn, *args)


class Forked:
    """A forked process that serves requests on a pipe (``serve(conn, *args)``) until the
    main process closes its end."""

    def __init__(self, serve: Callable, args: tuple) -> None:
        import multiprocessing  # here: 10 ms of every bot's start-up, which the first move pays

        context = multiprocessing.get_context("fork")  # ValueError where fork is unavailable
        self.conn, child_end = context.Pipe()
        self.process = context.Process(target=_run_forked, daemon=True,
                                       args=(child_end, self.conn, serve, args))
        self.process.start()
        child_end.close()

    def close(self) -> None:
        """End the process (it exits at end of input)."""
        self.conn.close()
        self.process.join(timeout=1.0)
        if self.process.is_alive():
            self.process.kill()
