"""The local executor: `-j` forked worker processes, each with one `GameWorker` that keeps its
players between games. Tasks go a few at a time, so an interrupted batch leaves no pipe full of
tasks; closing the iterator stops the workers, which close their players first."""

import multiprocessing as mp
import os
import queue
import signal
import threading
import traceback
from itertools import chain, islice
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from arena.core.live import LiveFile
from arena.core.tasks import BatchError, Task
from arena.core.worker import GameWorker
from records.game import GameRecord
from records.player import PlayerSpec

ORPHAN_LOOK = 1.0  # seconds between a worker's looks at its parent's pid when the pipe is silent


def terminate(signum: int, frame: Any) -> None:
    """SIGTERM as an exception, so `finally` blocks stop workers and close players."""
    raise SystemExit(128 + signum)


def orphaned(parent: int, sentinel: int, every: float = ORPHAN_LOOK) -> None:
    """Return once the process ``parent`` has stopped being this one's parent: at once when the
    pipe ``sentinel`` (multiprocessing's, whose other end only the parent holds) ends, else
    within ``every`` seconds, from os.getppid (a sibling forked later may hold that end too)."""
    while os.getppid() == parent and not wait([sentinel], timeout=every):
        pass


def _end_with_parent(results: "mp.Queue[Tuple[str, Any]]") -> None:
    """A SIGTERM to this worker's main thread once its parent is gone, on every system, the one
    it gets from the parent when a batch ends: the main thread may wait for a task or play a
    game, and its `finally` closes the players either way. Linux's PR_SET_PDEATHSIG is no
    substitute: it is lost when the parent dies before the worker asks for it, and macOS has
    none."""
    parent = mp.parent_process()
    assert parent is not None and parent.pid is not None  # a worker is a forked child
    pid, sentinel = parent.pid, parent.sentinel
    main = threading.main_thread().ident
    assert main is not None

    def watch() -> None:
        orphaned(pid, sentinel)
        results.cancel_join_thread()  # nobody reads them now: exiting must not wait on them
        signal.pthread_kill(main, signal.SIGTERM)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def _worker(specs: Dict[str, PlayerSpec], tasks: "mp.Queue[Optional[Task]]",
            results: "mp.Queue[Tuple[str, Any]]", folder: Optional[Path] = None) -> None:
    """Play tasks until the sentinel with one GameWorker; its players are closed on any exit,
    the parent's death included."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means
    signal.signal(signal.SIGTERM, terminate)
    _end_with_parent(results)
    worker = GameWorker(specs, LiveFile(folder) if folder is not None else None)
    try:
        for task in iter(tasks.get, None):
            try:
                results.put(("done", worker.play(task)))
            except Exception:
                results.put(("error", f"{task.key}: {traceback.format_exc()}"))
    finally:
        worker.close()  # a SIGTERM mid-game has already ended the game's live file


class LocalPool:
    """Plays games in `jobs` forked processes on this machine (the default executor)."""

    def __init__(self, jobs: int, folder: Optional[Path] = None) -> None:
        self.jobs = jobs
        self.folder = folder  # the batch's output folder: live files while a page watches

    def describe(self) -> str:
        return f"-j {self.jobs}"

    def play(self, specs: Dict[str, PlayerSpec], todo: List[Task]) -> Iterator[GameRecord]:
        """Yield records as games end; closing the iterator stops every worker."""
        ctx = mp.get_context("fork")
        tasks, results = ctx.Queue(), ctx.Queue()
        jobs = min(self.jobs, len(todo))
        # the tasks one at a time, then the end of work: a sentinel for each worker
        handouts: Iterator[List[Optional[Task]]] = chain(([t] for t in todo), [[None] * jobs])

        def feed(count: int) -> None:
            for items in islice(handouts, count):
                for item in items:
                    tasks.put(item)

        feed(2 * jobs)
        workers = [ctx.Process(target=_worker, args=(specs, tasks, results, self.folder),
                               daemon=True) for _ in range(jobs)]
        for w in workers:
            w.start()
        try:
            remaining = len(todo)
            while remaining:
                try:
                    kind, payload = results.get(timeout=1.0)
                except queue.Empty:
                    dead = [w.exitcode for w in workers if not w.is_alive()]
                    if any(code != 0 for code in dead) or len(dead) == jobs:
                        raise BatchError(f"a worker died (exit codes {dead}) with {remaining} "
                                         "games left; run the batch again to resume") from None
                    continue
                if kind == "error":
                    raise BatchError(payload)
                remaining -= 1
                feed(1)
                yield payload
        finally:
            tasks.cancel_join_thread()  # undelivered tasks are simply not played
            _stop(workers)


def _stop(workers: Sequence[BaseProcess]) -> None:
    """SIGTERM the workers (they close their players), then SIGKILL any that linger."""
    for w in workers:
        if w.is_alive():
            w.terminate()
    for w in workers:
        w.join(timeout=10)
        if w.is_alive():
            w.kill()
            w.join()
