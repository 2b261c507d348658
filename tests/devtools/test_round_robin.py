"""devtools/round_robin.py: the per-pair summary splits the score by seat."""

from devtools.round_robin import print_pair


def test_print_pair_splits_the_score_by_seat(capsys):
    # board 0: A won moving first and lost moving second; board 1: A won both
    print_pair("A", "B", {0: [1.0, 0.0], 1: [1.0, 1.0]}, ([1.0, 1.0], [0.0, 1.0]))
    out = capsys.readouterr().out
    assert out.startswith("A vs B: +3 =0 -1, score 75%")
    assert out.rstrip().endswith("as 1st 2-0-0, as 2nd 1-0-1")
