"""Following a log as a batch writes it: new records only, a rewrite read whole, bad lines
reported and skipped."""

import logging

from records.game import GameRecord
from records.log import LogFollower, ResultLog, sort_log


def record(rnd, leg=0):
    return GameRecord(batch="t", seed=1, round=rnd, leg=leg, a="x", b="y", M=9, N=9, no_x=0,
                      no_y=0, time_limit=1.0, code=1, reason="four in a row")


def test_each_read_returns_what_was_appended_since(tmp_path):
    path = tmp_path / "games.jsonl"
    follower = LogFollower(path)
    assert follower.read() == (False, [])  # no log yet
    with ResultLog(path) as log:
        log.append(record(1))
        fresh, records = follower.read()
        assert fresh and [r.round for r in records] == [1]
        log.append(record(0))
        assert [r.round for r in follower.read()[1]] == [0]
        assert follower.read() == (False, [])


def test_a_half_written_line_waits_for_its_newline(tmp_path):
    path = tmp_path / "games.jsonl"
    line = record(0).to_json()
    path.write_text(line[:20])
    follower = LogFollower(path)
    assert follower.read()[1] == []
    with open(path, "a") as handle:
        handle.write(line[20:] + "\n")
    assert [r.round for r in follower.read()[1]] == [0]


def test_a_rewrite_in_game_order_is_read_whole_again(tmp_path):
    path = tmp_path / "games.jsonl"
    with ResultLog(path) as log:
        for rnd in (2, 0, 1):
            log.append(record(rnd))
    follower = LogFollower(path)
    follower.read()
    sort_log(path)
    fresh, records = follower.read()
    assert fresh and [r.round for r in records] == [0, 1, 2]


def test_a_bad_line_is_reported_with_its_number_and_skipped(tmp_path, caplog):
    path = tmp_path / "games.jsonl"
    path.write_text(record(0).to_json() + "\n\nnot json\n" + record(1).to_json() + "\n")
    with caplog.at_level(logging.WARNING, logger="records.log"):
        records = LogFollower(path).read()[1]
    assert [r.round for r in records] == [0, 1]
    assert f"{path}:3: not a game record" in caplog.text
