"""The HTTP layer on Starlette (docs/web.md, "How it works"): one-line refusals, the body and
query checks, routes to handlers that block (run in the thread pool once the body is read) and
Server-Sent Event streams."""

import asyncio
import json
import logging
import threading
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Dict, Iterator, List, Mapping, Optional, Tuple
from urllib.parse import parse_qs

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders, State
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from records.board import Board, BoardError

LOG = logging.getLogger("arena.web")
MAX_BODY = 64 * 1024
BODY_METHODS = ("POST", "PUT", "PATCH")  # a request of these without a Content-Length: refused
PING_S = 1.0  # a stream writes at least this often, so a connection gone dead is noticed


class BadRequest(ValueError):
    """A request the server refuses; its message is the one-line reason the client gets."""

    status = 400


class Conflict(BadRequest):
    """A well-formed request that the state refuses (out of turn, a full column)."""

    status = 409


class NotFound(BadRequest):
    status = 404


class Forbidden(BadRequest):
    status = 403


class BodyRefused(BadRequest):
    """A body the server will not read (no length given, or too long): the connection closes
    after the answer, so its bytes are never taken for a next request."""


def served_path(folder: Path, relative: str, is_file: bool = False) -> Path:
    """A path a client names, resolved inside the served ``folder``; Forbidden outside it,
    NotFound when ``is_file`` and it is not a file."""
    path = (folder / relative).resolve()
    if not path.is_relative_to(folder):
        raise Forbidden(f"{relative}: a path outside the served folder")
    if is_file and not path.is_file():
        raise NotFound(f"{relative}: no such file in the served folder")
    return path


KINDS = {int: "a whole number", str: "a text", list: "a list", dict: "an object"}


def fields(body: Any, *others: str, **kinds: type) -> List[Any]:
    """The values of a request body's fields named in ``kinds``, in their order, each of its
    kind (int: a whole number, never true or false); ``others``: the optional fields it may
    carry besides, any other field refused when they are given. BadRequest naming the first
    field missing, of another kind or unknown (or a body not a JSON object)."""
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = sorted(set(body) - set(kinds) - set(others)) if others else []
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}")
    for name, kind in kinds.items():
        value = body.get(name)
        if isinstance(value, bool) or not isinstance(value, kind):
            got = f"{value!r:.40}" if name in body else "nothing"
            raise BadRequest(f"{name}: expected {KINDS[kind]}, got {got}")
    return [body[name] for name in kinds]


def number(body: Mapping[str, Any], key: str, kind: type, low: float, high: float,
           above: bool = False) -> Any:
    """A number of a request's body (``kind`` int: a whole one) within ``low``..``high``, or
    above ``low`` when ``above``; BadRequest naming the field and its bounds otherwise."""
    value = body.get(key)
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not (low < value if above else low <= value) or not value <= high
            or (kind is int and value != int(value))):
        bounds = "..".join(f"{b:g}" if isinstance(b, float) else str(b) for b in (low, high))
        raise BadRequest(f"{key}: {'a whole number' if kind is int else 'a number'} within "
                         f"{bounds}, got {value!r}")
    return kind(value)


@contextmanager
def bad_request(*kinds: type[Exception], prefix: str = "") -> Iterator[None]:
    """An error of ``kinds`` raised inside, as a BadRequest saying its message after ``prefix``."""
    try:
        yield
    except kinds as exc:
        raise BadRequest(prefix + str(exc)) from None


def board_of(value: Any) -> Board:
    """The board a request names as [M, N, no_x, no_y]; BadRequest with the reason otherwise."""
    with bad_request(BoardError):
        return Board.from_list(value)


@dataclass(frozen=True)
class Call:
    """A request as a handler sees it: its query (the last value of each name; blank ones left
    out), its body, read whole before the handler runs, and the app's state (its features)."""

    query: Dict[str, str]
    raw_body: bytes
    state: State

    def body(self) -> Any:
        """The body as JSON (nothing: {}); BadRequest when it is not JSON."""
        try:
            return json.loads(self.raw_body.decode("utf-8")) if self.raw_body else {}
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadRequest(f"malformed body: not JSON ({exc})") from None


