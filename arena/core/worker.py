"""The one game worker: keeps its players between games and plays a batch's tasks into records.

A local `-j` process (`arena.batch.pool`) and each thread of a Dask worker (`arena.cluster.worker`)
run one `GameWorker` each: players are made from their specs on first use and kept for the
rest of the batch (a `.so` host stays loaded, a process bot is started once per game by its
own player), and `close()` ends them all. While a page watches the batch, the game's two
players are wrapped so that each answer goes to the worker's `MoveSink` (`arena.core.live`): a live
file here, Dask events on a cluster.
"""

from typing import Callable, Dict, Optional

from arena.core.live import MoveSink
from arena.core.players import make_player
from arena.core.players.base import MoveResult, Player
from arena.core.players.observed import Observed
from arena.core.tasks import Task, play_task
from records.game import GameRecord
from records.player import PlayerSpec

PlayerMaker = Callable[[str, PlayerSpec], Player]


class GameWorker:
    """Plays tasks between the players of `specs` (by name); `sink` sees watched games."""

    def __init__(self, specs: Dict[str, PlayerSpec], sink: Optional[MoveSink] = None,
                 make: PlayerMaker = make_player) -> None:
        self.specs, self.sink, self.make = specs, sink, make
        self.players: Dict[str, Player] = {}

    def player(self, name: str) -> Player:
        """The player `name`, made on first use and kept."""
        if name not in self.players:
            self.players[name] = self.make(name, self.specs[name])
        return self.players[name]

    def play(self, task: Task) -> GameRecord:
        """Play one game; its moves go to the sink while a page watches."""
        players = {name: self.player(name) for name in (task.key.a, task.key.b)}
        sink = self.sink
        if sink is None or not sink.watched():
            return play_task(players, task)
        sink.start(task)
        try:
            return play_task({name: Observed(p, _answer_to(sink)) for name, p in players.items()},
                             task)
        finally:
            sink.end()

    def close(self) -> None:
        """End every player this worker made (their processes are killed)."""
        players, self.players = self.players, {}
        for player in players.values():
            player.close()


def _answer_to(sink: MoveSink) -> Callable[[MoveResult, object], None]:
    return lambda res, _view: sink.move(res)
