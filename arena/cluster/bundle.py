"""What a batch ships to its workers (docs/cluster.md, "What a worker needs"): the arena's code,
the batch's folder, every `.so` a spec names, and specs with paths relative to the bundle."""

import hashlib
import importlib
import io
import os
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Dict, Optional, Set, Tuple

from records.player import PlayerKind, PlayerSpec

SKIP_DIRS = {".git", ".hg", ".venv", "venv", "__pycache__", ".pytest_cache", ".ruff_cache",
             ".mypy_cache", ".hypothesis", "node_modules", "results", "compete_result", "docs",
             "tests"}
SKIP_SUFFIXES = (".pyc", ".pyo")
MAX_BYTES = 256 * 1024 * 1024
CODE_PACKAGES = ("arena", "records")  # all a worker imports from this project to play a game


class BundleError(Exception):
    """The batch's files cannot be shipped (too large, a player's file missing)."""


@dataclass(frozen=True)
class Bundle:
    """What goes to every worker: a zip (None with a shared file system) and portable specs."""

    name: str
    data: Optional[bytes]
    root: str  # the client's folder: where a shared file system has the files
    specs: Dict[str, Dict[str, Any]]  # each a PlayerSpec's YAML form (PlayerSpec.to_dict)


def _portable_spec(spec: PlayerSpec, root: Path, named: Dict[str, Path]) -> Dict[str, Any]:
    """The spec's YAML form, a `.so` path made relative to root (or under _external/); the file
    goes into `named`, so it ships even from a folder that is otherwise skipped."""
    if spec.kind is not PlayerKind.SO:
        return spec.to_dict()
    path = (root / spec.target).resolve()
    if not path.is_file():
        raise BundleError(f"player file {spec.target} does not exist")
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        rel = f"_external/{len(named)}/{path.name}"
    named[rel] = path
    return replace(spec, target=rel).to_dict()


def _walk(root: Path, skip: Set[Path]) -> Dict[str, Path]:
    """Files under root, by relative POSIX path, less the skipped folders and compiled Python."""
    files: Dict[str, Path] = {}
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and here / d not in skip)
        for name in sorted(names):
            if not name.endswith(SKIP_SUFFIXES):
                files[(here / name).relative_to(root).as_posix()] = here / name
    return files


def make_bundle(specs: Dict[str, PlayerSpec], root: Path, shared_fs: bool,
                skip: Set[Path]) -> Bundle:
    """Pack root (less `skip`, e.g. the batch's output folder) for the workers of one batch."""
    root = root.resolve()
    named: Dict[str, Path] = {}
    portable = {name: _portable_spec(spec, root, named) for name, spec in specs.items()}
    if shared_fs:
        digest = hashlib.sha256(repr(sorted(portable.items())).encode()).hexdigest()
        return Bundle(f"arena-shared-{digest[:12]}", None, str(root), portable)
    files = _walk(root, {p.resolve() for p in skip})
    files.update(named)
    size = sum(_size(p) for p in files.values())
    if size > MAX_BYTES:
        raise BundleError(f"{root} holds {size // 2**20} MiB to ship to the workers (limit "
                          f"{MAX_BYTES // 2**20} MiB); run from the project folder or set "
                          "shared_fs: true")
    data = _zip(files)
    return Bundle(f"arena-files-{hashlib.sha256(data).hexdigest()[:12]}", data, str(root),
                  portable)


@dataclass(frozen=True)
class CodeBundle:
    """The arena's own modules as the client runs them; `digest` names this version."""

    digest: str
    data: bytes
    packages: Tuple[str, ...]


def code_bundle() -> CodeBundle:
    """Zip the client's CODE_PACKAGES from where the client imports them (a checkout or an
    install alike): the same files give the same digest, so a worker unpacks a version once."""
    files: Dict[str, Path] = {}
    for name in CODE_PACKAGES:
        init = importlib.import_module(name).__file__
        assert init is not None  # each is a regular package, with an __init__.py
        folder = Path(init).parent
        files.update({f"{name}/{rel}": path for rel, path in _walk(folder, set()).items()})
    data = _zip(files)
    return CodeBundle(hashlib.sha256(data).hexdigest(), data, CODE_PACKAGES)


def _size(path: Path) -> int:
    """A walked file's size; 0 for one gone since the walk (a tool's cache file, say)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _zip(files: Dict[str, Path]) -> bytes:
    """A zip of these files that depends on their contents and modes only (no times); a file
    gone since the walk (another program's temporary file) was never the batch's."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for rel, path in sorted(files.items()):
            try:
                mode, data = path.stat().st_mode, path.read_bytes()
            except FileNotFoundError:
                continue
            info = zipfile.ZipInfo(rel, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (mode & 0o777) << 16  # keep scripts executable
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()
