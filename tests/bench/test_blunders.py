"""bench/blunders.py: the verdict on a lost game (the search itself: tests/bot/test_tactics.py)."""

from records import load_script, record

from arena.codes import Code
from bot.rules import parse_board

blunders = load_script("blunders")


def board(*lowest: str, forbidden=(0, 8)):
    """A 9x9 position from its lowest rows, top first (X to move); the forbidden cell defaults
    to the top-right corner, out of every line the tests use (unless a row shows ``#``)."""
    rows = ["........."] * (9 - len(lowest)) + list(lowest)
    return parse_board(rows, no_cell=None if any("#" in r for r in rows) else forbidden)


def column_move(position, column: int) -> int:
    return position.possible() & position.geo.column_masks[column]


def test_loses_after_says_whether_the_opponent_forces_a_win():
    # O holds 2 and 3; X to move: column 8 lets O open both ends, column 4 does not.
    p = board("X.OO...X.")
    search = blunders.ForcedWin(p.geo, 100_000)
    assert blunders.loses_after(search, p, column_move(p, 8), 1) is True
    assert blunders.loses_after(search, p, column_move(p, 4), 1) is False
    tiny = blunders.ForcedWin(p.geo, 5)
    assert blunders.loses_after(tiny, p, column_move(p, 4), 9) is None  # budget: no answer


def test_blunder_found_at_the_move_that_allowed_the_open_three():
    # a: 2, b: 8, a: 3, b: 8 (the blunder: a's 4 now opens 1 and 5), a: 4, b: 1, a: 5 wins.
    game = record([("a", 2), ("b", 8), ("a", 3), ("b", 8), ("a", 4), ("b", 1), ("a", 5)],
                  Code.A_WON)
    verdict = blunders.analyse(game, "b", depth=1, max_nodes=100_000)
    assert (verdict.kind, verdict.ply, verdict.column) == ("blunder", 3, 8)
    assert verdict.safe == [1, 4]  # column 5 loses too: a's 1 opens 0 and 4


def test_a_game_lost_from_the_start_of_the_analysis_is_beyond_the_horizon():
    game = record([("a", 2), ("b", 8), ("a", 3), ("b", 8), ("a", 4), ("b", 1), ("a", 5)],
                  Code.A_WON)
    verdict = blunders.analyse(game, "b", depth=0, max_nodes=100_000)
    # Depth 0 proves only immediate losses: b's column 1 at ply 5 lets a win at once, and so
    # does every other move there (a has two open ends).
    assert (verdict.kind, verdict.ply) == ("beyond", 5)
    assert verdict.safe == []


def test_only_lost_games_are_analysed():
    moves = [("a", 2), ("b", 8), ("a", 3), ("b", 8), ("a", 4), ("b", 1), ("a", 5)]
    won, tie, fault = record(moves, Code.A_WON), record(moves, Code.TIE), record(moves,
                                                                                 Code.B_TIMEOUT)
    assert blunders.lost_games([won, tie, fault], "y") == [(won, "b"), (fault, "b")]
    assert blunders.lost_games([won, tie, fault], "x") == []
    assert blunders.lost_games([won], "nobody") == []
