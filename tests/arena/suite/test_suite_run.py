"""`arena suite run`: a course .so built here and a Python function are asked at each position
through getPoint and scored by the items' proofs; a process on the getpoint protocol answers
too, and one on the platform protocol is refused in one line; a bad suite line is one line and
exit status 2; Ctrl-C keeps the answers and the same command asks the rest."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from suite_hand import ROOT, hand_items, write_suite
from waits import wait_until

from arena.suite.item import read_suite
from opponents.build import compile_library
from records.move import Move

HERE = Path(__file__).resolve().parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)])}


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    return write_suite(tmp_path_factory.mktemp("suite") / "hand.jsonl", hand_items())


@pytest.fixture(scope="module")
def leftmost_so(tmp_path_factory) -> Path:
    from suite_players import LEFTMOST_C

    folder = tmp_path_factory.mktemp("so")
    (folder / "leftmost.c").write_text(LEFTMOST_C)
    return compile_library([folder / "leftmost.c"], folder / "leftmost.so")


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena", "suite", "run", *args], cwd=ROOT,
                          env=ENV, capture_output=True, text=True, timeout=timeout)


def test_a_so_and_a_python_function_are_scored_by_the_proofs(suite, leftmost_so, tmp_path):
    items = read_suite(suite)
    out = tmp_path / "answers.jsonl"
    done = run(str(suite), f"left={leftmost_so}", "right=suite_players:rightmost", "--json",
               "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["positions"] == len(items)
    for name, column in (("left", min), ("right", max)):
        played = {i.id: next(p.move for p in i.proofs
                             if p.move.y == column(q.move.y for q in i.proofs)) for i in items}
        solved = [i.id for i in items if i.solves(played[i.id])]
        score = report["players"][name]
        assert score["solved"] == len(solved) and score["answered"] == len(items)
        assert {m["id"] for m in score["misses"]} == {i.id for i in items} - set(solved)
        assert all(Move.from_list(m["played"]) == played[m["id"]] for m in score["misses"])
        assert score["faults"] == {}
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((a["id"], a["player"]) for a in answers) == sorted(
        (i.id, n) for i in items for n in ("left", "right"))
    # the markdown report: the table, the split by level and theme, side by side, the misses
    text = run(str(suite), f"left={leftmost_so}", "right=suite_players:rightmost",
               "-o", str(out)).stdout
    left = report["players"]["left"]
    assert f"| left | {left['solved']}/{len(items)} |" in text
    for heading in ("## By level", "## By theme", "## Side by side", "## Misses of right"):
        assert heading in text


def test_a_getpoint_process_answers_and_a_platform_one_is_refused(suite):
    items = read_suite(suite)
    win_now = [i for i in items if i.plies == 1]
    assert win_now
    done = run(str(suite), "bot=python -m bot --protocol getpoint --playouts 200 --seed 1",
               "--json", "-q")
    assert done.returncode == 0, done.stderr
    score = json.loads(done.stdout)["players"]["bot"]
    assert score["answered"] == len(items) and score["faults"] == {}
    missed = {m["id"] for m in score["misses"]}
    assert not missed & {i.id for i in win_now}  # a four to take is taken
    refused = run(str(suite), "bot=python -m bot --time 0.1")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "platform protocol" in refused.stderr


def test_bad_suite_lines_are_one_line_and_exit_status_2(suite, tmp_path):
    good = suite.read_text().splitlines()[0]
    data = json.loads(good)
    cases = {
        "not json\n": "not a suite item",
        json.dumps({**data, "moves": [[0, 0]] + data["moves"][1:]}): "is not legal there",
        json.dumps({**data, "answer": [0, 8]}): "is not a legal move here",
    }
    for line, message in cases.items():
        bad = tmp_path / "bad.jsonl"
        bad.write_text(good + "\n" + line + "\n")
        done = run(str(bad), "greedy")
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and f"{bad}:2: " in done.stderr
        assert message in done.stderr
    missing = run(str(tmp_path / "none.jsonl"), "greedy")
    assert missing.returncode == 2 and "no such suite file" in missing.stderr


def test_ctrl_c_keeps_the_answers_and_the_same_command_asks_the_rest(suite, tmp_path):
    items = read_suite(suite)
    out = tmp_path / "answers.jsonl"
    # a second a position: the run is still asking when the first answer is kept
    argv = [sys.executable, "-m", "arena", "suite", "run", str(suite),
            "bot=python -m bot --protocol getpoint --time 1", "-o", str(out)]
    proc = subprocess.Popen(argv, cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: out.is_file() and out.read_bytes().count(b"\n") >= 1
                          or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
        stdout, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and f"the answers are kept in {out}" in err
    kept = out.read_text().splitlines()
    assert 1 <= len(kept) < len(items)
    assert "| bot | " in stdout and f"/{len(kept)} |" in stdout  # the report of what came
    again = subprocess.run(argv + ["--json", "-q"], cwd=ROOT, env=ENV, capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert out.read_text().splitlines()[:len(kept)] == kept
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == sorted(i.id for i in items)  # each position asked once
    assert json.loads(again.stdout)["players"]["bot"]["answered"] == len(items)


def test_a_folder_of_exact_and_valued_items_is_scored_each_by_its_own_measure(tmp_path):
    import hand_puzzles
    from test_suite_item_valued import CLEAR, valued

    folder = tmp_path / "suites"
    folder.mkdir()
    exact = read_suite(hand_puzzles.write_suite(folder / "exact.jsonl"))
    item = valued(CLEAR)
    (folder / "middle.jsonl").write_text(item.to_json() + "\n")
    out = tmp_path / "answers.jsonl"
    done = run(str(folder), "right=suite_players:rightmost", "--json", "-q", "-o", str(out))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["positions"], report["valued_positions"]) == (len(exact), 1)
    score = report["players"]["right"]
    assert score["answered"] == len(exact)  # the exact counts are over the exact items
    rightmost = item.values[-1].move
    assert score["valued"]["answered"] == 1
    assert score["valued"]["given_away"]["mean"] == item.given_away(rightmost) > 0
    assert score["valued"]["best_share"]["share"] == 0.0
    kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert {a["id"] for a in kept} == {i.id for i in exact} | {item.id}
    assert next(a for a in kept if a["id"] == item.id)["move"] == rightmost.to_list()
    again = run(str(folder), "right=suite_players:rightmost", "-o", str(out))
    assert again.returncode == 0 and "## Valued positions (1)" in again.stdout
    assert out.read_text().count("\n") == len(kept)  # nothing asked again
