"""The three ways in: platform framing byte by byte, the getpoint lines, get_point(), and
every kind of bad input answered with one line on stderr and a non-zero exit."""

from __future__ import annotations

import io
import random
import re
import time

import pytest
from botio import ReactiveOpponent, getpoint_request, read_frames, run_bot
from plain_referee import PlainGame

from bot.choose import DEFAULT_SECONDS
from bot.protocol import getpoint, platform
from bot.protocol.function import get_point
from bot.rules import InvalidPosition, Position
from bot.search.clock import Limit
from bot.search.mcts import MCTS, SearchResult
from bot.search.settings import DEFAULT

FAST = Limit(seconds=5, playouts=20)


def test_frame_is_big_endian_length_then_ascii():
    assert platform.frame(10, 3) == b"\x00\x00\x00\x04" + b"10 3"
    assert platform.frame(7, 11) == bytes([0, 0, 0, 4]) + b"7 11"
    assert platform.frame(0, 0) == b"\x00\x00\x00\x03" + b"0 0"


def test_first_request_is_timed_from_process_start_only_if_it_was_waiting():
    started = 100.0
    start = platform.request_start
    assert start(started, asked=101.0, reading=101.0, arrived=101.001, quiet=101.0) == started
    # we waited for it: from its arrival, whatever came before
    assert start(started, asked=101.0, reading=101.0, arrived=103.5, quiet=101.0) == 103.5
    assert start(None, asked=101.0, reading=101.0, arrived=101.001, quiet=101.0) == 101.0


def test_a_request_found_waiting_after_pondering_is_timed_from_the_last_quiet_look():
    start = platform.request_start
    # pondered 2.5 s, last saw no input at 103.4, then found the request waiting
    assert start(None, asked=101.0, reading=103.52, arrived=103.521, quiet=103.4) == 103.4
    # the second player's first move arrives during pondering: not the process start
    assert start(100.0, asked=101.0, reading=103.52, arrived=103.521, quiet=103.4) == 103.4
    # pondering ended on its own (a proven root) and we then waited for the move
    assert start(None, asked=101.0, reading=101.2, arrived=103.5, quiet=101.1) == 103.5


def test_last_quiet_remembers_the_last_look_that_saw_no_input():
    answers = iter([False, False, True])
    look = platform.LastQuiet(lambda: next(answers), since=-1.0)
    before = time.perf_counter()
    assert look() is False and before <= look.quiet
    first = look.quiet
    assert look() is False and look.quiet >= first
    second = look.quiet
    assert look() is True and look.quiet == second


