"""`python -m arena serve [FOLDER]`: play the bot and watch a batch in the browser.

A local app for one person on Starlette and uvicorn (docs/web.md, "How it works"); the HTTP
layer is `arena/web/asgi.py`. The routes:

    /                      the three pages          /static/NAME        their files
    /play, /watch          the play and watch pages /replay             the replay page of
    /replay/game?KEY       a finished game, in it                       the folder's log
    /analyse/game?KEY&ply=K   a finished game on the analysis board, its moves all there
    /api/opponents         GET: whom one can play   /api/games          POST: a new game
    /api/games/ID          GET: its state           /api/games/ID/events    its state, pushed
    /api/games/ID/move     POST {"column", "ply"}   /api/games/ID/analyse   POST: analyse it
    /api/watch?batch=B     GET: the batch's state   /api/watch/events   the same, pushed
    /review?KEY&seconds=S  a finished game's review /api/review?KEY&seconds=S   GET: its
                           (S: 0.5, 2 or 5; none:       state, POST: review it (queued)
                           the server's budget)
    /analyse?board=M,N,no_x,no_y&moves=x.y,...&ply=K   the analysis board (or &cells=ROW/...)
    /api/analysis/events   an analysis session: its engine's lines, pushed
    /api/analysis/ID       POST: a position to analyse     /api/analysis/ID/stop   POST
    /api/analysis/paste    POST {"text", "board"}: the game a pasted text names
    /api/analysis/position?QUERY   GET: what the analysis board's URL names (its moves, cursor,
                                   set-up and budget), checked
    /puzzles?suite=NAME    the puzzle page (or ?log=PATH: the games' mistakes)
    /api/puzzles?suite=NAME   GET: the puzzles, each with its kept result (or ?log=PATH)
    /api/puzzles/move      POST {"board", "moves", "goal", "column"}: the step, judged
"""

import json
import logging
import socket
import threading
import time
from contextlib import contextmanager, nullcontext
from functools import partial
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple
from urllib.parse import urlencode

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from arena.core.live import mark_watching
from arena.engine.review import Budget
from arena.web.analyse import ANALYSED_DIR, Analyses
from arena.web.analysis_board import (
    AnalysisBoards,
    analysis_url,
    parse_paste,
    parse_position,
    parse_url,
)
from arena.web.asgi import (
    EXCEPTION_HANDLERS,
    Call,
    NoStore,
    event_stream,
    route,
    send_json,
    served_path,
    text,
)
from arena.web.games import BadRequest, Conflict, Games, NotFound, PlayGame
from arena.web.jobs import JobState
from arena.web.puzzles import Puzzles
from arena.web.replay import STATIC, render_page
from arena.web.reviews import Job, Reviews, game_view
from arena.web.watch import FolderWatch
from records.game import GameKey, GameRecord
from records.log import LOG_NAME, LogFollower
from records.player import PlayerSpec

LOG = logging.getLogger("arena.web")
# The files the pages load from /static/NAME (STATIC also holds the pages and the replay page's)
FILES = {name: "text/css" if name.endswith(".css") else "text/javascript" for name in (
    "web.css", "web.js", "play.js", "review.js", "watch.js", "analyse.js", "board.js", "board.css",
    "puzzles.js")}
PAGES = {(): "index.html", ("play",): "play.html", ("watch",): "watch.html",
         ("analyse",): "analyse.html", ("review",): "review.html",
         ("puzzles",): "puzzles.html"}
WATCH_TICK_S = 0.5  # how often an open watch page's state is looked at: twice a second
# follows a game at 3 s a move move by move and keeps the page's drawing off a busy batch's cores


