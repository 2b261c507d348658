"""devtools/members.py: members parsed from their names, bot variants' settings, and a
member's move in one position through its arena player."""

import pytest

from arena.core.players.python import PythonPlayer
from devtools.members import Member, one_move, parse_member, variant


def test_a_variant_sets_tuple_settings_from_the_command_line():
    searcher = variant((("guard_depths", "11+13"), ("deep_probes", "0")))
    assert searcher.settings.guard_depths == (11, 13) and searcher.settings.deep_probes == ()
    assert variant((("guard_depths", "0"),)).settings.guard_depths == ()
    with pytest.raises(SystemExit, match="unknown bot settings"):
        variant((("no_such_knob", "1"),))


def test_names_give_members():
    assert parse_member("greedy") == Member("greedy", "greedy")
    uct = parse_member("uct-10k-c0.4")
    assert dict(uct.env) == {"UCT_TIME": "1000", "UCT_PLAYOUTS": "10000", "UCT_C": "0.4"}
    bot = parse_member("bot:c=0.4-t2.4")
    assert (bot.kind, bot.seconds, bot.playouts, bot.knobs) == ("bot", 2.4, None, (("c", "0.4"),))
    with pytest.raises(SystemExit, match="unknown member"):
        parse_member("uct:c=1-200")


def test_one_move_plays_a_member_in_one_position_and_raises_on_a_fault():
    top, board = [9] * 9, [0] * 81  # 9x9, the forbidden cell at the top of column 4
    for name in ("random", "bot-50"):
        with parse_member(name).player() as player:
            x, y = one_move(player, 9, 9, top, board, -1, -1, 0, 4)
            assert x == 8 and 0 <= y < 9
    with PythonPlayer("broken", lambda *position: 1 // 0) as player:
        with pytest.raises(RuntimeError, match="broken: crash: ZeroDivisionError"):
            one_move(player, 9, 9, top, board, -1, -1, 0, 4)
