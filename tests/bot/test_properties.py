"""Property tests of the bot's promise never to play an illegal move: positions of every shape,
with the forbidden cell on the bottom row, the top row, an edge column or anywhere (often just
above a piece), reached by legal play, asked through each of the three ways in at a tiny
budget. The reply must be legal (never the forbidden cell, never above a full column), as the
plain referee judges it.

Volumes follow the Hypothesis profile (tests/conftest.py): 1,000 examples in all by default,
10,000 with ``HYPOTHESIS_PROFILE=thorough``. The process protocols run one bot process for all
getpoint requests and one per platform game (each game asks for a reply at every turn)."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Callable, Iterator, List

import pytest
from botio import BotProcess, getpoint_request
from hypothesis import given, settings
from hypothesis import strategies as st
from plain_referee import PlainGame
from reachable import boards, positions, quiet_move

from bot.protocol.function import get_point
from bot.search.clock import Limit

TINY = Limit(seconds=5, playouts=3)
TINY_ARGS = ["--playouts", "3", "--seed", "1"]
EXAMPLES = settings.default.max_examples  # the profile's unit: 100 by default


def assert_legal(game: PlainGame, reply: tuple) -> None:
    x, y = reply
    assert game.legal(x, y), f"reply ({x}, {y}) with top {game.top} is illegal in {game}"


@settings(max_examples=5 * EXAMPLES)
@given(game=positions())
def test_get_point_replies_legally(game: PlainGame) -> None:
    assert_legal(game, get_point(game.M, game.N, game.top, game.view(), *game.last(),
                                 game.no_x, game.no_y, limit=TINY))


@pytest.fixture(scope="module")
def ask_getpoint() -> Iterator[Callable[[PlainGame], str]]:
    """Asks one long-running ``python -m bot --protocol getpoint`` (a fresh one if it died, so
    that one failure does not fail every later example)."""
    bots: List[BotProcess] = []
    with ExitStack() as stack:
        def ask(game: PlainGame) -> str:
            if not bots or not bots[-1].alive():
                bots.append(stack.enter_context(BotProcess(["--protocol", "getpoint"]
                                                           + TINY_ARGS)))
            bots[-1].send(getpoint_request(game))
            return bots[-1].read_line()

        yield ask
        codes = [bot.finish()[0] for bot in bots]
    assert codes == [0]


@settings(max_examples=4 * EXAMPLES)
@given(game=positions())
def test_getpoint_protocol_replies_legally(game: PlainGame,
                                          ask_getpoint: Callable[[PlainGame], str]) -> None:
    reply = ask_getpoint(game)
    assert_legal(game, tuple(map(int, reply.split())))


@settings(max_examples=EXAMPLES)
@given(game=boards(), bot_first=st.booleans(), data=st.data())
def test_platform_protocol_replies_legally_over_a_pipe(game: PlainGame, bot_first: bool,
                                                       data: st.DataObject) -> None:
    """A whole game: the opponent plays drawn quiet moves, the bot replies at every turn."""
    with BotProcess(TINY_ARGS) as bot:
        bot.send(f"{game.M} {game.N} {game.no_x} {game.no_y}\n")
        if not bot_first:
            game.play(*quiet_move(data.draw, game))
        while True:
            bot.send("{} {}\n".format(*game.last()))
            reply = bot.read_frame()
            assert_legal(game, reply)
            if game.play(*reply) or not game.legal_moves():
                break
            move = quiet_move(data.draw, game)
            if move is None:
                break
            game.play(*move)
        assert bot.finish() == (0, b"", b"")
