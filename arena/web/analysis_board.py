"""The analysis board's sessions: one engine process per open page, fed its positions.

A page opens its event stream (`/api/analysis/events`); the stream is its session: it takes
an engine from the pool (arena/engine/client.py: at most one a core; a page over the cap is told
that it waits, and starts when a place frees), pushes the session's id, then every line the
engine writes about the page's current position. The page posts positions
(`/api/analysis/ID`, checked by arena/engine/position.py: a set-up no game reaches is a 400 and
changes nothing) and stops (`/api/analysis/ID/stop`). A new position reuses the page's
engine, which keeps its tree where the position follows from the last. When the stream
ends (the tab closed: a write fails within a second or two) the engine is killed.
"""

import json
import re
import secrets
import threading
from typing import Any, Dict, Optional, Tuple

from arena.engine.client import AnalysisStream, Engine, EngineError, EnginePool, PoolClosed
from arena.engine.position import GameOver, PositionError, Setup, from_moves, from_rows
from arena.web.games import BadRequest, NotFound, board_of, number
from records.game import GameRecord
from records.move import Move

WAIT_S = 0.5  # how long one look for a free engine or a new line blocks a stream
MAX_SECONDS = 3600.0
MAX_PLAYOUTS = 500_000  # the engine's own cap without a budget (docs/protocol.md, 4)
MAX_TAG = 2**53 - 1  # the page's request numbers: JavaScript's whole numbers
KEYS = {"board", "moves", "cells", "seconds", "playouts", "tag"}
Request = Tuple[Setup, Optional[float], Optional[int]]  # a position and its budget


def parse_position(body: Any) -> Tuple[Setup, Optional[float], Optional[int], int]:
    """The position, budget and tag a request's JSON body asks for; BadRequest naming the
    first mistake. Body: {"board": [M, N, no_x, no_y], then "moves": [[x, y], ...] or
    "cells": M strings of N of X, O and . (a set-up); "seconds", "playouts" (optional
    budget), "tag" (a number the page's updates carry back)}."""
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = sorted(set(body) - KEYS)
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}")
    board = board_of(body.get("board"))
    if ("moves" in body) == ("cells" in body):
        raise BadRequest("give the position as exactly one of moves or cells")
    try:
        setup = (from_moves(board, body["moves"]) if "moves" in body
                 else from_rows(board, body["cells"]))
    except PositionError as exc:
        raise BadRequest(str(exc)) from None
    seconds = (None if body.get("seconds") is None
               else number(body, "seconds", float, 0, MAX_SECONDS, above=True))
    playouts = (None if body.get("playouts") is None
                else number(body, "playouts", int, 1, MAX_PLAYOUTS))
    tag = number(body, "tag", int, 0, MAX_TAG) if "tag" in body else 0
    return setup, seconds, playouts, tag


def parse_paste(body: Any) -> Dict[str, Any]:
    """The position a pasted text names: a record line of games.jsonl (its board and moves),
    a JSON list of [x, y], or whole numbers read in pairs (``8.4,7.4``, ``8 4 7 4``) on the
    body's ``board``. A finished game opens before its last move. BadRequest otherwise."""
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise BadRequest('the body must be {"text": TEXT, "board": [M, N, no_x, no_y]}')
    text = body["text"].strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        try:
            record = GameRecord.from_dict(data)
            board, moves = board_of(record.board.to_list()), list(record.moves)
        except (TypeError, ValueError) as exc:
            raise BadRequest(f"not a record line of games.jsonl: {exc}") from None
    else:
        board = board_of(body.get("board"))
        words = re.findall(r"-?\d+(?:\.-?\d+)?", text)
        if isinstance(data, list):
            moves = data
        elif words and all("." in w for w in words):  # x.y each
            moves = [Move.from_text(w).to_list() for w in words]
        else:
            numbers = [int(n) for n in re.findall(r"-?\d+", text)]
            if len(numbers) % 2:
                raise BadRequest(f"{len(numbers)} numbers: a move list has two a move (x y)")
            moves = [Move(*numbers[i:i + 2]).to_list() for i in range(0, len(numbers), 2)]
    note = ""
    try:
        from_moves(board, moves)
    except GameOver as exc:
        note = f"{exc}: shown before the last move"
        moves = moves[:-1]
    except PositionError as exc:
        raise BadRequest(str(exc)) from None
    return {"board": board.to_list(), "moves": [list(m) for m in moves], "note": note}


