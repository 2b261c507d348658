"""Installed as documented: the wheel `pip install .` builds, installed with its extras
(`'.[cluster,plots]'`) into a fresh virtual environment outside the repository, is a whole
arena: the `arena` command and `python -m arena`, the pages' files, the native UCT's source
built on first use into the user's cache, a batch of the built-in opponents, every page of
`arena serve`, a batch on a local Dask cluster and stat.py's plots.

The wheel is built from a copy of the shipped packages (so the build leaves nothing in the
checkout) and its dependencies come from pip's index, as a user's would, at the lock's versions
(requirements.txt as pip's constraints)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path
from typing import Dict, Iterator, List

import pytest
from test_imports import SHIPPED  # the packages pyproject.toml ships

from arena.web.replay import STATIC
from arena.web.server import PAGES

ROOT = Path(__file__).resolve().parents[2]
BATCH = ["gauntlet", "random", "greedy", "--rounds", "1", "--time-limit", "0.5", "-j", "1",
         "--output", "OUT"]


class Installed:
    """The installed wheel: its file, the environment's interpreter and `arena` command, and a
    working folder outside the repository with a cache of its own."""

    def __init__(self, tmp: Path) -> None:
        self.wheel = self._build(tmp)
        venv = tmp / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
        self.python, self.arena = venv / "bin" / "python", venv / "bin" / "arena"
        subprocess.run([str(self.python), "-m", "pip", "install", "-q", "-c",
                        str(ROOT / "requirements.txt"), f"{self.wheel}[cluster,plots]"],
                       check=True, timeout=600)
        self.cwd = tmp / "work"
        self.cwd.mkdir()
        self.env = dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"), PYTHONPATH="",
                        PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")

    @staticmethod
    def _build(tmp: Path) -> Path:
        source = tmp / "source"
        for package in SHIPPED:
            shutil.copytree(ROOT / package, source / package,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        shutil.copy(ROOT / "pyproject.toml", source)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                        str(tmp / "wheel"), str(source)], check=True, timeout=300)
        return next((tmp / "wheel").glob("connect4_arena-*.whl"))

    def run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run(list(argv), cwd=self.cwd, env=self.env, capture_output=True,
                              text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    return Installed(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_ships_the_pages_and_the_native_uct_source(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    wanted = {f"arena/web/static/{path.name}" for path in STATIC.iterdir()}
    wanted |= {"opponents/uct.cpp"}
    assert wanted <= names
    assert not {n for n in names if n.split("/")[0] in ("devtools", "hostile", "bench", "tests")}


def test_the_arena_command_and_the_module_both_start(installed):
    for argv in ([str(installed.arena), "--help"], [str(installed.python), "-m", "arena",
                                                    "--help"]):
        done = installed.run(*argv)
        assert done.returncode == 0 and done.stdout.startswith("usage:"), done.stderr


def test_the_native_uct_is_built_on_first_use_into_the_users_cache(installed):
    done = installed.run(str(installed.python), "-c",
                         "from opponents.build import native_uct; print(native_uct())")
    assert done.returncode == 0, done.stderr
    library = Path(done.stdout.strip())
    assert library == Path(installed.env["XDG_CACHE_HOME"]) / "connect4-arena" / "uct.so"
    assert library.is_file()
    site = installed.run(str(installed.python), "-c", "import opponents; print(opponents.__file__)")
    assert not list(Path(site.stdout.strip()).parent.glob("*.so"))  # nothing in site-packages


@pytest.fixture(scope="module")
def served(installed) -> Iterator[str]:
    """`arena serve OUT` of the batch's output folder, on a free port: its base URL."""
    server = subprocess.Popen([str(installed.arena), "serve", "OUT", "--port", "0"],
                              cwd=installed.cwd, env=installed.env, stderr=subprocess.PIPE,
                              text=True)
    try:
        line = server.stderr.readline()
        assert "http://" in line, line + server.stderr.read()
        yield line.split("http://", 1)[1].split()[0].rstrip("/")
    finally:
        server.terminate()
        server.wait(timeout=30)


def pages(records: List[Dict]) -> List[str]:
    """Every page and file `arena serve` answers with a GET, for a folder of ``records``."""
    key = {k: records[0][k] for k in ("batch", "a", "b", "seed", "round", "leg")}
    return ([*PAGES] + [f"/static/{p.name}" for p in STATIC.iterdir()]
            + ["/replay", f"/replay/game?{urllib.parse.urlencode(key)}", "/api/opponents",
               f"/api/watch?batch={key['batch']}"])


def test_the_installed_arena_plays_a_batch_and_serves_each_page(installed, request):
    done = installed.run(str(installed.arena), *BATCH)
    assert done.returncode == 0, done.stderr
    log = installed.cwd / "OUT" / "games.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 2 and {r["a"] for r in records} == {"random"}
    base = request.getfixturevalue("served")
    for page in pages(records):
        with urllib.request.urlopen(f"http://{base}{page}", timeout=30) as answer:
            assert answer.status == 200, page
    done = installed.run(str(installed.arena), "view", "OUT/games.jsonl", "-o", "page.html")
    assert done.returncode == 0 and (installed.cwd / "page.html").is_file(), done.stderr


def test_the_installed_bot_and_native_uct_play_by_their_built_in_names(installed):
    """`bot` (a process of the environment's own interpreter) and `uct` (compiled into the
    user's cache when first named) need no config and no checkout."""
    done = installed.run(str(installed.arena), "gauntlet", "bot", "uct", "--rounds", "1",
                         "--time-limit", "2", "-j", "1", "-q", "--output", "LADDER",
                         timeout=300)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line)
               for line in (installed.cwd / "LADDER" / "games.jsonl").read_text().splitlines()]
    assert len(records) == 2 and all(r["fault"] is None for r in records), records
    assert {(r["a"], r["b"]) for r in records} == {("bot", "uct")}


def test_the_extras_play_on_a_local_dask_cluster_and_draw_the_plots(installed):
    done = installed.run(str(installed.arena), "gauntlet", "random", "greedy", "--rounds", "1",
                         "-j", "1", "--cluster", "local:1", "-q", "--output", "DASK",
                         timeout=300)
    assert done.returncode == 0, done.stderr
    assert len((installed.cwd / "DASK" / "games.jsonl").read_text().splitlines()) == 2
    done = installed.run(str(installed.arena), "stat", "DASK")
    assert done.returncode == 0, done.stderr
    assert {p.name for p in (installed.cwd / "DASK").glob("*.png")} >= {"score.png", "times.png"}
