"""The Dask executor (docs/cluster.md): ships the code and files, has every worker check itself,
submits one task a game, yields records as they finish and cancels the rest when closed."""

import dataclasses
import logging
import pickle
import uuid
import warnings
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from distributed import Client, Future, LocalCluster, as_completed
from distributed.versions import VersionMismatchWarning

from arena.cluster.bootstrap import Bootstrap, distributed_version
from arena.cluster.bundle import Bundle, BundleError, code_bundle, make_bundle
from arena.cluster.checks import WorkerReports, WorkersCannotPlay
from arena.cluster.relay import LiveRelay
from arena.cluster.worker import GAME
from arena.core.tasks import BatchError, Task
from records.game import GameRecord
from records.player import PlayerSpec

LOG = logging.getLogger("arena.cluster")
CONNECT_TIMEOUT = 30.0  # seconds to reach the scheduler and to see the first worker
REPORT_TIMEOUT = 30.0  # seconds for the workers' reports to arrive once their setup is done


class DaskPool:
    """Plays games on Dask workers (`address`: `local:N` or a scheduler's address); `folder`,
    the batch's output folder, gets live files while a page watches."""

    def __init__(self, address: str, shared_fs: bool = False,
                 skip: Optional[Set[Path]] = None, folder: Optional[Path] = None) -> None:
        self.address, self.shared_fs = address, shared_fs
        self.skip, self.folder = skip or set(), folder  # folder: live files while watched

    def describe(self) -> str:
        return f"cluster {self.address}" + (" (shared files)" if self.shared_fs else "")

    def play(self, specs: Dict[str, PlayerSpec], todo: List[Task]) -> Iterator[GameRecord]:
        """Yield records as games end; closing the iterator cancels every game not yet done."""
        if not todo:
            return iter(())
        try:
            bundle = make_bundle(specs, Path.cwd(), self.shared_fs, self.skip)
        except BundleError as exc:
            raise WorkersCannotPlay(f"no game played: {exc}") from None
        return self._play(bundle, todo)

    def _connect(self) -> Tuple[Client, Optional[LocalCluster]]:
        if not LOG.isEnabledFor(logging.DEBUG):  # Dask's start/stop chatter only with -v
            logging.getLogger("distributed").setLevel(logging.WARNING)
        cluster = None
        try:
            warnings.simplefilter("ignore", VersionMismatchWarning)  # each worker's own line
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
        # This run's name: its plugin, its report topic and the resource its games ask for.
        name = f"{bundle.name}-{uuid.uuid4().hex[:8]}"
        reports = WorkerReports()
        client.subscribe_topic(name, reports.on_event)
        relay = LiveRelay(client, name, self.folder) if self.folder is not None else None
        try:
            try:
                first = client.register_plugin(Bootstrap(_state(name, bundle, todo)), name=name)
            except Exception as exc:  # the plugin failed to load on a worker: a Dask mismatch
                raise WorkersCannotPlay(f"no game played: a worker cannot load the batch's "
                                        f"set-up: {type(exc).__name__}: {exc}") from None
            reports.wait(first, lambda: client.get_events(name), REPORT_TIMEOUT)
            reports.start(first)
            if relay is not None:
                relay.start()
            pending, done = iter(todo), as_completed()

            def submit_more() -> None:
                """Two games a checked thread in flight: Dask queues a resource's games on
                their worker at once, so more would idle workers at the end of a batch."""
                while len(futures) < max(1, 2 * reports.threads()):
                    task = next(pending, None)
                    if task is None:
                        return
                    k = task.key
                    game = {"NAME": name, "TASK": pickle.dumps(task)}
                    future = client.submit(eval, GAME, game, pure=False, resources={name: 1},
                                           key=f"game-{name}-{k.a}-{k.b}-{k.round}-{k.leg}")
                    futures[future] = task
                    done.add(future)

            submit_more()
            LOG.info("cluster %s: %d games on %d workers", self.address, len(todo), len(first))
            for future in done:
                task = futures.pop(future)
                try:
                    record = future.result()
                except Exception as exc:  # a bug or a worker lost too often: not a player fault
                    raise BatchError(f"{task.key}: {type(exc).__name__}: {exc}; "
                                     "run the batch again to resume") from None
                future.release()
                if relay is not None:
                    relay.game_over(record.key)
                submit_more()
                yield record
        finally:
            client.cancel(list(futures))
            if relay is not None:
                relay.close()
            try:
                client.unsubscribe_topic(name)
                client.unregister_worker_plugin(name)  # closes the workers' players
            except Exception as exc:  # a worker gone or the scheduler stopping: nothing to close
                LOG.debug("cluster: plugin removal: %s", exc)
            client.close()
            if cluster is not None:
                cluster.close()


def _state(name: str, bundle: Bundle, todo: List[Task]) -> Dict[str, Any]:
    """What a worker's Bootstrap needs, as plain data (it unpickles before the arena is there):
    the versions to match, the arena's code, the batch's files and the players to check."""
    code = code_bundle()
    board = todo[0].board
    return {"name": name, "distributed": distributed_version(),
            "code": code.data, "code_digest": code.digest, "packages": list(code.packages),
            "batch": dataclasses.asdict(bundle),
            "players": sorted({n for t in todo for n in (t.key.a, t.key.b)}),
            "board": [board.M, board.N, board.no_x, board.no_y]}
