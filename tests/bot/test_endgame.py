"""The exact endgame solver agrees with brute force, respects its budget, and its proofs steer
MCTS (a proven win is played without play-outs; a proven loss is never chosen)."""

from __future__ import annotations

import random
from typing import Tuple

from botio import run_bot
from test_solver import after, dense_endgame, negamax

from bot.rules import DRAW, LOSS, WIN, Position
from bot.search.clock import Deadline, Limit
from bot.search.endgame import Endgame
from bot.search.mcts import MCTS, SearchResult
from bot.search.solver import Solver


def position_of(game) -> Position:
    return Position.from_view(game.M, game.N, game.top, game.view(), game.no_x, game.no_y)


def endgame_search(p: Position, playouts: int) -> Tuple[MCTS, SearchResult]:
    """A seeded search whose endgame solver may take the whole budget (20 empty cells)."""
    searcher = MCTS(seed=1, endgame=Endgame(max_empties=20, share=1.0))
    return searcher, searcher.search(p, Deadline(Limit(seconds=30, playouts=playouts)))


def test_solver_move_values_match_negamax():
    rng = random.Random(4)
    seen = set()
    for _ in range(25):
        game = dense_endgame(rng, rng.randrange(8, 15))
        p = position_of(game)
        proven = Solver().solve_moves(p)
        assert proven, game.moves
        assert max(proven.values()) == negamax(game)
        won = [m for m, v in proven.items() if v == WIN]
        if won:  # stops at the first win found, which must be a real one
            assert len(won) == 1 and negamax(after(game, p.xy(won[0]))) == LOSS
        else:  # every non-losing move valued exactly
            assert set(proven) == set(bits_of(p.non_losing_moves()))
            for move, value in proven.items():
                assert -negamax(after(game, p.xy(move))) == value
        seen.update(proven.values())
    assert {WIN, DRAW, LOSS} <= seen or len(seen) >= 2


def bits_of(s: int):
    while s:
        yield s & -s
        s &= s - 1


def test_solver_table_is_reused_between_calls_on_one_board():
    game = dense_endgame(random.Random(2), 14)
    solver = Solver()
    first = solver.solve_moves(position_of(game))
    nodes_first = solver.nodes
    second = solver.solve_moves(position_of(game))
    assert first == second and solver.nodes < nodes_first


def test_solver_stops_at_its_node_budget_on_an_open_board():
    solver = Solver()
    proven = solver.solve_moves(Position.new(12, 12, 5, 5), max_nodes=2000)
    assert proven == {} and solver.nodes <= 2048


def test_endgame_proof_makes_mcts_play_a_win_without_playouts():
    rng = random.Random(7)
    wins = 0
    for _ in range(30):
        game = dense_endgame(rng, rng.randrange(10, 15))
        if negamax(game) != WIN:
            continue
        p = position_of(game)
        _, result = endgame_search(p, 100_000)
        assert result.outcome == WIN and result.playouts == 0
        assert negamax(after(game, p.xy(result.move))) == LOSS
        wins += 1
    assert wins >= 3


def test_endgame_proven_losses_are_not_played():
    rng = random.Random(8)
    checked = 0
    for _ in range(120):
        game = dense_endgame(rng, rng.randrange(4, 9))
        if negamax(game) != DRAW:
            continue
        p = position_of(game)
        _, result = endgame_search(p, 3)
        assert negamax(after(game, p.xy(result.move))) == DRAW
        checked += any(-negamax(after(game, p.xy(m))) == LOSS
                       for m in bits_of(p.non_losing_moves()))
    assert checked >= 3


def test_endgame_waits_until_few_cells_are_empty():
    p = Position.new(9, 9, 0, 0)
    searcher = MCTS(seed=1, endgame=Endgame(max_empties=40))
    searcher.search(p, Deadline(Limit(playouts=50)))
    assert searcher.endgame.solver.nodes == 0


def test_endgame_leaves_a_lost_root_to_mcts():
    rng = random.Random(5)
    lost = 0
    for _ in range(40):
        game = dense_endgame(rng, rng.randrange(8, 13))
        if negamax(game) != LOSS:
            continue
        searcher, result = endgame_search(position_of(game), 20)
        assert searcher.endgame.solver.nodes > 0 and result.playouts > 0
        lost += 1
    assert lost >= 3


def test_endgame_flag_makes_the_process_find_a_forced_win():
    rng = random.Random(3)
    checked = 0
    while checked < 2:
        game = dense_endgame(rng, rng.randrange(8, 11))
        p = position_of(game)
        if negamax(game) != WIN or all(negamax(after(game, p.xy(m))) == LOSS
                                       for m in bits_of(p.non_losing_moves())):
            continue  # only positions where a random move could miss the win
        last_x, last_y = game.moves[-1]
        request = (f"{game.M} {game.N} {game.no_x} {game.no_y} {last_x} {last_y}\n"
                   + " ".join(map(str, game.top)) + "\n" + " ".join(map(str, game.view())) + "\n")
        proc = run_bot(["--protocol", "getpoint", "--playouts", "1", "--endgame", "80"],
                       request.encode())
        x, y = map(int, proc.stdout.split())
        assert negamax(after(game, (x, y))) == LOSS, proc.stderr
        checked += 1
