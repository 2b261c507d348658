"""The Dask executor: ship the batch's files, check its players on every worker, submit one
task per game, yield records as they finish, cancel the rest when the iterator is closed.

`local:N` starts a `LocalCluster` of N single-threaded worker processes on this machine; any
other value is a scheduler's address (`tcp://host:8786`). Records come back to the client, the
only writer of the log. A worker that dies takes its running games with it; the Dask scheduler
plays them again on another worker, and the scheduler in `arena.scheduler` counts each game
once.
"""

import logging
import uuid
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from distributed import Client, Future, LocalCluster, as_completed

from arena.cluster.bundle import Bundle, BundleError, make_bundle
from arena.cluster.worker import BatchFiles, check_remote, play_remote
from arena.tasks import BatchError, Task
from records.game import GameRecord

LOG = logging.getLogger("arena.cluster")
CONNECT_TIMEOUT = 30.0  # seconds to reach the scheduler and to see the first worker


class DaskPool:
    """Plays games on Dask workers (`address`: `local:N` or a scheduler's address)."""

    def __init__(self, address: str, shared_fs: bool = False,
                 skip: Optional[Set[Path]] = None) -> None:
        self.address, self.shared_fs = address, shared_fs
        self.skip = skip or set()

    def describe(self) -> str:
        return f"cluster {self.address}" + (" (shared files)" if self.shared_fs else "")

    def play(self, specs: Dict[str, Dict[str, Any]], todo: List[Task]) -> Iterator[GameRecord]:
        """Yield records as games end; closing the iterator cancels every game not yet done."""
        if not todo:
            return iter(())
        try:
            bundle = make_bundle(specs, Path.cwd(), self.shared_fs, self.skip)
        except BundleError as exc:
            raise BatchError(str(exc)) from None
        return self._play(bundle, todo)

    def _connect(self) -> Tuple[Client, Optional[LocalCluster]]:
        if not LOG.isEnabledFor(logging.DEBUG):  # Dask's start/stop chatter only with -v
            logging.getLogger("distributed").setLevel(logging.WARNING)
        cluster = None
        try:
            if self.address.startswith("local:"):
                cluster = LocalCluster(n_workers=int(self.address[len("local:"):]),
                                       threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
                client = Client(cluster)
            else:
                client = Client(self.address, timeout=CONNECT_TIMEOUT)
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            if cluster is not None:
                cluster.close()
            why = ("not a scheduler address" if isinstance(exc, ValueError) else
                   f"no scheduler with a worker answered within {CONNECT_TIMEOUT:g} s")
            raise BatchError(f"cluster {self.address}: {why} ({exc})") from None
        return client, cluster

    def _play(self, bundle: Bundle, todo: List[Task]) -> Iterator[GameRecord]:
        client, cluster = self._connect()
        futures: Dict[Future, Task] = {}
        run = uuid.uuid4().hex[:8]  # this run's names: two batches on one scheduler never mix
        plugin = f"{bundle.name}-{run}"
        try:
            client.register_plugin(BatchFiles(bundle), name=plugin)
            _check_players(client, plugin, todo)
            for task in todo:
                k = task.key
                key = f"game-{run}-{k.a}-{k.b}-{k.round}-{k.leg}"
                futures[client.submit(play_remote, plugin, task, key=key, pure=False)] = task
            LOG.info("cluster %s: %d games on %d workers", self.address, len(todo),
                     len(client.scheduler_info()["workers"]))
            for future in as_completed(futures):
                try:
                    record = future.result()
                except Exception as exc:  # a bug or a worker lost too often: not a player fault
                    raise BatchError(f"{futures[future].key}: {type(exc).__name__}: {exc}; "
                                     "run the batch again to resume") from None
                future.release()
                yield record
        finally:
            client.cancel(list(futures))
            try:
                client.unregister_worker_plugin(plugin)  # closes the workers' players
            except Exception as exc:  # a worker gone or the scheduler stopping: nothing to close
                LOG.debug("cluster: plugin removal: %s", exc)
            client.close()
            if cluster is not None:
                cluster.close()


def _check_players(client: Client, plugin: str, todo: List[Task]) -> None:
    """Start every player of the batch once on every worker; BatchError naming each failure.
    Warn where a machine's workers run more games at once than it has cores (unfair clocks)."""
    names = sorted({n for t in todo for n in (t.key.a, t.key.b)})
    workers = client.scheduler_info()["workers"]
    checks = {w: client.submit(check_remote, plugin, names, todo[0].board, workers=[w],
                               allow_other_workers=False, pure=False) for w in workers}
    problems: List[str] = []
    threads: Counter = Counter()
    cores: Dict[str, int] = {}
    for w, future in checks.items():
        found, host, cores[host] = future.result()
        problems += [f"{w}: {p}" for p in found]
        threads[host] += workers[w]["nthreads"]
    if problems:
        raise BatchError("players cannot start on the workers, no game played: "
                         + "; ".join(problems))
    for host, count in sorted(threads.items()):
        if count > cores[host]:
            LOG.warning("cluster: %s plays %d games at once on %d cores: move times suffer "
                        "(docs/cluster.md, fair clocks)", host, count, cores[host])