class Session:
    """One page's analysis: its engine (once the pool gives one) and its current request."""

    def __init__(self, boards: "AnalysisBoards") -> None:
        self.id = secrets.token_hex(6)
        self.boards = boards
        self.engine: Optional[Engine] = None
        self.analysis: Optional[AnalysisStream] = None
        self.tag = 0
        # the position and budget asked, until the engine has it (a new engine: again)
        self.pending: Optional[Request] = None
        self.asked: Optional[Request] = None
        self.lock = threading.Lock()
        self.changed = threading.Event()  # a new request: the stream looks at it at once
        self.announced = False  # the session's id went out
        self.waited = False  # the page was told that it waits for an engine

    def request(self, setup: Setup, seconds: Optional[float], playouts: Optional[int],
                tag: int) -> None:
        """Analyse ``setup`` now, or as soon as the pool gives this page an engine."""
        with self.lock:
            self.tag = tag
            if self.engine is None:
                self.pending = (setup, seconds, playouts)
            else:
                self._start(setup, seconds, playouts)
        self.changed.set()

    def _start(self, setup: Setup, seconds: Optional[float], playouts: Optional[int]) -> None:
        self.asked = (setup, seconds, playouts)
        assert self.engine is not None  # started only where the session holds its engine
        try:
            self.analysis = self.engine.analyse(setup, seconds, playouts)
        except EngineError:  # the engine is gone: the stream takes a new one
            self.analysis = None
            self.pending = self.asked

    def stop(self) -> None:
        with self.lock:
            self.pending = None
            if self.engine is not None and self.analysis is not None and not self.analysis.done:
                try:
                    self.engine.stop()
                except EngineError:
                    pass

    def next_event(self) -> Optional[str]:
        """The page's next event (None: nothing new within about WAIT_S seconds)."""
        if not self.announced:
            self.announced = True
            return _event("session", id=self.id, cap=self.boards.pool.cap)
        if self.engine is None or not self.engine.alive:
            return self._take_engine()
        analysis = self.analysis
        if analysis is None or analysis.done:
            self.changed.wait(WAIT_S)
            self.changed.clear()
            return None
        try:
            line = analysis.get(timeout=WAIT_S)
        except EngineError as exc:  # the engine died: a new one takes the position again
            with self.lock:
                self.pending = self.asked
            return _event("error", message=str(exc), tag=self.tag)
        if line is None or analysis is not self.analysis:
            return None  # a request replaced it: its last lines are no one's
        return json.dumps({"kind": "update", "tag": self.tag, **line}, separators=(",", ":"))

    def _take_engine(self) -> Optional[str]:
        with self.lock:
            if self.engine is not None:  # dead: a fresh one takes over what it analysed
                self.boards.pool.release(self.engine)
                self.engine = None
                if self.analysis is not None and not self.analysis.done:
                    self.pending = self.asked
                self.analysis = None
        try:
            engine = self.boards.pool.acquire(timeout=WAIT_S)
        except PoolClosed:  # the server stops: the stream ends
            return None
        if engine is None:
            if self.waited:
                return None
            self.waited = True
            cap = self.boards.pool.cap
            return _event("waiting", message=f"waiting for an engine: {cap} page"
                          f"{'s' if cap > 1 else ''} analyse already (one engine a core); "
                          f"this one starts when one of them closes")
        with self.lock:
            self.engine, self.waited = engine, False
            if self.pending is not None:
                self._start(*self.pending)
                self.pending = None
        return _event("ready")

    def close(self) -> None:
        """The page is gone: kill its engine and free its place."""
        with self.lock:
            engine, self.engine, self.analysis = self.engine, None, None
        if engine is not None:
            self.boards.pool.release(engine)


def _event(kind: str, **fields: Any) -> str:
    return json.dumps({"kind": kind, **fields}, separators=(",", ":"))


class AnalysisBoards:
    """The open analysis pages' sessions, by id, and the pool their engines come from."""

    def __init__(self, pool: Optional[EnginePool] = None) -> None:
        self.pool = pool or EnginePool()
        self._sessions: Dict[str, Session] = {}
        self._lock = threading.Lock()

    def open(self) -> Session:
        session = Session(self)
        with self._lock:
            self._sessions[session.id] = session
        return session

    def get(self, session_id: str) -> Session:
        with self._lock:
            session = self._sessions.get(session_id)
        if session is None:
            raise NotFound(f"no analysis session {session_id!r} (its page is gone)")
        return session

    def end(self, session: Session) -> None:
        """The session's stream ended: forget it and kill its engine."""
        with self._lock:
            self._sessions.pop(session.id, None)
        session.close()

    def close(self) -> None:
        """Kill every engine (the server stops); streams still open end."""
        self.pool.close()

