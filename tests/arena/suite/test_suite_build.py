"""`arena suite build`: from a small log, a suite whose every answer a fresh exact solver and a
plain search on the referee's lists prove again, a ledger of the games walked, a summary that
says how many positions were left out and why; a build again walks nothing; Ctrl-C keeps the
positions built and the same command builds the rest."""

import json
import signal
import subprocess
import sys
from dataclasses import replace

from suite_hand import ROOT, arena, games
from suite_reprove import plain_plies, solved_values
from waits import wait_until

from arena.suite.build import ledger_path
from arena.suite.item import read_suite
from records.log import read_log, write_log


def test_a_build_from_a_small_log_keeps_only_what_is_proven_again(tmp_path):
    log = tmp_path / "games.jsonl"
    write_log(log, [games.record(games.ZUGZWANG), replace(games.record(games.MISSED_BLOCK),
                                                          round=1)])
    suite = tmp_path / "suite.jsonl"
    argv = ["suite", "build", str(log), "-o", str(suite), "--nodes", "200000",
            "--seconds", "60", "-q"]
    done = arena(*argv)
    assert done.returncode == 0, done.stderr
    items = read_suite(suite)
    goals = {i.goal.value for i in items}
    assert goals == {"win", "hold"} and len({i.id for i in items}) == len(items)
    for item in items:
        values = solved_values(item, nodes=2_000_000)
        assert values == {p.move: p.result for p in item.proofs}, item.id
        plain_plies(item)
    lines = done.stdout.splitlines()
    wins = sum(i.goal.value == "win" for i in items)
    assert lines[0] == (f"{suite}: {len(items)} positions (win {wins}, hold "
                        f"{len(items) - wins}) from 2 games")
    left = lines[3]
    assert left.startswith("  left out: ") and "a four on the board 2" in left
    assert "the same stones as a position kept before" in left  # QUIET's, met twice
    ledger = [json.loads(line) for line in ledger_path(suite).read_text().splitlines()]
    assert [g["game"]["round"] for g in ledger] == [0, 1]
    assert sum(g["kept"] for g in ledger) == len(items)
    again = arena(*argv)
    assert again.returncode == 0 and again.stdout == done.stdout
    assert read_suite(suite) == items


def test_ctrl_c_keeps_the_positions_built_and_the_same_build_walks_the_rest(tmp_path):
    from devtools.sample import write_sample

    slow = read_log(write_sample(tmp_path / "sample.jsonl", 4, seed=3, min_plies=30))[2]
    log = tmp_path / "games.jsonl"
    write_log(log, [games.record(games.MISSED_BLOCK), slow])
    suite = tmp_path / "suite.jsonl"
    # the random game's walk back spends the whole budget at least once, on the position
    # where it stops (seconds of search), long after the first game's line is written
    argv = [sys.executable, "-m", "arena", "suite", "build", str(log), "-o", str(suite),
            "--nodes", "200000"]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        ledger = ledger_path(suite)
        assert wait_until(lambda: ledger.is_file() and ledger.read_bytes().count(b"\n") >= 1
                          or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends, while the second game is walked
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    kept = read_suite(suite)
    assert err.count("\n") == 1 and f"interrupted; {len(kept)} positions are kept" in err
    assert {i.source.game for i in kept} == {games.record(games.MISSED_BLOCK).key}
    again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert read_suite(suite)[:len(kept)] == kept
    walked = [json.loads(line)["game"]["seed"] for line in ledger.read_text().splitlines()]
    assert walked == [0, slow.seed]  # the first game is not walked again


def test_a_log_the_build_cannot_use_is_one_line_and_exit_status_2(tmp_path):
    record = games.record(games.MISSED_BLOCK)
    log = tmp_path / "games.jsonl"
    write_log(log, [replace(record, moves=[[8, 5], [0, 0]] + record.moves[2:])])
    for path, message in ((log, "move 2 (0, 0) is not legal there"),
                          (tmp_path / "none.jsonl", "no such file")):
        done = arena("suite", "build", str(path), "-o", str(tmp_path / "s.jsonl"))
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert message in done.stderr
