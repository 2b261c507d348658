"""The analysis board's server side (docs/web.md, "Analysis board" and its "How it works"):
its URL and a pasted game read and checked (no page parses a move), one session a page holding
an engine from the pool shared with the reviews only while it analyses, and the routes."""

import json
import secrets
import threading
import time
from contextlib import suppress
from typing import Any, AsyncIterator, Dict, Mapping, Optional, Tuple

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.convertors import StringConvertor, register_url_convertor
from starlette.responses import JSONResponse, Response

from arena.engine.client import AnalysisStream, Engine, EngineError, EnginePool, PoolClosed
from arena.engine.limit import Limit
from arena.engine.position import (
    GameOver,
    PositionError,
    Setup,
    from_moves,
    from_rows,
    game_positions,
    rows_cells,
)
from arena.web.asgi import (
    BadRequest,
    Call,
    Changes,
    EventStream,
    NotFound,
    bad_request,
    board_of,
    fields,
    number,
    route,
)
from records.board import Board
from records.game import GameRecord
from records.move import Move, moves_from_paste, moves_from_text
from records.result import Seat

WAIT_S = 0.5  # how long a stream waits for a change before it looks again (an idle engine)
MAX_SECONDS = 3600.0
MAX_PLAYOUTS = 500_000  # the engine's own cap without a budget (docs/protocol.md, 4)
MAX_TAG = 2**53 - 1  # the page's request numbers: JavaScript's whole numbers
IDLE_S = 10.0  # an engine kept this long after its analysis ends: the next move reuses its tree
TOP_LINES = 3  # the lines an update ranks for the page
SHARE_S = 10.0  # an analysis without a budget yields its engine after this, when others wait
Request = Tuple[Setup, Limit]  # a position and its budget


def parse_position(body: Any) -> Tuple[Setup, Limit, int]:
    """The position, budget and tag a request's JSON body asks for (docs/web.md, "Analysis
    board"); BadRequest naming the first mistake."""
    fields(body, "board", "moves", "cells", "seconds", "playouts", "tag")
    board = board_of(body.get("board"))
    if ("moves" in body) == ("cells" in body):
        raise BadRequest("give the position as exactly one of moves or cells")
    with bad_request(PositionError):
        setup = (from_moves(board, body["moves"]) if "moves" in body
                 else from_rows(board, body["cells"]))
    seconds = (None if body.get("seconds") is None
               else number(body, "seconds", float, 0, MAX_SECONDS, above=True))
    playouts = (None if body.get("playouts") is None
                else number(body, "playouts", int, 1, MAX_PLAYOUTS))
    tag = number(body, "tag", int, 0, MAX_TAG) if "tag" in body else 0
    return setup, Limit(seconds, playouts), tag


def parse_paste(body: Any) -> Dict[str, Any]:
    """The game a pasted text names: a record line of games.jsonl (its board and moves), or a
    move list (``records.move.moves_from_paste``) on the body's ``board``; every move kept,
    the cursor (``ply``) on the last position that can be analysed (a finished game: before
    its last move). BadRequest otherwise."""
    text = fields(body, text=str)[0].strip()
    if text.startswith("{"):
        with bad_request(TypeError, ValueError, AttributeError,
                         prefix="not a record line of games.jsonl: "):
            record = GameRecord.from_dict(json.loads(text))
            board, moves = board_of(record.board.to_list()), list(record.moves)
    else:
        board = board_of(body.get("board"))
        with bad_request(ValueError):
            moves = [m.to_list() for m in moves_from_paste(text)]
    return game_line(board, moves)


def game_line(board: Board, moves: Any, ply: Optional[int] = None) -> Dict[str, Any]:
    """A game's moves checked by the referee's rules, and the cursor: ``ply`` or, without
    one, the last position that can be analysed; ``note`` says why the game's end is not one.
    BadRequest for a move no game allows or a cursor off the game."""
    with bad_request(PositionError):
        setups = game_positions(board, moves)
    if ply is not None and not 0 <= ply <= len(moves):
        raise BadRequest(f"ply: a whole number within 0..{len(moves)}, got {ply}")
    note = ""
    if len(setups) == len(moves) and ply in (None, len(moves)):  # the cursor on the game's end
        try:
            from_moves(board, moves)
        except GameOver as exc:
            note = f"{exc}: shown before the last move" if ply is None else str(exc)
    ply = len(setups) - 1 if ply is None else ply
    return {"board": board.to_list(), "moves": [list(m) for m in moves], "ply": ply,
            "cells": None, "note": note}


