"""`arena serve` stopped by SIGTERM or Ctrl-C: the game running is recorded as abandoned, and
the exit status says which (143, 130: 128 and the signal's number)."""

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from records.codes import FaultKind
from records.log import read_log
from records.result import Side

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_stop_records_the_running_game_as_abandoned(tmp_path, stop):
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(tmp_path), "--port",
                               "0"], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        line = server.stderr.readline()
        base = "http://" + line.split("http://", 1)[1].split()[0].rstrip("/")
        body = json.dumps({"opponent": "random", "seed": 3, "colour": "first"}).encode()
        request = urllib.request.Request(base + "/api/games", data=body, method="POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
        os.killpg(server.pid, stop)  # Ctrl-C reaches the terminal's whole process group
        _, err = server.communicate(timeout=30)
    finally:
        server.kill()
        server.wait()
    assert server.returncode == 128 + stop and "Traceback" not in err, err
    [record] = read_log(tmp_path / "games.jsonl")
    assert record.fault is not None
    assert (record.fault.side, record.fault.kind) == (Side.A, FaultKind.CRASH)
    assert "abandoned: the server stopped" in record.fault.detail


def test_a_busy_port_is_one_line_and_exit_status_2(tmp_path):
    import socket

    with socket.socket() as taken:  # another server holds the port for the whole test
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "arena", "serve", str(tmp_path), "--port",
                               str(port)], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"arena serve: port {port} is busy on 127.0.0.1 (another server "
                           "listens there; --port 0 takes a free one)\n")
