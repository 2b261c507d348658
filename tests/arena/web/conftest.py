"""The web app's tests share a served folder (`served`, one per test) and, for the browser
tests, one headless Chromium a module (`browser`)."""

import pytest
from web_server import Served

from devtools.browser import chrome


@pytest.fixture()
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


@pytest.fixture(scope="module")
def browser():
    driver = chrome()
    yield driver
    driver.quit()
