"""Batches on real Dask clusters give the games, files and totals of a local run of the seed."""

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Dict, List

import pytest
from dask_processes import (
    ROOT,
    START_TIMEOUT,
    DaskCluster,
    kill,
    kill_session,
    start_scheduler,
    start_worker,
    wait_for_empty_session,
    wait_for_text,
    wait_for_workers,
    worker_addresses,
)
from waits import wait_for_lines

from arena.__main__ import main
from arena.batch.config import Config
from arena.batch.scheduler import run_batch
from arena.cluster.checks import WorkersCannotPlay
from arena.core.live import LiveGame, live_dir, mark_watching, read_live
from arena.core.rules import Grid
from records.log import LOG_NAME, read_log

PLAYERS = {"random": {"python": "opponents.random_player:get_point"},
           "greedy": {"python": "opponents.greedy:get_point"},
           "slow": {"python": "opponents.sleeper:get_point", "args": {"delay": 0.01}}}


def config(output: Path, a: str = "random", b: str = "greedy", rounds: int = 4,
           **keys: object) -> Config:
    return Config(batch="c", rounds=rounds, time_limit=5.0, jobs=2, seed=11, output=str(output),
                  players=PLAYERS, pairings=[(a, b)], **keys)


def games(records):
    """What must not depend on where a game ran: everything but times, hosts, timestamps."""
    return {r.key: (r.M, r.N, r.no_x, r.no_y, r.code, r.reason, r.moves, r.win_line)
            for r in records}


def course_files(folder: Path):
    return {p.name: p.read_text() for p in folder.glob("*_*.txt")}


def test_local_cluster_plays_the_games_of_a_local_run(tmp_path):
    local = run_batch(config(tmp_path / "local"), quiet=True)
    remote = run_batch(config(tmp_path / "dask", cluster="local:2"), quiet=True)
    assert len(remote) == 8 and games(remote) == games(local)
    assert course_files(tmp_path / "dask") == course_files(tmp_path / "local")
    assert all(r.host for r in read_log(tmp_path / "dask" / LOG_NAME))
    assert log_lines(tmp_path / "dask") == log_lines(tmp_path / "local")


def log_lines(folder: Path):
    """games.jsonl less what depends on where and when a game ran."""
    lines = [json.loads(line) for line in (folder / LOG_NAME).read_text().splitlines()]
    return [{k: v for k, v in d.items() if k not in ("times", "finished", "host")}
            for d in lines]


