"""The game reviews the server runs (docs/web.md, "Game review"): one job a game and budget, a
thread queued for an engine of the pool shared with the analysis board; and the routes."""

import logging
import threading
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Tuple

from starlette.responses import JSONResponse, Response

from arena.engine.client import EngineError, EnginePool
from arena.engine.limit import Limit
from arena.engine.position import PositionError
from arena.engine.review import (
    BUDGET,
    SECONDS_CHOICES,
    Review,
    load_review,
    review_game,
    save_review,
    searched,
)
from arena.web.analysis_board import waiting
from arena.web.asgi import BadRequest, Call, route
from arena.web.jobs import JobState
from arena.web.replay import finished, game_key
from records.game import GameKey, GameRecord

LOG = logging.getLogger("arena.web")


@dataclass(eq=False)  # hashed by identity: its own ticket in the pool's line
class ReviewJob:
    """One game's review as the page sees it."""

    state: JobState
    done: int = 0  # positions evaluated
    total: int = 0
    message: str = ""  # why it failed, or what it does or waits for
    review: Optional[Review] = None
    record: Optional[GameRecord] = None  # the game, for the page's polls (never sent as such)


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
    """The reviews of the served folder's games, by key and budget: the server's (``budget``)
    or one of the page's choices (``SECONDS_CHOICES``)."""

    def __init__(self, folder: Path, pool: EnginePool, budget: Limit = BUDGET) -> None:
        self.folder, self.pool, self.budget = folder, pool, budget
        self._jobs: Dict[Tuple[GameKey, Limit], ReviewJob] = {}
        self._lock = threading.Lock()

    def budget_of(self, query: Mapping[str, str]) -> Limit:
        """The budget a page's query asks for (``seconds``; none: the server's); BadRequest,
        in one line, for another."""
        text = query.get("seconds")
        if text is None:
            return self.budget
        with suppress(ValueError):
            if float(text) in SECONDS_CHOICES:
                return Limit(float(text))
        raise BadRequest(f"seconds: one of {', '.join(f'{s:g}' for s in SECONDS_CHOICES)}"
                         f", got {text!r}")

    def choices(self) -> Dict[str, Any]:
        """What the page offers: the server's budget and the seconds a page may choose."""
        return {"default": self.budget.engine_budget(),
                "seconds": list(SECONDS_CHOICES)}

    def job(self, key: GameKey, budget: Limit) -> ReviewJob:
        """The game's review at ``budget``: in this server (with its record), kept, or "none"
        (not asked for)."""
        with self._lock:
            job = self._jobs.get((key, budget))
        if job is not None:
            return job
        kept = load_review(self.folder, key, budget)
        return ReviewJob(JobState.READY, review=kept) if kept else ReviewJob(JobState.NONE)

    def view(self, job: ReviewJob) -> Dict[str, Any]:
        """The job as the page reads it; a queued one says what it waits for."""
        queued = job.state is JobState.QUEUED
        return {"state": job.state.value, "done": job.done, "total": job.total,
                "message": waiting(self.pool, job) if queued else job.message,
                "review": None if job.review is None else job.review.to_dict()}

    def start(self, record: GameRecord, budget: Limit) -> ReviewJob:
        """Queue the game's review at ``budget`` unless it is kept, queued or running (a failed
        one is tried again); its job."""
        kept = self.job(record.key, budget)
        if kept.state is JobState.READY:
            return kept
        with self._lock:  # looked at again: two pages may ask at once
            job = self._jobs.get((record.key, budget))
            if job is None or job.state is JobState.FAILED:
                job = self._jobs[(record.key, budget)] = ReviewJob(
                    JobState.QUEUED, total=searched(record), record=record)
                threading.Thread(target=self._run, args=(record, budget, job), daemon=True,
                                 name="review").start()
            return job

    def _run(self, record: GameRecord, budget: Limit, job: ReviewJob) -> None:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        def say(text: str) -> None:
            job.message = text

        try:
            # waits for its turn in the pool's line; PoolClosed when the server stops
            engine = self.pool.acquire(ticket=job, label="a review")
            try:
                job.state = JobState.RUNNING
                review = review_game(record, engine, budget, progress, say)
            finally:
                self.pool.release(engine)
            save_review(self.folder, review)
            job.review, job.message, job.state = review, "", JobState.READY
        except (EngineError, PositionError, OSError) as exc:
            LOG.warning("review of %s failed: %s", record.key, exc)
            job.message, job.state = str(exc), JobState.FAILED
        except Exception as exc:  # a bug: the page says so instead of waiting for ever
            LOG.exception("review of %s", record.key)
            job.message, job.state = (f"server error: {type(exc).__name__}: {exc}",
                                      JobState.FAILED)


def review_answer(call: Call, start: bool) -> Response:
    """A finished game and its review's state at the query's budget (the review once it is
    ready), the review queued first when ``start``. A job keeps its game, so the page's polls
    (twice a second) never read the log."""
    reviews = call.state.reviews
    key, budget = game_key(call.query), reviews.budget_of(call.query)
    job = reviews.job(key, budget)
    record = job.record or finished(call.state.folder, key)[1]
    if start:
        job = reviews.start(record, budget)
    return JSONResponse({"game": game_view(record), "budgets": reviews.choices(),
                         **reviews.view(job)}, 202 if start else 200)


routes = [route("/api/review", lambda call: review_answer(call, False)),
          route("/api/review", lambda call: review_answer(call, True), "POST")]
