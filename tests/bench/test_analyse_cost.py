"""bench/analyse_cost.py --guard: what the guard's questions cost at analysed decisive moves."""

import json

from records import load_script
from test_ladder import STACKED

from analysis.game import analyse_game

analyse_cost = load_script("analyse_cost")


def test_the_guard_cost_stops_at_the_first_depth_that_proves_the_move_lost(tmp_path, capsys):
    game = dict(STACKED)
    game["analysis"] = analyse_game(game, 0.2)
    won = dict(STACKED, result="b")  # no analysis: skipped
    path = tmp_path / "annotated.jsonl"
    path.write_text(json.dumps(won) + "\n" + json.dumps(game) + "\n")
    analyse_cost.guard_cost(path)
    (row,) = capsys.readouterr().out.splitlines()
    assert row.startswith("seed 0 r0 leg 0 move 6 | 11: lost ")
    assert "13:" not in row
