"""devtools/round_robin.py: the per-pair summary splits the score by seat."""

from devtools.round_robin import print_pair
from records.game import GameRecord


def game(rnd: int, leg: int, code: int) -> GameRecord:
    return GameRecord(batch="ladder", seed=1, round=rnd, leg=leg, a="A", b="B", M=9, N=9,
                      no_x=0, no_y=0, time_limit=1.0, code=code, reason="four in a row")


def test_print_pair_splits_the_score_by_seat(capsys):
    # board 0: A won moving first and lost moving second; board 1: A won both
    print_pair("A", "B", [game(0, 0, 1), game(0, 1, 2), game(1, 0, 1), game(1, 1, 1)])
    out = capsys.readouterr().out
    assert out.startswith("A vs B: +3 =0 -1, score 75%")
    assert "2 pairs" in out
    assert out.rstrip().endswith("as 1st 2-0-0, as 2nd 1-0-1")
