"""Players asked about one position at a time through getPoint's contract (docs/suites.md,
"Running a suite"): a `.so` or a function as a game of one request, a process on the getpoint
line protocol (GetpointProcess) kept for every position; the platform protocol is refused."""

from typing import Sequence

from arena.batch.config import ConfigError
from arena.core.players import make_player
from arena.core.players.base import MoveResult, Player, fault
from arena.core.players.process import GetpointProcess
from arena.suite.item import SuiteItem
from arena.suite.position import reach
from records.codes import FaultKind
from records.move import Move
from records.player import PlayerKind, PlayerSpec


def speaks_getpoint(argv: Sequence[str]) -> bool:
    """Whether a command runs on the getpoint line protocol (``--protocol getpoint``)."""
    pairs = zip(argv, list(argv[1:]) + [""])
    return any(a == "--protocol=getpoint" or (a, b) == ("--protocol", "getpoint")
               for a, b in pairs)


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


def ask(player: Player, item: SuiteItem, time_limit: float) -> MoveResult:
    """The player's move at the item's position, handed to it as getPoint is: the board from
    its side, ``top``, the opponent's last move (-1 -1 on the empty board). A failure the arena
    did not foresee is the player's fault (a crash), never the end of the run."""
    board, grid = item.board, reach(item.board, item.moves)
    last = item.moves[-1] if item.moves else Move(-1, -1)
    try:
        failed = player.start_game(board.M, board.N, board.no_x, board.no_y)
        if failed is not None:
            return failed
        try:
            return player.move(list(grid.top), grid.view(item.to_move.stone), last.x, last.y,
                               time_limit)
        finally:
            player.end_game()
    except Exception as exc:  # noqa: BLE001 (any failure of a player's is its crash)
        return fault(FaultKind.CRASH, f"{type(exc).__name__}: {exc}"[:200])
