"""A virtual environment with only `distributed` installed, as `pip install distributed` makes
one on a lab machine: no project, no numpy, nothing the arena's own venv adds.

Built offline in a fraction of a second: `python -m venv --without-pip`, then a link in its
site-packages to each installed distribution `distributed` requires (its requirement closure,
the same files pip would install). `distributed_version` builds one that reports another
version of distributed (its metadata rewritten), for the version check.
"""

import re
import shutil
import subprocess
import sys
from importlib.metadata import Distribution, distribution
from pathlib import Path
from typing import Dict, Optional

from packaging.requirements import Requirement


def requirement_closure(name: str) -> Dict[str, Distribution]:
    """The installed distributions `name` needs, itself included, by canonical name."""
    found: Dict[str, Distribution] = {}
    todo = [name]
    while todo:
        key = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if key in found:
            continue
        dist = found[key] = distribution(key)
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return found


def build(folder: Path, distributed_version: Optional[str] = None) -> Path:
    """A venv at `folder` with distributed and its requirements only; its `bin/dask` is the
    command a user runs. The venv's python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    site = next(folder.glob("lib/python*/site-packages"))
    for dist in requirement_closure("distributed").values():
        tops = {Path(f).parts[0] for f in dist.files or ()} - {"..", "__pycache__"}
        assert tops, f"{dist.metadata['Name']}: no file list to link"
        for top in tops:
            source = Path(dist.locate_file(top))
            if source.exists() and not (site / top).exists():
                (site / top).symlink_to(source)
    if distributed_version is not None:
        _fake_version(site, distributed_version)
    python = folder / "bin" / "python"
    dask = folder / "bin" / "dask"
    dask.write_text(f"#!{python}\nimport sys\nfrom dask.__main__ import main\n"
                    "if __name__ == '__main__':  # worker processes re-import this script\n"
                    "    sys.exit(main())\n")
    dask.chmod(0o755)
    return python


def _fake_version(site: Path, version: str) -> None:
    """distributed's metadata says `version` (the code stays): what Dask's version check and
    the arena's read."""
    info = next(site.glob("distributed-*.dist-info"))
    real = info.resolve()
    info.unlink()
    shutil.copytree(real, info)
    metadata = info / "METADATA"
    metadata.write_text(re.sub(r"(?m)^Version: .*$", f"Version: {version}",
                               metadata.read_text()))
