"""stat.py reads back what the arena writes, and refuses bad folders with a clear message."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.report.command import main
from arena.report.results import write_course_files
from records.game import GameRecord
from records.log import ResultLog
from records.result import Fault

ROOT = Path(__file__).resolve().parents[3]


def rec(b, rnd, leg, code, times=(0.010, 0.002, 0.030), host=None, rows=9):
    return GameRecord(batch="t", seed=1, round=rnd, leg=leg, a="bot", b=b, M=rows, N=9, no_x=0,
                      no_y=0, time_limit=1.0, code=code, reason="", times=list(times),
                      moves=[[8, i] for i in range(len(times))], host=host,
                      fault=Fault.of_code(code))


def make_folder(folder):
    # vs greedy: round 0 A wins both; round 1 A wins first, draws second
    # vs uct: round 0 A loses first (as first player), B times out second
    records = [rec("greedy", 0, 0, 1), rec("greedy", 0, 1, 1), rec("greedy", 1, 0, 1),
               rec("greedy", 1, 1, 0), rec("uct", 0, 0, 2), rec("uct", 0, 1, 8)]
    write_course_files(records, folder)
    with ResultLog(folder / "games.jsonl") as log:
        for r in records:
            log.append(r)


def test_course_table_and_ours_from_written_files(tmp_path, capsys):
    make_folder(tmp_path)
    assert main([str(tmp_path), "--format", "json", "--sprt", "0", "10"]) == 0
    data = json.loads(capsys.readouterr().out)
    (row,) = data["stat"]
    assert (row["id"], row["wina"], row["winb"], row["losea"], row["loseb"], row["tie"],
            row["detimeout"], row["timeout"]) == ("bot", 2, 1, 1, 0, 1, 1, 0)
    per = {r["B"]: r for r in data["per_opponent"]}
    assert (per["greedy"]["points"], per["greedy"]["score"]) == (7, 0.875)
    assert (per["uct"]["W"], per["uct"]["L"]) == (1, 1)  # the timeout is B's loss
    overall = {r["player"]: r for r in data["overall"]}
    assert overall["bot"]["points"] == 9 and overall["uct"]["points"] == 2
    faults = {r["B"]: r for r in data["faults"]}
    assert faults["uct"]["B_timeout"] == 1 and faults["uct"]["A_timeout"] == 0
    times = {r["player"]: r for r in data["move_times"]}
    # bot moves first in leg 0 (times 10 ms and 30 ms) and second in leg 1 (2 ms)
    assert times["bot"]["moves"] == 9 and times["bot"]["max"] == 30.0
    sprt_rows = data["sprt"]
    assert {r["B"]: r["pairs"] for r in sprt_rows} == {"greedy": 2, "uct": 1}
    stat_txt = (tmp_path / "stat.txt").read_text().splitlines()
    assert stat_txt[1].split() == ["id", "wina", "winb", "losea", "loseb", "tie", "bug", "debug",
                                   "illegal", "deillegal", "timeout", "detimeout", "loaderr",
                                   "deloaderr", "noentry", "denoentry"]
    assert stat_txt[2].split()[:6] == ["bot", "2", "1", "1", "0", "1"]
    assert (tmp_path / "score.png").stat().st_size > 0
    assert (tmp_path / "times.png").stat().st_size > 0


def test_markdown_and_csv_render_the_same_rows(tmp_path, capsys):
    make_folder(tmp_path)
    assert main([str(tmp_path), "--format", "markdown", "--no-plots"]) == 0
    assert "| bot | greedy | 4 | 3 | 1 | 0 | 7 | 0.875 |" in capsys.readouterr().out
    assert main([str(tmp_path), "--format", "csv", "--no-plots"]) == 0
    assert "bot,greedy,4,3,1,0,7,0.875," in capsys.readouterr().out


def test_a_running_batch_is_tabulated_from_its_log_alone(tmp_path, capsys):
    make_folder(tmp_path)
    for text_file in tmp_path.glob("*_*.txt"):
        text_file.unlink()  # as while the batch runs: the text files come at its end
    assert main([str(tmp_path), "--format", "json", "--no-plots"]) == 0
    per = {r["B"]: r for r in json.loads(capsys.readouterr().out)["per_opponent"]}
    assert (per["greedy"]["points"], per["uct"]["W"], per["uct"]["L"]) == (7, 1, 1)


def run_stat(folder):
    return subprocess.run([sys.executable, str(ROOT / "stat.py"), str(folder), "--no-plots"],
                          capture_output=True, text=True, cwd=str(ROOT), timeout=60)


def test_stat_py_on_empty_torn_and_foreign_folders(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    torn = tmp_path / "torn"
    make_folder(torn)
    (torn / "bot_greedy.txt").write_text("0:\n1\t0\t0\n")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "bot_x.txt").write_bytes(b"\x89PNG\x00\xff binary")
    torn_log = tmp_path / "tornlog"
    make_folder(torn_log)
    with open(torn_log / "games.jsonl", "a") as handle:
        handle.write('{"v": 1, "batch"')
    for folder, words in ((empty, "no games found"), (torn, "lacks"),
                          (foreign, "not a text file"), (torn_log, "torn"),
                          (tmp_path / "missing", "no such folder")):
        done = run_stat(folder)
        assert done.returncode == 2, done.stderr
        assert words in done.stderr and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1


def test_height_table_splits_each_colour_by_even_and_odd_rows(tmp_path, capsys):
    # 9 rows (odd): A wins as first, loses as second; 10 rows (even): A draws as first,
    # B times out as second (A's win), loses as first again
    records = [rec("uct", 0, 0, 1), rec("uct", 0, 1, 2), rec("uct", 1, 0, 0, rows=10),
               rec("uct", 1, 1, 8, rows=10), rec("uct", 2, 0, 2, rows=10)]
    with ResultLog(tmp_path / "games.jsonl") as log:
        for r in records:
            log.append(r)
    assert main([str(tmp_path), "--format", "json", "--no-plots"]) == 0
    rows = {r["rows"]: r for r in json.loads(capsys.readouterr().out)["heights"]}
    assert set(rows) == {"even", "odd"}
    assert (rows["odd"]["first"], rows["odd"]["second"]) == ("1/0/0", "0/0/1")
    assert (rows["even"]["first"], rows["even"]["second"]) == ("0/1/1", "1/0/0")
    assert rows["even"]["score_first"] == 0.25 and rows["odd"]["score_second"] == 0.0


def test_per_host_table_only_when_games_ran_on_several_hosts(tmp_path, capsys):
    make_folder(tmp_path)
    assert main([str(tmp_path), "--format", "json", "--no-plots"]) == 0
    assert "hosts" not in json.loads(capsys.readouterr().out)
    with ResultLog(tmp_path / "games.jsonl") as log:
        log.append(rec("greedy", 2, 0, 1, times=(0.5, 0.7), host="slowbox"))
        log.append(rec("greedy", 2, 1, 7, times=(0.1,), host="fastbox"))
    assert main([str(tmp_path), "--format", "json", "--no-plots"]) == 0
    hosts = {r["host"]: r for r in json.loads(capsys.readouterr().out)["hosts"]}
    assert set(hosts) == {"-", "slowbox", "fastbox"}  # "-": records without a host
    assert (hosts["slowbox"]["games"], hosts["slowbox"]["moves"]) == (1, 2)
    assert hosts["slowbox"]["mean"] == pytest.approx(600.0)
    assert (hosts["fastbox"]["timeouts"], hosts["slowbox"]["timeouts"]) == (1, 0)
