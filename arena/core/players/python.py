"""A trusted Python strategy called in-process, with getPoint's meaning (docs/arena.md, "The
three kinds"): a class is instantiated afresh each game; a slow call loses once it returns."""
import functools
import importlib
import inspect
import time
import traceback
from typing import Any, Callable, List, Mapping, Optional, Union

from arena.children.tail import STDERR_TAIL_BYTES
from arena.core.players.base import MoveResult, Player, fault
from records.codes import FaultKind

Strategy = Callable[..., Any]


def resolve(target: str) -> Any:
    """The object named by ``"package.module:attribute"``."""
    module_name, sep, attr = target.partition(":")
    if not sep or not attr:
        raise ValueError(f"python player {target!r} is not 'module:callable'")
    obj: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def _as_point(value: Any) -> Optional[tuple]:
    try:
        x, y = value
        if isinstance(x, bool) or isinstance(y, bool) or int(x) != x or int(y) != y:
            return None
        return int(x), int(y)
    except (TypeError, ValueError):
        return None


class PythonPlayer(Player):
    """Calls ``target`` (a ``"module:callable"`` name or the callable itself) for each move."""

    def __init__(self, name: str, target: Union[str, Strategy],
                 args: Optional[Mapping[str, Any]] = None) -> None:
        self.name, self.target, self.args = name, target, dict(args or {})
        self._strategy: Optional[Strategy] = None
        self._game = (0, 0, 0, 0)
        self._stderr = ""

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        self._game, self._stderr, self._strategy = (M, N, no_x, no_y), "", None
        try:
            obj = resolve(self.target) if isinstance(self.target, str) else self.target
        except (ImportError, AttributeError, ValueError) as e:
            return fault(FaultKind.LOAD_ERROR, f"{type(e).__name__}: {e}")
        if not callable(obj):
            return fault(FaultKind.NO_ENTRY, f"{self.target!r} is not callable")
        try:
            if inspect.isclass(obj):
                strategy: object = obj(**self.args)
            else:
                strategy = functools.partial(obj, **self.args) if self.args else obj
        except Exception as e:
            self._keep_traceback()
            return fault(FaultKind.LOAD_ERROR, f"{type(e).__name__}: {e}")
        if not callable(strategy):
            return fault(FaultKind.NO_ENTRY, f"an instance of {obj.__name__} is not callable")
        self._strategy = strategy
        return None

    def _keep_traceback(self) -> None:
        self._stderr = (self._stderr + traceback.format_exc())[-STDERR_TAIL_BYTES:]

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        if self._strategy is None:
            return fault(FaultKind.CRASH, "no game started")
        M, N, no_x, no_y = self._game
        start = time.monotonic()
        try:
            value = self._strategy(M, N, list(top), list(board), last_x, last_y, no_x, no_y)
        except Exception as e:
            self._keep_traceback()
            return fault(FaultKind.CRASH, f"{type(e).__name__}: {e}", time.monotonic() - start)
        elapsed = time.monotonic() - start
        if elapsed > time_limit:
            return fault(FaultKind.TIMEOUT, f"answered after {elapsed:.3f} s", elapsed)
        point = _as_point(value)
        if point is None:
            return fault(FaultKind.CRASH, f"returned {value!r:.80}, not (x, y)", elapsed)
        return MoveResult(point, elapsed, None)

    def end_game(self) -> None:
        self._strategy = None

    def stderr_tail(self) -> str:
        return self._stderr
