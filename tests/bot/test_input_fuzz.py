"""Whatever arrives on stdin, the bot ends in a reply or in one short line on stderr: random
and malformed input (Hypothesis) through both protocols' readers in-process and through
``python -m bot`` as a process, and an endless line from a writer that never closes its end,
which must not be waited for. test_protocols.py pins the message of each kind of bad input.

The process examples run the bot at a play-out cap (one core, no pondering) and, fewer of them
(each costs its moves' time and a fork), as it ships: its leaf worker beside each move, and
pondering until the next line, so that bad input arriving while it ponders, or ending it, is
answered the same way."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from typing import List

import pytest
from botio import ROOT, run_bot
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.protocol import getpoint, platform
from bot.protocol.lines import FdLines
from bot.rules import InvalidPosition
from bot.search.clock import Limit
from bot.search.mcts import MCTS

TINY = Limit(seconds=5, playouts=3)
EXAMPLES = settings.default.max_examples
STARTS = {"platform": ["9 9 4 4", "12 10 11 3", "9 9 4 4\n-1 -1"],
          "getpoint": ["9 9 4 4 -1 -1", "9 9 0 0 -1 -1\n" + "9 " * 9]}
TOKENS = st.one_of(st.integers(-15, 15).map(str), st.integers().map(str),
                   st.sampled_from(["-1", "+3", "x", "\uff19", "1e3", "0x1", "\x00", "\xe9"]),
                   st.text(max_size=4))


@st.composite
def malformed(draw, protocol: str) -> bytes:
    """Random bytes, or a plausible start (a header, a move) followed by lines of random
    tokens, cut at a random byte (input closed mid-line)."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=300))
    lines: List[str] = draw(st.lists(st.lists(TOKENS, max_size=8).map(" ".join), max_size=5))
    start = draw(st.sampled_from(STARTS[protocol] + [""]))
    data = "\n".join([start] + lines).encode("utf-8", "surrogatepass")
    return data[:draw(st.integers(0, len(data)))]


def serve(protocol: str, data: bytes) -> None:
    """Serve ``data`` through the protocol as ``python -m bot`` does (FdLines over a pipe)."""
    r, w = os.pipe()
    try:
        os.write(w, data)  # under the pipe's 64 KiB: no reader needed yet
        os.close(w)
        w = -1
        if protocol == "platform":
            platform.serve(FdLines(r), io.BytesIO(), TINY, MCTS(seed=0))
        else:
            getpoint.serve(FdLines(r), io.StringIO(), TINY, MCTS(seed=0))
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


@pytest.mark.parametrize("protocol", ["platform", "getpoint"])
@settings(max_examples=2 * EXAMPLES)
@given(data=st.data())
def test_malformed_input_is_answered_or_refused_in_process(protocol: str,
                                                           data: st.DataObject) -> None:
    try:
        serve(protocol, data.draw(malformed(protocol)))
    except InvalidPosition as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200


def assert_replies_or_one_line(protocol: str, args: List[str], data: bytes) -> None:
    """``python -m bot --protocol PROTOCOL ARGS`` given ``data`` exits 0 in silence, or 2 with
    one short line on stderr."""
    proc = run_bot(["--protocol", protocol] + args, data, timeout=10)
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode == 0:
        assert err == ""
    else:
        assert proc.returncode == 2, err
        assert err.startswith("bot: bad input: ") and err.count("\n") == 1 and len(err) < 200


@pytest.mark.parametrize("protocol", ["platform", "getpoint"])
@settings(max_examples=EXAMPLES // 5)
@given(data=st.data())
def test_malformed_input_ends_the_process_with_one_line(protocol: str,
                                                        data: st.DataObject) -> None:
    assert_replies_or_one_line(protocol, ["--playouts", "3"], data.draw(malformed(protocol)))


@pytest.mark.parametrize("protocol", ["platform", "getpoint"])
@settings(max_examples=EXAMPLES // 10)
@given(data=st.data())
def test_malformed_input_ends_the_shipped_bot_with_one_line(protocol: str,
                                                            data: st.DataObject) -> None:
    assert_replies_or_one_line(protocol, ["--time", "0.05"], data.draw(malformed(protocol)))


@pytest.mark.parametrize("args", [["--playouts", "3"], [], ["--protocol", "getpoint"]])
def test_an_endless_line_is_refused_without_waiting_for_its_end(args: List[str]) -> None:
    """10 MB without a newline from a writer that keeps its end open: the bot reads 64 KiB,
    refuses and exits (also while it ponders, as it does without ``--playouts``)."""
    proc = subprocess.Popen([sys.executable, "-m", "bot"] + args, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))

    def write() -> None:
        data = memoryview(b"9 9 4 4 " + b"5" * (10 << 20))
        try:
            while data:
                data = data[proc.stdin.write(data):]
        except BrokenPipeError:  # the bot stopped reading: what it should do
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        code = proc.wait(timeout=10)
    finally:
        proc.kill()
        writer.join(timeout=10)
    out, err = proc.stdout.read(), proc.stderr.read().decode()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        pipe.close()
    assert code == 2 and out == b""
    assert err.startswith("bot: bad input: a line of over 65536 characters")
    assert err.count("\n") == 1
