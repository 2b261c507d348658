"""The skips the test suite allows, each a named condition of the machine it runs on.

A test that cannot run here says why through ``skip``, ``skip_if`` or ``import_or_skip`` with
one of the names below; its reason then starts with ``allowed skip [NAME]``. tests/conftest.py
fails the run on any other skip, and on every skip where ``ARENA_NO_SKIPS=1`` (.ci/run sets
it: CI installs everything the tests need, so a skip there is a missing tool, not a condition).
``bash test.sh`` lists the skips with their reasons (pytest ``-rs``).
"""

from __future__ import annotations

import importlib
from typing import NoReturn, Optional

import pytest

ALLOWED = {
    "no chromium": "Debian's `chromium` (/usr/bin/chromium) is absent: the replay page's "
                   "browser tests (scripts/install_chromium.sh installs it)",
    "no chromedriver": "Debian's `chromium-driver` (/usr/bin/chromedriver, the driver "
                       "devtools/browser.py names), `chromium` or the `selenium` package is "
                       "absent: the web app's browser tests",
    "no Python 3.8": "no `python3.8` interpreter on the machine: the unzipped bot's game under "
                     "the oldest Python the platform may run (vermin still checks the syntax)",
    "one core": "the tests may run on one core only (sched_getaffinity): the bot ships "
                "single-core there (bot.search.fork.spare_cores), so it has no leaf worker to "
                "test",
    "not a git checkout": "the tree has no git metadata (an unpacked archive): the scans of "
                          "tracked files",
    "no setsid": "no `setsid` command (not Linux): scripts/background.sh's session",
    "no writable autogroup": "no writable /proc/self/autogroup (not Linux, or autogroup "
                             "scheduling off): scripts/background.sh's niceness of its group",
}
PREFIX = "allowed skip ["


def reason(name: str, detail: str = "") -> str:
    """The skip reason for the allowed condition ``name`` (KeyError for an unknown one)."""
    if name not in ALLOWED:
        raise KeyError(f"{name!r} is not an allowed skip condition (tests/skips.py)")
    return f"{PREFIX}{name}]" + (f": {detail}" if detail else "")


def is_allowed(message: str) -> bool:
    """Whether a skip's message names an allowed condition."""
    start = message.find(PREFIX)
    if start < 0:
        return False
    name = message[start + len(PREFIX):].split("]", 1)[0]
    return name in ALLOWED


def skip(name: str, detail: str = "") -> NoReturn:
    """Skip the current test (or module, at import) for the allowed condition ``name``."""
    pytest.skip(reason(name, detail), allow_module_level=True)


def skip_if(condition: bool, name: str, detail: str = "") -> pytest.MarkDecorator:
    """A ``skipif`` mark for the allowed condition ``name``."""
    return pytest.mark.skipif(condition, reason=reason(name, detail))


def skip_if_missing(missing: Optional[str], name: str) -> pytest.MarkDecorator:
    """A ``skipif`` mark for the allowed condition ``name`` when a probe (devtools.browser's
    ``driver_missing()``, say) said why a tool is ``missing``; None: present, no skip. The
    probe runs once, at the caller."""
    return skip_if(missing is not None, name, missing or "")


def import_or_skip(module: str, name: str) -> object:
    """``module`` imported, or a skip for the allowed condition ``name``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        skip(name, str(exc))
