"""Process players on the platform protocol, good and hostile, through the referee.

A process's start-up counts against its opening move (and, in practice, against its first move
when it moves second), and Python's start-up takes hundreds of milliseconds on a busy machine:
so every game here is played at GENEROUS seconds a move, far more than any start-up, except
those that test a timeout, which are played at LIMIT by a player that never answers."""
import os
import time

import pytest
from waits import PATIENCE, nothing, wait_until

from arena.core.players import make_player
from arena.core.referee import play_game
from records.board import Board
from records.codes import Code, FaultKind
from records.result import Side

GENEROUS = PATIENCE  # seconds a move for a player that must not time out
LIMIT = 0.5  # seconds a move in a game that must end on a timeout: its player never answers
SLACK = 3.0  # seconds a game may take past its moves' limits (start-up, the kill, reaping on a
# busy machine); a player left to end on its own would take 5 s (slow_start) or 60 s (a hang)


def timed_game(first, second, no=(4, 5), limit=GENEROUS):
    start = time.monotonic()
    outcome = play_game(first, second, Board(9, 10, no[0], no[1]), limit)
    wall = time.monotonic() - start
    return outcome, wall


def test_good_process_bot_finishes_a_game(proto, leftmost_player):
    with make_player("bot", proto("good")) as bot:
        outcome, _ = timed_game(bot, leftmost_player)
    assert not outcome.faulter and outcome.winner in (1, 2) and outcome.win_line
    assert len(outcome.times) == len(outcome.moves) and all(t >= 0 for t in outcome.times)


@pytest.mark.parametrize("mode, kind", [
    ("exit_first", FaultKind.CRASH),
    ("garbage", FaultKind.CRASH),
    ("lying_header", FaultKind.TIMEOUT),
    ("flood_stdout", FaultKind.CRASH),
    ("no_flush", FaultKind.TIMEOUT),
    ("close_stdout", FaultKind.CRASH),
    ("grandchild", FaultKind.CRASH),
    ("grandchild_setsid", FaultKind.CRASH),
    ("ignore_term", FaultKind.TIMEOUT),
    ("crash_later", FaultKind.CRASH),
    ("illegal", FaultKind.ILLEGAL),
    ("zero_length", FaultKind.CRASH),
    ("huge_length", FaultKind.CRASH),
    ("bad_payload", FaultKind.CRASH),
    ("short_garbage", FaultKind.TIMEOUT),
    ("hang", FaultKind.TIMEOUT),
    ("exit", FaultKind.CRASH),
])
def test_hostile_process_loses_in_time_with_the_right_code(mode, kind, proto, leftmost_player):
    # A fault other than a timeout is seen without waiting for the limit, however generous.
    limit = LIMIT if kind == FaultKind.TIMEOUT else GENEROUS
    with make_player("hostile", proto(mode)) as hostile:
        outcome, wall = timed_game(leftmost_player, hostile, limit=limit)
    assert outcome.faulter, outcome.reason
    assert (outcome.faulter, outcome.fault_kind) == (2, kind), outcome.reason
    assert wall < (LIMIT if kind == FaultKind.TIMEOUT else 0) + SLACK
    assert outcome.code(Side.B) == {
        FaultKind.CRASH: Code.A_BUG, FaultKind.TIMEOUT: Code.A_TIMEOUT,
        FaultKind.ILLEGAL: Code.A_ILLEGAL}[kind]


@pytest.mark.parametrize("mode, detail", [
    ("zero_length", "reply length header 0 "),
    ("huge_length", "reply length header 2147483648 "),
    ("bad_payload", "unreadable reply b'3 4 5'"),
])
def test_a_frame_that_is_no_reply_is_a_bug_at_once(mode, detail, proto, leftmost_player):
    with make_player("hostile", proto(mode)) as hostile:
        outcome, _ = timed_game(hostile, leftmost_player)
    assert outcome.moves == [] and detail in outcome.fault_detail


def test_a_reply_split_across_writes_is_read_whole(proto, leftmost_player):
    with make_player("split", proto("split_reply")) as split:
        outcome, _ = timed_game(split, leftmost_player)
    assert not outcome.faulter and outcome.reason == "four in a row"


def test_bytes_after_a_reply_are_read_as_the_next_replys_header(proto, leftmost_player):
    # b"\n" then the next frame's first 3 bytes: a header of 0x0a000000
    with make_player("trailing", proto("trailing_bytes")) as trailing:
        outcome, _ = timed_game(trailing, leftmost_player)
    assert (outcome.faulter, outcome.fault_kind) == (1, FaultKind.CRASH)
    assert len(outcome.moves) == 2 and "reply length header 167772160" in outcome.fault_detail


def test_slow_start_counts_against_the_opening_move(proto, leftmost_player):
    with make_player("slow", proto("slow_start")) as slow:  # 5 s before it reads anything
        outcome, wall = timed_game(slow, leftmost_player, limit=LIMIT)
    assert (outcome.faulter, outcome.fault_kind) == (1, FaultKind.TIMEOUT)
    assert outcome.moves == [] and wall < LIMIT + SLACK
    assert outcome.code(Side.A) == Code.A_TIMEOUT


