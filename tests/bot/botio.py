"""Test helpers for talking to the bot: frames, subprocesses, a reactive opponent."""

from __future__ import annotations

import io
import os
import select
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from plain_referee import PlainGame
from procs import children, cpu_seconds
from waits import wait_until

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0  # seconds a test waits for an event (a reply, a process gone) before it fails
BUSY = 0.05  # CPU seconds a process spends before it counts as searching


def read_frames(data: bytes) -> List[Tuple[int, int]]:
    """Split platform replies (4-byte big-endian length + ``x y``) into moves; exact bytes."""
    moves = []
    i = 0
    while i < len(data):
        assert i + 4 <= len(data), f"truncated length prefix at byte {i}"
        (n,) = struct.unpack(">I", data[i:i + 4])
        payload = data[i + 4:i + 4 + n]
        assert len(payload) == n, "truncated payload"
        x, y = payload.decode("ascii").split(" ")
        moves.append((int(x), int(y)))
        i += 4 + n
    return moves


def getpoint_request(game: PlainGame) -> str:
    """The getpoint protocol's three lines for the side to move in ``game``."""
    head = [game.M, game.N, game.no_x, game.no_y, *game.last()]
    return "\n".join(" ".join(map(str, v)) for v in (head, game.top, game.view())) + "\n"


def run_bot(args: List[str], stdin: bytes, cwd: Optional[Path] = None,
            entry: Optional[List[str]] = None, timeout: float = 60,
            env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    """Run ``python -m bot ARGS`` (or ``entry``) with the project importable from ``cwd``;
    ``env`` adds environment variables."""
    cmd = [sys.executable] + (entry or ["-m", "bot"]) + args
    env = dict(os.environ, PYTHONPATH=str(cwd or ROOT), **(env or {}))
    return subprocess.run(cmd, input=stdin, capture_output=True, cwd=cwd or ROOT, env=env,
                          timeout=timeout)


def searching(pid: int) -> Callable[[], bool]:
    """Whether ``pid`` has used BUSY CPU seconds since now."""
    start = cpu_seconds(pid)
    return lambda: cpu_seconds(pid) - start >= BUSY


class BotProcess:
    """``python -m bot ARGS`` kept running and spoken to request by request. Every read has a
    deadline (``timeout`` seconds), so a bot that hangs fails the test instead of stalling it.
    ``new_session``: the bot leads a session of its own (arena.children.reaper's
    ``in_session(pid)`` finds its processes)."""

    def __init__(self, args: List[str], timeout: float = WAIT, new_session: bool = False) -> None:
        self.timeout = timeout
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot"] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
            start_new_session=new_session)
        self.buffer = b""

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, text: str) -> None:
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def end_input(self) -> None:
        """Close its input (end of input), keeping its output to read."""
        self.proc.stdin.close()
        self.proc.stdin = None  # so that finish() and __exit__ leave it alone

    def _read_until(self, size: Callable[[bytes], Optional[int]]) -> bytes:
        """The first ``size(buffer)`` bytes of the output, once ``size`` knows how many."""
        deadline = time.monotonic() + self.timeout
        fd = self.proc.stdout.fileno()
        while size(self.buffer) is None or len(self.buffer) < size(self.buffer):
            left = deadline - time.monotonic()
            assert left > 0, f"no complete reply within {self.timeout} s: {self.buffer!r}"
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                assert chunk, f"the bot closed its output: {self.finish()}"
                self.buffer += chunk
        n = size(self.buffer)
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def read_frame(self) -> Tuple[int, int]:
        """One platform reply (length header, then ``x y``)."""
        def size(b: bytes) -> Optional[int]:
            return 4 + struct.unpack(">I", b[:4])[0] if len(b) >= 4 else None
        (move,) = read_frames(self._read_until(size))
        return move

    def read_line(self) -> str:
        """One getpoint reply line, without its newline."""
        def size(b: bytes) -> Optional[int]:
            return b.index(b"\n") + 1 if b"\n" in b else None
        return self._read_until(size).decode("ascii").rstrip("\n")

    def finish(self) -> Tuple[int, bytes, bytes]:
        """Close its input; (exit status, unread stdout, stderr) once it has exited."""
        try:
            out, err = self.proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return self.proc.returncode, self.buffer + out, err

    def __enter__(self) -> BotProcess:
        return self

    def pondering(self) -> int:
        """Wait until the bot (as it ships: a leaf worker, pondering on), its header sent,
        ponders the opening position; its worker's pid. A request sent after this arrives
        while the bot looks for it, so its clock starts then and it gets its whole time
        (bot.protocol.platform.request_start), however long a loaded machine took to start it."""
        pid = self.proc.pid
        assert wait_until(lambda: bool(children(pid))), "the bot forked no leaf worker"
        (worker,) = children(pid)
        # the main process has nothing left to do between the fork and the header but read it
        assert wait_until(searching(pid)), "the bot never pondered"
        return worker

    def __exit__(self, *exc: object) -> None:
        """Kill it if it still runs (a failed test) and close its pipes: a search for a
        counter-example runs thousands of bots, and must leak neither them nor descriptors."""
        self.proc.kill()
        self.proc.communicate()


class ReactiveOpponent(io.TextIOBase):
    """A stdin for platform.serve that answers the bot's last frame with ``choose(game)``.

    The first line is the header, then ``-1 -1`` when the bot opens; every later line is the
    opponent's move computed after reading the bot's reply from ``out``. End of input when
    the game is over. The bot's replies are checked for legality by the PlainGame.
    """

    def __init__(self, game: PlainGame, bot_first: bool, out: io.BytesIO,
                 choose: Callable[[PlainGame], Tuple[int, int]]) -> None:
        super().__init__()
        self.game, self.out, self.choose = game, out, choose
        self.lines = [f"{game.M} {game.N} {game.no_x} {game.no_y}\n"]
        self.seen = 0
        self.lines.append("-1 -1\n" if bot_first else self._opponent_move())

    def _opponent_move(self) -> str:
        """The opponent's line; an illegal choice is sent as is, a game-ending one ends input."""
        x, y = self.choose(self.game)
        if self.game.legal(x, y) and (self.game.play(x, y) or not self.game.legal_moves()):
            return ""
        return f"{x} {y}\n"

    def readline(self, size: int = -1) -> str:
        if self.lines:
            return self.lines.pop(0)
        moves = read_frames(self.out.getvalue())
        if len(moves) == self.seen:
            return ""
        assert len(moves) == self.seen + 1, "more than one reply to one request"
        self.seen += 1
        x, y = moves[-1]
        assert self.game.legal(x, y), f"illegal reply {(x, y)}"
        if self.game.play(x, y) or not self.game.legal_moves():
            return ""
        return self._opponent_move()
