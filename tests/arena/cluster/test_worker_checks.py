"""Each worker checks itself before its first game: Python, distributed's version, the arena's
code and the batch's files unpacked, every player started once; one line per problem, naming
the worker, exit status 2, no game played."""

import io
import json
import logging
import os
import shutil
import subprocess
import sys
import zipfile
from collections import namedtuple

import pytest
import worker_env
from dask_processes import (
    ROOT,
    kill,
    start_scheduler,
    start_worker,
    worker_addresses,
)

from arena.cluster import bootstrap
from arena.cluster.bootstrap import distributed_version, unpack_once, version_problems
from arena.cluster.bundle import code_bundle
from arena.cluster.checks import WorkerReports, WorkersCannotPlay
from records.log import LOG_NAME


def test_workers_that_cannot_play_stop_the_batch_with_one_line_each_and_exit_status_2(
        tmp_path, only_distributed):
    """One worker has another distributed, one cannot start a player: the batch names both."""
    old = worker_env.build(tmp_path / "old", distributed_version="2024.1.0").parents[1]
    address, scheduler = start_scheduler(only_distributed, tmp_path)
    procs = [scheduler, start_worker(old, address, tmp_path / "w-old", name="old"),
             start_worker(only_distributed, address, tmp_path / "w-path", name="path")]
    out = tmp_path / "out"
    yaml_path = tmp_path / "batch.yaml"
    yaml_path.write_text(json.dumps({
        "batch": "c", "rounds": 2, "seed": 11, "time_limit": 5.0, "output": str(out),
        "cluster": address, "players": {
            "random": {"python": "opponents.random_player:get_point"},
            "here": {"process": "arena-test-player"}},
        "gauntlet": {"a": ["here"], "b": ["random"]}}))
    try:
        workers = worker_addresses(address, ["old", "path"])
        run = subprocess.run([sys.executable, "-m", "arena", "run", str(yaml_path), "-q"],
                             cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             capture_output=True, text=True, timeout=120)
    finally:
        for proc in reversed(procs):
            kill(proc)
    assert run.returncode == 2, run.stderr
    lines = [line for line in run.stderr.splitlines() if "tcp://127.0.0.1:" in line
             and "cluster tcp://" not in line]
    version = distributed_version()
    assert len(lines) == 2 and "Traceback" not in run.stderr, run.stderr
    assert lines[0].startswith("arena: batch stopped: no game played: tcp://")
    [old_line] = [line for line in lines if f"{workers['old']}: " in line]
    [path_line] = [line for line in lines if f"{workers['path']}: " in line]
    assert old_line.endswith(f"distributed 2024.1.0 here, {version} on the client: "
                             f"pip install distributed=={version}")
    assert f"{workers['path']}: here: " in path_line and "arena-test-player" in path_line
    assert not (out / LOG_NAME).exists() or not (out / LOG_NAME).read_text()


def test_python_too_old_and_another_distributed_are_one_line_each():
    assert version_problems((3, 11, 7), "2026.8.0", "2026.8.0") == []
    old, other = version_problems((3, 8, 10), "2024.1.0", "2026.8.0")
    assert old == "Python 3.8 is too old: the arena needs 3.9 or newer"
    assert other == ("distributed 2024.1.0 here, 2026.8.0 on the client: "
                     "pip install distributed==2026.8.0")


def zipped(files):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, (text, mode) in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            archive.writestr(info, text)
    return buffer.getvalue()


def test_unpack_keeps_modes_and_unpacks_a_version_once(tmp_path):
    data = zipped({"run.sh": ("echo", 0o755), "a/b.py": ("x = 1", 0o644)})
    assert unpack_once(data, str(tmp_path / "v1"), "the batch's files") is None
    assert (tmp_path / "v1" / "run.sh").stat().st_mode & 0o777 == 0o755
    (tmp_path / "v1" / "a" / "b.py").write_text("x = 2")
    assert unpack_once(data, str(tmp_path / "v1"), "the batch's files") is None
    assert (tmp_path / "v1" / "a" / "b.py").read_text() == "x = 2"  # the folder is the version


