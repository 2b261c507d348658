"""`python -m bot --analyse` as a process: it serves one request after another, stops when
told, answers bad input with an error line and serves on, searches a position reached from
the last one from the tree it has, ends at end of input, and its best move is the move
`python -m bot --protocol getpoint` plays at the same play-out cap and seed."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import List, Optional

from botio import getpoint_request
from plain_referee import PlainGame

from bot.protocol.analyse import TICK

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0  # seconds a line may take before the test fails (a loaded machine)
START = {"M": 9, "N": 10, "no": [8, 4], "moves": [[8, 5], [7, 5], [8, 6], [8, 3]]}


class Engine:
    """One analysing process; its stdout's lines read by a thread, so a read can time out."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "--analyse", *args],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[Optional[str]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, request: dict) -> None:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def line(self) -> dict:
        text = self.lines.get(timeout=WAIT)
        assert text is not None, "end of output: " + self.proc.stderr.read()
        return json.loads(text)

    def until_done(self) -> List[dict]:
        lines = [self.line()]
        while not lines[-1].get("done", True):
            lines.append(self.line())
        return lines

    def close(self) -> int:
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def test_stop_bad_input_a_new_position_and_end_of_input():
    engine = Engine("--cores", "1", "--seed", "1")
    try:
        engine.send(START)  # no budget: until stopped
        # updates until one shows a tree worth stopping (the first TICK of an idle machine's
        # search has twice as many play-outs), however slowly a loaded machine searches
        updates = [engine.line()]
        while updates[-1]["playouts"] < 1000:
            assert not updates[-1]["done"] and len(updates) <= WAIT / TICK, updates[-1]
            updates.append(engine.line())
        assert len(updates) >= 2 and not updates[-1]["done"]
        engine.send({"stop": True})
        stopped = engine.until_done()[-1]
        assert stopped["reason"] == "stopped" and stopped["playouts"] > 0
        assert len(stopped["pv"]) >= 3

        engine.send({"M": 9, "N": 10, "no": [8, 4], "moves": [[8, 4]]})
        assert engine.line() == {"error": "moves[0]: move (8, 4) is not legal: column 4 "
                                          "takes row 7"}
        engine.proc.stdin.write("{not json\n")
        engine.proc.stdin.flush()
        assert engine.line()["error"].startswith("not JSON")
        engine.send({"stop": True})  # nothing to stop: no answer

        # two plies down the principal variation: the tree searched below it is kept
        engine.send(dict(START, moves=START["moves"] + stopped["pv"][:2], playouts=200))
        lines = engine.until_done()
        assert lines[0]["reused"] > 0 and lines[0]["playouts"] == 0
        assert lines[-1]["reason"] in ("budget", "proven")
        assert lines[-1]["reused"] == lines[0]["reused"]

        engine.send(START)  # no budget again, then end of input while it searches
        assert not engine.line()["done"]
        engine.proc.stdin.close()
        final = engine.until_done()[-1]
        assert final["reason"] == "stopped"
        assert engine.proc.wait(timeout=WAIT) == 0
        assert engine.lines.get(timeout=WAIT) is None
    finally:
        engine.close()


def test_the_best_move_is_the_move_getpoint_plays():
    """The same position, play-out cap and seed: the analysis's final best move and the
    getpoint protocol's reply."""
    game = PlainGame(9, 10, 8, 4)
    for x, y in START["moves"]:
        game.play(x, y)
    reply = subprocess.run(
        [sys.executable, "-m", "bot", "--protocol", "getpoint", "--playouts", "700",
         "--seed", "11"], cwd=ROOT, input=getpoint_request(game), capture_output=True,
        text=True, timeout=WAIT, check=True).stdout.split()
    engine = Engine("--seed", "11")
    try:
        engine.send(dict(START, playouts=700))
        final = engine.until_done()[-1]
    finally:
        assert engine.close() == 0
    assert final["best"] == [int(v) for v in reply]
