"""The analysis board's API without a browser: a session's stream pushes its engine's lines
for the positions the page posts, bad requests get a 4xx and one line and change nothing, a
page over the cap waits and starts when a place frees, a closed stream kills its engine, and
pasted texts name their positions."""

import http.client
import json
import os
import signal
import time

import pytest
from web_server import Served

from arena.children.reaper import leftovers
from records.game import GameRecord

BOARD = [9, 9, 0, 0]
WIN_IN_ONE = [[8, 0], [7, 0], [8, 1], [7, 1], [8, 2], [7, 2]]  # X wins at (8, 3)


class Stream:
    """An open `/api/analysis/events` stream, read event by event."""

    def __init__(self, served: Served) -> None:
        host, port = served.server.server_address[:2]
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.conn.request("GET", "/api/analysis/events")
        self.answer = self.conn.getresponse()
        assert self.answer.status == 200
        self.id = self.next("session")["id"]

    def next(self, kind: str = "", timeout: float = 30.0) -> dict:
        """The next event (of ``kind``, skipping others)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.answer.fp.readline().decode()
            if line.startswith("data: "):
                event = json.loads(line[6:])
                if not kind or event["kind"] == kind:
                    return event
        raise AssertionError(f"no {kind or 'event'} within {timeout} s")

    def final(self, tag: int) -> dict:
        while True:
            event = self.next("update")
            if event["tag"] == tag and event["done"]:
                return event

    def close(self) -> None:
        self.answer.close()
        self.conn.close()


def engine_pids(served):
    return [s.engine.pid for s in served.server.app.boards._sessions.values() if s.engine]


def test_a_posted_position_is_analysed_and_its_lines_pushed(served):
    stream = Stream(served)
    status, text = served.call("POST", f"/api/analysis/{stream.id}",
                               {"board": BOARD, "moves": WIN_IN_ONE, "seconds": 5, "tag": 7})
    assert status == 202 and json.loads(text) == {"to_move": 1, "tag": 7}
    first = stream.next("update")
    assert first["tag"] == 7 and first["playouts"] == 0 and not first["done"]
    final = stream.final(7)
    assert final["best"] == [8, 3] and final["proof"]["result"] == "win"
    # a set-up by cells on the same engine, then a stop
    rows = ["." * 9] * 7 + ["X........", "O........"]
    status, _ = served.call("POST", f"/api/analysis/{stream.id}",
                            {"board": BOARD, "cells": rows, "tag": 8})
    assert status == 202
    assert stream.next("update")["tag"] == 8
    assert served.call("POST", f"/api/analysis/{stream.id}/stop")[0] == 200
    assert stream.final(8)["reason"] == "stopped"
    stream.close()


@pytest.mark.parametrize("body, message", [
    ({"board": BOARD, "cells": ["." * 9] * 7 + ["X........", "........."]},
     "a floating piece at (7, 0)"),
    ({"board": BOARD, "cells": ["." * 9] * 8 + ["XX......."]},
     "2 first-player and 0 second-player pieces"),
    ({"board": BOARD, "cells": ["X........"] + ["O........", "X........"] * 4},
     "a piece on the forbidden cell"),
    ({"board": BOARD, "moves": WIN_IN_ONE + [[8, 3]]}, "the game is over: move 7 makes a four"),
    ({"board": BOARD, "moves": [[7, 4]]}, "move 1 (7, 4) is not legal there"),
    ({"board": [9, 13, 0, 0], "moves": []}, "board: N = 13 is not within 9..12"),
    ({"board": BOARD}, "give the position as exactly one of moves or cells"),
    ({"board": BOARD, "moves": [], "seconds": -1}, "seconds: a number within"),
    ({"board": BOARD, "moves": [], "colour": 1}, "unknown field 'colour'"),
])
def test_a_position_no_game_reaches_is_refused_with_one_line_and_changes_nothing(
        served, body, message):
    stream = Stream(served)
    assert stream.next("ready")
    status, text = served.call("POST", f"/api/analysis/{stream.id}", body)
    assert status == 400 and text.startswith(message) and text.count("\n") == 1, text
    session = served.server.app.boards.get(stream.id)
    assert session.analysis is None and session.pending is None
    stream.close()


def test_other_bad_requests_get_their_4xx(served):
    assert served.call("POST", "/api/analysis/nope", {"board": BOARD, "moves": []})[0] == 404
    stream = Stream(served)
    status, text = served.call("POST", f"/api/analysis/{stream.id}", raw=b'{"board": ')
    assert status == 400 and text.startswith("malformed body")
    assert served.call("GET", f"/api/analysis/{stream.id}")[0] == 405
    assert served.call("POST", "/api/analysis/events")[0] == 405
    assert served.call("POST", f"/api/analysis/{stream.id}/go")[0] == 404
    stream.close()


def test_a_body_left_unread_is_no_next_request_on_its_connection(served):
    stream = Stream(served)
    host, port = served.server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    for path, body, status in ((f"/api/analysis/{stream.id}/stop", {}, 200),  # body unused
                               ("/api/analysis/nope", {"board": BOARD}, 404),  # refused first
                               (f"/api/analysis/{stream.id}", {"board": BOARD, "moves": []},
                                202)):
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        assert answer.status == status
    conn.close()
    stream.close()


def test_a_closed_stream_kills_its_engine_within_seconds(served):
    stream = Stream(served)
    stream.next("ready")
    served.call("POST", f"/api/analysis/{stream.id}", {"board": BOARD, "moves": []})
    stream.next("update")
    [pid] = engine_pids(served)
    assert leftovers(pid, set())
    stream.close()
    deadline = time.monotonic() + 5
    while (leftovers(pid, set()) or served.server.app.boards.pool.in_use) and (
            time.monotonic() < deadline):
        time.sleep(0.05)
    assert leftovers(pid, set()) == [] and served.server.app.boards.pool.in_use == 0


def test_a_dead_engine_is_replaced_and_the_position_analysed_again(served):
    stream = Stream(served)
    stream.next("ready")
    served.call("POST", f"/api/analysis/{stream.id}", {"board": BOARD, "moves": [], "tag": 3})
    stream.next("update")
    [pid] = engine_pids(served)
    os.killpg(pid, signal.SIGKILL)
    event = stream.next()
    while event["kind"] == "update":  # lines written before the kill
        event = stream.next()
    assert event["kind"] in ("error", "ready")
    if event["kind"] == "error":
        assert event["message"].startswith("the engine exited")
        stream.next("ready")
    update = stream.next("update")
    assert update["tag"] == 3 and update["playouts"] == 0
    assert engine_pids(served) != [pid]
    stream.close()


def test_a_page_over_the_cap_waits_and_starts_when_a_place_frees(served):
    served.server.app.boards.pool.cap = 1
    first = Stream(served)
    first.next("ready")
    second = Stream(served)
    waiting = second.next()
    assert waiting["kind"] == "waiting" and "1 page analyse already" in waiting["message"]
    # its position waits with it, and is analysed once it has an engine
    served.call("POST", f"/api/analysis/{second.id}",
                {"board": BOARD, "moves": WIN_IN_ONE, "playouts": 100, "tag": 1})
    first.close()
    assert second.next("ready")
    assert second.final(1)["best"] == [8, 3]
    second.close()


def test_stopping_the_server_kills_every_engine(tmp_path):
    served = Served(tmp_path)
    stream = Stream(served)
    stream.next("ready")
    [pid] = engine_pids(served)
    served.close()
    assert leftovers(pid, set()) == []
    stream.close()


def test_a_pasted_text_names_its_position(served):
    def paste(text, board=BOARD):
        status, answer = served.call("POST", "/api/analysis/paste", {"text": text, "board": board})
        return status, (json.loads(answer) if status == 200 else answer)

    assert paste("8.4,7.4, 8.3")[1] == {"board": BOARD, "moves": [[8, 4], [7, 4], [8, 3]],
                                        "note": ""}
    assert paste("[[8, 4], [7, 4]]")[1]["moves"] == [[8, 4], [7, 4]]
    record = GameRecord("b", 1, 0, 0, "x", "y", 9, 11, 2, 3, 1.0, 0, "four",
                        moves=WIN_IN_ONE + [[8, 3]])
    status, shown = paste(record.to_json(), board=None)
    assert status == 200 and shown["board"] == [9, 11, 2, 3]
    assert shown["moves"] == WIN_IN_ONE  # before the last move, the four
    assert shown["note"].startswith("the game is over")
    status, text = paste("8 4 7")
    assert status == 400 and text.startswith("3 numbers")
    status, text = paste("8.4,6.4")
    assert status == 400 and text.startswith("move 2 (6, 4) is not legal there")
