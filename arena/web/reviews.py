"""The game reviews the server runs: one job per finished game, queued for an engine.

A review (arena/engine/review.py) needs an engine for the whole game, so each one is a thread that
waits for a place in the server's `EnginePool` (at most one engine a core, shared with the
analysis board), then evaluates the game's positions one by one; the page polls its state
(queued, running with positions done of total, ready, failed) and draws the review once it is
kept beside the log. A game reviewed before at the server's budget is ready at once.
"""

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional

from arena.engine.client import EngineError, EnginePool
from arena.engine.position import PositionError
from arena.engine.review import Budget, Review, load_review, review_game, save_review, searched
from arena.web.jobs import JobState
from records.game import GameKey, GameRecord

LOG = logging.getLogger("arena.web")
BUDGET = Budget()  # the server's: arena.engine.review.DEFAULT_SECONDS a position


@dataclass
class Job:
    """One game's review as the page sees it."""

    state: JobState
    done: int = 0  # positions evaluated
    total: int = 0
    message: str = ""  # why it failed
    review: Optional[Review] = None
    record: Optional[GameRecord] = None  # the game, for the page's polls (never sent as such)

    def to_dict(self) -> Dict[str, Any]:
        return {"state": self.state.value, "done": self.done, "total": self.total,
                "message": self.message,
                "review": None if self.review is None else self.review.to_dict()}


def game_view(record: GameRecord) -> Dict[str, Any]:
    """What the review page draws of the game itself."""
    first = record.first
    winner = record.result.winner
    return {"key": record.key.to_dict(), "board": record.board.to_list(),
            "moves": record.moves, "names": [record.name(first), record.name(first.other)],
            "result": "a tie" if winner is None else f"{record.name(winner)} won",
            "reason": record.reason, "win_line": record.win_line or [],
            "over": record.fault is None}


class Reviews:
    """The reviews of the served folder's games, by key, at one budget."""

    def __init__(self, folder: Path, pool: EnginePool, budget: Budget = BUDGET) -> None:
        self.folder, self.pool, self.budget = folder, pool, budget
        self._jobs: Dict[GameKey, Job] = {}
        self._lock = threading.Lock()

    def current(self, key: GameKey) -> Optional[Job]:
        """The game's job in this server (queued, running, ready or failed), with its record;
        None when none was asked for here."""
        with self._lock:
            return self._jobs.get(key)

    def job(self, key: GameKey) -> Job:
        """The game's review: kept, in progress, or "none" (not asked for yet)."""
        job = self.current(key)
        if job is not None:
            return job
        kept = load_review(self.folder, key, self.budget)
        return Job(JobState.READY, review=kept) if kept else Job(JobState.NONE)

    def start(self, record: GameRecord) -> Job:
        """Queue the game's review unless it is kept, queued or running (a failed one is
        tried again); its job."""
        kept = self.job(record.key)
        if kept.state is JobState.READY:
            return kept
        with self._lock:  # looked at again: two pages may ask at once
            job = self._jobs.get(record.key)
            if job is None or job.state is JobState.FAILED:
                job = self._jobs[record.key] = Job(JobState.QUEUED, total=searched(record),
                                                  record=record)
                threading.Thread(target=self._run, args=(record, job), daemon=True,
                                 name="review").start()
            return job

    def _run(self, record: GameRecord, job: Job) -> None:
        def progress(done: int, total: int) -> None:
            job.done = done

        try:
            # waits for its turn in the pool's line; PoolClosed when the server stops
            engine = self.pool.acquire(ticket=(record.key, "review"), label="a review")
            try:
                job.state = JobState.RUNNING
                review = review_game(record, engine, self.budget, progress)
            finally:
                self.pool.release(engine)
            save_review(self.folder, review)
            job.review, job.state = review, JobState.READY
        except (EngineError, PositionError, OSError) as exc:
            LOG.warning("review of %s failed: %s", record.key, exc)
            job.message, job.state = str(exc), JobState.FAILED
        except Exception as exc:  # a bug: the page says so instead of waiting for ever
            LOG.exception("review of %s", record.key)
            job.message, job.state = (f"server error: {type(exc).__name__}: {exc}",
                                      JobState.FAILED)