def parse_url(query: Mapping[str, str]) -> Dict[str, Any]:
    """What the analysis board's URL names (docs/web.md, "Analysis board"): a board, a game and
    its cursor or a set-up, a budget; BadRequest naming the first mistake, so a page opened from a
    bad link says what it is."""
    fields(query, "board", "moves", "ply", "cells", "seconds", "playouts")
    try:
        values = [int(v) for v in query.get("board", "9,9,8,4").split(",")]
    except ValueError:
        values = []
    if len(values) != 4:
        raise BadRequest("board: M,N,no_x,no_y, four whole numbers")
    board = board_of(values)
    budget: Dict[str, Any] = {}
    for key, kind, high in (("seconds", float, MAX_SECONDS), ("playouts", int, MAX_PLAYOUTS)):
        if query.get(key):
            try:
                value = float(query[key])
            except ValueError:
                raise BadRequest(f"{key}: a number, got {query[key]!r}") from None
            budget[key] = number({key: value}, key, kind, 0, high, above=True)
    if "cells" in query:
        if "moves" in query or "ply" in query:
            raise BadRequest("give the position as moves (and ply) or cells, not both")
        rows = query["cells"].split("/")
        with bad_request(PositionError):  # a set-up in the making is shown as it is
            rows_cells(board, rows)
        return {"board": board.to_list(), "moves": [], "ply": 0, "cells": rows, "note": "",
                **budget}
    with bad_request(ValueError, prefix="moves: "):
        moves = [m.to_list() for m in moves_from_text(query.get("moves", ""))]
    try:
        ply = int(query.get("ply") or len(moves))
    except ValueError:
        raise BadRequest(f"ply: a whole number, got {query['ply']!r}") from None
    return {**game_line(board, moves, ply), **budget}


def analysis_url(board: Board, moves: Any, ply: Optional[int] = None) -> str:
    """The analysis board's URL of a game (``ply``: its cursor; none: the last position that
    can be analysed), as the page writes it."""
    text = ",".join(Move.from_list(m).to_text() for m in moves)
    return (f"/analyse?board={','.join(map(str, board.to_list()))}"
            + (f"&moves={text}" if text else "") + ("" if ply is None else f"&ply={ply}"))


class Session:
    """One page's analysis: its current request, and an engine from the pool only while it
    analyses (docs/web.md, "Analysis board": IDLE_S, SHARE_S)."""

    def __init__(self, boards: "AnalysisBoards") -> None:
        self.id = secrets.token_hex(6)
        self.boards = boards
        self.engine: Optional[Engine] = None
        self.analysis: Optional[AnalysisStream] = None
        self.tag = 0
        # the position and budget asked, until the engine has it (a new engine: again)
        self.pending: Optional[Request] = None
        self.asked: Optional[Request] = None
        self.started = self.ended = 0.0  # when the analysis started; when the last one ended
        self.lock = threading.Lock()
        self.changes = Changes()  # a request, a stop or an engine's line: the stream looks
        self.waited = ""  # what the page was last told it waits for
        self.stopped = False  # the page stopped: its engine goes back without IDLE_S

    def request(self, setup: Setup, limit: Limit, tag: int) -> None:
        """Analyse ``setup`` now, or as soon as the pool gives this page an engine."""
        with self.lock:
            self.tag, self.stopped, self.pending = tag, False, (setup, limit)
            if self.engine is not None:
                self._start()
        self.changes.bump()

    @property
    def analysing(self) -> bool:
        """Whether its engine is analysing a position now."""
        return self.analysis is not None and not self.analysis.done

    def _start(self) -> None:
        """Start the pending request on the session's engine."""
        assert self.engine is not None and self.pending is not None
        self.asked, self.pending = self.pending, None
        self.started = time.monotonic()
        try:
            self.analysis = self.engine.analyse(*self.asked, on_line=self.changes.bump)
        except EngineError:  # the engine is gone: the stream takes a new one
            self.analysis, self.pending = None, self.asked

    def stop(self) -> None:
        """End the analysis; the engine goes back once its final line is out."""
        with self.lock:
            self.pending, self.stopped = None, True
            self._stop_engine()
            if self.engine is None:
                self.boards.pool.leave(self)
        self.changes.bump()

    def _stop_engine(self) -> None:
        if self.engine is not None and self.analysing:
            with suppress(EngineError):
                self.engine.stop()

    def next_event(self) -> Optional[str]:
        """The page's next event, at once (None: nothing new); the stream awaits `changes`
        between looks, so no thread waits for the engine."""
        if self.engine is not None and not self.engine.alive:
            with self.lock:  # a fresh one takes over what it analysed
                if self.analysing:
                    self.pending = self.asked
            self._give_back()
        if self.engine is None:
            return self._take_engine() if self.pending is not None else self._idle()
        analysis = self.analysis
        if analysis is None or analysis.done:
            return self._idle()
        if (self.asked is not None and self.asked[1] == Limit()
                and time.monotonic() - self.started > SHARE_S and self.boards.pool.waiting):
            with self.lock:
                self._stop_engine()  # its final line follows, then the engine goes back
        try:
            line = analysis.get(timeout=0)
        except EngineError as exc:  # the engine died: a new one takes the position again
            with self.lock:
                self.pending = self.asked
            return _event("error", message=str(exc), tag=self.tag)
        if line is None or analysis is not self.analysis:
            return None  # a request replaced it: its last lines are no one's
        if line.done:
            self.ended = time.monotonic()
        # the value for the page's bar from the first player's side (None: not valued yet)
        return _event("update", tag=self.tag, **line.raw,
                      eval={"first": line.pov(Seat.FIRST), "proof": line.proof_pov(Seat.FIRST)},
                      lines=line.top(TOP_LINES))

    def _idle(self) -> Optional[str]:
        """Nothing to analyse: give the engine back once idle."""
        with self.lock:
            idle = self.engine is not None and self.pending is None and not self.analysing
            if not idle or (time.monotonic() - self.ended < IDLE_S and not self.stopped
                            and not self.boards.pool.waiting):
                return None
            engine, self.engine, self.analysis = self.engine, None, None
        assert engine is not None
        self.boards.pool.release(engine)  # outside the lock: killing it takes a while
        return _event("released", message="the engine is given back while nothing is "
                      "analysed; the next position takes one again")

    def _take_engine(self) -> Optional[str]:
        try:
            engine = self.boards.pool.acquire(timeout=0, ticket=self,
                                              label="an analysis board")
        except PoolClosed:  # the server stops: the stream ends
            return None
        if engine is None:
            message = waiting(self.boards.pool, self) + "; this page starts when one is free"
            if message == self.waited:
                return None
            self.waited = message
            return _event("waiting", message=message)
        with self.lock:
            self.engine, self.waited = engine, ""
            if self.pending is not None:
                self._start()
            else:  # stopped while it waited
                self.ended = time.monotonic()
        return _event("ready")

    def close(self) -> None:
        """The page is gone: kill its engine and free its place (or its place in line)."""
        self.boards.pool.leave(self)
        self._give_back()

    def _give_back(self) -> None:
        """Its engine back to the pool (which kills it), its analysis forgotten."""
        with self.lock:
            engine, self.engine, self.analysis = self.engine, None, None
        if engine is not None:
            self.boards.pool.release(engine)