def test_a_full_disk_or_an_unwritable_folder_is_one_line(tmp_path, monkeypatch):
    data = zipped({"big.bin": ("0" * 4096, 0o644)})
    (tmp_path / "file").write_text("not a folder")
    problem = unpack_once(data, str(tmp_path / "file" / "v1"), "the arena's code")
    assert problem.startswith(f"cannot unpack the arena's code (0.0 MiB zipped) in "
                              f"{tmp_path / 'file' / 'v1'}: ")
    assert "\n" not in problem
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 100, 100))
    problem = unpack_once(data, str(tmp_path / "v1"), "the batch's files")
    assert problem == (f"cannot unpack the batch's files (0.0 MiB) in {tmp_path}: 0.0 MiB free; "
                       "free some space or start the worker with another --local-directory")
    assert not (tmp_path / "v1").exists() and not (tmp_path / "v1.part").exists()


def test_a_worker_with_its_own_arena_imported_plays_with_the_batch_code(tmp_path):
    """A worker whose own (older) arena is already imported: the shipped code replaces it."""
    own = tmp_path / "own" / "arena" / "cluster"
    own.mkdir(parents=True)
    for folder in (own.parent, own):
        (folder / "__init__.py").write_text("")
    (own / "worker.py").write_text("VERSION = 'own'\n")
    code = code_bundle()
    shipped = tmp_path / "code"
    assert unpack_once(code.data, str(shipped), "the arena's code") is None
    probe = (f"import sys, runpy; sys.path.insert(0, {str(own.parents[1])!r}); "
             "import arena.cluster.worker as w; assert w.VERSION == 'own'; "
             f"boot = runpy.run_path({bootstrap.__file__!r}); "
             f"w = boot['activate']({str(shipped)!r}, {list(code.packages)!r}); "
             "import arena, records.game; "
             "print(w.__file__, arena.__file__, records.game.__file__, hasattr(w, 'VERSION'))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    *files, own_attr = run.stdout.split()
    assert all(f.startswith(str(shipped) + os.sep) for f in files) and own_attr == "False"


def report(worker, problems=(), host="lab1", cores=2, nthreads=1):
    return {"worker": worker, "problems": list(problems), "host": host, "cores": cores,
            "nthreads": nthreads}


def test_reports_stop_the_batch_at_start_and_name_a_failing_joiner_once(caplog):
    reports = WorkerReports()
    reports.add(report("tcp://a:1", ["Python 3.8 is too old", "greedy: ImportError: x"]))
    reports.add(report("tcp://b:1"))
    with pytest.raises(WorkersCannotPlay) as raised:
        reports.start(["tcp://a:1", "tcp://b:1"])
    assert str(raised.value).splitlines() == ["no game played: tcp://a:1: Python 3.8 is too old",
                                              "  tcp://a:1: greedy: ImportError: x"]
    reports = WorkerReports()
    reports.add(report("tcp://b:1"))
    caplog.set_level(logging.INFO, logger="arena.cluster")
    reports.start(["tcp://b:1"])
    for _ in range(2):  # a worker that sets up again (it reconnected) is not named again
        reports.on_event((0.0, report("tcp://c:1", ["greedy: ImportError: x"])))
    named = [r.getMessage() for r in caplog.records if "tcp://c:1" in r.getMessage()]
    assert named == ["cluster: tcp://c:1 joined and gets no game: greedy: ImportError: x"]


def test_reports_warn_once_about_a_host_with_more_games_than_cores(caplog):
    caplog.set_level(logging.INFO, logger="arena.cluster")
    reports = WorkerReports()
    reports.add(report("tcp://a:1", nthreads=2))
    reports.start(["tcp://a:1"])
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]
    reports.add(report("tcp://a:2", nthreads=1))
    reports.add(report("tcp://a:3", nthreads=1))
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warned == ["cluster: lab1 plays 3 games at once on 2 cores: move times suffer "
                      "(docs/cluster.md, fair clocks)"]


def test_a_missing_report_stops_the_batch_naming_the_worker():
    with pytest.raises(WorkersCannotPlay, match="tcp://a:1 did not report its check within"):
        WorkerReports().wait(["tcp://a:1"], lambda: [], timeout=0.1)