def test_workers_with_only_distributed_play_the_games_of_a_local_run(tmp_path, dask_cluster):
    """A user's first try: `dask worker` where only `pip install distributed` ran, then the
    arena's command line with --cluster."""
    argv = [sys.executable, "-m", "arena", "gauntlet", "greedy", "random", "--rounds", "2", "-q"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for where, extra in (("local", []), ("dask", ["--cluster", dask_cluster.address])):
        run = subprocess.run(argv + ["--output", str(tmp_path / where), *extra], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    remote = read_log(tmp_path / "dask" / LOG_NAME)
    assert len(remote) == 4 and games(remote) == games(read_log(tmp_path / "local" / LOG_NAME))


def test_worker_killed_mid_batch_loses_and_doubles_no_game(tmp_path,
                                                           fresh_dask_cluster: DaskCluster):
    local = run_batch(config(tmp_path / "local", "slow", "random", rounds=10), quiet=True)
    out = tmp_path / "dask"
    yaml_path = tmp_path / "batch.yaml"  # JSON is YAML: the config a user would write
    yaml_path.write_text(json.dumps({
        "batch": "c", "rounds": 10, "seed": 11, "time_limit": 5.0, "output": str(out),
        "cluster": fresh_dask_cluster.address, "players": PLAYERS,
        "gauntlet": {"a": ["slow"], "b": ["random"]}}))
    batch = subprocess.Popen([sys.executable, "-m", "arena", "run", str(yaml_path), "-q"],
                             cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             stderr=subprocess.PIPE, text=True)
    try:
        wait_for_lines(out / LOG_NAME, 3, batch, START_TIMEOUT)
        os.kill(fresh_dask_cluster.worker_pids()[0], signal.SIGKILL)
        killed_at = (out / LOG_NAME).read_bytes().count(b"\n")
        _, err = batch.communicate(timeout=120)
    finally:
        batch.kill()
        batch.wait()
    assert batch.returncode == 0, err
    assert killed_at < 20  # the worker died mid-batch, not after it
    logged = read_log(out / LOG_NAME)
    assert len(logged) == len({r.key for r in logged}) == 20
    assert games(logged) == games(local)
    assert course_files(out) == course_files(tmp_path / "local")


def test_a_batch_whose_only_worker_dies_goes_on_on_its_replacement(tmp_path, only_distributed):
    """Its games wait with no worker; the restarted worker passes its check and plays them."""
    address, scheduler = start_scheduler(only_distributed, tmp_path)
    worker = start_worker(only_distributed, address, tmp_path / "w")
    out = tmp_path / "dask"
    try:
        wait_for_workers(address, 1)
        yaml_path = tmp_path / "batch.yaml"
        yaml_path.write_text(json.dumps({
            "batch": "c", "rounds": 3, "seed": 11, "time_limit": 5.0, "output": str(out),
            "cluster": address, "players": PLAYERS,
            "gauntlet": {"a": ["slow"], "b": ["random"]}}))
        batch = subprocess.Popen([sys.executable, "-m", "arena", "run", str(yaml_path), "-q"],
                                 cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                 stderr=subprocess.PIPE, text=True)
        try:
            wait_for_lines(out / LOG_NAME, 1, batch, START_TIMEOUT)
            os.kill(DaskCluster(address, [worker]).worker_pids()[0], signal.SIGKILL)
            _, err = batch.communicate(timeout=120)
        finally:
            batch.kill()
            batch.wait()
    finally:
        kill(worker)
        kill(scheduler)
    assert batch.returncode == 0, err
    assert len({r.key for r in read_log(out / LOG_NAME)}) == 6


def test_client_killed_mid_batch_leaves_nothing_and_a_rerun_resumes(tmp_path):
    local = run_batch(config(tmp_path / "local", "slow", "random", rounds=8), quiet=True)
    out = tmp_path / "dask"
    yaml_path = tmp_path / "batch.yaml"
    yaml_path.write_text(json.dumps({
        "batch": "c", "rounds": 8, "seed": 11, "time_limit": 5.0, "output": str(out),
        "cluster": "local:2", "players": PLAYERS, "gauntlet": {"a": ["slow"], "b": ["random"]}}))
    argv = [sys.executable, "-m", "arena", "run", str(yaml_path), "-q"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    batch = subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_for_lines(out / LOG_NAME, 3, batch, START_TIMEOUT)
        os.kill(batch.pid, signal.SIGKILL)
        batch.wait(timeout=30)
        assert wait_for_empty_session(batch.pid)  # the LocalCluster went with its client
    finally:
        kill_session(batch.pid)
    assert len(read_log(out / LOG_NAME)) < 16
    subprocess.run(argv, cwd=ROOT, env=env, check=True, timeout=120)
    logged = read_log(out / LOG_NAME)
    assert len(logged) == len({r.key for r in logged}) == 16
    assert games(logged) == games(local)


def test_player_missing_on_the_workers_is_one_line_per_worker_before_any_game(tmp_path,
                                                                             dask_cluster):
    cfg = dataclasses.replace(
        config(tmp_path / "out", cluster=dask_cluster.address),
        players=dict(PLAYERS, greedy={"python": "opponents.no_such_module:get_point"}))
    with pytest.raises(WorkersCannotPlay) as raised:
        run_batch(cfg, quiet=True)
    lines = str(raised.value).splitlines()
    assert len(lines) == 2 and raised.value.exit_status == 2
    assert all(re.search(r"tcp://127.0.0.1:\d+: greedy: ModuleNotFoundError: No module named "
                         "'opponents.no_such_module'$", line) for line in lines)
    assert read_log(tmp_path / "out" / LOG_NAME) == []


def test_worker_joining_mid_batch_that_fails_its_check_gets_no_game_and_is_named_once(
        tmp_path, dask_cluster, only_distributed):
    """The joiner cannot start `here` (its PATH lacks the command): were it given a game, the
    game would be lost with a load fault."""
    out = tmp_path / "dask"
    yaml_path = tmp_path / "batch.yaml"
    yaml_path.write_text(json.dumps({
        "batch": "c", "rounds": 20, "seed": 11, "time_limit": 5.0, "output": str(out),
        "cluster": dask_cluster.address,
        "players": {"slow": PLAYERS["slow"], "here": {"process": "arena-test-player"}},
        "gauntlet": {"a": ["here"], "b": ["slow"]}}))
    stderr = tmp_path / "stderr.txt"
    with stderr.open("w") as err:
        batch = subprocess.Popen([sys.executable, "-m", "arena", "run", str(yaml_path), "-q"],
                                 cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                 stderr=err, start_new_session=True)
    joiner = None
    try:
        wait_for_lines(out / LOG_NAME, 1, batch, START_TIMEOUT)
        joiner = start_worker(only_distributed, dask_cluster.address, tmp_path / "joiner",
                              name="joiner")
        [address] = worker_addresses(dask_cluster.address, ["joiner"]).values()
        wait_for_text(stderr, f"cluster: {address} joined and gets no game: here: ", batch)
        after = (out / LOG_NAME).read_bytes().count(b"\n")
        # games go on, none to the joiner
        wait_for_lines(out / LOG_NAME, after + 4, batch, START_TIMEOUT)
        batch.send_signal(signal.SIGINT)
        assert batch.wait(timeout=60) == 130
    finally:
        kill_session(batch.pid)
        if joiner is not None:
            kill(joiner)
    assert stderr.read_text().count(address) == 1
    logged = read_log(out / LOG_NAME)
    assert len(logged) >= after + 4 and all(r.code in (0, 1, 2) for r in logged)


def test_sprt_stops_a_cluster_batch_and_a_rerun_plays_nothing(tmp_path, dask_cluster):
    cfg = config(tmp_path / "out", rounds=60, cluster=dask_cluster.address, sprt=(-200.0, -100.0))
    first = run_batch(cfg, quiet=True)
    assert first.stop is not None and first.stop.verdict == "reject"
    assert len(first) < 120 and (tmp_path / "out" / "early_stop.json").is_file()
    again = run_batch(cfg, quiet=True)
    assert len(again) == len(first) and again.stop == first.stop


def test_a_watched_cluster_batch_shows_its_games_in_progress_and_an_unwatched_one_writes_none(
        tmp_path, dask_cluster):
    """The workers relay a watched game's moves to the client, which writes the live files the
    watch page reads (arena.core.live); with no page, nothing is written."""
    quiet = tmp_path / "quiet"
    assert len(run_batch(config(quiet, "slow", "random", rounds=1,
                                cluster=dask_cluster.address), quiet=True)) == 2
    assert not live_dir(quiet).exists()

    out = tmp_path / "watched"
    seen: Dict[str, LiveGame] = {}  # the longest view of each game, by file and key
    stop = threading.Event()

    def watch() -> None:
        """What the web server does while a page is open, 50 times a second."""
        while not stop.is_set():
            mark_watching(out)
            for game in read_live(out):
                name = f"{game.worker}:{game.key}"
                if len(game.moves) >= len(seen.get(name, game).moves):
                    seen[name] = game
            stop.wait(0.02)

    mark_watching(out)
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        played = run_batch(config(out, "slow", "random", rounds=2, cluster=dask_cluster.address),
                           quiet=True)
    finally:
        stop.set()
        watcher.join()
    assert len(played) == 4
    assert read_live(out) == [] and list(live_dir(out).glob("*.jsonl")) == []
    records = {r.key: r for r in read_log(out / LOG_NAME)}
    assert seen and max(len(g.moves) for g in seen.values()) >= 3
    for game in seen.values():
        assert re.fullmatch(rf"{os.getpid()}-\d+", game.worker)
        record = records[game.key]
        assert game.board == record.board
        moves: List[List[int]] = [m[:2] for m in game.moves]
        assert moves == record.moves[:len(moves)]
        board = Grid(*game.board.to_list())
        for ply, (x, y) in enumerate(moves):
            assert board.is_legal(x, y)
            board.play(x, y, 1 + ply % 2)


def test_cluster_without_dask_says_what_to_install(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)
    for module in ("arena.cluster.client", "arena.cluster.worker"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    code = main(["gauntlet", "a=opponents.random_player:get_point",
                 "b=opponents.greedy:get_point", "--cluster", "local:2", "--config",
                 str(tmp_path / "none.yaml"), "--output", str(tmp_path / "out")])
    assert code == 2
    assert "pip install '.[cluster]'" in capsys.readouterr().err
