"""A served folder for the web app's tests: the server in a thread of the test process, on a
free port, with fast players; and a headless Chromium driven by Selenium (Debian's chromium
and chromium-driver), or the reason there is none."""

import json
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from arena.web.server import Server, make_server

PLAYERS = {
    "random": {"python": "opponents.random_player:get_point"},
    "greedy": {"python": "opponents.greedy:get_point"},
}
DRIVER = "/usr/bin/chromedriver"


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


def browser_missing() -> Optional[str]:
    """Why no browser test can run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium not installed (requirements.txt)"
    if shutil.which("chromium") is None or not Path(DRIVER).exists():
        return "chromium or chromium-driver not installed (scripts/install_chromium.sh)"
    return None


def chrome(width: int = 1400, height: int = 900) -> Any:
    """A headless Chromium under Selenium, with Debian's driver (nothing is downloaded)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)