class App:
    """The served folder, its games and its batch's state; `route` maps a request to them."""

    def __init__(self, folder: Path, players: Mapping[str, PlayerSpec],
                 time_limit: float = 3.0, sprt: Tuple[float, float] = (0.0, 10.0)) -> None:
        self.folder = Path(folder).resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.games = Games(self.folder, players, time_limit)
        self.watch = FolderWatch(self.folder, sprt)
        self.analyses = Analyses(self.folder)
        self.boards = AnalysisBoards()
        self.reviews = Reviews(self.folder, self.boards.pool)
        self.puzzles = Puzzles(self.folder)
        self._watch_lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._reap, name="reaper", daemon=True).start()

    def _reap(self) -> None:
        while not self._stop.wait(1.0):
            for game_id in self.games.abandon_unwatched():
                LOG.info("game %s abandoned: its page is gone", game_id)

    def close(self) -> None:
        """Stop: streams end, running games are recorded abandoned, engines killed; idempotent."""
        self._stop.set()
        self.boards.close()
        self.games.close()

    def routes(self) -> List[Route]:
        """Each route, for one method (another on its path is a 405; a path of none, a 404)."""
        pages = [route("/" + "/".join(parts), partial(self.page, name=name))
                 for parts, name in PAGES.items()]
        return pages + [
            route("/static/{name}", self.static),
            route("/replay", self.replay),
            route("/replay/game", self.replay_game),
            route("/analyse/game", self.analyse_game),
            route("/api/opponents", self.opponents),
            route("/api/games", self.new_game, "POST"),
            route("/api/games/{game_id}", self.game_state),
            route("/api/games/{game_id}/events", self.game_events),
            route("/api/games/{game_id}/move", self.move, "POST"),
            route("/api/games/{game_id}/analyse", self.analyse, "POST"),
            route("/api/watch", self.watch_state),
            route("/api/watch/events", self.watch_events),
            route("/api/review", self.review_state),
            route("/api/review", self.review_start, "POST"),
            route("/api/analysis/events", self.analysis_events),
            route("/api/analysis/paste", self.analysis_paste, "POST"),
            route("/api/analysis/position", self.analysis_url),
            route("/api/analysis/{session_id:session}", self.analysis_position, "POST"),
            route("/api/analysis/{session_id}/stop", self.analysis_stop, "POST"),
            route("/api/puzzles", self.puzzle_list),
            route("/api/puzzles/move", self.puzzle_move, "POST"),
        ]

    def asgi(self) -> Starlette:
        """The app as uvicorn serves it."""
        return Starlette(routes=self.routes(), middleware=[Middleware(NoStore)],
                         exception_handlers=EXCEPTION_HANDLERS)

    def page(self, call: Call, name: str) -> Response:
        return text(200, (STATIC / name).read_text(encoding="utf-8"), "text/html; charset=utf-8")

    def static(self, call: Call, name: str) -> Response:
        if name not in FILES:
            raise NotFound(f"no such file: /static/{name}")
        return text(200, (STATIC / name).read_text(encoding="utf-8"),
                    f"{FILES[name]}; charset=utf-8")

    def inside(self, relative: str) -> Path:
        """A path the client names, inside the served folder; Forbidden otherwise."""
        path = served_path(self.folder, relative)
        if not path.is_file():
            raise NotFound(f"{relative}: no such file in the served folder")
        return path

    def replay(self, call: Call) -> Response:
        """The replay page of the folder's log (or of `?log=PATH` inside it), read as a watcher
        reads it (a batch may be appending); the title counts the lines not a record."""
        path = self.inside(call.query.get("log", LOG_NAME))
        follower = LogFollower(path)
        records = follower.read()[1]
        title = f"{path.relative_to(self.folder)}: {len(records)} games"
        if follower.skipped:
            title += (f" ({follower.skipped} line{'s' * (follower.skipped > 1)} not a record, "
                      "skipped: the server's log names each)")
        return text(200, render_page(records, title), "text/html; charset=utf-8")

    def finished(self, key: GameKey) -> Tuple[int, GameRecord]:
        """The finished game of ``key`` and its place in the folder's log, read as a watcher
        reads it (its order changes when a batch ends, so pages name games by key)."""
        _, records = LogFollower(self.inside(LOG_NAME)).read()
        for index, record in enumerate(records):
            if record.key == key:
                return index, record
        raise NotFound("no finished game with that key in the folder's log")

    def replay_game(self, call: Call) -> Response:
        """The replay page at one finished game, named by its key."""
        return RedirectResponse(f"/replay#game={self.finished(game_key(call.query))[0]}", 302)

    def analyse_game(self, call: Call) -> Response:
        """The analysis board with a finished game, named by its key, every move reachable;
        ``ply`` its cursor (none: the last position that can be analysed)."""
        record = self.finished(game_key(call.query))[1]
        ply = call.query.get("ply")
        if ply is not None and not ply.isdigit():
            raise BadRequest(f"ply: a whole number, got {ply!r}")
        return RedirectResponse(
            analysis_url(record.board, record.moves, None if ply is None else int(ply)), 302)

    def opponents(self, call: Call) -> Response:
        players = [{"name": name, "kind": s.kind.value, "takes_time": s.takes_time}
                   for name, s in self.games.players.items()]
        return send_json({"players": players, "time_limit": self.games.time_limit})

    def new_game(self, call: Call) -> Response:
        return send_json(self.games.create(call.body()).state(), 201)

    def game_state(self, call: Call, game_id: str) -> Response:
        return send_json(self._game_state(self.games.get(game_id)))

    def _game_state(self, game: PlayGame) -> Dict[str, Any]:
        state = game.state()
        status = self.analyses.status.get(game.id)
        state.update(analysis=status, board_url=analysis_url(game.task.board, state["moves"]))
        if game.record is not None:
            state["review_url"] = "/review?" + urlencode(game.record.key.to_dict())
            state["analysable"] = game.record.loser is not None
        if status is not None and JobState.of(status) is JobState.READY:
            state["analysis_url"] = f"/replay?log={ANALYSED_DIR}/{game.id}.jsonl#game=0"
        return state

    def game_events(self, call: Call, game_id: str) -> Response:
        """The game's state whenever it changes; while a page follows it, it is not abandoned."""
        game = self.games.get(game_id)
        sent: Dict[str, Any] = {"version": -1, "last": False}

        def next_event() -> Optional[str]:
            game.seen = time.monotonic()
            with game.changed:
                if game.version == sent["version"]:
                    game.changed.wait(timeout=0.5)
                version = game.version
            if version == sent["version"]:
                return None
            sent["version"], sent["last"] = version, game.over
            return json.dumps(self._game_state(game), separators=(",", ":"))

        @contextmanager
        def followed() -> Iterator[Any]:
            game.watchers += 1
            try:
                yield next_event
            finally:
                game.watchers -= 1
                game.seen = time.monotonic()

        return event_stream(self._stop, followed(), lambda: sent["last"])

    def move(self, call: Call, game_id: str) -> Response:
        self.games.get(game_id).submit(call.body())
        return send_json({"ok": True})

    def analyse(self, call: Call, game_id: str) -> Response:
        game = self.games.get(game_id)
        if game.record is None:
            raise Conflict("the game is not over")
        if game.record.loser is None:
            raise Conflict("only a game lost on the board has a loss to analyse")
        status = self.analyses.start(game.id, game.record)
        game.touch()
        return send_json({"analysis": status}, 202)

    def analysis_events(self, call: Call) -> Response:
        """A page's analysis session: its id, then its engine's lines; its end kills the engine."""

        @contextmanager
        def session() -> Iterator[Any]:
            opened = self.boards.open()
            try:
                yield opened.next_event
            finally:
                self.boards.end(opened)

        return event_stream(self._stop, session())

    def analysis_position(self, call: Call, session_id: str) -> Response:
        session = self.boards.get(session_id)
        setup, seconds, playouts, tag = parse_position(call.body())
        session.request(setup, seconds, playouts, tag)
        return send_json({"to_move": setup.to_move, "tag": tag}, 202)

    def analysis_stop(self, call: Call, session_id: str) -> Response:
        self.boards.get(session_id).stop()
        return send_json({"ok": True})

    def analysis_paste(self, call: Call) -> Response:
        return send_json(parse_paste(call.body()))

    def analysis_url(self, call: Call) -> Response:
        return send_json(parse_url(call.query))

    def _reviewed(self, query: Dict[str, str]) -> Tuple[GameRecord, Budget, Optional[Job]]:
        """The game and budget a review query names, and its job in this server, if any: a
        job keeps its game, so the page's polls (twice a second) never read the log."""
        key = game_key(query)
        try:
            budget = self.reviews.budget_of(query)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        job = self.reviews.current(key, budget)
        if job is not None and job.record is not None:
            return job.record, budget, job
        return self.finished(key)[1], budget, None

    def _review_view(self, record: GameRecord, job: Job) -> Dict[str, Any]:
        return {"game": game_view(record), "budgets": self.reviews.choices(),
                **self.reviews.view(job)}

    def review_state(self, call: Call) -> Response:
        """A finished game and its review's state at a budget (the review once it is
        ready)."""
        record, budget, job = self._reviewed(call.query)
        job = job if job is not None else self.reviews.job(record.key, budget)
        return send_json(self._review_view(record, job))

    def review_start(self, call: Call) -> Response:
        """Queue a finished game's review at a budget (nothing when it is kept or under
        way)."""
        record, budget, _ = self._reviewed(call.query)
        return send_json(self._review_view(record, self.reviews.start(record, budget)), 202)

    def puzzle_list(self, call: Call) -> Response:
        return send_json(self.puzzles.listing(call.query))

    def puzzle_move(self, call: Call) -> Response:
        """A puzzle's step, judged by exact search here, in the request's thread."""
        return send_json(self.puzzles.step(call.body()))

    def _snapshot(self, batch: Optional[str]) -> Dict[str, Any]:
        with self._watch_lock:
            return self.watch.snapshot(batch)

    def watch_state(self, call: Call) -> Response:
        return send_json(self._snapshot(call.query.get("batch")))

    def watch_events(self, call: Call) -> Response:
        """The batch's state whenever it changes, looked at every WATCH_TICK_S; while a page
        watches, the batch's workers write their games in progress (arena.core.live)."""
        last: Dict[str, Any] = {"data": "", "marked": 0.0}

        def next_event() -> Optional[str]:
            now = time.monotonic()
            if now - last["marked"] >= 1.0:
                mark_watching(self.folder)
                last["marked"] = now
            time.sleep(WATCH_TICK_S)
            data = json.dumps(self._snapshot(call.query.get("batch")), separators=(",", ":"))
            if data == last["data"]:
                return None
            last["data"] = data
            return data

        return event_stream(self._stop, nullcontext(next_event))


