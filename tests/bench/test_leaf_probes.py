"""bench/leaf_probes.py: the positions along a recorded game, and a run of both modes."""

import json
import re

from records import load_script

from bot.rules import Position

leaf_probes = load_script("leaf_probes")

RECORD = {"M": 9, "N": 10, "no_x": 8, "no_y": 0, "moves": [[8, 5], [7, 5], [8, 6], [6, 5]]}


def test_positions_are_those_before_each_move():
    positions = leaf_probes.game_positions(RECORD, plies=3)
    assert [p.ply for p in positions] == [0, 1, 2]
    # the forbidden cell (8, 0) is the bottom of column 0; the moves stack in column 5
    assert positions[0].key() == Position.new(9, 10, 8, 0).key()
    assert positions[2].key() == Position.new(9, 10, 8, 0).play(5).play(5).key()
    assert len(leaf_probes.game_positions(RECORD, plies=10)) == 4


def test_a_run_prints_both_modes_for_each_game(tmp_path, monkeypatch, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(RECORD) + "\n" + json.dumps(RECORD) + "\n")
    monkeypatch.setattr("sys.argv", ["leaf_probes", str(path), "--games", "0,1", "--plies",
                                     "2", "--seconds", "0.05"])
    assert leaf_probes.main() == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.startswith("#")]
    assert [r.split()[0] for r in rows] == ["#0", "#1"]
    here, there = (int(n) for n in re.findall(r"\d+", lines[-1])[:2])
    assert here > 0 and there > 0  # every search played out something in both modes
