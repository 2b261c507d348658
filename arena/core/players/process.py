"""Players run as processes (docs/arena.md, "The three kinds"): one a game on the platform's
protocol (RULES.md), or one kept between positions on the bot's getpoint line protocol
(GetpointProcess). A leading ``python`` is the arena's own interpreter, whatever PATH finds."""
import re
import struct
import subprocess
import sys
import time
from typing import List, Mapping, Optional, Sequence

from arena.children.pipe_reader import PipeClosed, PipeReader, PipeTimeout
from arena.children.reaper import Child, kill_tree, spawn
from arena.children.tail import StderrTail
from arena.core.players.base import MoveResult, Player, fault
from records.codes import FaultKind

MAX_REPLY = 64  # bytes; "x y" needs at most 5, so a longer frame is a bug, not a reply
_REPLY = re.compile(rb"\s*(-?\d+)\s+(-?\d+)\s*")


def parse_reply(payload: bytes) -> Optional[tuple]:
    """``(x, y)`` from the frame's text, or None when it is not two integers."""
    m = _REPLY.fullmatch(payload)
    return (int(m.group(1)), int(m.group(2))) if m else None


class ProcessPlayer(Player):
    """One process per game, started from ``argv`` (optionally in ``cwd`` with extra ``env``)."""

    def __init__(self, name: str, argv: Sequence[str], cwd: Optional[str] = None,
                 env: Optional[Mapping[str, str]] = None) -> None:
        self.name, self.cwd, self.env = name, cwd, dict(env or {})
        self.argv = list(argv)
        if self.argv[:1] == ["python"]:
            self.argv[0] = sys.executable
        self._child: Optional[Child] = None
        self._reader: Optional[PipeReader] = None
        self._tail: Optional[StderrTail] = None
        self._last_tail = ""
        self._started_at = 0.0
        self._moves = 0

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        self.end_game()
        self._started_at = time.monotonic()
        self._moves = 0
        failed = self._spawn()
        if failed is None:
            self._send(f"{M} {N} {no_x} {no_y}\n")  # a dead process shows at its first move
        return failed

    def _spawn(self) -> Optional[MoveResult]:
        """Starts the process, its output read against deadlines; a fault if it cannot start."""
        try:
            self._child = spawn(self.argv, self.cwd, self.env)
        except OSError as e:
            return fault(FaultKind.LOAD_ERROR, f"cannot start {self.argv[0]}: {e}")
        proc = self._child.proc
        self._reader = PipeReader(self._child.stdout.fileno(), alive=lambda: proc.poll() is None)
        self._tail = StderrTail(self._child.stderr_fd)
        return None

    def _send(self, line: str) -> bool:
        assert self._child is not None  # only in a game: after start_game's spawn
        try:
            self._child.stdin.write(line.encode())
            return True
        except OSError:
            return False

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        if self._child is None:
            return fault(FaultKind.CRASH, "no game started")
        opens = self._moves == 0 and last_x == -1
        self._moves += 1
        start = self._started_at if opens else time.monotonic()
        deadline = start + time_limit
        if not self._send(f"{last_x} {last_y}\n"):
            return self._crash(start, "exited before reading its move request")
        assert self._reader is not None  # made with the child
        try:
            (length,) = struct.unpack(">I", self._reader.read_exact(4, deadline))
            if not 0 < length <= MAX_REPLY:
                return self._crash(start, f"reply length header {length} (not a 'x y' frame)")
            payload = self._reader.read_exact(length, deadline)
        except PipeTimeout:
            return fault(FaultKind.TIMEOUT, f"no complete reply within {time_limit:g} s",
                         time.monotonic() - start)
        except PipeClosed as e:
            return self._crash(start, f"{e} before replying{self._exit_status()}")
        elapsed = time.monotonic() - start
        point = parse_reply(payload)
        if point is None:
            return fault(FaultKind.CRASH, f"unreadable reply {payload[:MAX_REPLY]!r}", elapsed)
        return MoveResult(point, elapsed, None)

    def _crash(self, start: float, detail: str) -> MoveResult:
        return fault(FaultKind.CRASH, detail, time.monotonic() - start)

    def _exit_status(self) -> str:
        """How the process ended, waiting briefly: its output closes just before it exits."""
        assert self._child is not None  # asked by move, in a game
        try:
            code = self._child.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return ""
        return f" (killed by signal {-code})" if code < 0 else f" (exit status {code})"

    def end_game(self) -> None:
        # read once: a suite's Ctrl-C closes a player from the main thread while the thread
        # that asked it may be ending the same game
        child, tail = self._child, self._tail
        if child is None:
            return
        kill_tree(child)
        if tail is not None:  # None: start_game was interrupted before its reader ran
            tail.join(timeout=1.0)
            self._last_tail = tail.text()
        self._child = self._reader = self._tail = None

    def stderr_tail(self) -> str:
        return self._tail.text() if self._tail else self._last_tail


class GetpointProcess(ProcessPlayer):
    """A process on the bot's getpoint line protocol (docs/protocol.md, 2): three lines a
    position, ``x y`` back. Kept for the next positions (each request stands alone); after a
    timeout or an unreadable reply killed, and started afresh for the next position."""

    _head = ""

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        self._head = f"{M} {N} {no_x} {no_y}"
        return self._spawn() if self._child is None else None

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        if self._child is None or self._reader is None:
            return fault(FaultKind.CRASH, "no position set")
        start = time.monotonic()
        request = (f"{self._head} {last_x} {last_y}\n{' '.join(map(str, top))}\n"
                   f"{' '.join(map(str, board))}\n")
        try:
            self._child.stdin.write(request.encode())
            line = self._reader.read_line(start + time_limit, MAX_REPLY)
        except PipeTimeout:
            return self._drop(FaultKind.TIMEOUT, f"no reply within {time_limit:g} s", start)
        except (OSError, PipeClosed, ValueError) as e:
            return self._drop(FaultKind.CRASH, f"{e or 'exited'} before replying", start)
        point = parse_reply(line)
        if point is None:
            return self._drop(FaultKind.CRASH, f"unreadable reply {line[:MAX_REPLY]!r}", start)
        return MoveResult(point, time.monotonic() - start, None)

    def _drop(self, kind: FaultKind, detail: str, start: float) -> MoveResult:
        """A fault; the process is killed, so the next position starts a fresh one."""
        self.close()
        return fault(kind, detail, time.monotonic() - start)

    def end_game(self) -> None:
        """Nothing: the process answers the next position too."""

    def close(self) -> None:
        ProcessPlayer.end_game(self)
