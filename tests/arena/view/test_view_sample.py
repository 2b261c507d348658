"""The synthetic records the page's tests, benchmark and screenshot use follow the rules."""

import random
from pathlib import Path

from arena.rules import Board
from arena.view.sample import random_game, write_sample
from records.log import read_log


def test_random_games_are_legal_and_end_as_the_rules_say():
    rng = random.Random(5)
    for _ in range(30):
        M, N = rng.randint(9, 12), rng.randint(9, 12)
        no_x, no_y = rng.randrange(M), rng.randrange(N)
        moves, line, winner = random_game(rng, M, N, no_x, no_y)
        board = Board(M, N, no_x, no_y)
        for ply, (x, y) in enumerate(moves):
            assert board.is_legal(x, y)
            board.play(x, y, ply % 2 + 1)
        assert line == board.four_through(*moves[-1])
        if line:
            assert winner == (len(moves) - 1) % 2 + 1  # the last mover made the four
        else:
            assert board.is_full() and winner == 0


def test_min_plies_makes_games_last_like_real_ones():
    rng = random.Random(9)
    short = [len(random_game(rng, 10, 10, 3, 3)[0]) for _ in range(20)]
    long = [len(random_game(rng, 10, 10, 3, 3, min_plies=60)[0]) for _ in range(20)]
    assert sorted(long)[10] >= 60 > sorted(short)[10]


def test_sample_records_read_back_with_consistent_codes(tmp_path: Path):
    records = read_log(write_sample(tmp_path / "s.jsonl", 60, seed=3))
    assert len(records) == 60 and {r.b for r in records} == {"random", "greedy", "heuristic",
                                                              "uct"}
    for r in records:
        if r.fault:
            assert r.result != r.fault["side"] and len(r.times) == len(r.moves) + 1
        else:
            assert r.result == {0: "draw", 1: "a", 2: "b"}[r.code]
            assert len(r.times) == len(r.moves)
