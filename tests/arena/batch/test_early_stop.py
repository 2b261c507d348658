"""The scheduler's collection of records: each game once, an SPRT stop that cancels the rest,
and no whole record kept in memory while a batch runs."""

import dataclasses
import json
import tracemalloc

import pytest

from arena.batch.config import Config, ConfigError
from arena.batch.early_stop import MIN_PAIRS, STOP_NAME, SprtStop
from arena.batch.scheduler import plan, run_batch
from arena.report.results import course_game
from records.game import GameRecord
from records.log import LOG_NAME, read_log


def record(task, code):
    k, b = task.key, task.board
    return GameRecord(batch=k.batch, seed=k.seed, round=k.round, leg=k.leg, a=k.a, b=k.b, M=b.M,
                      N=b.N, no_x=b.no_x, no_y=b.no_y, time_limit=task.time_limit, code=code,
                      reason="", times=[0.001], host="h1")


class Scripted:
    """An executor that 'plays' each game with a fixed code, sending some games twice."""

    def __init__(self, code, twice=()):
        self.code, self.twice, self.closed, self.sent = code, set(twice), False, 0

    def describe(self):
        return "scripted"

    def play(self, specs, todo):
        try:
            for task in todo:
                for _ in range(2 if task.key.round in self.twice else 1):
                    self.sent += 1
                    yield record(task, self.code)
        finally:
            self.closed = True


def config(tmp_path, rounds, **keys):
    never = {"python": "players:never"}  # the fake executor plays no player
    return Config(batch="e", rounds=rounds, seed=3, output=str(tmp_path),
                  players={"x": never, "y": never}, pairings=[("x", "y")], **keys)


def test_a_game_sent_twice_is_logged_once(tmp_path):
    records = run_batch(config(tmp_path, 3), quiet=True, executor=Scripted(0, twice={1}))
    logged = read_log(tmp_path / LOG_NAME)
    assert len(records) == len(logged) == 6
    assert len({r.key for r in logged}) == 6


class Measured(Scripted):
    """Sends games as long as a real one (60 moves, a stderr tail) and notes the memory the
    process holds (tracemalloc) when the games in ``at`` are sent."""

    def __init__(self, at):
        super().__init__(1)
        self.at, self.held = at, {}

    def play(self, specs, todo):
        for number, task in enumerate(todo):
            if number in self.at:
                self.held[number] = tracemalloc.get_traced_memory()[0]
            yield dataclasses.replace(record(task, 1), moves=[[8, y % 9] for y in range(60)],
                                      times=[0.001] * 60, stderr={"a": "e" * 2000, "b": ""})


def test_the_parent_keeps_no_whole_record_while_a_batch_runs(tmp_path):
    # A record is several kilobytes in memory: kept for every game, they grew the parent's
    # heap by 6 KB a game. Its key (what a game sent twice is checked against) is about 150.
    executor = Measured(at={100, 999})
    tracemalloc.start()
    try:
        records = run_batch(config(tmp_path, 500), quiet=True, executor=executor)
    finally:
        tracemalloc.stop()
    assert len(records) == 1000 and records[-1].moves  # whole records, read back at the end
    per_game = (executor.held[999] - executor.held[100]) / 899
    assert per_game < 1000, f"{per_game:.0f} bytes a game"


def test_sprt_stop_closes_the_executor_and_is_recorded_and_kept(tmp_path):
    executor = Scripted(2)  # B wins every game: H0 (A is not stronger) holds
    cfg = config(tmp_path, 40, sprt=(0.0, 10.0))
    first = run_batch(cfg, quiet=True, executor=executor)
    assert executor.closed and executor.sent == len(first) == 2 * MIN_PAIRS
    assert first.stop.verdict == "reject" and first.stop.pairs == MIN_PAIRS
    saved = json.loads((tmp_path / STOP_NAME).read_text())
    assert (saved["verdict"], saved["games"]) == ("reject", 2 * MIN_PAIRS)
    again = Scripted(2)
    resumed = run_batch(cfg, quiet=True, executor=again)
    assert again.sent == 0 and resumed.stop == first.stop


def test_no_verdict_before_min_pairs_even_without_spread(tmp_path):
    cfg = config(tmp_path, 40, sprt=(0.0, 10.0))
    stop = SprtStop(cfg)
    tasks = plan(cfg)
    assert stop.check(course_game(record(t, 1)) for t in tasks[:2 * MIN_PAIRS - 2]) is None
    decided = stop.check(course_game(record(t, 1)) for t in tasks[:2 * MIN_PAIRS])
    assert decided.verdict == "accept" and "accepts H1" in decided.reason()


def test_sprt_needs_a_single_pairing(tmp_path):
    cfg = config(tmp_path, 2, sprt=(0.0, 10.0))
    cfg.pairings = [("x", "y"), ("y", "x")]
    with pytest.raises(ConfigError, match="one pairing"):
        run_batch(cfg, quiet=True, executor=Scripted(0))


def test_sprt_stops_a_local_batch_of_real_games(tmp_path):
    cfg = Config(batch="e", rounds=40, jobs=2, seed=3, output=str(tmp_path), time_limit=5.0,
                 players={"random": {"python": "opponents.random_player:get_point"},
                          "greedy": {"python": "opponents.greedy:get_point"}},
                 pairings=[("random", "greedy")], sprt=(-200.0, -100.0))
    records = run_batch(cfg, quiet=True)
    assert records.stop.verdict == "reject" and records.stop.pairs >= MIN_PAIRS
    assert len(read_log(tmp_path / LOG_NAME)) == len(records) < 80
