"""The HTTP layer, on Starlette: routes, request bodies, one-line answers and Server-Sent Event
streams (docs/web.md, "How it works"). A handler is a plain method of `arena.web.server.App`
taking a `Call` and the path's fields; it blocks (a game's lock, the log, an engine's pipe), so
`route` reads the body first, then runs it in Starlette's thread pool.
"""

import json
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable, ContextManager, Dict, Mapping, Optional
from urllib.parse import parse_qs

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.convertors import StringConvertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arena.web.games import BadRequest

LOG = logging.getLogger("arena.web")
MAX_BODY = 64 * 1024
BODY_METHODS = ("POST", "PUT", "PATCH")  # a request of these without a Content-Length: refused
PING_S = 1.0  # a stream writes at least this often, so a connection gone dead is noticed
NO_STORE = (b"cache-control", b"no-store")


class Forbidden(BadRequest):
    status = 403


def served_path(folder: Path, relative: str) -> Path:
    """A path a client names, resolved inside the served ``folder``; Forbidden outside it."""
    path = (folder / relative).resolve()
    if not path.is_relative_to(folder):
        raise Forbidden(f"{relative}: a path outside the served folder")
    return path


class BodyRefused(BadRequest):
    """A body the server will not read (no length given, or too long): the connection closes
    after the answer, so its bytes are never taken for a next request."""


class SessionId(StringConvertor):
    """An analysis session's id in a path: any segment but the names of the routes beside it,
    so `POST /api/analysis/events` is a 405, not a session named "events"."""

    regex = "(?!(?:events|paste|position)$)[^/]+"


register_url_convertor("session", SessionId())


@dataclass(frozen=True)
class Call:
    """A request as a handler sees it: its query (the last value of each name; blank ones left
    out) and its body, read whole before the handler runs."""

    query: Dict[str, str]
    raw_body: bytes = b""

    def body(self) -> Any:
        """The body as JSON (nothing: {}); BadRequest when it is not JSON."""
        try:
            return json.loads(self.raw_body.decode("utf-8")) if self.raw_body else {}
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadRequest(f"malformed body: not JSON ({exc})") from None


class NoStore:
    """Every answer says `Cache-Control: no-store` (the router's own redirects included): a
    page's state is the server's, never a cache's."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                if NO_STORE not in headers:
                    message = {**message, "headers": headers + [NO_STORE]}
            await send(message)

        await self.app(scope, receive, send_no_store)


def text(status: int, body: str, kind: str = "text/plain; charset=utf-8",
         headers: Optional[Mapping[str, str]] = None) -> Response:
    return Response(body, status, headers, kind)


def send_json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data, separators=(",", ":")), status, None, "application/json")


def one_line(reason: str) -> str:
    return " ".join(reason.split())[:300] + "\n"


async def refused(request: Request, exc: Exception) -> Response:
    """A BadRequest (or one of its kinds) raised by a handler: its status and its line."""
    assert isinstance(exc, BadRequest)
    close = {"Connection": "close"} if isinstance(exc, BodyRefused) else None
    return text(exc.status, one_line(str(exc)), headers=close)


async def not_routed(request: Request, exc: Exception) -> Response:
    """The router's refusals: no route for the path (404), or not for its method (405)."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        path = "/".join(p for p in request.url.path.split("/") if p)
        return text(404, one_line(f"no such page: /{path}"))
    if exc.status_code == 405:
        return text(405, one_line(f"{request.method} is not allowed on {request.url.path}"))
    return text(exc.status_code, one_line(exc.detail))


async def server_error(request: Request, exc: Exception) -> Response:
    """A bug of the server: one line out, the traceback to the log (raised outside a handler,
    it is answered outside `NoStore`: the header is its own)."""
    LOG.error("%s %s", request.method, request.url.path, exc_info=exc)
    return text(500, one_line(f"server error: {type(exc).__name__}: {exc}"),
                headers={"Cache-Control": "no-store"})


EXCEPTION_HANDLERS = {BadRequest: refused, HTTPException: not_routed, Exception: server_error}


async def read_body(request: Request) -> bytes:
    """The request's body, never more than MAX_BODY bytes of it: one without a length (on a
    method that carries a body) or longer is refused unread (BodyRefused)."""
    length_field = request.headers.get("content-length")
    if length_field is None and request.method not in BODY_METHODS:
        return b""
    try:
        length = int(length_field or "")
    except ValueError:
        raise BodyRefused("malformed body: no Content-Length") from None
    if not 0 <= length <= MAX_BODY:
        raise BodyRefused(f"malformed body: {length} bytes (at most {MAX_BODY})")
    try:  # h11 frames the body by its length: never more than it
        return await request.body()
    except ClientDisconnect:
        raise BodyRefused("malformed body: the connection closed before its end") from None


def route(path: str, handler: Callable[..., Response], method: str = "GET") -> Route:
    """The route of ``handler`` (``handler(call, **path fields)``) for one method; another
    method on its path is a 405."""

    async def endpoint(request: Request) -> Response:
        call = Call({k: v[-1] for k, v in parse_qs(request.url.query).items()},
                    await read_body(request))
        try:
            return await run_in_threadpool(handler, call, **request.path_params)
        except BadRequest:
            raise
        except Exception as exc:  # answered here: Starlette's last handler raises it on to
            return await server_error(request, exc)  # uvicorn, which closes the connection

    return Route(path, endpoint, methods=[method])


class EventStream(StreamingResponse):
    """A StreamingResponse that closes its events' generator (its cleanup run) however it ends."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):
                await self.body_iterator.aclose()  # type: ignore[attr-defined]


def event_stream(stop: threading.Event, feed: ContextManager[Callable[[], Optional[str]]],
                 done: Callable[[], bool] = lambda: False) -> Response:
    """Server-Sent Events: entering ``feed`` gives ``next_event``, which blocks at most about
    a second (in the thread pool) for the next `data` (None: nothing new). The stream ends
    after an event when `done()`, when the client leaves or when ``stop`` is set; ``feed`` is
    then left in the thread pool (a page's engine is killed there)."""

    async def events() -> AsyncIterator[str]:
        next_event = feed.__enter__()  # quick, in the loop: a watcher counted, a session opened
        try:
            last_write = 0.0
            while not stop.is_set():
                data = await run_in_threadpool(next_event)
                now = time.monotonic()
                if data is not None:
                    yield f"data: {data}\n\n"
                elif now - last_write >= PING_S:
                    yield ": ping\n\n"
                else:
                    continue
                last_write = now
                if done():
                    return
        finally:  # the client left, the server stops, or done(); cancelled or not, it runs
            with anyio.CancelScope(shield=True):
                await run_in_threadpool(feed.__exit__, None, None, None)

    return EventStream(events(), media_type="text/event-stream")
