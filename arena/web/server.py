"""`python -m arena serve [FOLDER]` (docs/web.md, "How it works"): the features' routes with
the pages and their files, the features' state on ``app.state``, started and stopped in the
lifespan, served on a socket bound first."""

import asyncio
import logging
import socket
import threading
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, Mapping, Tuple

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import State
from starlette.middleware import Middleware
from starlette.responses import FileResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from arena.web import analysis_board, games, puzzles, replay, reviews, watch
from arena.web.asgi import EXCEPTION_HANDLERS, no_store
from arena.web.replay import STATIC
from records.player import PlayerSpec

LOG = logging.getLogger("arena.web")
PAGES = {"/": "index.html", "/play": "play.html", "/watch": "watch.html",
         "/analyse": "analyse.html", "/review": "review.html", "/puzzles": "puzzles.html"}


async def reap(state: State) -> None:
    """Abandon each running game whose page is gone (arena.web.games.GRACE_S)."""
    while True:
        await asyncio.sleep(1.0)
        for game_id in await run_in_threadpool(state.games.abandon_unwatched):
            LOG.info("game %s abandoned: its page is gone", game_id)


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The reaper and the watch page's looks run while the app serves; once it stops (its
    streams ended: `Server`), the games running are recorded abandoned, the engines killed."""
    state = app.state
    tasks = [asyncio.create_task(reap(state)), asyncio.create_task(state.watch.follow())]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        state.stopping.set()
        await run_in_threadpool(state.boards.pool.close)
        await run_in_threadpool(state.games.close)


def create_app(folder: Path, players: Mapping[str, PlayerSpec], time_limit: float = 3.0,
               sprt: Tuple[float, float] = (0.0, 10.0)) -> Starlette:
    """The app of a served folder; its state (the folder, each feature's) is made here, so it
    is there before the lifespan starts."""
    routes = [Route(path, lambda request, name=name: FileResponse(STATIC / name), methods=["GET"])
              for path, name in PAGES.items()]
    for feature in (games, watch, replay, reviews, analysis_board, puzzles):
        routes += feature.routes
    app = Starlette(routes=[*routes, Mount("/static", StaticFiles(directory=STATIC))],
                    middleware=[Middleware(no_store)], exception_handlers=EXCEPTION_HANDLERS,
                    lifespan=lifespan)
    state = app.state
    state.folder = Path(folder).resolve()
    state.folder.mkdir(parents=True, exist_ok=True)
    state.games = games.Games(state.folder, players, time_limit)
    state.watch = watch.FolderWatch(state.folder, sprt)
    state.analyses = games.Analyses(state.folder)
    state.boards = analysis_board.AnalysisBoards()
    state.reviews = reviews.Reviews(state.folder, state.boards.pool)
    state.puzzles = puzzles.Puzzles(state.folder)
    state.stopping = threading.Event()  # set as the server stops: the streams end
    return app


class Server:
    """The app, served by uvicorn on a socket bound beforehand: `serve_forever()` in a thread of
    its own (or the main one, where uvicorn takes Ctrl-C and SIGTERM), `shutdown()` from another."""

    def __init__(self, app: Starlette, sock: socket.socket) -> None:
        self.app, self.socket = app, sock
        self.server_address = sock.getsockname()
        self._uvicorn = uvicorn.Server(uvicorn.Config(
            app, http="h11", loop="asyncio", ws="none", lifespan="on", log_level="warning",
            log_config=None, access_log=False, server_header=False, timeout_graceful_shutdown=5))
        self._serving, self._stopped = threading.Event(), threading.Event()

    def serve_forever(self) -> None:
        """Serve until `shutdown()` (or a signal, in the main thread); the app is then closed."""
        self._serving.set()
        try:
            asyncio.run(self._serve())
        finally:
            self._stopped.set()

    async def _serve(self) -> None:
        """uvicorn, and once it is told to stop (a signal, `shutdown()`), the app's streams end
        at once, so it waits for no open page; then the lifespan closes the app."""
        serving = asyncio.create_task(self._uvicorn.serve([self.socket]))
        while not (self._uvicorn.should_exit or serving.done()):
            await asyncio.wait([serving], timeout=0.1)  # as often as uvicorn looks itself
        self.app.state.stopping.set()
        await serving

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
        return Server(create_app(folder, players, time_limit, sprt), sock)
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
