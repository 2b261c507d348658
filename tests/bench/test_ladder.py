"""bench/ladder.py: the round robin's per-pair summary, moving first and second apart."""

import re

from records import load_script

ladder = load_script("ladder")


def test_print_pair_splits_the_score_by_seat(capsys):
    # board 0: A won moving first and lost moving second; board 1: A won both
    ladder.print_pair("A", "B", {0: [1.0, 0.0], 1: [1.0, 1.0]}, ([1.0, 1.0], [0.0, 1.0]))
    out = capsys.readouterr().out
    assert out.startswith("A vs B: +3 =0 -1, score 75%")
    assert out.rstrip().endswith("as 1st 2-0-0, as 2nd 1-0-1")


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


def test_a_variant_sets_tuple_settings_from_the_command_line():
    searcher = ladder._variant((("guard_depths", "11+13"), ("deep_probes", "0")))
    assert searcher.settings.guard_depths == (11, 13) and searcher.settings.deep_probes == ()
    assert ladder._variant((("guard_depths", "0"),)).settings.guard_depths == ()
