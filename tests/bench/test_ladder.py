"""bench/ladder.py: a run plays the round robin and reports both seats of every game."""

import re

from bench_scripts import load_script

ladder = load_script("ladder")


def test_a_run_reports_both_seats_of_every_game(monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["ladder", "--members", "random,greedy", "--rounds", "3",
                                     "--seed", "5"])
    ladder.main()
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("random vs greedy"))
    total = [int(n) for n in re.search(r"\+(\d+) =(\d+) -(\d+)", line).groups()]
    first = [int(n) for n in re.search(r"as 1st (\d+)-(\d+)-(\d+)", line).groups()]
    second = [int(n) for n in re.search(r"as 2nd (\d+)-(\d+)-(\d+)", line).groups()]
    assert sum(first) == sum(second) == 3  # one game a board in each seat
    assert [f + s for f, s in zip(first, second)] == total
