"""A served folder for the web app's tests: the server in a thread of the test process, on a
port the operating system chose, with fast players; and a game followed as its page follows
it (its event stream), so that a test waits for the pushed state it needs."""

import http.client
import json
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from arena.core.rules import Grid
from arena.web.server import Server, make_server
from records.player import PlayerSpec

PLAYERS = {name: PlayerSpec.parse({"python": target}, name) for name, target in (
    ("random", "opponents.random_player:get_point"), ("greedy", "opponents.greedy:get_point"))}


class Served:
    """A running server; `url(path)` and `call(method, path, body)` reach it."""

    def __init__(self, folder: Path, players: Optional[Dict[str, Any]] = None) -> None:
        self.server: Server = make_server(folder, players or PLAYERS, port=0, time_limit=3.0)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return self.base + path

    def call(self, method: str, path: str, body: Any = None,
             raw: Optional[bytes] = None) -> Tuple[int, str]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url(path), data=data, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()

    def close(self) -> None:
        self.server.shutdown()  # the app too: its streams end, its games are abandoned
        self.server.server_close()
        self.thread.join(timeout=30)


State = Dict[str, Any]


def new_game(served: Served, **body: Any) -> State:
    """A game against random (seed 5 unless told), created as the play page creates one."""
    status, text = served.call("POST", "/api/games", {"opponent": "random", "seed": 5, **body})
    assert status == 201, text
    return json.loads(text)


def your_turn(state: State) -> bool:
    """Whether the person is to move (or the game is over: nothing more will come)."""
    return state["your_turn"] or state["over"]


class Followed:
    """A game followed through its event stream, read in a thread, as a page follows it: a
    followed game is never abandoned, and `next(ready)` waits for the pushed state it needs."""

    def __init__(self, served: Served, game_id: str, timeout: float = 60.0) -> None:
        self.game_id, self.timeout = game_id, timeout
        # a socket of its own, so that close() can end the reader's wait by shutting it
        self._sock = socket.create_connection(served.server.server_address[:2], timeout)
        conn = http.client.HTTPConnection(*served.server.server_address[:2], timeout=timeout)
        conn.sock = self._sock
        conn.request("GET", f"/api/games/{game_id}/events")
        self._answer = conn.getresponse()
        self._changed = threading.Condition()
        self._states: List[State] = []
        self._taken = 0  # states already looked at by next()
        self._ended = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for line in self._answer:
                if line.startswith(b"data: "):
                    with self._changed:
                        self._states.append(json.loads(line[6:]))
                        self._changed.notify_all()
        except (OSError, http.client.HTTPException):
            pass  # the socket was shut under the reader (close())
        finally:
            self._answer.close()
            self._sock.close()
            with self._changed:
                self._ended = True
                self._changed.notify_all()

    def next(self, ready: Callable[[State], bool]) -> State:
        """The first state pushed since the last call for which `ready(state)` holds; an
        AssertionError when the stream ends or `timeout` seconds pass without one."""
        found: List[State] = []

        def arrived() -> bool:
            while not found and self._taken < len(self._states):
                self._taken += 1
                if ready(self._states[self._taken - 1]):
                    found.append(self._states[self._taken - 1])
            return bool(found) or self._ended

        with self._changed:
            self._changed.wait_for(arrived, self.timeout)
            if not found:
                raise AssertionError(f"game {self.game_id} never got there: "
                                     f"{self._states[-1] if self._states else None}")
            return found[0]

    def close(self) -> None:
        """Leave the game, as a closed tab does."""
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the server had already ended the stream
        self._thread.join(timeout=self.timeout)

    def __enter__(self) -> "Followed":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def play_to_the_end(served: Served, game_id: str) -> List[State]:
    """Play the person's side of a game, the leftmost open column each move, following it as
    its page does; the states seen at each of the person's turns, the final one last."""
    seen = []
    with Followed(served, game_id) as game:
        while True:
            state = game.next(your_turn)
            seen.append(state)
            if state["over"]:
                return seen
            board = Grid(state["M"], state["N"], state["no_x"], state["no_y"])
            for ply, (x, y) in enumerate(state["moves"]):
                board.play(x, y, ply % 2 + 1)
            column = next(y for y in range(state["N"]) if board.top[y] > 0)
            status, text = served.call("POST", f"/api/games/{game_id}/move",
                                       {"column": column, "ply": len(state["moves"])})
            assert status == 200, text
