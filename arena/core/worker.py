"""The one game worker, of each local `-j` process and each Dask worker thread."""

from typing import Callable, Dict, Optional

from arena.core.live import MoveSink
from arena.core.players import make_player
from arena.core.players.base import Player
from arena.core.players.observed import Observed
from arena.core.tasks import Task, play_task
from records.game import GameRecord
from records.player import PlayerSpec


class GameWorker:
    """Plays tasks between the players of `specs` (by name), each made on first use and kept
    for the batch (a `.so` host stays loaded); `sink` (`arena.core.live`) sees watched games."""

    def __init__(self, specs: Dict[str, PlayerSpec], sink: Optional[MoveSink] = None,
                 make: Callable[[str, PlayerSpec], Player] = make_player) -> None:
        self.specs, self.sink, self.make = specs, sink, make
        self.players: Dict[str, Player] = {}

    def player(self, name: str) -> Player:
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
            observed = {name: Observed(p, lambda res, _view: sink.move(res))
                        for name, p in players.items()}
            return play_task(observed, task)
        finally:
            sink.end()

    def close(self) -> None:
        """End every player this worker made (their processes are killed)."""
        players, self.players = self.players, {}
        for player in players.values():
            player.close()
