""""Analyse this game": `python -m arena analyse` (docs/analyse.md) on one played game, in a
child process, since the arena never imports the bot's solver; one at a time per game, its
child killed if it outlives `TIMEOUT_S` or the server.
"""

import subprocess
import sys
import threading
from pathlib import Path
from typing import Dict

from arena.web.jobs import JobState
from records.game import GameRecord
from records.log import write_log

ANALYSED_DIR = "analysed"  # inside the served folder: analysed/<game id>.jsonl
SECONDS = 1.0  # the analysis's budget per searched position
TIMEOUT_S = 300.0
ROOT = Path(__file__).resolve().parents[2]


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
        out = self.folder / ANALYSED_DIR / f"{game_id}.jsonl"
        given = out.with_suffix(".game.jsonl")
        write_log(given, [record])
        try:
            done = subprocess.run(
                [sys.executable, "-m", "arena", "analyse", str(given), "-o", str(out),
                 "--seconds", str(SECONDS)], cwd=ROOT, capture_output=True, text=True,
                timeout=TIMEOUT_S)
            lines = (done.stderr.strip() or "no output").splitlines()
            status = (JobState.READY.value if done.returncode == 0
                      else JobState.FAILED.saying(lines[-1]))
        except subprocess.TimeoutExpired:
            status = JobState.FAILED.saying(f"the analysis took over {TIMEOUT_S:g} s")
        finally:
            given.unlink(missing_ok=True)
        with self._lock:
            self.status[game_id] = status
