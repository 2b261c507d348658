"""devtools/decisive.py: the members' moves at analysed losses' decisive positions, proven
lost or not, and a bot member's move reached as the process reaches it."""

from dataclasses import replace

import pytest

from analysis.game import analyse_game, replay
from bot.search.mcts import MCTS
from devtools.decisive import decisive, pondered_move
from devtools.members import parse_member
from records.log import write_log
from tests.analysis.games import OPENING, record

STACKED = record(OPENING, winner="a")  # O's third move, (6, 8), is the mistake


def test_decisive_plays_each_member_at_the_mistake_and_proves_its_move(tmp_path, capsys):
    game = replace(STACKED, analysis=analyse_game(STACKED, 0.2))
    assert game.analysis.decisive.index == 5
    path = tmp_path / "annotated.jsonl"
    write_log(path, [game])
    decisive(path, [parse_member("greedy")], 0.5)
    row, total = capsys.readouterr().out.splitlines()
    assert row.startswith("ply  6 9x9 | game (6, 8): lost in 1 | greedy (5, 0): ")
    assert "lost" not in row.split("greedy")[1]
    assert total == ("1 decisive positions; moves proven lost to a forced four, and by the "
                     "solver: greedy 0 and 0")
    with pytest.raises(SystemExit, match="no analysed loss"):
        decisive(path, [parse_member("greedy")], 0.5, kinds=["deep"])


def test_a_pondered_move_searches_the_move_before_and_ponders_the_opponents(monkeypatch):
    calls = []

    class Spy(MCTS):
        def search(self, position, deadline):
            calls.append(("search", position.ply))
            return super().search(position, deadline)

        def ponder(self, position, stop, limit):
            calls.append(("ponder", position.ply))
            return super().ponder(position, stop, limit)

    monkeypatch.setattr("bot.search.leaves.make_searcher", lambda *a, **k: Spy(seed=1))
    move = pondered_move(parse_member("bot-200"), replay(STACKED), 5, 0.05)
    assert move == (5, 0)  # the only block, played without a search
    assert calls == [("search", 3), ("ponder", 4)]
