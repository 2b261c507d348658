"""Headless Chromium, driven from the command line: the page's tests, benchmark and screenshot.

No browser driver is needed: the page replays a scripted sequence of key presses and clicks
given in its URL hash and mirrors what it shows into data-* attributes, so `--dump-dom` (the
DOM after the page's own script has run) is enough to check it, and `--screenshot` to show it.
Debian's `chromium` package is expected (scripts/install_chromium.sh installs it).
"""

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import List, Optional, Tuple, Union

CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")
# Flags that work as root in a container with no network and no GPU.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio")


def find_chromium() -> Optional[str]:
    """Path of a Chromium binary, or None when none is installed."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def page_url(page: Union[str, Path], fragment: str = "") -> str:
    """file:// URL of a page, with an optional hash fragment (without the '#')."""
    url = Path(page).resolve().as_uri()
    return f"{url}#{fragment}" if fragment else url


def _run(args: List[str], timeout: float) -> str:
    binary = find_chromium()
    if binary is None:
        raise FileNotFoundError("chromium not found: run scripts/install_chromium.sh")
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        done = subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args],
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
