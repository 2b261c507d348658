"""The JSON Lines log of finished games (docs/arena.md, "Results"). Several processes may write
one log (a batch, the web app's games): an append and the rewrite in game order (``sort_log``)
each hold the folder's lock, so no record appended during a rewrite is lost."""

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Tuple

try:
    import fcntl
except ImportError:  # not POSIX: one writer a folder, as before
    fcntl = None  # type: ignore[assignment]  # a module or None: the lock checks first

from records.game import GameRecord

LOG = logging.getLogger("records.log")
LOG_NAME = "games.jsonl"


class ResultsError(Exception):
    """A results file that cannot be read: the message names the file and line."""


def log_path(path: Path) -> Path:
    """The log a user names: a file as it is, a results folder's LOG_NAME; ResultsError if none."""
    if path.is_dir():
        log = path / LOG_NAME
        if not log.is_file():
            raise ResultsError(f"{path}: no {LOG_NAME} (the course's <A>_<B>.txt files keep "
                               "no moves)")
        return log
    if not path.is_file():
        raise ResultsError(f"{path}: no such file")
    return path


def read_games(path: Path) -> List[GameRecord]:
    """The records of a log or a results folder; ResultsError when it holds none."""
    records = read_log(log_path(path))
    if not records:
        raise ResultsError(f"{path}: no game records")
    return records


def losses(records: List[GameRecord], lost_by: Optional[str]) -> List[int]:
    """The indices of the games lost on the board, by the player whose name starts with
    ``lost_by`` when given; ResultsError when that player lost none."""
    found = [i for i, r in enumerate(records)
             if r.loser is not None and (lost_by is None or r.name(r.loser).startswith(lost_by))]
    if lost_by is not None and not found:
        names = sorted({n for r in records for n in (r.a, r.b)})
        raise ResultsError(f"no game lost on the board by a player named {lost_by!r}* "
                           f"(players: {', '.join(names)})")
    return found


def _parse_record(line: str, where: str) -> GameRecord:
    try:
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return GameRecord.from_dict(data)
    except (ValueError, TypeError, KeyError) as exc:
        raise ResultsError(f"{where}: not a game record ({exc})") from None


def whole_lines(path: Path, repair: bool = True) -> List[Tuple[int, str]]:
    """The complete lines of a JSON Lines file and their numbers, blank ones left out (none
    without a file). Only the last can be torn (each is written whole and flushed): ``repair``
    cuts it from the file before the next append; without, it is an error."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    complete = raw[:raw.rfind(b"\n") + 1]
    if len(complete) < len(raw):
        if not repair:
            raise ResultsError(f"{path}: the last record is torn (the batch was cut off); "
                               "run the batch again to resume and repair it")
        _cut(path, len(complete))
    lines = []
    for number, line in enumerate(complete.split(b"\n")[:-1], 1):
        try:
            if line.strip():
                lines.append((number, line.decode("utf-8")))
        except UnicodeDecodeError:
            raise ResultsError(f"{path}:{number}: not UTF-8 text") from None
    return lines


def _cut(path: Path, size: int) -> None:
    with open(path, "r+b") as handle:
        torn = handle.seek(0, os.SEEK_END) - size
        handle.truncate(size)
    LOG.warning("%s: dropped a torn last line (%d bytes) left by a write cut short", path, torn)


def read_log(path: Path, repair: bool = False) -> List[GameRecord]:
    """All records of a log (none without a file); a torn last line (no newline, or not JSON)
    as in ``whole_lines``, any bad line before it an error."""
    lines = whole_lines(path, repair)
    records = []
    for number, line in lines:
        try:
            records.append(_parse_record(line, f"{path}:{number}"))
        except ResultsError:
            if not repair or (number, line) != lines[-1]:
                raise
            _cut(path, path.read_bytes().rfind(line.encode("utf-8")))  # garbled: torn too
    return records


class LogFollower:
    """Reads a log as a batch writes it: each ``read()`` returns the records appended since the
    last (all again once the file is replaced); a line that is not one is logged, in ``skipped``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.skipped = 0
        self._offset = 0
        self._lines = 0
        self._inode: Optional[int] = None
        self._partial = b""

    def read(self) -> Tuple[bool, List[GameRecord]]:
        """(whether the file was replaced or is gone, which voids the records read before it;
        the records new since the last read)."""
        try:
            st = os.stat(self.path)
            inode: Optional[int] = st.st_ino
            size = st.st_size
        except OSError:  # gone: as fresh as a new file once it comes back
            inode, size = None, 0
        fresh = inode != self._inode or size < self._offset
        if fresh:
            self._offset, self._lines, self._inode, self._partial = 0, 0, inode, b""
            self.skipped = 0
        if inode is None or size == self._offset:
            return fresh, []
        with open(self.path, "rb") as handle:
            handle.seek(self._offset)
            data = handle.read()
        self._offset += len(data)
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        records = []
        for line in lines:
            self._lines += 1
            if not line.strip():
                continue
            where = f"{self.path}:{self._lines}"
            try:
                records.append(_parse_record(line.decode("utf-8"), where))
            except (UnicodeDecodeError, ResultsError) as exc:
                self.skipped += 1
                text = exc if isinstance(exc, ResultsError) else f"{where}: not UTF-8 text"
                LOG.warning("%s", text)
        return fresh, records


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """One writer of the folder's log at a time: flock on the folder itself (no lock file)."""
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


class ResultLog(contextlib.AbstractContextManager["ResultLog"]):
    """Appends records to a log, each in the kernel once ``append`` returns (a SIGKILL of the
    arena cannot lose it). The log is opened afresh for each, so a rewrite never strands one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()

    def append(self, record: GameRecord) -> None:
        with folder_lock(self.path.parent), open(self.path, "a", encoding="utf-8") as handle:
            handle.write(record.to_json() + "\n")

    def __exit__(self, *exc: object) -> None:
        """Nothing to close: nothing is held between appends."""


def write_log(path: Path, records: Iterable[GameRecord]) -> None:
    """Write a whole log at once, atomically (``write_atomic``)."""
    write_atomic(path, "".join(r.to_json() + "\n" for r in records))


def write_atomic(path: Path, text: str) -> None:
    """Write a file whole, its folder made if need be: a reader sees the old or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def sort_log(path: Path) -> List[GameRecord]:
    """Rewrite a log in game order (the same batch leaves the same file locally and on a
    cluster) under the folder's lock, so no append falls between the read and the replace."""
    with folder_lock(path.parent):
        records = read_log(path)
        if records:
            records.sort(key=lambda r: (r.batch, r.seed, r.round, r.a, r.b, r.leg))
            write_log(path, records)
    return records
