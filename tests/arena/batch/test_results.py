"""The JSON Lines log and the course's text files: round trips, torn lines, bad files."""

import dataclasses
import json
import threading

import pytest

from arena.report.results import (
    course_game,
    parse_course_text,
    read_course_folder,
    write_course_files,
)
from records.codes import FaultKind
from records.game import GameRecord
from records.log import ResultLog, ResultsError, folder_lock, read_log, sort_log
from records.result import Fault, Side
from records.tally import pairs


def record(a="bot", b="greedy", rnd=0, leg=0, code=1, times=(0.4, 1.0, 0.7)):
    return GameRecord(batch="t", seed=7, round=rnd, leg=leg, a=a, b=b, M=9, N=10, no_x=2,
                      no_y=3, time_limit=3.0, code=code, reason="four in a row",
                      moves=[[8, i] for i in range(len(times))], times=list(times))


def test_side_times_follow_who_moved_first():
    assert record(leg=0).side_times("a") == [0.4, 0.7]
    assert record(leg=1).side_times("a") == [1.0]


def test_log_round_trip_keeps_every_field(tmp_path):
    path = tmp_path / "games.jsonl"
    with ResultLog(path) as log:
        log.append(record(code=7))
        log.append(record(leg=1, code=2))
    back = read_log(path)
    assert [r.key for r in back] == [record(code=7).key, record(leg=1).key]
    assert back[0].times == [0.4, 1.0, 0.7] and back[0].code == 7
    assert '"first":"a"' in path.read_text().splitlines()[0]


def test_an_appender_whose_log_was_sorted_writes_to_the_new_file(tmp_path):
    # the web app keeps appending while a batch in the same folder rewrites the log in order
    path = tmp_path / "games.jsonl"
    with ResultLog(path) as web, ResultLog(path) as batch:
        batch.append(record(rnd=2))
        web.append(record(a="human", rnd=0))
        batch.append(record(rnd=1))
        sort_log(path)
        web.append(record(a="human", rnd=1))
    assert [(r.a, r.round) for r in read_log(path)] == [  # sorted, then the later append
        ("human", 0), ("bot", 1), ("bot", 2), ("human", 1)]


def test_an_append_waits_for_a_rewrite_in_progress(tmp_path):
    path = tmp_path / "games.jsonl"
    with ResultLog(path) as log:
        log.append(record(rnd=0))
        with folder_lock(tmp_path):  # as sort_log holds it between its read and its replace
            writer = threading.Thread(target=log.append, args=(record(rnd=1),))
            writer.start()
            writer.join(0.3)
            assert writer.is_alive() and len(read_log(path)) == 1
        writer.join(5)
    assert [r.round for r in read_log(path)] == [0, 1]


def test_a_record_without_host_loads_and_sorting_orders_by_game(tmp_path):
    path = tmp_path / "games.jsonl"
    old = json.loads(record(rnd=1).to_json())
    del old["host"]
    with ResultLog(path) as log:
        log.append(record(rnd=2, leg=1))
        log.append(dataclasses.replace(record(rnd=0), host="lab2"))
    with open(path, "a") as handle:
        handle.write(json.dumps(old) + "\n")
    sort_log(path)
    back = read_log(path)
    assert [(r.round, r.host) for r in back] == [(0, "lab2"), (1, None), (2, None)]


def test_torn_last_record_is_an_error_unless_repaired(tmp_path):
    path = tmp_path / "games.jsonl"
    good = record().to_json() + "\n"
    path.write_text(good + record(leg=1).to_json()[:25])
    with pytest.raises(ResultsError, match="torn"):
        read_log(path)
    assert [r.leg for r in read_log(path, repair=True)] == [0]
    assert path.read_text() == good


def test_garbage_in_the_middle_is_never_silently_dropped(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(record().to_json() + "\nnot json\n" + record(leg=1).to_json() + "\n")
    with pytest.raises(ResultsError, match=":2:"):
        read_log(path, repair=True)


def test_course_text_is_read_back_as_written(tmp_path):
    records = [record(rnd=r, leg=leg, code=code)
               for r, (c0, c1) in enumerate([(1, 2), (8, 0)])
               for leg, code in ((0, c0), (1, c1))]
    records.append(record(rnd=2, leg=0))  # a round with one leg only is left out
    (path,) = write_course_files(records, tmp_path)
    assert path.name == "bot_greedy.txt"
    text = path.read_text()
    # A thought 0.4 + 0.7 = 1.1 s in leg 0 (whole seconds: 1), B 1.0 s
    assert text.startswith("0:\n1\t1\t1\n2\t1\t1\n\n1:\n8\t1\t1\n")
    assert "A win: 2/4" in text
    games = read_course_folder(tmp_path)
    assert [(g.key.round, g.key.leg, g.code) for g in games] == [
        (0, 0, 1), (0, 1, 2), (1, 0, 8), (1, 1, 0)]
    assert games[2].fault == Fault(Side.B, FaultKind.TIMEOUT)
    assert len(list(pairs(games))) == 2


def test_course_text_cut_short_names_the_line():
    with pytest.raises(ResultsError, match=r"x.txt:3: round 0 lacks"):
        parse_course_text("0:\n1\t0\t0\n", "a", "b", "x.txt")


def test_foreign_text_file_is_reported(tmp_path):
    (tmp_path / "a_b.txt").write_text("hello world\n")
    with pytest.raises(ResultsError, match="expected a round header"):
        read_course_folder(tmp_path)
    (tmp_path / "a_b.txt").unlink()
    (tmp_path / "notes.txt").write_text("0:\n1\t0\t0\n2\t0\t0\n")
    with pytest.raises(ResultsError, match="<A>_<B>.txt"):
        read_course_folder(tmp_path)


def test_two_batches_pooled_keep_their_own_game_pairs():
    """Two batches on the same seed's boards, pooled in one log, are 2 pairs a round, not one
    pair whose legs overwrite each other."""
    first = [record(rnd=0, leg=leg) for leg in (0, 1)]
    second = [dataclasses.replace(r, batch="again") for r in first]
    games = [course_game(r) for r in first + second]
    found = list(pairs(games))
    assert len(found) == 2
    assert {(p0.key.batch, p1.key.batch) for p0, p1 in found} == {("t", "t"), ("again", "again")}
