"""The synthetic records the page's tests, benchmark and screenshot use follow the rules."""

import random
from pathlib import Path

from arena.core.boards import draw_board
from arena.core.rules import Grid
from devtools.sample import RandomMover, sample_record, write_sample
from records.log import read_log
from records.result import Result


def test_sample_games_are_legal_on_the_arenas_boards_and_end_as_the_rules_say():
    rng = random.Random(5)
    for index in range(30):
        r = sample_record(rng, 11, index, "bot", "uct", fault_rate=0.0)
        spec = draw_board(11, index // 2)
        assert (r.M, r.N, r.no_x, r.no_y) == (spec.M, spec.N, spec.no_x, spec.no_y)
        board = Grid(r.M, r.N, r.no_x, r.no_y)
        for ply, (x, y) in enumerate(r.moves):
            assert board.is_legal(x, y)
            board.play(x, y, ply % 2 + 1)
        line = board.four_through(*r.moves[-1])
        if line:
            assert r.win_line == [list(c) for c in line]
            last_mover = "a" if ((len(r.moves) - 1) % 2 == 0) == (r.leg == 0) else "b"
            assert r.result == last_mover  # the last mover made the four
        else:
            assert board.is_full() and r.result is Result.DRAW


def test_the_mover_avoids_a_four_before_min_plies():
    # a bottom row of three own pieces: column 3 completes a four, so the mover plays elsewhere
    M, N = 9, 9
    board = [0] * (M * N)
    for y in range(3):
        board[(M - 1) * N + y] = 2
    top = [M - 1] * 3 + [M] * (N - 3)
    rng = random.Random(1)
    early = {RandomMover(rng, min_plies=20)(M, N, top, board, -1, -1, 0, 0)[1] for _ in range(60)}
    late = {RandomMover(rng, min_plies=0)(M, N, top, board, -1, -1, 0, 0)[1] for _ in range(200)}
    assert 3 not in early and 3 in late


def test_min_plies_makes_games_last_like_real_ones():
    rng = random.Random(9)
    short = [len(sample_record(rng, 3, i, "a", "b", 0.0).moves) for i in range(20)]
    long = [len(sample_record(rng, 3, i, "a", "b", 0.0, min_plies=60).moves) for i in range(20)]
    assert sorted(long)[10] >= 60 > sorted(short)[10]


def test_sample_records_read_back_with_consistent_codes(tmp_path: Path):
    records = read_log(write_sample(tmp_path / "s.jsonl", 60, seed=3))
    assert len(records) == 60 and {r.b for r in records} == {"random", "greedy", "heuristic",
                                                              "uct"}
    rng = random.Random(4)
    records += [sample_record(rng, 3, i, "bot", "uct", fault_rate=1.0) for i in range(12)]
    assert all(r.fault for r in records[-12:])
    assert {r.fault.kind.value for r in records[-12:]} == {"timeout", "crash", "illegal"}
    for r in records:
        if r.fault:
            assert r.result != r.fault.side.value and len(r.times) == len(r.moves) + 1
            assert (r.fault.kind.value == "timeout") == (r.times[-1] > r.time_limit)
            crashed = r.fault.kind.value == "crash"
            assert ("boom <crash>" in r.stderr[r.fault.side.value]) == crashed
        else:
            assert r.result == {0: "draw", 1: "a", 2: "b"}[r.code]
            assert len(r.times) == len(r.moves)


def test_the_same_seed_writes_the_same_file(tmp_path: Path):
    one = write_sample(tmp_path / "one.jsonl", 40, seed=6).read_bytes()
    assert write_sample(tmp_path / "two.jsonl", 40, seed=6).read_bytes() == one
    assert write_sample(tmp_path / "other.jsonl", 40, seed=7).read_bytes() != one
