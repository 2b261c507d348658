"""The worker side: unpack a batch's bundle, keep players per worker thread, play one task.

A Dask worker runs as many games at once as it has threads (`--nthreads`); each thread keeps
its own players between games, as a local `-j` process does, and the plugin's teardown (the
batch ends, the worker stops) closes them all.
"""

import io
import os
import socket
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

from distributed import WorkerPlugin, get_worker

from arena.boards import BoardSpec
from arena.cluster.bundle import Bundle
from arena.players import make_player
from arena.players.base import Player
from arena.tasks import Task, play_task
from records.game import GameRecord


def unpack(data: bytes, folder: Path) -> None:
    """Extract a bundle, keeping each file's permission bits (zipfile's extractall drops them)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            path = Path(archive.extract(info, folder))
            mode = info.external_attr >> 16
            if mode:
                path.chmod(mode)


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


class BatchFiles(WorkerPlugin):
    """Puts a batch's files on a worker and owns the players made from them."""

    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        self.base = bundle.root

    def setup(self, worker: Any) -> None:
        # Made here, not in __init__: the plugin travels pickled, and a lock does not pickle.
        self._players: Dict[int, Dict[str, Player]] = {}
        self._lock = threading.Lock()
        if self.bundle.data is not None:
            self.base = os.path.join(worker.local_directory, self.bundle.name)
            if not os.path.isdir(self.base):
                unpack(self.bundle.data, Path(self.base + ".part"))
                os.replace(self.base + ".part", self.base)
        if self.base not in sys.path:
            sys.path.insert(0, self.base)  # python players import from the batch's files

    def teardown(self, worker: Any) -> None:
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
                own[name] = make_player(name, localize(self.bundle.specs[name], self.base))
        return own


def _plugin(name: str) -> BatchFiles:
    return get_worker().plugins[name]


def play_remote(plugin_name: str, task: Task) -> GameRecord:
    """Play one game on this worker (a Dask task)."""
    return play_task(_plugin(plugin_name).players([task.key.a, task.key.b]), task)


def check_remote(plugin_name: str, names: List[str],
                 board: BoardSpec) -> Tuple[List[str], str, int]:
    """Start each player once on this worker: the problems found (one line each), and this
    machine's host name and core count, for the fair-clock check."""
    plugin = _plugin(plugin_name)
    problems = []
    for name in names:
        try:
            player = make_player(name, localize(plugin.bundle.specs[name], plugin.base))
        except (ValueError, OSError) as exc:
            problems.append(f"{name}: {exc}")
            continue
        try:
            failed = player.start_game(board.M, board.N, board.no_x, board.no_y)
            if failed is not None and failed.fault is not None:
                problems.append(f"{name}: {failed.detail}")
        finally:
            player.close()
    return problems, socket.gethostname(), os.cpu_count() or 1
