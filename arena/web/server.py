"""`python -m arena serve [FOLDER]`: play the bot and watch a batch in the browser.

A local app for one person, so the standard library's `ThreadingHTTPServer` is enough: a thread
per request, Server-Sent Events for the pushes (one-way, plain HTTP, reconnected by the browser
itself), no framework to install, and everything it serves ships in the package (no CDN, no
network). It listens on 127.0.0.1 unless told otherwise. The routes:

    /                      the three pages          /static/NAME        their files
    /play, /watch          the play and watch pages /replay             the replay page of
    /replay/game?KEY       a finished game, in it                       the folder's log
    /api/opponents         GET: whom one can play   /api/games          POST: a new game
    /api/games/ID          GET: its state           /api/games/ID/events    its state, pushed
    /api/games/ID/move     POST {"column", "ply"}   /api/games/ID/analyse   POST: analyse it
    /api/watch?batch=B     GET: the batch's state   /api/watch/events   the same, pushed
    /review?KEY            a finished game's review /api/review?KEY     GET: its state, POST:
                                                                        review it (queued)
    /analyse?board=M,N,no_x,no_y&moves=x.y,...      the analysis board, at a position
    /api/analysis/events   an analysis session: its engine's lines, pushed
    /api/analysis/ID       POST: a position to analyse     /api/analysis/ID/stop   POST
    /api/analysis/paste    POST {"text", "board"}: the position a pasted text names
"""

import json
import logging
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Tuple
from urllib.parse import urlencode

from arena.core.live import mark_watching
from arena.view.page import render_page
from arena.web.analyse import ANALYSED_DIR, Analyses
from arena.web.analysis_board import AnalysisBoards, parse_paste, parse_position
from arena.web.games import BadRequest, Conflict, Games, NotFound, PlayGame
from arena.web.handler import Forbidden, Handler, MethodNotAllowed, Route, not_found
from arena.web.reviews import Job, Reviews, game_view
from arena.web.watch import FolderWatch
from records.game import GameKey, GameRecord
from records.log import LOG_NAME, LogFollower
from records.player import PlayerSpec