def game_key(query: Dict[str, str]) -> GameKey:
    """The game a page's query names by its key; BadRequest otherwise."""
    try:
        return GameKey.from_dict(query)
    except (KeyError, ValueError):
        raise BadRequest("a game's key: batch, a, b, seed, round and leg (whole numbers for "
                         "the last three)") from None


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, stopping the app as it stops: no new connection, then the app's streams
    and games end (in a thread), then uvicorn ends the connections, their answers then short."""

    def __init__(self, config: uvicorn.Config, app: App) -> None:
        super().__init__(config)
        self.app = app

    async def shutdown(self, sockets: Optional[List[socket.socket]] = None) -> None:
        for server in self.servers:
            server.close()
        await run_in_threadpool(self.app.close)
        await super().shutdown(sockets)


class Server:
    """The app, served by uvicorn on a socket bound beforehand: `serve_forever()` in a thread of
    its own (or the main one, where uvicorn takes Ctrl-C and SIGTERM), `shutdown()` from another."""

    def __init__(self, app: App, sock: socket.socket) -> None:
        self.app, self.socket = app, sock
        self.server_address = sock.getsockname()
        config = uvicorn.Config(app.asgi(), http="h11", loop="asyncio", ws="none",
                                lifespan="off", log_level="warning", log_config=None,
                                access_log=False, server_header=False,
                                timeout_graceful_shutdown=5)
        self._uvicorn = _Uvicorn(config, app)
        self._serving, self._stopped = threading.Event(), threading.Event()

    def serve_forever(self) -> None:
        """Serve until `shutdown()` (or a signal, in the main thread); the app is then closed."""
        self._serving.set()
        try:
            self._uvicorn.run(sockets=[self.socket])
        finally:
            self.app.close()
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop serving, as a signal does, and wait until it has stopped."""
        self._uvicorn.should_exit = True
        if self._serving.is_set():
            self._stopped.wait()

    def server_close(self) -> None:
        self.socket.close()


def make_server(folder: Path, players: Mapping[str, PlayerSpec], host: str = "127.0.0.1",
                port: int = 8000, time_limit: float = 3.0,
                sprt: Tuple[float, float] = (0.0, 10.0)) -> Server:
    """A server bound to (host, port) (port 0: any free one) and listening, so its address is
    known and connections wait for it, not yet serving; OSError when it cannot (a busy port,
    an unknown host: nothing started then)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        return Server(App(folder, players, time_limit, sprt), sock)
    except BaseException:
        sock.close()
        raise


def run(server: Server) -> None:
    """Serve until Ctrl-C or SIGTERM, the running games then recorded as abandoned; uvicorn
    hands the signal back once stopped (Ctrl-C goes on as KeyboardInterrupt)."""
    try:
        server.serve_forever()
    finally:
        server.server_close()
