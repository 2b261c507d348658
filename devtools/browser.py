"""Headless Chromium, the one browser driver of the pages' tests, benchmarks and screenshots.

Debian's `chromium` and `chromium-driver`, named by their paths (scripts/install_chromium.sh
installs them), with one set of flags that work as root in a container with no network and no
GPU; nothing is downloaded. The replay page needs no driver: it replays a scripted sequence of
key presses and clicks given in its URL hash and mirrors what it shows into data-* attributes,
so the browser's own `--dump-dom` (the DOM after the page's script has run) is enough to check
it, and `--screenshot` to show it. The play and watch pages are live (a click, a pushed
update), so they are driven by Selenium (requirements.txt) through `chromedriver`.
"""

import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, List, Optional, Tuple, Union

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--mute-audio")
INSTALL = "run scripts/install_chromium.sh"
CELL = 44  # a board's cell in pixels: arena/web/static/play.js ({cell: 44}) and analyse.js (CELL)


def chromium_missing() -> Optional[str]:
    """Why Chromium cannot run here, or None."""
    return None if Path(CHROMIUM).is_file() else f"{CHROMIUM} not found: {INSTALL}"


def driver_missing() -> Optional[str]:
    """Why no browser can be driven here (Chromium, its driver or selenium absent), or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium not installed (pip install -r requirements.txt)"
    if not Path(DRIVER).is_file():
        return f"{DRIVER} not found: {INSTALL}"
    return chromium_missing()


def page_url(page: Union[str, Path], fragment: str = "") -> str:
    """file:// URL of a page, with an optional hash fragment (without the '#')."""
    url = Path(page).resolve().as_uri()
    return f"{url}#{fragment}" if fragment else url


def _run(args: List[str], timeout: float) -> str:
    missing = chromium_missing()
    if missing:
        raise FileNotFoundError(missing)
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout, check=True)
    return done.stdout


def dump_dom(page: Union[str, Path], fragment: str = "", timeout: float = 60.0) -> str:
    """The page's DOM, serialised, after its script ran with the given hash fragment."""
    return _run(["--dump-dom", page_url(page, fragment)], timeout)


def screenshot(page: Union[str, Path], out: Union[str, Path], fragment: str = "",
               size: Tuple[int, int] = (1400, 900), timeout: float = 60.0) -> Path:
    """Save a PNG of the page at the given window size (pixels, width x height)."""
    out = Path(out).resolve()
    _run([f"--screenshot={out}", f"--window-size={size[0]},{size[1]}",
          page_url(page, fragment)], timeout)
    return out


def chrome(width: int = 1400, height: int = 900) -> Any:
    """A headless Chromium window of the given size (pixels) under Selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--window-size={width},{height}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def at_column(driver: Any, board: Any, column: int, click: bool = True,
              top_row: bool = False) -> None:
    """A real mouse move over ``column`` of a page's board, at the board's mid-height or,
    with ``top_row``, over the column's top cell (the analysis board has a band of figures
    under its cells), then a click unless ``click`` is False. The board is an SVG element
    whose columns are CELL pixels wide, the first one's middle CELL from its left edge;
    Selenium offsets from the element's middle."""
    from selenium.webdriver.common.action_chains import ActionChains

    width = float(board.get_attribute("width"))
    top = CELL - float(board.get_attribute("height")) / 2 if top_row else 0
    chain = ActionChains(driver).move_to_element_with_offset(
        board, CELL * (column + 1) - width / 2, top)
    (chain.click() if click else chain).perform()


def wait_for(driver: Any, script: str, timeout: float = 60.0, poll: float = 0.05) -> Any:
    """The value of the JavaScript expression `script` once it is truthy, looked at every
    `poll` seconds; TimeoutError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script("return " + script)
        if value:
            return value
        time.sleep(poll)
    raise TimeoutError(f"never true within {timeout} s: {script}")
