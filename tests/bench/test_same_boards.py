"""bench/same_boards.py: game-by-game comparison of two batches on the same boards."""

from records import load_script, record

from arena.codes import Code

same_boards = load_script("same_boards")

MOVES = [("a", 2), ("b", 8), ("a", 3), ("b", 8), ("a", 4), ("b", 1), ("a", 5)]


def test_outcomes_are_from_the_players_view_by_round_and_leg():
    won = record(MOVES, Code.A_WON)  # player x is a, moves first
    tie = record(MOVES, Code.TIE)
    tie.leg = 1  # b moves first in leg 1
    assert same_boards.outcomes([won, tie], "x") == {(0, 0): ("W", True, 7),
                                                      (0, 1): ("D", False, 7)}
    assert same_boards.outcomes([won], "y") == {(0, 0): ("L", False, 7)}
    assert same_boards.outcomes([won], "nobody") == {}


def test_main_counts_the_games_that_changed_hands(tmp_path, capsys):
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    won, lost = record(MOVES, Code.A_WON), record(MOVES, Code.B_WON)
    new.write_text(won.to_json() + "\n")
    old.write_text(lost.to_json() + "\n")
    assert same_boards.main([str(new), str(old), "--player", "x"]) == 0
    out = capsys.readouterr().out
    assert "round 0 leg 0 (first): W in 7 plies, was L in 7" in out
    assert "1 changed hands, 1 won only by the first file, 0 only by the second; wins 1 " \
           "against 0" in out