LOG = logging.getLogger("arena.web")
STATIC = Path(__file__).with_name("static")
VIEW_STATIC = Path(__file__).resolve().parent.parent / "view" / "static"
# The files the pages load: the web app's own, and the board drawing the replay page shares.
FILES = {
    "web.css": (STATIC, "text/css"), "web.js": (STATIC, "text/javascript"),
    "play.js": (STATIC, "text/javascript"),
    "review.js": (STATIC, "text/javascript"),
    "watch.js": (STATIC, "text/javascript"), "analyse.js": (STATIC, "text/javascript"),
    "board.js": (VIEW_STATIC, "text/javascript"),
    "board.css": (VIEW_STATIC, "text/css"),
}
PAGES = {(): "index.html", ("play",): "play.html", ("watch",): "watch.html",
         ("analyse",): "analyse.html", ("review",): "review.html"}
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
        self._watch_lock = threading.Lock()
        self._stop = threading.Event()
        self._reaper = threading.Thread(target=self._reap, name="reaper", daemon=True)
        self._reaper.start()

    def _reap(self) -> None:
        while not self._stop.wait(1.0):
            for game_id in self.games.abandon_unwatched():
                LOG.info("game %s abandoned: its page is gone", game_id)

    def close(self) -> None:
        """Stop: every game still running is recorded as abandoned, every engine killed."""
        self._stop.set()
        self.boards.close()
        self.games.close()

    def route(self, method: str, parts: Tuple[str, ...]) -> Route:
        if method == "GET" and parts in PAGES:
            return self.page, (PAGES[parts],)
        if method == "GET" and len(parts) == 2 and parts[0] == "static":
            return self.static, (parts[1],)
        if method == "GET" and parts == ("replay",):
            return self.replay, ()
        if method == "GET" and parts == ("replay", "game"):
            return self.replay_game, ()
        if parts[:1] == ("api",):
            return self._api(method, parts[1:])
        raise not_found(parts)

    def _api(self, method: str, parts: Tuple[str, ...]) -> Route:
        routes = {("GET", ("opponents",)): self.opponents, ("POST", ("games",)): self.new_game,
                  ("GET", ("watch",)): self.watch_state, ("GET", ("watch", "events")):
                  self.watch_events, ("GET", ("review",)): self.review_state,
                  ("POST", ("review",)): self.review_start}
        if (method, parts) in routes:
            return routes[(method, parts)], ()
        if parts[:1] == ("analysis",):
            return self._analysis_api(method, parts[1:])
        if len(parts) >= 2 and parts[0] == "games":
            game_routes = {("GET", ()): self.game_state, ("GET", ("events",)): self.game_events,
                           ("POST", ("move",)): self.move, ("POST", ("analyse",)): self.analyse}
            if (method, parts[2:]) in game_routes:
                return game_routes[(method, parts[2:])], (parts[1],)
        if any(p == parts for m, p in routes) or (parts[:1] == ("games",)):
            raise MethodNotAllowed(f"{method} is not allowed on /api/{'/'.join(parts)}")
        raise not_found(("api",) + parts)

    # ---- pages -------------------------------------------------------------------------
    def page(self, h: Handler, query: Dict[str, str], name: str) -> None:
        h.send_text(200, (STATIC / name).read_text(encoding="utf-8"), "text/html; charset=utf-8")

    def static(self, h: Handler, query: Dict[str, str], name: str) -> None:
        if name not in FILES:
            raise NotFound(f"no such file: /static/{name}")
        folder, kind = FILES[name]
        h.send_text(200, (folder / name).read_text(encoding="utf-8"), f"{kind}; charset=utf-8")

    def inside(self, relative: str) -> Path:
        """A path the client names, inside the served folder; Forbidden otherwise."""
        path = (self.folder / relative).resolve()
        if not path.is_relative_to(self.folder):
            raise Forbidden(f"{relative}: a path outside the served folder")
        if not path.is_file():
            raise NotFound(f"{relative}: no such file in the served folder")
        return path

    def replay(self, h: Handler, query: Dict[str, str]) -> None:
        """The replay page of the folder's log (or of `?log=PATH`, a log inside the folder),
        read as a watcher reads it: a batch may be appending, and its line in progress waits;
        a line that is not a record is skipped, and the title says how many were."""
        path = self.inside(query.get("log", LOG_NAME))
        follower = LogFollower(path)
        records = follower.read()[1]
        title = f"{path.relative_to(self.folder)}: {len(records)} games"
        if follower.skipped:
            title += (f" ({follower.skipped} line{'s' * (follower.skipped > 1)} not a record, "
                      "skipped: the server's log names each)")
        h.send_text(200, render_page(records, title), "text/html; charset=utf-8")

    def finished(self, key: GameKey) -> Tuple[int, GameRecord]:
        """The finished game of ``key`` and its place in the folder's log (its order changes
        when a batch ends, so pages name games by key, never by position). The log is read as
        a watcher reads it: a batch may be appending, and its line in progress waits."""
        _, records = LogFollower(self.inside(LOG_NAME)).read()
        for index, record in enumerate(records):
            if record.key == key:
                return index, record
        raise NotFound("no finished game with that key in the folder's log")

    def replay_game(self, h: Handler, query: Dict[str, str]) -> None:
        """The replay page at one finished game, named by its key."""
        h.redirect(f"/replay#game={self.finished(game_key(query))[0]}")

    # ---- play --------------------------------------------------------------------------
    def opponents(self, h: Handler, query: Dict[str, str]) -> None:
        players = [{"name": name, "kind": s.kind.value, "takes_time": s.takes_time}
                   for name, s in self.games.players.items()]
        h.send_json({"players": players, "time_limit": self.games.time_limit})

    def new_game(self, h: Handler, query: Dict[str, str]) -> None:
        game = self.games.create(h.body())
        h.send_json(game.state(), 201)

    def game_state(self, h: Handler, query: Dict[str, str], game_id: str) -> None:
        h.send_json(self._game_state(self.games.get(game_id)))

    def _game_state(self, game: PlayGame) -> Dict[str, Any]:
        state = game.state()
        status = self.analyses.status.get(game.id)
        state["analysis"] = status
        if game.record is not None:
            state["review_url"] = "/review?" + urlencode(game.record.key.to_dict())
        if status == "ready":
            state["analysis_url"] = f"/replay?log={ANALYSED_DIR}/{game.id}.jsonl#game=0"
        return state

    def game_events(self, h: Handler, query: Dict[str, str], game_id: str) -> None:
        """The game's state whenever it changes; while a page follows it, it is not abandoned."""
        game = self.games.get(game_id)
        sent = {"version": -1, "last": False}

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

        game.watchers += 1
        try:
            h.stream(next_event, lambda: sent["last"])
        finally:
            game.watchers -= 1
            game.seen = time.monotonic()

    def move(self, h: Handler, query: Dict[str, str], game_id: str) -> None:
        game = self.games.get(game_id)
        game.submit(h.body())
        h.send_json({"ok": True})

    def analyse(self, h: Handler, query: Dict[str, str], game_id: str) -> None:
        game = self.games.get(game_id)
        if game.record is None:
            raise Conflict("the game is not over")
        if game.record.loser is None:
            raise Conflict("only a game lost on the board has a loss to analyse")
        status = self.analyses.start(game.id, game.record)
        game.touch()
        h.send_json({"analysis": status}, 202)

    # ---- the analysis board ------------------------------------------------------------
    def _analysis_api(self, method: str, parts: Tuple[str, ...]) -> Route:
        if parts == ("events",):
            if method != "GET":
                raise MethodNotAllowed(f"{method} is not allowed on /api/analysis/events")
            return self.analysis_events, ()
        if method != "POST":
            raise MethodNotAllowed(f"{method} is not allowed on /api/analysis/{'/'.join(parts)}")
        if parts == ("paste",):
            return self.analysis_paste, ()
        if len(parts) == 1:
            return self.analysis_position, parts
        if len(parts) == 2 and parts[1] == "stop":
            return self.analysis_stop, parts[:1]
        raise not_found(("api", "analysis") + parts)

    def analysis_events(self, h: Handler, query: Dict[str, str]) -> None:
        """A page's analysis session: its id, then its engine's lines, pushed; when the page
        is gone (the stream's write fails) the engine is killed."""
        session = self.boards.open()
        try:
            h.stream(session.next_event, self._stop.is_set)
        finally:
            self.boards.end(session)

    def analysis_position(self, h: Handler, query: Dict[str, str], session_id: str) -> None:
        session = self.boards.get(session_id)
        setup, seconds, playouts, tag = parse_position(h.body())
        session.request(setup, seconds, playouts, tag)
        h.send_json({"to_move": setup.to_move, "tag": tag}, 202)

    def analysis_stop(self, h: Handler, query: Dict[str, str], session_id: str) -> None:
        self.boards.get(session_id).stop()
        h.send_json({"ok": True})

    def analysis_paste(self, h: Handler, query: Dict[str, str]) -> None:
        h.send_json(parse_paste(h.body()))

    # ---- game review -------------------------------------------------------------------
    def _reviewed(self, query: Dict[str, str]) -> Tuple[GameRecord, Optional[Job]]:
        """The game a review query names and its job in this server, if any: a job keeps its
        game, so the page's polls (twice a second) never read the log."""
        key = game_key(query)
        job = self.reviews.current(key)
        if job is not None and job.record is not None:
            return job.record, job
        return self.finished(key)[1], None

    def review_state(self, h: Handler, query: Dict[str, str]) -> None:
        """A finished game and its review's state (the review once it is ready)."""
        record, job = self._reviewed(query)
        job = job if job is not None else self.reviews.job(record.key)
        h.send_json({"game": game_view(record), **job.to_dict()})

    def review_start(self, h: Handler, query: Dict[str, str]) -> None:
        """Queue a finished game's review (nothing when it is kept or under way)."""
        record = self._reviewed(query)[0]
        h.send_json({"game": game_view(record), **self.reviews.start(record).to_dict()}, 202)

    # ---- watch -------------------------------------------------------------------------
    def _snapshot(self, batch: Optional[str]) -> Dict[str, Any]:
        with self._watch_lock:
            return self.watch.snapshot(batch)

    def watch_state(self, h: Handler, query: Dict[str, str]) -> None:
        h.send_json(self._snapshot(query.get("batch")))

    def watch_events(self, h: Handler, query: Dict[str, str]) -> None:
        """The batch's state whenever it changes, looked at every WATCH_TICK_S; while a page
        watches, the batch's workers write their games in progress (arena.core.live)."""
        last = {"data": "", "marked": 0.0}

        def next_event() -> Optional[str]:
            now = time.monotonic()
            if now - last["marked"] >= 1.0:
                mark_watching(self.folder)
                last["marked"] = now
            time.sleep(WATCH_TICK_S)
            data = json.dumps(self._snapshot(query.get("batch")), separators=(",", ":"))
            if data == last["data"]:
                return None
            last["data"] = data
            return data

        h.stream(next_event, lambda: self._stop.is_set())


def game_key(query: Dict[str, str]) -> GameKey:
    """The game a page's query names by its key; BadRequest otherwise."""
    try:
        return GameKey.from_dict(query)
    except (KeyError, ValueError):
        raise BadRequest("a game's key: batch, a, b, seed, round and leg (whole numbers for "
                         "the last three)") from None


class Server(ThreadingHTTPServer):
    """The HTTP server, holding the app its handlers use."""

    daemon_threads = True

    def __init__(self, address: Tuple[str, int], app: App) -> None:
        self.app = app
        super().__init__(address, Handler)


def make_server(folder: Path, players: Mapping[str, PlayerSpec], host: str = "127.0.0.1",
                port: int = 8000, time_limit: float = 3.0,
                sprt: Tuple[float, float] = (0.0, 10.0)) -> Server:
    """A server bound to (host, port) (port 0: any free one), not yet serving."""
    return Server((host, port), App(folder, players, time_limit, sprt))


def run(server: Server) -> None:
    """Serve until Ctrl-C; running games are then recorded as abandoned."""
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.app.close()
        server.server_close()
