"""Property tests of the bot's promise never to play an illegal move: positions of every shape,
with the forbidden cell on the bottom row, the top row, an edge column or anywhere (often just
above a piece), reached by legal play, asked through each of the three ways in at a tiny
budget. The reply must be legal (never the forbidden cell, never above a full column), as the
plain referee judges it.

Volumes follow the Hypothesis profile (tests/conftest.py): 1,000 examples in all by default,
10,000 with ``HYPOTHESIS_PROFILE=thorough``. The process protocols run one bot process for all
getpoint requests and one per platform game (each game asks for a reply at every turn).

A play-out cap keeps those examples fast and repeatable, but it also runs the bot on one core
without pondering (bot/__main__.py). So the process protocols are also asked of the bot as it
ships, bounded by the clock alone at SHIPPED_TIME a move: its leaf worker plays out leaves on
the second core during its moves (test_the_shipped_bot_plays_leaves_out_in_its_worker checks
that it does), and in a platform game it ponders between them. These cost time, not play-outs, so
there are fewer of them (about 25 s in all on two cores): getpoint requests for one unit of
positions, and two platform games on each of the 16 shapes with the forbidden cell drawn
anywhere, so that every shape is played whatever Hypothesis draws."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Callable, Iterator, List, Tuple

import pytest
from botio import BotProcess, children, cpu_seconds, getpoint_request
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from plain_referee import PlainGame
from reachable import boards, positions, quiet_move
from skips import skip_if

from bot.protocol.function import get_point
from bot.search.clock import Limit
from bot.search.fork import spare_cores

TINY = Limit(seconds=5, playouts=3)
TINY_ARGS = ["--playouts", "3", "--seed", "1"]
SHIPPED_TIME = 0.05  # seconds a move: a few hundred play-outs, the worker's batches included
SHIPPED_ARGS = ["--time", str(SHIPPED_TIME), "--seed", "1"]  # two cores, pondering on
SHAPES = [(M, N) for M in range(9, 13) for N in range(9, 13)]
# The shipped examples are not shrunk: each costs its moves' time (shrinking a failed game
# replays hundreds, minutes on end), and a failure prints its whole game anyway.
UNSHRUNK = (Phase.explicit, Phase.reuse, Phase.generate)
EXAMPLES = settings.default.max_examples  # the profile's unit: 100 by default


def assert_legal(game: PlainGame, reply: tuple) -> None:
    x, y = reply
    assert game.legal(x, y), f"reply ({x}, {y}) with top {game.top} is illegal in {game}"


@settings(max_examples=5 * EXAMPLES)
@given(game=positions())
def test_get_point_replies_legally(game: PlainGame) -> None:
    assert_legal(game, get_point(game.M, game.N, game.top, game.view(), *game.last(),
                                 game.no_x, game.no_y, limit=TINY))


def getpoint_asker(args: List[str]) -> Iterator[Callable[[PlainGame], str]]:
    """Asks one long-running ``python -m bot --protocol getpoint ARGS`` (a fresh one if it
    died, so that one failure does not fail every later example)."""
    bots: List[BotProcess] = []
    with ExitStack() as stack:
        def ask(game: PlainGame) -> str:
            if not bots or not bots[-1].alive():
                bots.append(stack.enter_context(BotProcess(["--protocol", "getpoint"] + args)))
            bots[-1].send(getpoint_request(game))
            return bots[-1].read_line()

        yield ask
        codes = [bot.finish()[0] for bot in bots]
    assert codes == [0]


@pytest.fixture(scope="module")
def ask_getpoint() -> Iterator[Callable[[PlainGame], str]]:
    yield from getpoint_asker(TINY_ARGS)


@pytest.fixture(scope="module")
def ask_shipped_getpoint() -> Iterator[Callable[[PlainGame], str]]:
    yield from getpoint_asker(SHIPPED_ARGS)


@settings(max_examples=4 * EXAMPLES)
@given(game=positions())
def test_getpoint_protocol_replies_legally(game: PlainGame,
                                          ask_getpoint: Callable[[PlainGame], str]) -> None:
    reply = ask_getpoint(game)
    assert_legal(game, tuple(map(int, reply.split())))


@settings(max_examples=EXAMPLES, phases=UNSHRUNK)
@given(game=positions())
def test_the_shipped_bot_replies_legally_to_getpoint(
        game: PlainGame, ask_shipped_getpoint: Callable[[PlainGame], str]) -> None:
    reply = ask_shipped_getpoint(game)
    assert_legal(game, tuple(map(int, reply.split())))


def play_platform_game(args: List[str], game: PlainGame, bot_first: bool,
                       data: st.DataObject) -> None:
    """A whole game: the opponent plays drawn quiet moves, the bot replies at every turn."""
    with BotProcess(args) as bot:
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


@settings(max_examples=EXAMPLES)
@given(game=boards(), bot_first=st.booleans(), data=st.data())
def test_platform_protocol_replies_legally_over_a_pipe(game: PlainGame, bot_first: bool,
                                                       data: st.DataObject) -> None:
    play_platform_game(TINY_ARGS, game, bot_first, data)


@pytest.mark.parametrize("shape", SHAPES, ids=[f"{M}x{N}" for M, N in SHAPES])
@settings(max_examples=2, phases=UNSHRUNK)
@given(bot_first=st.booleans(), data=st.data())
def test_the_shipped_bot_replies_legally_over_a_pipe(shape: Tuple[int, int], bot_first: bool,
                                                     data: st.DataObject) -> None:
    """The bot as it ships: its worker during its moves, pondering during the opponent's."""
    play_platform_game(SHIPPED_ARGS, data.draw(boards(shape)), bot_first, data)


@skip_if(spare_cores() < 1, "one core")
def test_the_shipped_bot_plays_leaves_out_in_its_worker() -> None:
    """The shipped examples above test the two-core bot: its forked worker plays out leaves
    during its move (the bot switches it off for the game after two moves in which its own
    search got under 0.7 of a core, bot.search.fork.FULL_CORE, as on a busy machine), while
    the capped bot runs alone."""
    with BotProcess(["--time", "0.3"]) as bot, BotProcess(TINY_ARGS) as capped:
        bot.send("9 9 0 0\n")
        worker = bot.pondering()  # so the move gets its whole time, however slow the start
        idle = cpu_seconds(worker)
        bot.send("-1 -1\n")
        capped.send("9 9 0 0\n-1 -1\n")
        bot.read_frame()
        capped.read_frame()
        assert cpu_seconds(worker) > idle
        assert children(capped.proc.pid) == []
