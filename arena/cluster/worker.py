"""The worker side, once `bootstrap` has put this code there: unpack the batch's files, check
the players, keep players per worker thread, play one task (its moves sent to the client while
a page watches the batch: `relay`).

A Dask worker runs as many games at once as it has threads (`--nthreads`); each thread keeps
its own players between games, as a local `-j` process does, and the plugin's teardown (the
batch ends, the worker stops) closes them all.
"""

import os
import pickle
import sys
import threading
from typing import Any, Dict, List, Sequence

from distributed import get_worker

from arena.cluster.bootstrap import unpack_once
from arena.cluster.relay import WorkerRelay
from arena.players import make_player
from arena.players.base import Player
from arena.tasks import Task, play_task
from records.game import GameRecord


def localize(spec: Dict[str, Any], base: str) -> Dict[str, Any]:
    """A portable spec made concrete on this worker: paths under `base`, `python` from the
    worker's own environment first on PATH (as compete.sh puts the project's venv first)."""
    out = dict(spec)
    if "so" in spec:
        out["so"] = os.path.join(base, spec["so"])
    if "process" in spec:
        out["cwd"] = os.path.join(base, spec.get("cwd", "."))
        env = dict(spec.get("env") or {})
        if "PATH" not in env:
            env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
        out["env"] = env
    return out


class BatchFiles:
    """A batch's files on this worker (`batch`: a `bundle.Bundle` as a dict), the players
    made from them, and the relay of its watched games (`name`: the batch run's)."""

    def __init__(self, batch: Dict[str, Any], local_directory: str, name: str) -> None:
        self.relay = WorkerRelay(name)
        self.data, self.specs = batch["data"], batch["specs"]
        self.base = batch["root"]
        if self.data is not None:
            self.base = os.path.join(local_directory, batch["name"])
        self._players: Dict[int, Dict[str, Player]] = {}
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
            player = make_player(name, localize(self.specs[name], self.base))
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
            players, self._players = self._players, {}
        for own in players.values():
            for player in own.values():
                player.close()

    def players(self, names: List[str]) -> Dict[str, Player]:
        """This thread's players of these names, made on first use and kept for later games."""
        with self._lock:
            own = self._players.setdefault(threading.get_ident(), {})
        for name in names:
            if name not in own:
                own[name] = make_player(name, localize(self.specs[name], self.base))
        return own


# A game as Dask sends it: builtin eval of this expression with NAME (the batch's plugin) and
# TASK (a pickled Task). The scheduler unpickles every task's function and arguments, and it
# has no arena: builtins and bytes it can read.
GAME = "__import__('arena.cluster.worker').cluster.worker.play_remote(NAME, TASK)"


def play_remote(plugin_name: str, task: bytes) -> GameRecord:
    """Play one pickled Task on this worker (only a worker whose check passed gets one)."""
    batch = get_worker().plugins[plugin_name].batch
    game: Task = pickle.loads(task)
    with batch.relay.game(batch.players([game.key.a, game.key.b]), game) as players:
        return play_task(players, game)
