"""bench/speed.py: pondering's play-outs with and without its guard; a revision's classes
loaded from git."""

import re
from pathlib import Path

from bench_scripts import load_script

speed = load_script("speed")
RECORDS = Path(__file__).resolve().parents[2] / "docs" / "results" / "partner-1s-seed2036.jsonl"


def test_pondering_counts_play_outs_at_every_16th_position_with_and_without_its_guard(capsys):
    speed.pondering(RECORDS, 0.05, games=1, move_seconds=0.05)  # a game of 75 moves
    out = capsys.readouterr().out
    found = re.match(r"4 positions, 0.05 s of pondering each: ([\d,]+) play-outs with .*, "
                     r"([\d,]+) without", out)
    assert found, out
    assert all(int(n.replace(",", "")) > 0 for n in found.groups())


def test_a_revisions_class_is_loaded_from_git_dataclasses_included():
    budget = speed.at_revision("HEAD", "bot/search/tactics.py", "Budget")
    assert budget.__module__ == "bot/search/tactics.py@HEAD" and budget(5).nodes == 5
