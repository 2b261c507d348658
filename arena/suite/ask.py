"""Players asked about one position at a time, through the course's getPoint contract: a course
`.so` and a Python function as the arena plays them (a game of one request), a process on the
bot's getpoint line protocol (docs/protocol.md, 2) here, one process for every position. A
process on the platform protocol is told only the opponent's moves, never a board, so it cannot
be asked about a position: it is refused in one line."""

import sys
import time
from dataclasses import dataclass
from typing import List, Mapping, Optional, Sequence

from arena.batch.config import ConfigError
from arena.children.pipe_reader import PipeClosed, PipeReader, PipeTimeout
from arena.children.reaper import Child, kill_tree, spawn
from arena.children.tail import StderrTail
from arena.core.players import make_player
from arena.core.players.base import MoveResult, Player, fault
from arena.core.players.process import parse_reply
from arena.suite.item import Item
from arena.suite.position import reach
from records.codes import FaultKind
from records.move import Move
from records.player import PlayerKind, PlayerSpec

REPLY_LIMIT = 64  # bytes; "x y" needs at most 5


def speaks_getpoint(argv: Sequence[str]) -> bool:
    """Whether a command runs on the getpoint line protocol (``--protocol getpoint``)."""
    pairs = zip(argv, list(argv[1:]) + [""])
    return any(a == "--protocol=getpoint" or (a, b) == ("--protocol", "getpoint")
               for a, b in pairs)


class GetpointProcess(Player):
    """A process on the getpoint line protocol: three lines a request (``M N noX noY lastX
    lastY``, top, board), ``x y`` back. Started on the first request and kept for the next
    ones (each request stands alone); killed after a timeout or a reply it cannot read, and
    started afresh for the next position."""

    def __init__(self, name: str, argv: Sequence[str], cwd: Optional[str] = None,
                 env: Optional[Mapping[str, str]] = None) -> None:
        self.name, self.cwd, self.env = name, cwd, dict(env or {})
        self.argv = [sys.executable if i == 0 and a == "python" else a
                     for i, a in enumerate(argv)]
        self._child: Optional[Child] = None
        self._reader: Optional[PipeReader] = None
        self._tail: Optional[StderrTail] = None
        self._head = ""

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        self._head = f"{M} {N} {no_x} {no_y}"
        if self._child is None:
            try:
                self._child = spawn(self.argv, self.cwd, self.env)
            except OSError as e:
                return fault(FaultKind.LOAD_ERROR, f"cannot start {self.argv[0]}: {e}")
            proc = self._child.proc
            self._reader = PipeReader(self._child.stdout.fileno(),
                                      alive=lambda: proc.poll() is None)
            self._tail = StderrTail(self._child.stderr_fd)
        return None

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        if self._child is None or self._reader is None:
            return fault(FaultKind.CRASH, "no position set")
        start = time.monotonic()
        request = (f"{self._head} {last_x} {last_y}\n{' '.join(map(str, top))}\n"
                   f"{' '.join(map(str, board))}\n")
        try:
            self._child.stdin.write(request.encode())
            line = self._reader.read_line(start + time_limit, REPLY_LIMIT)
        except PipeTimeout:
            return self._drop(FaultKind.TIMEOUT, f"no reply within {time_limit:g} s", start)
        except (OSError, PipeClosed, ValueError) as e:
            return self._drop(FaultKind.CRASH, f"{e or 'exited'} before replying", start)
        point = parse_reply(line)
        if point is None:
            return self._drop(FaultKind.CRASH, f"unreadable reply {line[:REPLY_LIMIT]!r}", start)
        return MoveResult(point, time.monotonic() - start, None)

    def _drop(self, kind: FaultKind, detail: str, start: float) -> MoveResult:
        """A fault; the process is killed, so the next position starts a fresh one."""
        elapsed = time.monotonic() - start
        self.close()
        return fault(kind, detail, elapsed)

    def end_game(self) -> None:
        """Nothing: the process answers the next position too."""

    def stderr_tail(self) -> str:
        return self._tail.text() if self._tail else ""

    def close(self) -> None:
        if self._child is not None:
            kill_tree(self._child)
            if self._tail is not None:
                self._tail.join(timeout=1.0)
        self._child = self._reader = None


def asker(name: str, spec: PlayerSpec) -> Player:
    """The player a spec makes, to be asked about positions; ConfigError (one line) for a
    process on the platform protocol."""
    if spec.kind is PlayerKind.PROCESS:
        if not speaks_getpoint(spec.argv):
            raise ConfigError(f"command line: {name}: a process on the platform protocol is "
                              "never shown a board, so it cannot be asked about a position; "
                              "run one on the getpoint protocol (bot=\"python -m bot "
                              "--protocol getpoint\"), a .so or module:function")
        return GetpointProcess(name, spec.argv, spec.cwd, spec.env)
    return make_player(name, spec)


@dataclass(frozen=True)
class Reply:
    """What a player answered at one position: its move or its fault, and the seconds taken."""

    move: Optional[Move]
    seconds: float
    fault: Optional[FaultKind] = None
    detail: str = ""


def ask(player: Player, item: Item, time_limit: float) -> Reply:
    """The player's move at the item's position, handed to it as getPoint is: the board from
    its side, ``top``, the opponent's last move (-1 -1 on the empty board)."""
    board = item.board
    grid = reach(board, item.moves)
    failed = player.start_game(board.M, board.N, board.no_x, board.no_y)
    if failed is not None:
        return Reply(None, failed.elapsed, failed.fault, failed.detail)
    last = item.moves[-1] if item.moves else Move(-1, -1)
    try:
        result = player.move(list(grid.top), grid.view(item.to_move.stone), last.x, last.y,
                             time_limit)
    finally:
        player.end_game()
    move = Move(*result.point) if result.point is not None else None
    return Reply(move, result.elapsed, result.fault, result.detail)