def test_stderr_flood_is_drained_and_bounded(proto, leftmost_player):
    with make_player("noisy", proto("flood_stderr")) as noisy:
        outcome, _ = timed_game(noisy, leftmost_player)
        tail = noisy.stderr_tail()
    assert not outcome.faulter
    assert 0 < len(tail.encode()) <= 4096
    assert tail.rstrip().endswith(f"last words of move {(len(outcome.moves) + 1) // 2}")
    assert outcome.stderr[0] == tail


def test_stderr_is_kept_with_the_faulting_game(proto, leftmost_player):
    with make_player("bot", proto("crash_later")) as bot:
        outcome, _ = timed_game(bot, leftmost_player)
    assert outcome.fault_kind == FaultKind.CRASH and "exit status 1" in outcome.fault_detail
    assert "RuntimeError: proto_bot gave up on move 3" in outcome.stderr[0]


def test_missing_program_is_a_load_error(leftmost_player):
    bot = make_player("ghost", {"process": "/nonexistent/bot --fast"})
    outcome, _ = timed_game(bot, leftmost_player)
    assert (outcome.faulter, outcome.fault_kind) == (1, FaultKind.LOAD_ERROR)
    assert outcome.code(Side.A) == Code.A_LOAD
    assert outcome.code(Side.B) == Code.B_LOAD


def test_same_player_plays_game_after_game(proto, leftmost_player):
    with make_player("bot", proto("good")) as bot:
        first, _ = timed_game(bot, leftmost_player)
        second, _ = timed_game(leftmost_player, bot)
    assert first.faulter == second.faulter == 0
    assert first.moves == second.moves  # both play leftmost: the same game, from a fresh start


class SlowToLoad:
    """A Python strategy whose construction (its load) takes LOAD seconds; it notes when its
    load ended and when it was first asked for a move."""

    LOAD = 0.5
    loaded = asked = 0.0

    def __init__(self):
        time.sleep(self.LOAD)
        SlowToLoad.loaded = time.monotonic()

    def __call__(self, M, N, top, board, last_x, last_y, no_x, no_y):
        SlowToLoad.asked = SlowToLoad.asked or time.monotonic()
        y = next(c for c in range(N) if top[c] > 0)
        return top[y] - 1, y


def test_opponent_loading_is_not_on_the_opening_process_clock(proto):
    from arena.core.players.python import PythonPlayer
    SlowToLoad.loaded = SlowToLoad.asked = 0.0
    with make_player("bot", proto("good")) as bot:
        outcome, _ = timed_game(bot, PythonPlayer("slow", SlowToLoad))
    assert not outcome.faulter
    # The opening move's clock starts once the opponent has loaded, so it is under the time
    # from that load's end to the opponent's first move, however long the bot's own start-up;
    # were the load on the bot's clock, it would be about LOAD seconds over.
    assert outcome.times[0] <= SlowToLoad.asked - SlowToLoad.loaded


def test_first_players_load_fault_wins_over_the_seconds(leftmost_player):
    ghosts = [make_player(n, {"process": f"/nonexistent/{n}"}) for n in ("a", "b")]
    outcome, _ = timed_game(*ghosts)
    assert (outcome.faulter, outcome.fault_kind) == (1, FaultKind.LOAD_ERROR)


def interrupted(fd, *args, **kwargs):
    """A stderr reader whose start is interrupted (Ctrl-C, or a worker's SIGTERM) after its
    thread took the pipe (and closed it)."""
    os.close(fd)
    raise KeyboardInterrupt


def test_a_game_interrupted_as_its_process_starts_is_ended(proto, leftmost_player, monkeypatch,
                                                           mark, find_marked):
    import arena.core.players.process as process
    with make_player("bot", proto("good")) as bot:
        monkeypatch.setattr(process, "StderrTail", interrupted)
        with pytest.raises(KeyboardInterrupt):
            bot.start_game(9, 10, 4, 5)
        monkeypatch.undo()
        bot.end_game()  # the interruption goes on, not an error of the half-started game
        assert wait_until(lambda: find_marked(mark), nothing) == []
        outcome, _ = timed_game(bot, leftmost_player)
    assert not outcome.faulter


GETPOINT = """import os, sys
while True:
    head, top, board = (sys.stdin.readline() for _ in range(3))
    if not board:
        break
    if top.split()[0] == "0":  # a full first column: never answer, until the input ends
        sys.stdin.read()
    print(os.getpid(), 1, flush=True)
"""


def test_a_getpoint_process_is_kept_between_positions_and_started_afresh_after_a_fault(
        tmp_path):
    from arena.core.players.process import GetpointProcess

    script = tmp_path / "getpoint.py"
    script.write_text(GETPOINT)
    board, top = [0] * 81, [9] * 9
    with GetpointProcess("gp", ["python", str(script)]) as player:
        assert player.start_game(9, 9, 0, 0) is None
        first = player.move(top, board, -1, -1, GENEROUS)
        assert player.start_game(9, 9, 0, 0) is None
        assert player.move(top, board, -1, -1, GENEROUS).point == first.point  # the same one
        hung = player.move([0] + top[1:], board, -1, -1, LIMIT)
        assert hung.fault is FaultKind.TIMEOUT and hung.point is None
        assert player.start_game(9, 9, 0, 0) is None
        again = player.move(top, board, -1, -1, GENEROUS)
        assert again.fault is None and again.point != first.point  # a fresh process
