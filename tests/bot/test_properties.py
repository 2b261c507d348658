"""Random reachable positions on all 16 board sizes, each answered with a legal move by the
three ways in (a play-out cap keeps it fast). Legality is judged by the plain referee."""

from __future__ import annotations

import io
import random

import pytest
from botio import ReactiveOpponent, read_frames, run_bot
from plain_referee import PlainGame, random_position

from bot.protocol import platform
from bot.protocol.function import get_point
from bot.search.clock import Limit
from bot.search.mcts import MCTS

SIZES = [(M, N) for M in range(9, 13) for N in range(9, 13)]
PER_SIZE = 150  # 16 x 150 = 2400 positions for each of get_point and getpoint
TINY = Limit(seconds=5, playouts=3)


def positions(seed: int):
    rng = random.Random(seed)
    return [random_position(rng, M, N) for M, N in SIZES for _ in range(PER_SIZE)]


def test_get_point_answers_random_positions_legally():
    for game in positions(1):
        x, y = get_point(game.M, game.N, game.top, game.view(), *game.last(), game.no_x,
                         game.no_y, limit=TINY)
        assert game.legal(x, y), (game.moves, (x, y))


def test_getpoint_protocol_answers_random_positions_legally():
    games = positions(2)
    lines = []
    for g in games:
        lines += [" ".join(map(str, [g.M, g.N, g.no_x, g.no_y, *g.last()])),
                  " ".join(map(str, g.top)), " ".join(map(str, g.view()))]
    proc = run_bot(["--protocol", "getpoint", "--playouts", "3"],
                   ("\n".join(lines) + "\n").encode(), timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = proc.stdout.decode().splitlines()
    assert len(replies) == len(games)
    for g, reply in zip(games, replies):
        x, y = map(int, reply.split())
        assert g.legal(x, y), (g.moves, (x, y))


@pytest.mark.parametrize("M, N", SIZES)
def test_platform_protocol_plays_random_games_legally(M, N):
    """Whole games against random moves, both colours; ReactiveOpponent checks each reply."""
    rng = random.Random(M * 13 + N)
    replies = 0
    for game_no in range(12):
        game = PlainGame(M, N, rng.randrange(M), rng.randrange(N))
        out = io.BytesIO()
        stdin = ReactiveOpponent(game, game_no % 2 == 0, out,
                                 lambda g: rng.choice(g.legal_moves()))
        platform.serve(stdin, out, TINY, MCTS(seed=game_no))
        replies += len(read_frames(out.getvalue()))
    assert replies >= 12 * 4
