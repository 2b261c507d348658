"""bench/analyse_cost.py --guard: what the guard's questions cost at analysed decisive moves."""

from dataclasses import replace

from bench_scripts import load_script

from analysis.game import analyse_game
from records.log import write_log
from tests.analysis.games import OPENING, record

analyse_cost = load_script("analyse_cost")
STACKED = record(OPENING, winner="a")  # O's third move, (6, 8), is the mistake


def test_the_guard_cost_stops_at_the_first_depth_that_proves_the_move_lost(tmp_path, capsys):
    game = replace(STACKED, analysis=analyse_game(STACKED, 0.2))
    won = replace(STACKED, code=2)  # no analysis: skipped
    path = tmp_path / "annotated.jsonl"
    write_log(path, [won, game])
    analyse_cost.guard_cost(path)
    (row,) = capsys.readouterr().out.splitlines()
    assert row.startswith("seed 0 r0 leg 0 move 6 | 11: lost ")
    assert "13:" not in row
