"""Games in progress for a watcher of a batch (docs/web.md, "How it works"): only while a page
watches does a worker write its game to `<output>/live/<pid>.jsonl`."""

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Protocol

from arena.core.players.base import MoveResult
from arena.core.tasks import Task
from records.board import Board
from records.game import GameKey

WATCHING = "watching"
FRESH_S = 5.0  # a watcher's mark older than this (seconds) means nobody watches


def live_dir(folder: Path) -> Path:
    return Path(folder) / "live"


def mark_watching(folder: Path) -> None:
    """Tell the batch's workers that a page watches (call it at least every FRESH_S / 2 s)."""
    where = live_dir(folder)
    where.mkdir(parents=True, exist_ok=True)
    (where / WATCHING).touch()


def is_watched(folder: Path) -> bool:
    """Whether a watcher marked the folder within FRESH_S seconds."""
    try:
        return time.time() - (live_dir(folder) / WATCHING).stat().st_mtime < FRESH_S
    except OSError:
        return False


def game_head(task: Task) -> Dict[str, Any]:
    """A live file's first line: key, board, seconds a move, start (seconds since the epoch)."""
    return {"key": task.key.to_dict(), "board": task.board.to_list(),
            "time_limit": task.time_limit, "started": time.time()}


def move_line(res: MoveResult) -> Optional[List[float]]:
    """A live file's line for one answer, `[x, y, seconds]`; None for a fault (no point)."""
    if res.point is None:
        return None
    return [res.point[0], res.point[1], round(res.elapsed, 4)]


class MoveSink(Protocol):
    """Where a watched game goes (a `LiveFile`, a cluster's `arena.cluster.relay`): the worker
    asks `watched()` (whether a page watches now) once a game, then calls `start`, `move` for
    each answer of either player and `end` (the record is on its way to the log)."""

    def watched(self) -> bool: ...

    def start(self, task: Task) -> None: ...

    def move(self, res: MoveResult) -> None: ...

    def end(self) -> None: ...


class LiveFile(MoveSink):
    """One local worker's file of the game it plays, named `stem` (this process's pid)."""

    def __init__(self, folder: Path, stem: Optional[str] = None) -> None:
        self.folder = Path(folder)
        self.path = live_dir(self.folder) / f"{stem or os.getpid()}.jsonl"
        self._fd: Optional[int] = None

    def watched(self) -> bool:
        return is_watched(self.folder)

    def write(self, data: object) -> None:
        """One line of the game now in the file (nothing when none is)."""
        if self._fd is not None:
            os.write(self._fd, (json.dumps(data, separators=(",", ":")) + "\n").encode())

    def start_head(self, head: Dict[str, Any]) -> None:
        """A new game in the file (the one before it dropped): its first line, `game_head`."""
        self.end()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        self.write(head)

    def start(self, task: Task) -> None:
        self.start_head(game_head(task))

    def move(self, res: MoveResult) -> None:
        line = move_line(res)
        if line is not None:
            self.write(line)

    def end(self) -> None:
        """The game is over (its record is in the log): drop the file until the next one."""
        fd, self._fd = self._fd, None  # first, so a SIGTERM in between never closes it twice
        if fd is not None:
            os.close(fd)
            self.path.unlink(missing_ok=True)


@dataclass
class LiveGame:
    """A game in progress as its live file shows it."""

    worker: str  # the file's stem: a local worker's pid, or `<client pid>-<n>` (a cluster's)
    key: GameKey
    board: Board
    time_limit: float
    started: float  # seconds since the epoch
    moves: List[List[float]] = field(default_factory=list)  # [x, y, seconds]


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def read_live(folder: Path) -> List[LiveGame]:
    """Every game in progress in a batch's folder, less dead workers' files and torn lines."""
    games = []
    for path in sorted(live_dir(folder).glob("*.jsonl")):
        if not _alive(path.stem.split("-")[0]):
            continue
        try:
            lines = path.read_bytes().split(b"\n")[:-1]
            head = json.loads(lines[0]) if lines else None
            if not isinstance(head, dict):
                continue
            games.append(LiveGame(path.stem, GameKey.from_dict(head["key"]),
                                  Board.from_list(head["board"]), head["time_limit"],
                                  head["started"], [json.loads(line) for line in lines[1:]]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return games
