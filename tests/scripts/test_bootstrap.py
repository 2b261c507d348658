"""scripts/bootstrap.sh, the first step of the README's two commands, needs python3 and the
POSIX tools only: on a PATH without GNU's sha256sum (a Mac's) it still tells a current venv
from a stale one, by the same digest as before, so a current one is used as it is."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HIDDEN = {"sha256sum", "shasum"}  # GNU's and the Mac's: the script needs neither


def path_without_hashers(folder: Path) -> str:
    """A PATH of one folder that links every program of /usr/bin and /bin but HIDDEN."""
    folder.mkdir()
    for source in (Path("/usr/bin"), Path("/bin")):
        for program in source.iterdir():
            link = folder / program.name
            if program.name not in HIDDEN and not link.exists() and os.access(program, os.X_OK):
                link.symlink_to(program)
    return str(folder)


def test_a_current_venv_is_used_as_it_is_without_sha256sum(tmp_path):
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "bootstrap.sh", root / "scripts")
    for name in ("requirements.txt", "pyproject.toml"):
        shutil.copy(ROOT / name, root)
    venv = root / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    stamp = venv / ".installed.sha"
    # the digest `cat requirements.txt pyproject.toml | sha256sum` wrote: a venv made before
    # is current still
    digest = hashlib.sha256((root / "requirements.txt").read_bytes()
                            + (root / "pyproject.toml").read_bytes()).hexdigest()
    stamp.write_text(digest + "\n")
    before = stamp.stat().st_mtime_ns
    path = path_without_hashers(tmp_path / "bin")
    assert shutil.which("sha256sum", path=path) is None and shutil.which("bash", path=path)
    done = subprocess.run(["bash", str(root / "scripts" / "bootstrap.sh")], capture_output=True,
                          text=True, env={"PATH": path, "HOME": str(tmp_path)}, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"{venv}/bin/python\n"
    assert stamp.stat().st_mtime_ns == before, "a current venv was installed again"
