"""bench/ladder.py: the round robin's per-pair summary, moving first and second apart; its
variants' settings; the moves of its members at analysed losses' decisive positions."""

import re
from dataclasses import replace

import pytest
from bench_scripts import load_script

from analysis.game import analyse_game, replay
from bot.search.mcts import MCTS
from records.game import GameRecord
from records.log import write_log

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


# X stacks column 0 of a 9x9 board and O never blocks: O's third move is the mistake
STACKED = GameRecord(batch="hand", seed=0, round=0, leg=0, a="x", b="o", M=9, N=9, no_x=0,
                     no_y=4, time_limit=3.0, code=1, reason="four in a row",
                     moves=[[8, 0], [8, 8], [7, 0], [7, 8], [6, 0], [6, 8], [5, 0]],
                     times=[0.01] * 7)


def test_decisive_plays_each_member_at_the_mistake_and_proves_its_move(tmp_path, capsys):
    game = replace(STACKED, analysis=analyse_game(STACKED, 0.2))
    assert game.analysis.decisive.index == 5
    path = tmp_path / "annotated.jsonl"
    write_log(path, [game])
    ladder.decisive(path, [ladder.parse_member("greedy")], 0.5)
    row, total = capsys.readouterr().out.splitlines()
    assert row.startswith("ply  6 9x9 | game (6, 8): lost in 1 | greedy (5, 0): ")
    assert "lost" not in row.split("greedy")[1]
    assert total == ("1 decisive positions; moves proven lost to a forced four, and by the "
                     "solver: greedy 0 and 0")
    with pytest.raises(SystemExit, match="no analysed loss"):
        ladder.decisive(path, [ladder.parse_member("greedy")], 0.5, kinds=["deep"])


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
    move = ladder.pondered_move(ladder.parse_member("bot-200"), replay(STACKED), 5, 0.05)
    assert move == (5, 0)  # the only block, played without a search
    assert calls == [("search", 3), ("ponder", 4)]
