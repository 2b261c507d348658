"""bench/openings.py: second-player results split by its first reply."""

import dataclasses

from records import load_script, record

from arena.codes import Code

openings = load_script("openings")


def test_tally_counts_the_second_players_wins_by_its_first_reply():
    on_top_won = record([("a", 4), ("b", 4), ("a", 3)], Code.B_WON)  # y second, stacked, won
    elsewhere_lost = record([("a", 4), ("b", 5), ("a", 3)], Code.A_WON)  # y second, lost
    x_second = dataclasses.replace(record([("b", 2), ("a", 2)], Code.TIE), leg=1)  # x stacks
    too_short = record([("a", 4)], Code.A_WON)
    counts = openings.tally([on_top_won, elsewhere_lost, x_second, too_short])
    assert counts[("y", True)] == [1, 1] and counts[("y", False)] == [0, 1]
    assert counts[("x", True)] == [0, 1]  # a tie is no win
    assert counts[("all", True)] == [1, 2] and counts[("all", False)] == [0, 1]
    assert sum(games for _, games in counts.values()) == 6  # the one-move game is skipped
