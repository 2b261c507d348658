"""`arena serve` stopped by SIGTERM, as by Ctrl-C: the game running is recorded as abandoned."""

import json
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from records.codes import FaultKind
from records.log import read_log
from records.result import Side

ROOT = Path(__file__).resolve().parents[3]


def test_a_sigterm_records_the_running_game_as_abandoned(tmp_path):
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(tmp_path), "--port",
                               "0"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        base = "http://" + line.split("http://", 1)[1].split()[0].rstrip("/")
        body = json.dumps({"opponent": "random", "seed": 3, "colour": "first"}).encode()
        request = urllib.request.Request(base + "/api/games", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    finally:
        server.kill()
        server.wait()
    [record] = read_log(tmp_path / "games.jsonl")
    assert record.fault is not None
    assert (record.fault.side, record.fault.kind) == (Side.A, FaultKind.CRASH)
    assert "abandoned: the server stopped" in record.fault.detail
