"""Hypothesis profiles for the property tests, and the rule on skips.

Profiles, chosen with HYPOTHESIS_PROFILE:

- ``ci`` (the default): 100 examples a unit (the tests scale it: 1,000 in all for the bot's three
  ways in), the same examples every run, so that a failure in CI is a failure of the change.
- ``thorough``: ten times as many, fresh random examples each run, failures kept in
  ``.hypothesis/`` and replayed first the next time.

Skips: a skip must name one of the allowed conditions of tests/skips.py, and with
``ARENA_NO_SKIPS=1`` (CI, .ci/run) none is allowed; either way a skip that is not allowed fails
the run (exit status 1) after the tests, listed under "skips not allowed".
"""

import os
import signal
from typing import List

import pytest
from _pytest.reports import BaseReport
from hypothesis import HealthCheck, settings
from skips import is_allowed

COMMON = dict(deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=100, derandomize=True, database=None, **COMMON)
settings.register_profile("thorough", max_examples=1000, **COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Ctrl-C as a user's terminal delivers it, whatever started the run: a shell without job control
# starts a background command with SIGINT ignored, its children inherit that, and the tests
# that interrupt a batch, a game or an analysis would see their SIGINT ignored. Python's own
# handler here means SIG_DFL in every process the tests start (exec resets a handler).
signal.signal(signal.SIGINT, signal.default_int_handler)

NO_SKIPS = os.environ.get("ARENA_NO_SKIPS") == "1"
refused: List[str] = []  # "test id: reason" of each skip not allowed in this run


def skip_message(report: BaseReport) -> str:
    """A skip report's reason (a skip carries (path, line, message) as its longrepr)."""
    longrepr = report.longrepr
    return longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)


def check_skip(report: BaseReport) -> None:
    """Remember a skip (not an expected failure) that this run does not allow."""
    if report.skipped and not hasattr(report, "wasxfail"):
        message = skip_message(report)
        if NO_SKIPS or not is_allowed(message):
            refused.append(f"{report.nodeid}: {message}")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    check_skip(report)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    check_skip(report)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if refused and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    if refused:
        why = ("ARENA_NO_SKIPS=1: no skip is allowed" if NO_SKIPS
               else "not an allowed condition of tests/skips.py")
        terminalreporter.section(f"skips not allowed ({why})", red=True)
        for line in refused:
            terminalreporter.line(line)
