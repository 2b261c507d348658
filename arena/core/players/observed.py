"""A player watched from outside (live files, the web app's games, the terminal): the referee
knows nothing of watching, so each watched player is wrapped. A wrapper owns nothing: whoever
made the inner player closes it."""

from typing import Callable, List, Optional

from arena.core.players.base import MoveResult, Player

Observer = Callable[[MoveResult, List[int]], None]


class Observed(Player):
    """Delegates to `inner`; after each of its answers calls `on_move(answer, board)`."""

    def __init__(self, inner: Player, on_move: Observer) -> None:
        self.inner, self.on_move = inner, on_move
        self.name, self.timed = inner.name, inner.timed

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        return self.inner.start_game(M, N, no_x, no_y)

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        res = self.inner.move(top, board, last_x, last_y, time_limit)
        self.on_move(res, board)
        return res

    def end_game(self) -> None:
        self.inner.end_game()

    def stderr_tail(self) -> str:
        return self.inner.stderr_tail()

    def close(self) -> None:
        """Nothing: the wrapped player is its maker's to close."""