def no_store(app: ASGIApp) -> ASGIApp:
    """The app whose every answer says `Cache-Control: no-store` (the router's own redirects
    included): a page's state is the server's, never a cache's."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)["cache-control"] = "no-store"
            await send(message)

        await app(scope, receive, send_no_store)

    return wrapped


def one_line(status: int, reason: str, headers: Optional[Mapping[str, str]] = None) -> Response:
    return PlainTextResponse(" ".join(reason.split())[:300] + "\n", status, headers)


async def refused(request: Request, exc: Exception) -> Response:
    """A BadRequest (or one of its kinds) raised by a handler: its status and its line."""
    assert isinstance(exc, BadRequest)
    close = {"Connection": "close"} if isinstance(exc, BodyRefused) else None
    return one_line(exc.status, str(exc), close)


async def not_routed(request: Request, exc: Exception) -> Response:
    """The router's refusals: no route or static file for the path (404), or not for its
    method (405)."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        path = "/".join(p for p in request.url.path.split("/") if p)
        what = "file" if path.startswith("static/") else "page"
        return one_line(404, f"no such {what}: /{path}")
    if exc.status_code == 405:
        return one_line(405, f"{request.method} is not allowed on {request.url.path}")
    return one_line(exc.status_code, exc.detail)


async def server_error(request: Request, exc: Exception) -> Response:
    """A bug of the server: one line out, the traceback to the log (raised outside a handler,
    it is answered outside `no_store`: the header is its own)."""
    LOG.error("%s %s", request.method, request.url.path, exc_info=exc)
    return one_line(500, f"server error: {type(exc).__name__}: {exc}",
                    {"Cache-Control": "no-store"})


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
                    await read_body(request), request.app.state)
        try:
            return await run_in_threadpool(handler, call, **request.path_params)
        except BadRequest:
            raise
        except Exception as exc:  # answered here: Starlette's last handler raises it on to
            return await server_error(request, exc)  # uvicorn, which closes the connection

    return Route(path, endpoint, methods=[method])


class Changes:
    """A version that threads bump (`bump()`: a game moved) and streams await in the event
    loop (`wait`), each stream woken by the loop's own call, none holding a thread."""

    def __init__(self) -> None:
        self.version = 0
        self._waiting: List[Tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def bump(self) -> None:
        self.version += 1  # before the waiters are looked at: `wait` adds its own first
        for loop, event in list(self._waiting):
            with suppress(RuntimeError):  # its loop closed: the server stopped
                loop.call_soon_threadsafe(event.set)

    async def wait(self, seen: int, timeout: float) -> int:
        """The version once it is not ``seen`` (at once if so), or after ``timeout`` seconds."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        self._waiting.append(waiter)
        try:
            if self.version == seen:
                with suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(waiter[1].wait(), timeout)
        finally:
            self._waiting.remove(waiter)
        return self.version


class EventStream(StreamingResponse):
    """Server-Sent Events: each `data` that ``events`` yields (None: nothing new; it yields at
    least every PING_S seconds). The stream ends when ``events`` does, when the client leaves
    or when the server stops; ``events`` is then closed, cancelled or not (a page's engine is
    killed)."""

    def __init__(self, call: Call, events: AsyncIterator[Optional[str]]) -> None:
        super().__init__(self._lines(call.state.stopping, events), media_type="text/event-stream")
        self.events = events

    @staticmethod
    async def _lines(stopping: threading.Event,
                     events: AsyncIterator[Optional[str]]) -> AsyncIterator[str]:
        last_write = 0.0
        async for data in events:
            if stopping.is_set():
                return
            now = time.monotonic()
            if data is not None:
                yield f"data: {data}\n\n"
            elif now - last_write >= PING_S:
                yield ": ping\n\n"
            else:
                continue
            last_write = now

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):
                await self.events.aclose()  # type: ignore[attr-defined]
