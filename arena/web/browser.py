"""Headless Chromium driven by Selenium, for the web app's tests, benchmark and screenshots.

The play and watch pages are live (a click, a pushed update), so unlike the replay page's
`--dump-dom` they need a real driver: Debian's `chromium` and `chromium-driver` with the
`selenium` package (scripts/install_chromium.sh, requirements.txt). Nothing is downloaded: the
driver is named by its path, so Selenium's own driver manager never runs.
"""

import shutil
import time
from pathlib import Path
from typing import Any, Optional

DRIVER = "/usr/bin/chromedriver"


def browser_missing() -> Optional[str]:
    """Why no browser can be driven here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium not installed (pip install -r requirements.txt)"
    if shutil.which("chromium") is None or not Path(DRIVER).exists():
        return "chromium or chromium-driver not installed (scripts/install_chromium.sh)"
    return None


def chrome(width: int = 1400, height: int = 900) -> Any:
    """A headless Chromium window of the given size (pixels) under Selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


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
