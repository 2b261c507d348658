"""A served folder for the web app's tests: the server in a thread of the test process, on a
free port, with fast players."""

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

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
        self.server.shutdown()
        self.server.app.close()
        self.server.server_close()
