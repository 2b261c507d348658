"""The rule on skips (tests/conftest.py, tests/skips.py): a run with a skip that names no
allowed condition fails, and with ARENA_NO_SKIPS=1 (CI) so does a run with an allowed one. Each
case is a small pytest run of its own under a copy of the suite's conftest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]

CASES = {
    "allowed": 'from skips import skip_if\n\n'
               '@skip_if(True, "no setsid")\ndef test_it():\n    pass\n',
    "unnamed": 'import pytest\n\n'
               '@pytest.mark.skipif(True, reason="no reason")\ndef test_it():\n    pass\n',
    "module": 'from skips import import_or_skip\n\n'
              'import_or_skip("no_such_module_here", "no chromedriver")\n\n'
              'def test_it():\n    pass\n',
}
# beside each case, as a run of one skipped module would collect nothing (exit status 5)
PASSES = 'def test_it():\n    pass\n'


def run(tmp_path: Path, case: str, no_skips: bool) -> subprocess.CompletedProcess:
    for name in ("conftest.py", "skips.py"):
        shutil.copy(TESTS / name, tmp_path / name)
    (tmp_path / "test_case.py").write_text(CASES.get(case, PASSES))
    (tmp_path / "test_passes.py").write_text(PASSES)
    env = dict(os.environ)
    env.pop("ARENA_NO_SKIPS", None)
    if no_skips:
        env["ARENA_NO_SKIPS"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("case, no_skips, status", [
    ("allowed", False, 0),
    ("module", False, 0),
    ("unnamed", False, 1),
    ("allowed", True, 1),
    ("module", True, 1),
    ("passes", True, 0),
])
def test_a_skip_fails_the_run_unless_allowed(tmp_path, case, no_skips, status):
    done = run(tmp_path, case, no_skips)
    assert done.returncode == status, done.stdout + done.stderr
    assert ("skips not allowed" in done.stdout) == (status == 1)
    if case != "passes":
        assert "SKIPPED" in done.stdout  # -rs lists it either way


def test_an_unknown_condition_is_refused_where_it_is_written():
    from skips import reason
    with pytest.raises(KeyError, match="not an allowed skip condition"):
        reason("no time")
