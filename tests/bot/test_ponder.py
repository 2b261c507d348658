"""Thinking on the opponent's time: the line reader that can tell whether input waits, the
ponder loop that stops when it does, the tree it leaves for the next move, and the process
that ponders yet answers each move within its own budget, timed from the move's arrival."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest
from botio import ROOT, WAIT, read_frames
from plain_referee import PlainGame

from bot.protocol.lines import FdLines
from bot.rules import Position
from bot.search.clock import Deadline, Limit
from bot.search.mcts import MCTS, PONDER_CHECK
from bot.search.settings import Settings


def test_lines_are_split_across_chunks_and_ready_says_when_one_waits():
    r, w = os.pipe()
    try:
        lines = FdLines(r)
        assert not lines.ready()
        os.write(w, b"9 9 ")
        assert lines.ready()  # the start of a line: reading it will not block for long
        os.write(w, b"4 4\n-1 -1\n3")
        assert lines.readline() == "9 9 4 4\n"
        assert lines.ready()  # the second line is in our buffer, not in the pipe
        assert lines.readline() == "-1 -1\n"
        os.write(w, b" 7\n")
        assert lines.readline() == "3 7\n"
        assert not lines.ready()
        os.close(w)
        w = -1
        assert lines.ready() and lines.readline() == "" and lines.readline() == ""
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_a_long_line_is_read_size_bytes_at_a_time_without_losing_the_rest():
    r, w = os.pipe()
    try:
        lines = FdLines(r)
        os.write(w, b"12345678\n\n" * 3000 + b"9 9")
        os.close(w)
        w = -1
        assert lines.readline(5) == "12345" and lines.readline(5) == "678\n"
        assert lines.readline(5) == "\n"
        rest = iter(lambda: lines.readline(5), "")
        assert "".join(rest) == "12345678\n\n" * 2999 + "9 9"
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_a_descriptor_select_cannot_watch_means_do_not_ponder():
    r, w = os.pipe()
    os.close(r)
    os.close(w)
    assert FdLines(r).ready()  # EBADF: stop pondering, let the blocking read report it


def test_ponder_stops_when_told_and_leaves_the_tree_for_the_reply():
    p = Position.new(9, 10, 3, 4).play_xy(8, 4)  # our move is played: the opponent to move
    searcher = MCTS(seed=3)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 50

    ran = searcher.ponder(p, stop, Limit(seconds=60))
    assert ran == 50 * PONDER_CHECK
    assert searcher.tree.visits == ran
    reply = max(searcher.tree.children, key=lambda c: c.visits)
    after = p.play_bit(reply.move)
    node = searcher.root_for(after)
    assert node is reply and node.visits > 0
    result = searcher.search(after, Deadline(Limit(playouts=100)))
    assert result.reused == reply.visits - 100 and result.move & after.possible()


def test_the_opponents_move_ends_a_probe_running_while_pondering():
    # A 13-ply question on an open board would run its million nodes (seconds) before the
    # loop could look at the input again; the move's arrival must end it within 256 nodes.
    p = Position.new(12, 12, 0, 0).play_xy(11, 5)
    searcher = MCTS(Settings(probe_depth=0, deep_probes=((1, 13, 10**6),)), seed=1)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 1  # the move arrives right after pondering began

    ran = searcher.ponder(p, stop, Limit(seconds=60))
    assert ran == PONDER_CHECK  # each new node's probe was cut short; then the loop stopped
    assert 0 < searcher.probes.nodes <= 512
    assert searcher.probes.budget.interrupt is stop
    # the search for our next move is not interrupted by the input that ended pondering
    searcher.probe_at = {1: (3, 1000)}
    result = searcher.search(p.play_xy(11, 6), Deadline(Limit(playouts=3)))
    assert searcher.probes.budget.interrupt is None and result.playouts == 3


def test_ponder_respects_its_own_limit():
    p = Position.new(12, 12, 0, 0)
    ran = MCTS(seed=1).ponder(p, lambda: False, Limit(seconds=60, playouts=300))
    assert ran == 300


def test_the_same_position_again_finds_the_tree_root():
    p = Position.new(10, 10, 9, 9)
    searcher = MCTS(seed=2)
    searcher.ponder(p, lambda: False, Limit(playouts=200))
    assert searcher.root_for(p) is searcher.tree and searcher.tree.visits == 200


def _read_exactly(fd: int, n: int, timeout: float) -> bytes:
    data = b""
    end = time.monotonic() + timeout
    while len(data) < n and time.monotonic() < end:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def test_process_ponders_while_waiting_and_times_each_move_from_its_arrival():
    """As second player: the opponent 'thinks' 1 s before each move. The bot must search in
    that time (its log says so) and still answer each move within its 0.3 s budget counted
    from when the move was sent, not from the process start or the end of its last move."""
    game = PlainGame(9, 9, 0, 4)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "bot", "--time", "0.3", "--log-level", "DEBUG"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=env)
    try:
        proc.stdin.write(b"9 9 0 4\n")
        proc.stdin.flush()
        latencies = []
        for column in (0, 8, 1, 7):  # the opponent's columns; the bot answers the first on top
            time.sleep(1.0)
            x, y = next((x, y) for x, y in game.legal_moves() if y == column)
            game.play(x, y)
            sent = time.perf_counter()
            proc.stdin.write(f"{x} {y}\n".encode())
            proc.stdin.flush()
            head = _read_exactly(proc.stdout.fileno(), 4, WAIT)
            body = _read_exactly(proc.stdout.fileno(), int.from_bytes(head, "big"), WAIT)
            latencies.append(time.perf_counter() - sent)
            (bx, by), = read_frames(head + body)
            assert game.legal(bx, by)
            game.play(bx, by)
        proc.stdin.close()
        assert proc.wait(timeout=WAIT) == 0
        log = proc.stderr.read().decode()
    finally:
        proc.kill()
        proc.wait()
    # The search stops at 0.3 s; the rest is slack for a loaded machine. The first reply is
    # the opening book's (no search); later ones may come at once when pondering proved the
    # position, so the clock of each search (its log line: seconds since the move arrived,
    # or since pondering last saw no input) is checked: under 1 s, so not started at the
    # process start or at the end of the last move. The second reply's search cannot be
    # proven early (two stones each): it searched most of its 0.3 s (its guard's share
    # begins at 0.24 s), where a clock started at the process start would have left none.
    assert all(t < 1.5 for t in latencies), latencies
    searched = [float(t) for t in re.findall(r"nodes, ([\d.]+) s,", log)]
    assert searched and all(t < 1.0 for t in searched), log
    assert searched[0] > 0.2, log
    pondered = [int(n) for n in re.findall(r"pondered: (\d+) playouts", log)]
    assert len(pondered) >= 3 and all(n > 0 for n in pondered[:3]), log


@pytest.mark.parametrize("flags", [["--no-ponder", "--time", "0.2"], ["--playouts", "30"]])
def test_no_ponder_flag_and_a_playout_cap_do_not_ponder(flags):
    # --playouts: a sparring partner capped at N play-outs must not search on our time
    proc = subprocess.run([sys.executable, "-m", "bot", *flags, "--log-level", "DEBUG"],
                          input=b"9 9 0 4\n-1 -1\n", capture_output=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert proc.returncode == 0 and len(read_frames(proc.stdout)) == 1
    assert b"search:" in proc.stderr and b"pondered" not in proc.stderr
