""""Analyse this game": `python -m arena analyse` (docs/analyse.md) on one played game, in a
child process (arena.engine.client.analyse_in_child); one at a time per game.
"""

import threading
from pathlib import Path
from typing import Dict

from arena.engine.client import analyse_in_child
from arena.web.jobs import JobState
from records.game import GameRecord

ANALYSED_DIR = "analysed"  # inside the served folder: analysed/<game id>.jsonl


class Analyses:
    """The analyses the server started, by game id: the word of a ``JobState`` (running,
    ready, or failed with why), as the play page reads it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.status: Dict[str, str] = {}
        self._lock = threading.Lock()

    def start(self, game_id: str, record: GameRecord) -> str:
        """Start analysing a finished game unless it is analysed or being analysed; its status."""
        with self._lock:
            if JobState.of(self.status.get(game_id, JobState.FAILED)) is JobState.FAILED:
                self.status[game_id] = JobState.RUNNING.value
                threading.Thread(target=self._run, args=(game_id, record), daemon=True).start()
            return self.status[game_id]

    def _run(self, game_id: str, record: GameRecord) -> None:
        why = analyse_in_child(record, self.folder / ANALYSED_DIR / f"{game_id}.jsonl")
        with self._lock:
            self.status[game_id] = (JobState.READY.value if why is None
                                    else JobState.FAILED.saying(why))
