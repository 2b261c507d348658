"""bench/blunders.py: the verdict on a lost game (the search itself: tests/bot/test_tactics.py)."""

import dataclasses
from pathlib import Path

from records import load_script, record

from arena.codes import Code
from arena.results import read_log
from bot.rules import WIN, Position, parse_board
from bot.search.solver import Solver

blunders = load_script("blunders")
FINAL3 = Path(__file__).resolve().parents[2] / "docs" / "results" / "final3.jsonl"


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



def late_blunder_game():
    """Round 6 leg 1 of docs/results/final3.jsonl (9x9; the partner, b, won) down to ply 48,
    where b plays column 6 instead: the solver proves that losing (a then wins with column 2)
    while b's column 2 wins. The game goes on with the solver's moves for a until a wins."""
    played = next(r for r in read_log(FINAL3) if (r.round, r.leg) == (6, 1))
    p = Position.new(played.M, played.N, played.no_x, played.no_y)
    for x, y in played.moves[:48]:
        p = p.play_xy(x, y)
    solver, moves = Solver(), [list(xy) for xy in played.moves[:48]]
    m = p.move_bit(6)
    while True:
        moves.append(list(p.xy(m)))
        p = p.play_bit(m)
        if p.last_mover_won():
            break
        if p.ply % 2 == 1:  # a (first mover here is b): win now, else a proven winning move
            m = p.winning_moves() or next(k for k, o in solver.solve_moves(p).items()
                                          if o == WIN)
        else:
            m = p.non_losing_moves() or p.possible()
        m &= -m
    return dataclasses.replace(played, moves=moves, code=int(Code.A_WON))


def test_exact_mode_finds_a_late_blunder_from_a_won_position():
    game = late_blunder_game()
    verdict = blunders.analyse_exact(game, "b", max_empties=32, max_nodes=10**6)
    assert (verdict.kind, verdict.ply, verdict.column) == ("blunder", 48, 6)
    assert 2 in verdict.safe and 6 not in verdict.safe


def test_exact_mode_on_a_lost_game_and_on_a_tiny_budget():
    played = next(r for r in read_log(FINAL3) if (r.round, r.leg) == (6, 1))
    assert played.result == "b"  # our bot (a) lost; at ply 45 every move loses
    verdict = blunders.analyse_exact(played, "a", max_empties=36, max_nodes=10**6)
    assert (verdict.kind, verdict.ply, verdict.safe, verdict.unknown) == ("beyond", 45, [], 0)
    # A budget too small for ply 45's proof finds the loss only where it is short.
    tiny = blunders.analyse_exact(played, "a", max_empties=36, max_nodes=1)
    assert tiny.kind == "beyond" and tiny.ply > 45
