"""scripts/background.sh: the command runs in a session of its own at the lowest priority."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from skips import skip_if

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "background.sh"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=30)


@skip_if(shutil.which("setsid") is None, "no setsid")
def test_the_command_runs_niced_in_a_new_session():
    done = run("python3", "-c", "import os; print(os.getsid(0), os.getpid(), os.nice(0))")
    assert done.returncode == 0, done.stderr
    sid, pid, niceness = map(int, done.stdout.split())
    assert sid == pid != os.getsid(0)  # the command leads a session of its own
    assert niceness == 19


@skip_if(not os.access("/proc/self/autogroup", os.W_OK), "no writable autogroup")
def test_the_new_session_s_autogroup_is_niced_and_ours_is_not():
    ours = Path("/proc/self/autogroup").read_text()
    done = run("cat", "/proc/self/autogroup")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["nice", "19"]
    assert Path("/proc/self/autogroup").read_text() == ours


def test_the_command_s_exit_status_is_kept():
    assert run("python3", "-c", "raise SystemExit(3)").returncode == 3


def test_without_a_command_it_says_how_to_use_it():
    done = run()
    assert done.returncode == 2
    assert "usage" in done.stderr
