"""The web app's request bodies at their limits (arena/web/asgi.py): a body over MAX_BODY
bytes and a body without a Content-Length are refused with a 4xx and one line, and the
connection closes, so the unread body is never taken for a next request; a PUT's body is
passed over by its length (h11's framing) after its 405, so the next request on a kept-alive
connection is answered as itself.

Header names are compared as HTTP compares them, whatever their case (RFC 9110, 5.1): their
case is the server's choice (uvicorn's h11 writes `connection: close`), and a client sees the
same answer and the same closed connection in any case."""

import socket

import pytest
from web_server import Served

from arena.web.asgi import MAX_BODY


def exchange(served: Served, head: str, body: bytes) -> bytes:
    """Send one raw request; everything the server sends until it closes the connection (or
    until 5 s pass: a server waiting for a next request on it)."""
    port = int(served.base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        answer = b""
        try:
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    return answer
                answer += chunk
        except ConnectionResetError:  # closed with the body unread: the answer came first
            return answer
        except socket.timeout:
            return answer + b"<still open>"


@pytest.mark.parametrize("length, body, words", [
    (f"Content-Length: {MAX_BODY + 1}\n", b"x" * (MAX_BODY + 1), f"at most {MAX_BODY}"),
    ("", b'{"opponent": "random"}', "no Content-Length"),
], ids=["over the limit", "no Content-Length"])
def test_a_body_over_the_limit_or_without_a_length_is_one_line_and_the_end(served, length,
                                                                            body, words):
    answer = exchange(served, f"POST /api/games HTTP/1.1\nHost: test\n{length}", body)
    head, _, text = answer.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    assert 400 <= status < 500, answer[:300]
    assert answer.count(b"HTTP/1.") == 1, answer[:600]  # one answer, then the connection closed
    assert b"connection: close" in head.lower().split(b"\r\n")
    assert not text.endswith(b"<still open>")
    line = text.decode()
    assert words in line and "\n" not in line.rstrip("\n"), line


def test_a_put_with_a_body_is_refused_and_its_body_is_no_next_request(served):
    body = b'{"opponent": "random"}'
    head = f"PUT /api/games HTTP/1.1\nHost: test\nContent-Length: {len(body)}\n"
    following = b"GET /api/opponents HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    answer = exchange(served, head, body + following)
    assert answer.startswith(b"HTTP/1.1 405 "), answer[:300]
    assert answer.count(b"HTTP/1.1 ") == 2 and b"HTTP/1.1 200 " in answer, answer[:600]
    assert b'"players"' in answer and not answer.endswith(b"<still open>")