def waiting(pool: EnginePool, ticket: object) -> str:
    """What ``ticket`` waits for in the pool's line (an analysis board's, a review's)."""
    ahead = pool.ahead(ticket)
    return (f"waiting for an engine: all {pool.cap} are busy (one a core)"
            + (f"; {ahead} asked first" if ahead else ""))


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


class SessionId(StringConvertor):
    """A session's id in a path: any segment but the names of the routes beside it, so
    `POST /api/analysis/events` is a 405, not a session named "events"."""

    regex = "(?!(?:events|paste|position)$)[^/]+"


register_url_convertor("session", SessionId())


def events(call: Call) -> Response:
    """A page's analysis session: its id, then its engine's lines, each looked for as soon as
    the session changes (a request, a stop, a line), at least every WAIT_S seconds for an
    idle engine or a free place in the pool; its end kills the engine."""
    boards = call.state.boards

    async def lines() -> AsyncIterator[Optional[str]]:
        session = boards.open()
        try:
            yield _event("session", id=session.id, cap=boards.pool.cap)
            while True:
                seen = session.changes.version
                event = await run_in_threadpool(session.next_event)
                yield event
                if event is None:
                    await session.changes.wait(seen, WAIT_S)
        finally:
            with anyio.CancelScope(shield=True):
                await run_in_threadpool(boards.end, session)

    return EventStream(call, lines())


def position(call: Call, session_id: str) -> Response:
    session = call.state.boards.get(session_id)
    setup, limit, tag = parse_position(call.body())
    session.request(setup, limit, tag)
    return JSONResponse({"to_move": setup.to_move, "tag": tag}, 202)


def stop(call: Call, session_id: str) -> Response:
    call.state.boards.get(session_id).stop()
    return JSONResponse({"ok": True})


routes = [
    route("/api/analysis/events", events),
    route("/api/analysis/paste", lambda call: JSONResponse(parse_paste(call.body())), "POST"),
    route("/api/analysis/position", lambda call: JSONResponse(parse_url(call.query))),
    route("/api/analysis/{session_id:session}", position, "POST"),
    route("/api/analysis/{session_id}/stop", stop, "POST"),
]
