"""A worker's first step in a batch: check the worker, install the client's code, report
(docs/cluster.md, "What a worker needs": why this module imports only the standard library and
`distributed`, and pickles as its source text plus plain data)."""

import asyncio
import importlib
import io
import os
import shutil
import socket
import sys
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from distributed import WorkerPlugin

MIN_PYTHON = (3, 9)  # distributed's oldest; the arena's code reads 3.8 too
_REBUILD = "exec(SOURCE, globals()) or Bootstrap(STATE)"  # run by eval on the worker


def distributed_version() -> str:
    """This process's distributed, as Dask's own version check reads it (package metadata)."""
    try:
        from importlib.metadata import version

        return version("distributed")
    except Exception:  # metadata missing (a source checkout): the module's own word
        import distributed

        return str(distributed.__version__)


def version_problems(python: Sequence[int], here: str, client: str) -> List[str]:
    """What keeps a worker of this Python and this distributed from playing: one line each."""
    problems = []
    if tuple(python[:2]) < MIN_PYTHON:
        problems.append(f"Python {python[0]}.{python[1]} is too old: the arena needs "
                        f"{MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer")
    if here != client:
        problems.append(f"distributed {here} here, {client} on the client: "
                        f"pip install distributed=={client}")
    return problems


def unpack_once(data: bytes, folder: str, what: str) -> Optional[str]:
    """Extract a zip into `folder` unless a finished copy is there (the name holds the digest),
    keeping each file's permission bits; a problem line (disk full, not writable) or None."""
    if os.path.isdir(folder):
        return None
    part = folder + ".part"
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            size = sum(info.file_size for info in archive.infolist())
            parent = os.path.dirname(folder)
            os.makedirs(parent, exist_ok=True)
            free = shutil.disk_usage(parent).free
            if size > free:
                return (f"cannot unpack {what} ({_mib(size)}) in {parent}: {_mib(free)} free; "
                        "free some space or start the worker with another --local-directory")
            shutil.rmtree(part, ignore_errors=True)
            for info in archive.infolist():
                path = Path(archive.extract(info, part))
                mode = info.external_attr >> 16
                if mode:
                    path.chmod(mode)
        os.replace(part, folder)
    except (OSError, zipfile.BadZipFile) as exc:
        shutil.rmtree(part, ignore_errors=True)
        return f"cannot unpack {what} ({_mib(len(data))} zipped) in {folder}: {exc}"
    return None


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


def _inside(path: Optional[str], folder: str) -> bool:
    return path is not None and os.path.realpath(path).startswith(os.path.realpath(folder) + os.sep)


def activate(folder: str, packages: Sequence[str]) -> Any:
    """Import `arena.cluster.worker` from `folder`, never another copy of the packages (theirs
    loaded from elsewhere are dropped, and where it lands is checked: ImportError naming it)."""
    for name in list(sys.modules):
        if name.split(".")[0] in packages and not _inside(
                getattr(sys.modules[name], "__file__", None), folder):
            del sys.modules[name]
    sys.path[:] = [folder, *(p for p in sys.path if p != folder)]
    importlib.invalidate_caches()
    module = importlib.import_module("arena.cluster.worker")
    if not _inside(module.__file__, folder):
        raise ImportError(f"arena imports from {module.__file__}, not the batch's code")
    return module


class Bootstrap(WorkerPlugin):
    """One batch's plugin: `state` holds only plain data (see `client.DaskPool`), so that it
    pickles without the arena. `batch` is the worker's `BatchFiles` once setup has passed."""

    def __init__(self, state: Dict[str, Any]) -> None:
        self.state = state
        self.batch: Any = None

    def __reduce__(self) -> Tuple[Any, ...]:
        source = Path(__file__).read_text(encoding="utf-8")
        return eval, (_REBUILD, {"__name__": "arena_bootstrap", "SOURCE": source,
                                 "STATE": self.state})

    async def setup(self, worker: Any) -> None:
        state = self.state
        problems = version_problems(sys.version_info[:2], distributed_version(),
                                    state["distributed"])
        if not problems:  # unpacking and starting players block: not on the worker's loop
            problems = await asyncio.get_running_loop().run_in_executor(
                None, self._prepare, worker.local_directory)
        nthreads = getattr(getattr(worker, "state", worker), "nthreads", 1)  # older Dask: on worker
        worker.log_event(state["name"], {
            "worker": worker.address, "problems": problems, "host": socket.gethostname(),
            "cores": os.cpu_count() or 1, "nthreads": nthreads})
        if not problems:
            await worker.set_resources(**{state["name"]: nthreads})
            # A resource added later does not wake games the scheduler found no worker for
            # (all earlier workers gone); a worker that resumes work does.
            worker.status = type(worker.status).paused
            worker.status = type(worker.status).running

    def _prepare(self, local_directory: str) -> List[str]:
        """Unpack and import the arena's code, then let it unpack the batch's files and start
        each player once: the problems, one line each."""
        state = self.state
        code = os.path.join(local_directory, f"arena-code-{state['code_digest'][:16]}")
        try:
            problem = unpack_once(state["code"], code, "the arena's code")
            if problem:
                return [problem]
            worker_module = activate(code, state["packages"])
            self.batch = worker_module.BatchFiles(state["batch"], local_directory,
                                                  state["name"])
            return self.batch.prepare(state["players"], state["board"])
        except Exception as exc:  # whatever it is, one line for the client, never a traceback
            return [f"{type(exc).__name__}: {exc}"]

    def teardown(self, worker: Any) -> None:
        if self.batch is not None:
            self.batch.close()
