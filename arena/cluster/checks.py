"""The workers' reports of their check before the first game, read on the client
(docs/cluster.md, "What a worker needs": Checked first)."""

import logging
import threading
import time
from collections import Counter
from typing import Any, Callable, Dict, Iterable, Set

from arena.core.tasks import BatchError

LOG = logging.getLogger("arena.cluster")


class WorkersCannotPlay(BatchError):
    """The workers cannot play the batch; nothing was played. Exit status 2: the setup is
    wrong (as a bad config is), not the batch."""

    exit_status = 2


class WorkerReports:
    """Collects reports (from any thread); after `start`, reports of later workers are logged
    as they come. A worker's address is reported on once, however often it sets up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reports: Dict[str, Dict[str, Any]] = {}
        self._started = False
        self._threads: Counter = Counter()
        self._cores: Dict[str, int] = {}
        self._warned: Set[str] = set()

    def on_event(self, event: Any) -> None:
        """A Dask topic handler: `event` is `(timestamp, report)`."""
        self.add(event[1])

    def add(self, report: Dict[str, Any]) -> None:
        with self._lock:
            if report["worker"] in self._reports:
                return
            self._reports[report["worker"]] = report
            if self._started:
                self._judge_joiner(report)

    def wait(self, workers: Iterable[str], poll: Callable[[], Iterable[Any]],
             timeout: float) -> None:
        """Until every one of `workers` has reported (`poll` gives the events so far)."""
        missing = set(workers)
        deadline = time.monotonic() + timeout
        while True:
            for event in poll():
                self.on_event(event)
            with self._lock:
                missing -= set(self._reports)
            if not missing:
                return
            if time.monotonic() > deadline:
                raise WorkersCannotPlay(
                    "no game played: " + ", ".join(sorted(missing)) + " did not report "
                    f"its check within {timeout:g} s")
            time.sleep(0.05)

    def start(self, workers: Iterable[str]) -> None:
        """The batch starts on `workers` (all reported): WorkersCannotPlay with one line per
        problem if any failed; otherwise warn about overloaded hosts and judge later ones."""
        first = set(workers)
        with self._lock:
            problems = [f"{w}: {p}" for w in sorted(first)
                        for p in self._reports[w]["problems"]]
            if problems:
                raise WorkersCannotPlay("no game played: " + "\n  ".join(problems))
            for w in sorted(first):
                self._count(self._reports[w])
            self._started = True
            for w in sorted(set(self._reports) - first):
                self._judge_joiner(self._reports[w])
            self._warn_overloaded()

    def threads(self) -> int:
        """The threads of the workers that passed since the batch started (games at once)."""
        with self._lock:
            return sum(self._threads.values())

    def _judge_joiner(self, report: Dict[str, Any]) -> None:
        if report["problems"]:
            LOG.warning("cluster: %s joined and gets no game: %s", report["worker"],
                        "; ".join(report["problems"]))
            return
        LOG.info("cluster: %s joined and plays", report["worker"])
        self._count(report)
        self._warn_overloaded()

    def _count(self, report: Dict[str, Any]) -> None:
        self._threads[report["host"]] += report["nthreads"]
        self._cores[report["host"]] = report["cores"]

    def _warn_overloaded(self) -> None:
        for host, count in sorted(self._threads.items()):
            if count > self._cores[host] and host not in self._warned:
                self._warned.add(host)
                LOG.warning("cluster: %s plays %d games at once on %d cores: move times "
                            "suffer (docs/cluster.md, fair clocks)", host, count,
                            self._cores[host])
