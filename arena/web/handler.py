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
PING_S = 1.0  # a stream writes at least this often, so a closed tab is noticed


class Forbidden(BadRequest):
    status = 403


class Handler(BaseHTTPRequestHandler):
    """One request; `self.server.app` holds the games, the folder and the pages."""

    protocol_version = "HTTP/1.1"
    server_version = "arena-serve"

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
        """The request's JSON body; BadRequest when it is missing, too long or not JSON. A body
        left unread ends the connection after the answer: its bytes are no next request."""
        self.body_read = True
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.close_connection = True
            raise BadRequest("malformed body: no Content-Length") from None
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            raise BadRequest(f"malformed body: {length} bytes (at most {MAX_BODY})")
        raw = self.rfile.read(length)
        try:
            return json.loads(raw.decode("utf-8")) if raw else {}
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
        self.body_read = False
        try:
            handler, args = self.server.app.route(method, parts)
            handler(self, query, *args)
        except BadRequest as exc:
            self.send_text(exc.status, _one_line(str(exc)))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a bug of the server: one line out, the traceback logged
            LOG.exception("%s %s", method, self.path)
            self.send_text(500, _one_line(f"server error: {type(exc).__name__}: {exc}"))
        finally:
            self._skip_body()

    def _skip_body(self) -> None:
        """Read the body a route did not (a stop's, a refused request's), so that its bytes are
        no next request on the connection; one too long to read ends the connection."""
        if self.body_read or self.close_connection:
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if 0 <= length <= MAX_BODY:
            self.rfile.read(length)
        else:
            self.close_connection = True

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self._route("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._route("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._route("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self.send_text(405, "method not allowed")

    do_DELETE = do_PATCH = do_PUT  # noqa: N815


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300] + "\n"


Route = Tuple[Callable[..., None], Tuple[str, ...]]


def not_found(parts: Tuple[str, ...]) -> NotFound:
    return NotFound(f"no such page: /{'/'.join(parts)}")
