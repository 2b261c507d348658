"""The watch page's state, read from the batch's own files so the numbers are stat.py's
(docs/web.md, "How it works"): a batch's score, Elo, SPRT and table, its games in progress;
and its routes, the state asked (`?batch=B`) or pushed."""

import asyncio
import json
import logging
import math
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Dict, List, Optional, Tuple

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse

from arena.batch.early_stop import STOP_NAME
from arena.core.live import mark_watching, read_live
from arena.report.results import CourseGame, course_game
from arena.report.stats import elo_estimate, pentanomial, sprt
from arena.web.asgi import PING_S, Changes, EventStream, route
from arena.web.games import BATCH as PLAY_BATCH
from records.log import LOG_NAME, LogFollower
from records.result import Seat
from records.tally import WDL, by_colour, by_pairing, pair_scores, wdl

LOG = logging.getLogger("arena.web")
RECENT = 12  # finished games listed on the page
WATCH_TICK_S = 0.5  # how often the folder is looked at while a watch page is open: twice a
# second follows a game at 3 s a move move by move and keeps the drawing off a busy batch's cores


@dataclass(frozen=True)
class RecentGame:
    """What the watch page keeps of a finished game: the course's line and how it ended."""

    game: CourseGame
    plies: int
    reason: str


def _number(value: float) -> Optional[float]:
    """JSON has no infinity or NaN: None stands for "unknown"."""
    return None if value is None or math.isnan(value) or math.isinf(value) else round(value, 3)


def _score(count: WDL) -> Dict[str, Any]:
    est = elo_estimate(count)
    return {"wins": count.wins, "draws": count.draws, "losses": count.losses,
            "games": count.games, "score": _number(count.score) if count.games else None,
            "elo": _number(est.elo) if est else None, "elo_low": _number(est.low) if est else None,
            "elo_high": _number(est.high) if est else None,
            "elo_sign": (1 if est.elo > 0 else -1) if est and math.isinf(est.elo) else 0}


def _sprt(games: List[CourseGame], bounds: Tuple[float, float]) -> Dict[str, Any]:
    res = sprt(pentanomial(pair_scores(games)), *bounds)
    # an infinite LLR (no loss and no draw yet, say) is None in JSON and its sign in llr_sign
    return {"elo0": bounds[0], "elo1": bounds[1], "llr": _number(res.llr),
            "llr_sign": (1 if res.llr > 0 else -1) if math.isinf(res.llr) else 0,
            "lower": round(res.lower, 3), "upper": round(res.upper, 3), "pairs": res.pairs,
            "verdict": res.verdict}


