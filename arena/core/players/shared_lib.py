"""A course ``.so`` strategy, played through a host process (``so_host.py``; docs/arena.md,
"Hosting the course's libraries"): loading is untimed, each request timed to its whole reply."""
import signal
import sys
import time
from pathlib import Path
from typing import List, Mapping, Optional

from arena.children.pipe_reader import PipeClosed, PipeReader, PipeTimeout
from arena.children.reaper import Child, kill_group, kill_tree, spawn
from arena.children.tail import StderrTail
from arena.core.players import so_host
from arena.core.players.base import MoveResult, Player, fault
from records.codes import FaultKind

HOST_REPLY_TIMEOUT = 5.0  # seconds for the host's own bookkeeping replies
LINE_LIMIT = 4096  # bytes; the host's lines are short


class HostDied(Exception):
    """The host process itself failed; it is dropped and started afresh next game."""


def _describe(status: str) -> str:
    """``over signal 11`` -> ``killed by SIGSEGV``; ``over exit 0`` -> ``exited with status 0``."""
    how, _, number = status[5:].partition(" ")
    if how == "signal":
        try:
            return f"killed by {signal.Signals(int(number)).name}"
        except ValueError:
            return f"killed by signal {number}"
    return f"exited with status {number}"


class SharedLibPlayer(Player):
    """Plays the library at ``path``; ``env`` is added to the host's environment."""

    def __init__(self, name: str, path: str, env: Optional[Mapping[str, str]] = None,
                 load_timeout: float = 30.0) -> None:
        self.name, self.path = name, str(Path(path).resolve())
        self.env, self.load_timeout = dict(env or {}), load_timeout
        self._host: Optional[Child] = None
        self._reader: Optional[PipeReader] = None
        self._tail: Optional[StderrTail] = None
        self._game_pid: Optional[int] = None  # the game's child, None when no game is live
        self._busy = False  # a request is out (an interrupted move): end the game by killing
        self._header = ""

    @property
    def host_pid(self) -> Optional[int]:
        """The host process's id while one runs (for tests and diagnostics)."""
        return self._host.pid if self._host is not None else None

    def _ensure_host(self) -> None:
        if self._host is not None and self._host.proc.poll() is None:
            return
        self._drop_host()
        self._host = spawn([sys.executable, "-I", "-S", so_host.__file__], env=self.env)
        proc = self._host.proc
        self._reader = PipeReader(self._host.stdout.fileno(), alive=lambda: proc.poll() is None)
        self._tail = StderrTail(self._host.stderr_fd, marker=so_host.OVER_TOKEN)

    def _drop_host(self) -> None:
        if self._host is not None:
            kill_tree(self._host)
            if self._tail is not None:  # None: the host's start was interrupted before it
                self._tail.join(timeout=1.0)
        self._host = self._reader = self._game_pid = None

    def _send(self, line: str) -> None:
        assert self._host is not None  # started by _ensure_host before any request
        try:
            self._host.stdin.write((line + "\n").encode())
        except OSError as e:
            raise HostDied(f"host stopped reading: {e}") from e

    def _read(self, deadline: float) -> str:
        assert self._reader is not None  # made with the host
        try:
            return self._reader.read_line(deadline, LINE_LIMIT).decode(errors="replace")
        except (PipeClosed, ValueError) as e:
            raise HostDied(f"host failed: {e}") from e

    def _game_over(self) -> str:
        """Read up to the host's ``over`` line for the current child; its description."""
        deadline = time.monotonic() + HOST_REPLY_TIMEOUT
        try:
            while True:
                line = self._read(deadline)
                if line.startswith("over "):
                    return self._ended(line)
        except PipeTimeout as e:
            raise HostDied("host did not report the game's end") from e

    def _ended(self, over_line: str) -> str:
        """The child is gone: kill what it forked, wait until its stderr is read, describe."""
        # only while a game is live (its child announced), the host and its tail running
        assert self._game_pid is not None and self._tail is not None
        kill_group(self._game_pid)
        self._game_pid = None
        self._tail.wait_mark(timeout=1.0)
        return _describe(over_line)

    def _kill_game(self) -> str:
        assert self._game_pid is not None  # only while a game is live
        kill_group(self._game_pid)
        return self._game_over()

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        self.end_game()
        self._header = f"{M} {N} {no_x} {no_y}"
        try:
            return self._load()
        except HostDied:  # it may have died between games: not the library's fault, retry once
            self._drop_host()
        try:
            return self._load()
        except HostDied as e:
            self._drop_host()
            return fault(FaultKind.LOAD_ERROR, str(e))

    def _load(self) -> Optional[MoveResult]:
        self._ensure_host()
        assert self._tail is not None  # made with the host
        self._tail.reset()
        self._busy = False
        self._send(f"game {self.path}")
        try:
            announced = self._read(time.monotonic() + HOST_REPLY_TIMEOUT)
            self._game_pid = int(announced.split()[1])
        except (PipeTimeout, IndexError, ValueError) as e:
            raise HostDied(f"host did not start a game: {e!r}") from e
        try:
            reply = self._read(time.monotonic() + self.load_timeout)
        except PipeTimeout:
            self._kill_game()
            return fault(FaultKind.LOAD_ERROR, f"loading took over {self.load_timeout:g} s")
        if reply == "ready":
            return None
        if reply.startswith("over "):
            return fault(FaultKind.LOAD_ERROR, f"{self._ended(reply)} while loading")
        self._game_over()
        kind = FaultKind.NO_ENTRY if reply.startswith("noentry ") else FaultKind.LOAD_ERROR
        return fault(kind, reply.partition(" ")[2] or reply)

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        if self._game_pid is None:
            return fault(FaultKind.CRASH, "no game is running")
        request = f"move {self._header} {last_x} {last_y} {' '.join(map(str, top))} " \
                  f"{' '.join(map(str, board))}"
        start = time.monotonic()
        self._busy = True
        try:
            self._send(request)
            reply = self._read(start + time_limit)
            self._busy = False
        except PipeTimeout:
            elapsed = time.monotonic() - start
            try:
                self._kill_game()
            except HostDied:
                self._drop_host()
            return fault(FaultKind.TIMEOUT, f"no reply within {time_limit:g} s", elapsed)
        except HostDied as e:
            self._drop_host()
            return fault(FaultKind.CRASH, str(e), time.monotonic() - start)
        elapsed = time.monotonic() - start
        if reply.startswith("point "):
            x, y = (int(t) for t in reply.split()[1:3])
            return MoveResult((x, y), elapsed, None)
        if reply == "null":
            return fault(FaultKind.CRASH, "getPoint returned NULL", elapsed)
        if reply.startswith("over "):
            return fault(FaultKind.CRASH, f"{self._ended(reply)} in getPoint/clearPoint", elapsed)
        self._drop_host()
        return fault(FaultKind.CRASH, f"host sent {reply[:80]!r}", elapsed)

    def end_game(self) -> None:
        if self._game_pid is None:
            return
        try:
            if self._busy:
                self._kill_game()
            else:
                self._send("end")
                self._game_over()
        except HostDied:
            self._drop_host()

    def stderr_tail(self) -> str:
        return self._tail.text() if self._tail else ""

    def close(self) -> None:
        self.end_game()
        self._drop_host()
