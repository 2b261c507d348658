"""The worker side, once `bootstrap` has put this code there: unpack the batch's files, check
the players, and play tasks with one `GameWorker` per worker thread until the teardown."""

import os
import pickle
import sys
import threading
from dataclasses import replace
from typing import Any, Dict, List, Sequence

from distributed import get_worker

from arena.cluster.bootstrap import unpack_once
from arena.cluster.relay import RelaySink
from arena.core.players import make_player
from arena.core.tasks import Task
from arena.core.worker import GameWorker
from records.game import GameRecord
from records.player import PlayerKind, PlayerSpec


def localize(spec: PlayerSpec, base: str) -> PlayerSpec:
    """A portable spec made concrete on this worker: its paths under `base` (a process's
    `python` is the worker's own interpreter: `arena.core.players.process`)."""
    if spec.kind is PlayerKind.SO:
        return replace(spec, target=os.path.join(base, spec.target))
    if spec.kind is PlayerKind.PROCESS:
        return replace(spec, cwd=os.path.join(base, spec.cwd or "."))
    return spec


class BatchFiles:
    """A batch's files on this worker (`batch`: a `bundle.Bundle` as a dict), the game workers
    that play with them, and the sink of its watched games (`name`: the batch run's)."""

    def __init__(self, batch: Dict[str, Any], local_directory: str, name: str) -> None:
        self.sink = RelaySink(name)
        self.data, self.base = batch["data"], batch["root"]
        if self.data is not None:
            self.base = os.path.join(local_directory, batch["name"])
        self.specs: Dict[str, PlayerSpec] = {
            name: localize(PlayerSpec.parse(spec, name), self.base)
            for name, spec in batch["specs"].items()}
        self._workers: Dict[int, GameWorker] = {}
        self._lock = threading.Lock()

    def prepare(self, names: List[str], board: Sequence[int]) -> List[str]:
        """Unpack the files and start each named player once on `board` (M, N, no_x, no_y):
        the problems, one line each, for the check before this worker gets a game."""
        if self.data is not None:
            problem = unpack_once(self.data, self.base, "the batch's files")
            if problem:
                return [problem]
        if self.base not in sys.path:
            sys.path.insert(0, self.base)  # python players import from the batch's files
        return [p for name in names for p in self._check(name, board)]

    def _check(self, name: str, board: Sequence[int]) -> List[str]:
        try:
            player = make_player(name, self.specs[name])
        except (ValueError, OSError) as exc:
            return [f"{name}: {exc}"]
        try:
            failed = player.start_game(*board)
            if failed is not None and failed.fault is not None:
                return [f"{name}: {failed.detail}"]
        finally:
            player.close()
        return []

    def close(self) -> None:
        with self._lock:
            workers, self._workers = self._workers, {}
        for worker in workers.values():
            worker.close()

    def worker(self) -> GameWorker:
        """This thread's game worker, made on its first game and kept for later ones."""
        ident = threading.get_ident()
        with self._lock:
            if ident not in self._workers:
                self._workers[ident] = GameWorker(self.specs, self.sink)
            return self._workers[ident]


# A game as Dask sends it, readable by a scheduler without the arena (docs/cluster.md): builtin
# eval of this expression with NAME (the batch's plugin) and TASK (a pickled Task).
GAME = "__import__('arena.cluster.worker').cluster.worker.play_remote(NAME, TASK)"


def play_remote(plugin_name: str, task: bytes) -> GameRecord:
    """Play one pickled Task on this worker (only a worker whose check passed gets one)."""
    plugin = get_worker().plugins[plugin_name]
    batch: BatchFiles = plugin.batch  # type: ignore[attr-defined]  # set by Bootstrap.setup
    game: Task = pickle.loads(task)
    return batch.worker().play(game)
