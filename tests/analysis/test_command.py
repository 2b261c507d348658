"""`python -m arena analyse`: records in, annotated records and the split of the losses out;
bad input is one line on stderr and exit status 2."""

import json
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from games import MISSED_BLOCK, QUIET, ZUGZWANG, record
from waits import wait_for_lines

from analysis.summary import summarise
from records.analysis import Alternative, Decisive, Kind, LossAnalysis, Phase, Value
from records.log import write_log
from records.result import Fault

ROOT = Path(__file__).resolve().parents[2]
# A deadline, not a budget: these games' searches end within a few hundredths of a second
SECONDS = "60"


def arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena", "analyse", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def write_games(path: Path) -> Path:
    write_log(path, [record(ZUGZWANG), replace(record(MISSED_BLOCK), round=1),
                     replace(record(QUIET), round=2, code=0),
                     replace(record(QUIET), round=3, code=7,
                             fault=Fault.from_dict({"side": "a", "kind": "timeout"}))])
    return path


def test_every_loss_is_annotated_and_the_split_printed(tmp_path):
    out = tmp_path / "annotated.jsonl"
    proc = arena(str(write_games(tmp_path / "games.jsonl")), "--seconds", SECONDS, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["round"] for r in records] == [0, 1, 2, 3]
    assert records[0]["analysis"]["kind"] == "zugzwang"
    assert records[1]["analysis"]["kind"] == "missed block"
    assert records[2]["analysis"] == {"skipped": "tie"}
    assert records[3]["analysis"] == {"skipped": "fault: timeout by alice"}
    lines = proc.stdout.splitlines()
    assert lines[0] == "losses analysed: 2 of 4 games (not analysed: fault 1, tie 1)"
    assert lines[1] == ("  loser moved: first 2, second 0; "
                        "on an even number of rows: first 0, second 0")
    assert "decisive mistake proven: 2 (opening 0, middle 0, end 2)" in lines[2]
    assert lines[3] == ("  the win it allowed: missed block 1, double threat 0, zugzwang 1, "
                        "combination 0, deep 0")
    # --summary reads the annotations back without searching
    again = arena(str(out), "--summary")
    assert again.returncode == 0 and again.stdout == proc.stdout


def test_a_folder_is_read_through_its_games_jsonl_and_lost_by_filters(tmp_path):
    write_games(tmp_path / "games.jsonl")
    proc = arena(str(tmp_path), "--lost-by", "ali", "--seconds", SECONDS)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "losses analysed: 2 of 4 games"


def test_bad_input_is_one_line_and_status_2(tmp_path):
    (tmp_path / "alice_bob.txt").write_text("0:\n1\t2\t0\n")
    cases = {
        str(tmp_path / "none.jsonl"): "no such file",
        str(tmp_path): "no games.jsonl",
    }
    for path, message in cases.items():
        proc = arena(path)
        assert proc.returncode == 2 and message in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    log = write_games(tmp_path / "games.jsonl")
    proc = arena(str(log), "--lost-by", "carol")
    assert proc.returncode == 2 and "players: alice, bob" in proc.stderr
    proc = arena(str(log), "--summary")
    assert proc.returncode == 2 and "no analysed record" in proc.stderr


def test_the_summary_counts_unsettled_and_lost_before_the_first_move():
    analysed = LossAnalysis(loser="bob", loser_moved="second", seconds=1.0, lost_after=9,
                            decisive=None, kind=Kind.DEEP, forced_four_in=None, win_in=None,
                            line=[], line_source="game", phase=Phase.MIDDLE, positions=1,
                            elapsed=1.0)
    unsettled = Decisive(7, [1, 1], [Alternative([2, 2], Value.UNSETTLED)], proven=False)
    games = [replace(record(QUIET), M=10, analysis=analysed),
             replace(record(QUIET), analysis=replace(analysed, decisive=unsettled))]
    lines = summarise(games)
    assert lines[1] == ("  loser moved: first 0, second 2; "
                        "on an even number of rows: first 0, second 1")
    assert lines[2].endswith("unsettled: 1; lost before its first move: 1")
    assert "lost before its first move (deep)" in lines[4]
    assert "unsettled: no alternative proven to hold" in lines[5]


def test_ctrl_c_keeps_the_games_analysed_and_the_same_command_finishes_the_rest(tmp_path):
    from devtools.sample import write_sample
    from records.log import read_log

    sample = read_log(write_sample(tmp_path / "sample.jsonl", 4, seed=3, min_plies=30))
    # a loss decided at its last move (analysed in milliseconds), then one whose decisive
    # position, 18 stones on an 11-column board, no search settles: it takes the whole budget
    quick, slow = sample[0], sample[2]
    log = tmp_path / "games.jsonl"
    write_log(log, [quick, slow])
    out = tmp_path / "analysed.jsonl"
    argv = [sys.executable, "-m", "arena", "analyse", str(log), "--seconds", "3", "-o", str(out)]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        wait_for_lines(out, 1, proc, timeout=60)  # the quick game is kept
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends, while the second game is searched
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and "1 games analysed are kept in" in err
    [kept] = read_log(out)
    assert kept.key == quick.key and kept.analysis is not None
    again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "1 games kept from" in again.stderr
    done = read_log(out)
    assert [r.key for r in done] == [quick.key, slow.key]
    assert done[0] == kept and done[1].analysis is not None
