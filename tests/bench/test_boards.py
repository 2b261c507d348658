"""One board generator: the same seed draws the same boards in a batch, the ladder, the speed
bench's games and the replay page's sample games."""

from dataclasses import astuple

from bench_scripts import load_script

from arena.batch.config import Config
from arena.batch.scheduler import plan
from devtools.members import parse_member
from devtools.round_robin import schedule
from devtools.sample import write_sample
from records.log import read_log

speed = load_script("speed")


def batch_boards(seed: int, rounds: int) -> dict:
    return {t.key.round: t.board for t in plan(Config(seed=seed, rounds=rounds,
                                                      pairings=[("x", "y")]))}


def test_a_seed_draws_the_same_boards_everywhere(tmp_path):
    boards = batch_boards(7, 6)
    members = [parse_member(name) for name in ("random", "greedy", "heuristic")]
    assert {t.key.round: t.board for t, _, _ in schedule(members, 6, 7)} == boards
    assert dict(enumerate(speed.wall_boards(7, 6))) == boards
    sample = read_log(write_sample(tmp_path / "sample.jsonl", 12, seed=7))
    assert {r.round: r.board for r in sample} == boards
    assert len({astuple(b) for b in boards.values()}) > 1
    assert batch_boards(8, 6) != boards
