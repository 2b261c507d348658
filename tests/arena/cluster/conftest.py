"""Fixtures of the cluster tests: a virtual environment with only `distributed`, a command only
some workers can start, and real Dask clusters on loopback (dask_processes.py starts them):
one shared by a module's tests that leave it as they found it, and a fresh one for a test that
kills one of its workers."""

import os
import subprocess
from pathlib import Path
from typing import Dict, Iterator

import pytest
import worker_env
from dask_processes import DaskCluster, dask_cluster_in


@pytest.fixture(scope="session")
def only_distributed(tmp_path_factory) -> Path:
    """A venv with only distributed (and what it requires) installed; proven unable to import
    the project or numpy from a folder outside the project."""
    folder = tmp_path_factory.mktemp("only-distributed")
    python = worker_env.build(folder / "venv")
    probe = ("import importlib.util as u; import distributed; "
             "print([m for m in ('arena', 'records', 'bot', 'opponents', 'numpy', 'tqdm') "
             "if u.find_spec(m)])")
    out = subprocess.run([str(python), "-c", probe], cwd=folder, capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
                         check=True)
    assert out.stdout.strip() == "[]", out.stdout
    return folder / "venv"


@pytest.fixture(scope="session")
def player_bin(tmp_path_factory) -> Path:
    """A folder with `arena-test-player`, a command (our bot at fixed play-outs) that only
    workers with this folder on PATH can start."""
    folder = tmp_path_factory.mktemp("bin")
    script = folder / "arena-test-player"
    script.write_text("#!/bin/sh\nexec python3 -m bot --playouts 20 --seed 1 --cores 1 "
                      "--no-ponder\n")
    script.chmod(0o755)
    return folder


def _path_with(player_bin: Path) -> Dict[str, str]:
    return {"PATH": f"{player_bin}{os.pathsep}{os.environ['PATH']}"}


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory, only_distributed, player_bin) -> Iterator[DaskCluster]:
    """A scheduler and two workers with only distributed, shared by the module's tests (none
    of which may kill a worker); the workers can start `arena-test-player`."""
    with dask_cluster_in(tmp_path_factory.mktemp("dask"), only_distributed,
                         _path_with(player_bin)) as cluster:
        yield cluster


@pytest.fixture()
def fresh_dask_cluster(tmp_path_factory, only_distributed, player_bin) -> Iterator[DaskCluster]:
    """A cluster like `dask_cluster` for one test alone: one that kills a worker."""
    with dask_cluster_in(tmp_path_factory.mktemp("dask"), only_distributed,
                         _path_with(player_bin)) as cluster:
        yield cluster