def test_opening_with_minus_one_is_answered_by_exactly_one_frame():
    proc = run_bot(["--playouts", "20", "--seed", "1"], b"9 10 8 4\n-1 -1\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    (x, y), = read_frames(proc.stdout)
    assert proc.stdout == platform.frame(x, y)
    assert PlainGame(9, 10, 8, 4).legal(x, y)


def test_platform_second_player_replies_to_each_move():
    out = io.BytesIO()
    game = PlainGame(11, 9, 0, 0)
    rng = random.Random(2)
    stdin = ReactiveOpponent(game, False, out, lambda g: rng.choice(g.legal_moves()))
    platform.serve(stdin, out, FAST, MCTS(seed=2))
    replies = read_frames(out.getvalue())
    assert replies and replies == game.moves[1::2]


class Leftmost:
    """A stand-in searcher: the leftmost non-losing move, so the game is known in advance."""

    def search(self, position: Position, deadline) -> SearchResult:
        safe = position.non_losing_moves()
        return SearchResult(safe & -safe, 0, 0, 0.0, None, 0)


class SlowToLook(Leftmost):
    """Pondering that is busy for 0.2 s before its first look at the input (as when it frees
    a large old tree), then stops; records how old the move's clock is when search begins."""

    def __init__(self) -> None:
        self.age_at_search: list = []

    def ponder(self, position: Position, stop, limit) -> int:
        time.sleep(0.2)
        assert stop()
        return 0

    def search(self, position: Position, deadline) -> SearchResult:
        self.age_at_search.append(deadline.elapsed())
        return super().search(position, deadline)


def test_time_pondering_spent_before_seeing_the_request_counts_against_the_move(monkeypatch):
    # The request is waiting from the start; pondering sees it only after 0.2 s, so the move's
    # clock must already show those 0.2 s when the search begins (not start when it was read).
    # Its read is instant (a StringIO): however long a loaded machine holds this process up
    # in it, the read is one of a line that was waiting.
    monkeypatch.setattr(platform, "BUFFERED", 10.0)
    searcher = SlowToLook()
    out = io.BytesIO()
    platform.serve(io.StringIO("9 9 0 0\n-1 -1\n"), out, FAST, searcher,
                   waiting=lambda: True)
    assert len(read_frames(out.getvalue())) == 1
    assert searcher.age_at_search and searcher.age_at_search[0] >= 0.19


def test_platform_rejects_a_move_into_a_full_column():
    # Both sides stack column 0 (colours alternate, no four); once full, the opponent
    # sends a move into it.
    out = io.BytesIO()
    game = PlainGame(9, 9, 4, 5)

    def stack(g: PlainGame):
        return (g.top[0] - 1, 0) if g.top[0] else (0, 0)

    stdin = ReactiveOpponent(game, True, out, stack)
    with pytest.raises(InvalidPosition, match="full column 0"):
        platform.serve(stdin, out, FAST, Leftmost())
    assert game.top[0] == 0


@pytest.mark.parametrize("lines, message", [
    (["9 9 0 0", "8 4", "-1 -1"], "not empty"),            # opening after a move
    (["9 9 0 0", "5 5"], "not legal"),                     # floating piece
    (["9 9 8 4", "8 4"], "not legal"),                     # onto the forbidden cell
    (["9 9 0 0", "9 0"], "outside"),
    (["9 9 0 0", "8"], "expected 2 integers"),
    (["9 9 0", "-1 -1"], "expected 4 integers"),
    (["13 9 0 0", "-1 -1"], "board size"),
    (["9 9 9 0", "-1 -1"], "forbidden cell"),
])
def test_platform_bad_input_raises_one_clear_error(lines, message):
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    with pytest.raises(InvalidPosition, match=message):
        platform.serve(stdin, io.BytesIO(), FAST, MCTS(seed=0))


def test_getpoint_answers_each_request_with_one_line():
    game = PlainGame(12, 12, 11, 0)
    first = getpoint_request(game)
    game.play(10, 0)
    stdin = io.StringIO(first + "\n" + getpoint_request(game))
    stdout = io.StringIO()
    getpoint.serve(stdin, stdout, FAST, MCTS(seed=0))
    lines = stdout.getvalue().split("\n")
    assert len(lines) == 3 and lines[2] == ""
    x, y = map(int, lines[1].split())
    assert game.legal(x, y)
    assert PlainGame(12, 12, 11, 0).legal(*map(int, lines[0].split()))


def test_get_point_function_has_the_c_meaning():
    game = PlainGame(9, 9, 8, 8)
    for move in [(8, 0), (7, 0), (8, 1), (7, 1), (8, 2)]:
        game.play(*move)
    # The second player (2 in its view) must block the first player's (8, 3).
    assert game.view()[8 * 9: 8 * 9 + 4] == [1, 1, 1, 0]
    assert get_point(9, 9, game.top, game.view(), 8, 2, 8, 8, limit=FAST) == (8, 3)


def _getpoint_bad(mutate) -> bytes:
    game = PlainGame(9, 9, 0, 0)
    game.play(8, 4)
    head = [9, 9, 0, 0, 8, 4]
    top, board = list(game.top), game.view()
    head, top, board = mutate(head, top, board)
    return "\n".join(" ".join(map(str, v)) for v in (head, top, board)).encode() + b"\n"


def _floating(h, t, b):
    b[3 * 9 + 2] = 2
    return h, t, b


def _top_wrong(h, t, b):
    t[4] = 9
    return h, t, b


def _last_not_opponent(h, t, b):
    return h[:4] + [8, 3], t, b


@pytest.mark.parametrize("args, stdin, message", [
    (["--protocol", "getpoint"], _getpoint_bad(_floating), "floating"),
    (["--protocol", "getpoint"], _getpoint_bad(_top_wrong), "top[4] = 9"),
    (["--protocol", "getpoint"], _getpoint_bad(_last_not_opponent), "not an opponent"),
    (["--protocol", "getpoint"], b"9 9 0 0 -1 -1\n9 9 9\n", "top: expected 9 integers"),
    (["--protocol", "getpoint"], b"9 9 0 0 -1 -1\n" + b"9 " * 9 + b"\n", "before the board"),
    (["--protocol", "getpoint"], b"hello\n", "expected 6 integers"),
    (["--protocol", "getpoint"], b"9 9 0 0 -1 -1\n" + b"9 " * 9 + b"\n0 0 0", "81 integers"),
    (["--protocol", "getpoint"], b"9 9 0 0 -1 -1\n-9 " + b"9 " * 8 + b"\n" + b"0 " * 81,
     "top[0] = -9"),
    (["--protocol", "getpoint"], "9 9 0 0 -1 -1\n９ 9".encode(), "'\\uff19 9'"),
    ([], b"9 9 4 4\nx y\n", "expected 2 integers"),
    ([], b"", "no header"),
    ([], b"9 9 4", "expected 4 integers, got 3"),  # input closed mid-line
    ([], b"9 9 4 4\n-1 -", "expected 2 integers, got '-1 -'"),
    ([], b"-9 9 0 0\n-1 -1\n", "board size -9x9"),
    ([], b"9 9 4 4\n8 -3\n", "outside"),
    ([], b"99999999999999999999 9 4 4\n", "'99999999999999999999' is out of range"),
    ([], b"9 9 4 4\n8 " + b"7" * 5000 + b"\n", "is out of range"),
    ([], "９ ９ 4 4\n-1 -1\n".encode(), "got '\\uff19 \\uff19 4 4'"),  # not ASCII digits
    ([], b"9 9 4 4\n\xff\xfe 1\n", "got '\\ufffd\\ufffd 1'"),  # not UTF-8
    ([], b"9 9 4 4\n\x00\x07\x1b[2J\n", "got '\\x00\\x07\\x1b[2J'"),  # control bytes
    ([], b"9 9 4 4 " + b"5" * (10 << 20), "a line of over 65536 characters"),
])
def test_bad_input_exits_non_zero_with_one_line(args, stdin, message):
    proc = run_bot(args + ["--playouts", "5"], stdin)
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert err.count("\n") == 1 and err.startswith("bot: bad input: ") and message in err
    assert len(err) < 200 and "Traceback" not in err  # the input is quoted short


def test_bad_flag_value_is_refused():
    proc = run_bot(["--time", "-1"], b"")
    assert proc.returncode != 0 and b"positive" in proc.stderr and proc.stdout == b""


def test_bot_time_environment_sets_the_budget_and_is_checked():
    proc = run_bot([], b"", env={"BOT_TIME": "soon"})
    assert proc.returncode == 2 and b"BOT_TIME='soon'" in proc.stderr and proc.stdout == b""
    proc = run_bot(["--log-level", "DEBUG"], b"9 9 0 0\n-1 -1\n", env={"BOT_TIME": "0.2"})
    assert proc.returncode == 0 and len(read_frames(proc.stdout)) == 1
    seconds = float(re.search(r"nodes, ([\d.]+) s,", proc.stderr.decode()).group(1))
    # 0.2 s from the process start (however long a loaded machine took to start it), not the
    # default, whose search runs at least until its guard's share of the time begins
    assert 0.2 <= seconds < DEFAULT_SECONDS * (1 - DEFAULT.guard_share)
