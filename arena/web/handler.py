"""The HTTP layer: routes, request bodies, answers and Server-Sent Event streams.

Every refusal is a 4xx with a one-line plain-text reason and changes nothing; an error of the
server itself is a 500 with one line (the traceback goes to the server's log, never to the
client). The state behind the routes is `arena.web.server.App`.
"""

import json
import logging
import time
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable, Dict, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

from arena.web.games import BadRequest, NotFound

LOG = logging.getLogger("arena.web")
MAX_BODY = 64 * 1024
BODY_METHODS = ("POST", "PUT", "PATCH")  # a request of these without a Content-Length: refused
PING_S = 1.0  # a stream writes at least this often, so a closed tab is noticed


class Forbidden(BadRequest):
    status = 403


class MethodNotAllowed(BadRequest):
    status = 405


class Handler(BaseHTTPRequestHandler):
    """One request; `self.server.app` holds the games, the folder and the pages."""

    protocol_version = "HTTP/1.1"
    server_version = "arena-serve"
    raw_body = b""  # the request's body, read by `_route`

    def log_message(self, format: str, *args: Any) -> None:
        LOG.debug("%s %s", self.address_string(), format % args)

    # ---- answers -----------------------------------------------------------------------
    def _send(self, status: int, body: bytes, kind: str,
              headers: Optional[Dict[str, str]] = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if self.close_connection:
            self.send_header("Connection", "close")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, data: Any, status: int = 200) -> None:
        self._send(status, json.dumps(data, separators=(",", ":")).encode(), "application/json")

    def send_text(self, status: int, text: str, kind: str = "text/plain; charset=utf-8") -> None:
        self._send(status, text.encode("utf-8"), kind)

    def redirect(self, where: str) -> None:
        self._send(302, b"", "text/plain", {"Location": where})

    def body(self) -> Any:
        """The request's JSON body (read by `_route` before any route runs); BadRequest when
        it is not JSON."""
        try:
            return json.loads(self.raw_body.decode("utf-8")) if self.raw_body else {}
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadRequest(f"malformed body: not JSON ({exc})") from None

    def stream(self, next_event: Callable[[], Optional[str]], done: Callable[[], bool]) -> None:
        """Server-Sent Events: `next_event()` gives the next `data` (None: nothing new) and
        blocks at most about a second; a comment line goes out when there is nothing new, so
        a closed tab is noticed within a few seconds. Ends when `done()` or the client left."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        last_write = 0.0
        try:
            while True:
                data = next_event()
                now = time.monotonic()
                if data is not None:
                    self.wfile.write(f"data: {data}\n\n".encode())
                elif now - last_write >= PING_S:
                    self.wfile.write(b": ping\n\n")
                else:
                    continue
                self.wfile.flush()
                last_write = now
                if done():
                    return
        except (BrokenPipeError, ConnectionResetError, TimeoutError, OSError):
            return

    # ---- dispatch ----------------------------------------------------------------------
    def _route(self, method: str) -> None:
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = tuple(p for p in url.path.split("/") if p)
        try:
            self.raw_body = self._read_body(method)
            if method not in ("GET", "POST"):
                raise MethodNotAllowed(f"{method} is not allowed on {url.path}")
            handler, args = self.server.app.route(method, parts)
            handler(self, query, *args)
        except BadRequest as exc:
            self.send_text(exc.status, _one_line(str(exc)))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a bug of the server: one line out, the traceback logged
            LOG.exception("%s %s", method, self.path)
            self.send_text(500, _one_line(f"server error: {type(exc).__name__}: {exc}"))

    def _read_body(self, method: str) -> bytes:
        """The request's body, read whole before any route runs, so that its bytes are never
        taken for a next request on the connection. One without a length (on a method that
        carries a body) or over MAX_BODY bytes is refused, and the connection ends after
        the answer: its bytes are left unread."""
        length_field = self.headers.get("Content-Length")
        if length_field is None and method not in BODY_METHODS:
            return b""
        try:
            length = int(length_field or "")
        except ValueError:
            self.close_connection = True
            raise BadRequest("malformed body: no Content-Length") from None
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            raise BadRequest(f"malformed body: {length} bytes (at most {MAX_BODY})")
        return self.rfile.read(length)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self._route("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._route("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._route("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._route("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._route("DELETE")

    def do_PATCH(self) -> None:  # noqa: N802
        self._route("PATCH")


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300] + "\n"


Route = Tuple[Callable[..., None], Tuple[str, ...]]


def not_found(parts: Tuple[str, ...]) -> NotFound:
    return NotFound(f"no such page: /{'/'.join(parts)}")
