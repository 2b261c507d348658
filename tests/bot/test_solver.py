"""The MCTS-solver's proofs and the exact solver's answers agree with exhaustive negamax on
small random endgames."""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Iterator, Tuple

from plain_referee import PlainGame, naive_winner

from bot.rules import DRAW, LOSS, WIN, Position, bits
from bot.search.clock import Deadline, Limit
from bot.search.mcts import MCTS
from bot.search.solver import CLOCK_EVERY, Solver


def dense_endgame(rng: random.Random, empties: int) -> PlainGame:
    """Random quiet moves (no four made, none handed over where avoidable) until ``empties``
    cells are left; only positions that need a search (no win now, two or more safe moves)."""
    while True:
        p = Position.new(9, 9, rng.randrange(9), rng.randrange(9))
        moves = []
        while 80 - p.ply > empties:
            quiet = p.non_losing_moves() & ~p.winning_cells() or p.possible() & ~p.winning_cells()
            if not quiet:
                break
            cells = [b for b in bits(quiet)]
            b = rng.choice(cells)
            moves.append(p.xy(b))
            p = p.play_bit(b)
        safe = p.non_losing_moves()
        if 80 - p.ply == empties and not p.can_win_now() and safe & (safe - 1):
            game = PlainGame(9, 9, p.geo.no_x, p.geo.no_y)
            for m in moves:
                assert not game.play(*m)
            return game


def negamax(game: PlainGame) -> int:
    """Exact result (WIN/DRAW/LOSS) for the side to move, by brute force on plain lists."""
    M, N = game.M, game.N

    @lru_cache(maxsize=None)
    def solve(board: tuple, top: tuple, turn: int) -> int:
        best = None
        for y in range(N):
            if top[y] == 0:
                continue
            x = top[y] - 1
            b = list(board)
            b[x * N + y] = turn
            if naive_winner(b, M, N, x, y):
                return WIN
            t = list(top)
            t[y] -= 2 if (x == game.no_x + 1 and y == game.no_y) else 1
            value = -solve(tuple(b), tuple(t), 3 - turn)
            best = value if best is None else max(best, value)
        return DRAW if best is None else best

    return solve(tuple(game.board), tuple(game.top), game.turn)


def endgames(seed: int, count: int) -> Iterator[Tuple[PlainGame, Position]]:
    """``count`` dense endgames of 6 to 14 empty cells: the plain game and its Position."""
    rng = random.Random(seed)
    for _ in range(count):
        game = dense_endgame(rng, rng.randrange(6, 15))
        yield game, Position.from_view(9, 9, game.top, game.view(), game.no_x, game.no_y)


def test_solver_matches_negamax_on_small_endgames():
    proven = 0
    outcomes = set()
    for game, p in endgames(9, 40):
        exact = negamax(game)
        outcomes.add(exact)
        result = MCTS(seed=1).search(p, Deadline(Limit(seconds=30, playouts=20000)))
        if result.outcome is not None:
            proven += 1
            assert result.outcome == exact, (game.moves, result.outcome, exact)
            if exact == WIN:  # the move played must be a winning one
                assert negamax(after(game, p.xy(result.move))) == LOSS
    assert proven >= 36 and len(outcomes) >= 2


def after(game: PlainGame, move) -> PlainGame:
    copy = PlainGame(game.M, game.N, game.no_x, game.no_y)
    for m in game.moves + [move]:
        copy.play(*m)
    return copy


def test_wins_says_whether_the_side_to_move_forces_a_win():
    answers = set()
    for game, p in endgames(5, 30):
        answer = Solver().wins(p, end=None)
        assert answer == (negamax(game) == WIN), game.moves
        answers.add(answer)
    assert answers == {True, False}


def test_wins_gives_up_at_its_end_or_its_node_budget():
    p = Position.new(12, 12, 0, 0)  # far beyond any budget
    assert Solver().wins(p, end=time.perf_counter() + 0.05) is None
    solver = Solver()
    assert solver.wins(p, end=None, max_nodes=5_000) is None
    assert 5_000 <= solver.nodes < 5_000 + CLOCK_EVERY  # the budget is looked at that often


def test_solve_moves_gives_each_move_its_exact_value():
    values = set()
    for game, p in endgames(8, 30):
        proven = Solver().solve_moves(p)
        assert proven and set(proven) <= set(bits(p.non_losing_moves()))
        for move, value in proven.items():
            assert value == -negamax(after(game, p.xy(move))), (game.moves, p.xy(move))
        if WIN not in proven.values():  # no win: every safe move gets its value
            assert set(proven) == set(bits(p.non_losing_moves()))
        values.update(proven.values())
    assert values == {WIN, DRAW, LOSS}