class FolderWatch:
    """Reads a results folder as a batch writes it; `snapshot()` is the page's state, and
    `changes()` the same pushed: while streams are open, `follow()` (one task) looks at the
    folder every WATCH_TICK_S, marking it watched, so the batch's workers write their games
    in progress (arena.core.live), and works out each asked batch's state once for them all."""

    def __init__(self, folder: Path, sprt_bounds: Tuple[float, float] = (0.0, 10.0)) -> None:
        self.folder = Path(folder)
        self.sprt_bounds = sprt_bounds
        self._games: List[RecentGame] = []
        self._follower = LogFollower(self.folder / LOG_NAME)
        # the finished games' part of the state, kept until a game finishes or the batch or its
        # bounds change: recounting thousands of games twice a second takes a core's tenth
        self._finished_key: Optional[Tuple[Any, ...]] = None
        self._finished_state: Dict[str, Any] = {}
        self._reads = 0  # log replacements seen: part of the finished state's key
        self._lock = threading.Lock()
        self.wanted: Counter[Optional[str]] = Counter()  # the batches open streams follow
        self.states: Dict[Optional[str], str] = {}  # their states at the last look, as JSON
        self.looks = Changes()  # bumped at each look

    def _bounds(self) -> Tuple[float, float]:
        try:
            stop = json.loads((self.folder / STOP_NAME).read_text(encoding="utf-8"))
            return float(stop["elo0"]), float(stop["elo1"])
        except (OSError, ValueError, KeyError, TypeError):
            return self.sprt_bounds

    def batches(self) -> List[str]:
        """The batches of the folder's log, latest-finished last, the play page's games apart."""
        order = {f.game.key.batch: i for i, f in enumerate(self._games)}
        return sorted((b for b in order if b != PLAY_BATCH), key=order.__getitem__)

    def _finished(self, batch: str, bounds: Tuple[float, float]) -> Dict[str, Any]:
        """The state's part that only finished games change: score, SPRT, table, the latest."""
        finished = [f for f in self._games if f.game.key.batch == batch]
        games = [f.game for f in finished]
        table = []
        for (a, b), gs in by_pairing(games).items():
            first, second = by_colour(gs)
            table.append({"a": a, "b": b, "total": _score(wdl(gs)),
                          Seat.FIRST.value: _score(first), Seat.SECOND.value: _score(second),
                          "sprt": _sprt(gs, bounds)})
        return {
            "a": sorted({g.key.a for g in games}), "total": _score(wdl(games)),
            "sprt": _sprt(games, bounds), "table": table,
            "recent": [{"key": f.game.key.to_dict(), "code": f.game.code, "plies": f.plies,
                        "reason": f.reason} for f in finished[-RECENT:][::-1]],
        }

    def snapshot(self, batch: Optional[str] = None) -> Dict[str, Any]:
        """The page's state for one batch (default: the latest with a game in progress, else
        the latest to finish a game)."""
        with self._lock:
            fresh, records = self._follower.read()  # all of them again after a rewrite
            if fresh:
                self._games = []
                self._reads += 1
            self._games.extend(RecentGame(course_game(r), len(r.moves), r.reason)
                               for r in records)
            live = [g for g in read_live(self.folder) if g.key.batch != PLAY_BATCH]
            names = self.batches()
            if batch is None:
                batch = (live[-1].key.batch if live else names[-1] if names else "")
            bounds = self._bounds()
            key = (batch, len(self._games), self._reads, bounds)
            if key != self._finished_key:
                self._finished_state = self._finished(batch, bounds)
                self._finished_key = key
            return {
                "batch": batch, "batches": names, **self._finished_state,
                "live": [{"worker": g.worker, "key": g.key.to_dict(), "board": g.board.to_list(),
                          "first": g.key.name(g.key.first),  # who opened, red
                          "time_limit": g.time_limit, "moves": [m[:2] for m in g.moves],
                          "times": [m[2] for m in g.moves]}
                         for g in live if g.key.batch == batch],
            }

    def _look(self, batches: List[Optional[str]]) -> Dict[Optional[str], str]:
        mark_watching(self.folder)
        return {b: json.dumps(self.snapshot(b), separators=(",", ":")) for b in batches}

    async def follow(self) -> None:
        """Look at the folder every WATCH_TICK_S while a stream is open (the lifespan's task)."""
        while True:
            await asyncio.sleep(WATCH_TICK_S)
            if self.wanted:
                try:
                    self.states = await run_in_threadpool(self._look, list(self.wanted))
                except Exception:  # the next look tries again
                    LOG.exception("the watch state could not be read")
                self.looks.bump()

    async def changes(self, batch: Optional[str]) -> AsyncIterator[Optional[str]]:
        """The batch's state whenever a look finds it changed."""
        self.wanted[batch] += 1
        try:
            sent, seen = "", self.looks.version
            while True:
                seen = await self.looks.wait(seen, PING_S)
                data = self.states.get(batch, sent)
                yield None if data == sent else data
                sent = data
        finally:
            self.wanted -= Counter([batch])  # one that no stream follows leaves it


routes = [
    route("/api/watch",
          lambda call: JSONResponse(call.state.watch.snapshot(call.query.get("batch")))),
    route("/api/watch/events",
          lambda call: EventStream(call, call.state.watch.changes(call.query.get("batch")))),
]
