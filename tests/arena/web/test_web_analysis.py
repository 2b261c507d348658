"""The analysis board's API without a browser: a session's stream pushes its engine's lines
(each column's own line, the position's value) for the positions the page posts, bad requests
get a 4xx and one line and change nothing, a page takes an engine only while it analyses and
gives it back when stopped or idle, a page over the cap waits in line (reviews too) and starts
when a place frees, a closed stream kills its engine, pasted texts and the page's URL name
their games."""

import http.client
import json
import os
import signal
import time

import pytest
from waits import wait_until
from web_server import Served

from arena.children.reaper import in_session
from arena.engine.client import EnginePool
from records.game import GameRecord
from records.result import Seat

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
    return [s.engine.pid for s in served.server.app.state.boards._sessions.values() if s.engine]


def test_a_posted_position_is_analysed_and_its_lines_pushed(served):
    stream = Stream(served)
    status, text = served.call("POST", f"/api/analysis/{stream.id}",
                               {"board": BOARD, "moves": WIN_IN_ONE, "seconds": 5, "tag": 7})
    assert status == 202 and json.loads(text) == {"to_move": 1, "tag": 7}
    first = stream.next("update")
    assert first["tag"] == 7 and first["playouts"] == 0 and not first["done"]
    final = stream.final(7)
    assert final["best"] == [8, 3] and final["proof"]["result"] == "win"
    assert final["eval"] == {"first": 1.0, "proof": "win"}  # red to move wins: red's 100%
    assert all(m["pv"][0] == m["move"] for m in final["moves"])
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
    status, text = served.call("POST", f"/api/analysis/{stream.id}", body)
    assert status == 400 and text.startswith(message) and text.count("\n") == 1, text
    session = served.server.app.state.boards.get(stream.id)
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
    served.call("POST", f"/api/analysis/{stream.id}", {"board": BOARD, "moves": []})
    stream.next("update")
    [pid] = engine_pids(served)
    assert in_session(pid)
    stream.close()
    deadline = time.monotonic() + 5
    while (in_session(pid) or served.server.app.state.boards.pool.in_use) and (
            time.monotonic() < deadline):
        time.sleep(0.05)
    assert in_session(pid) == [] and served.server.app.state.boards.pool.in_use == 0


def test_a_dead_engine_is_replaced_and_the_position_analysed_again(served):
    stream = Stream(served)
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
    served.server.app.state.boards.pool.cap = 1
    first = Stream(served)
    served.call("POST", f"/api/analysis/{first.id}", {"board": BOARD, "moves": []})
    first.next("ready")
    second = Stream(served)
    # its position waits with it, and is analysed once it has an engine
    served.call("POST", f"/api/analysis/{second.id}",
                {"board": BOARD, "moves": WIN_IN_ONE, "playouts": 100, "tag": 1})
    waiting = second.next()
    assert waiting["kind"] == "waiting" and "all 1 are busy" in waiting["message"]
    first.close()
    assert second.next("ready")
    assert second.final(1)["best"] == [8, 3]
    second.close()


def test_an_idle_page_holds_no_engine_and_a_stopped_one_gives_it_back(served):
    pool = served.server.app.state.boards.pool
    idle = [Stream(served), Stream(served)]  # two tabs open, nothing analysed
    assert pool.in_use == 0
    stream = Stream(served)
    served.call("POST", f"/api/analysis/{stream.id}", {"board": BOARD, "moves": [], "tag": 1})
    stream.next("ready")
    assert pool.in_use == 1
    served.call("POST", f"/api/analysis/{stream.id}/stop")
    assert stream.final(1)["reason"] == "stopped"
    assert stream.next("released")["message"].startswith("the engine is given back")
    assert pool.in_use == 0
    # the next position takes one again
    served.call("POST", f"/api/analysis/{stream.id}",
                {"board": BOARD, "moves": WIN_IN_ONE, "playouts": 100, "tag": 2})
    assert stream.final(2)["best"] == [8, 3]
    for s in idle + [stream]:
        s.close()


def test_an_analysis_without_a_budget_yields_its_engine_to_one_in_line(served, monkeypatch):
    import arena.web.analysis_board as boards

    monkeypatch.setattr(boards, "SHARE_S", 0.0)
    pool = served.server.app.state.boards.pool
    pool.cap = 1
    first = Stream(served)
    served.call("POST", f"/api/analysis/{first.id}", {"board": BOARD, "moves": [], "tag": 1})
    first.next("ready")
    second = Stream(served)
    served.call("POST", f"/api/analysis/{second.id}",
                {"board": BOARD, "moves": WIN_IN_ONE, "playouts": 100, "tag": 1})
    assert first.final(1)["reason"] == "stopped"  # it yields: someone waits
    assert second.final(1)["best"] == [8, 3]
    first.close()
    second.close()


def test_the_pool_serves_in_order_and_says_who_waits():
    pool = EnginePool(1)
    held = pool.acquire()
    try:
        assert pool.acquire(timeout=0.01, ticket="review", label="a review") is None
        assert pool.acquire(timeout=0.01, ticket="page", label="an analysis board") is None
        assert pool.ahead("page") == "1 review" and pool.ahead("review") == ""
        pool.release(held)
        # a place is free, but the review asked first: the page still waits
        assert pool.acquire(timeout=0.01, ticket="page") is None
        held = pool.acquire(timeout=1, ticket="review")
        assert held is not None and pool.ahead("page") == ""
        pool.leave("page")
        assert not pool.waiting
    finally:
        pool.close()


def test_stopping_the_server_kills_every_engine(tmp_path):
    served = Served(tmp_path)
    stream = Stream(served)
    served.call("POST", f"/api/analysis/{stream.id}", {"board": BOARD, "moves": []})
    stream.next("ready")
    [pid] = engine_pids(served)
    served.close()
    assert in_session(pid) == []
    stream.close()


def test_a_pasted_text_names_its_position(served):
    def paste(text, board=BOARD):
        status, answer = served.call("POST", "/api/analysis/paste", {"text": text, "board": board})
        return status, (json.loads(answer) if status == 200 else answer)

    assert paste("8.4,7.4, 8.3")[1] == {"board": BOARD, "moves": [[8, 4], [7, 4], [8, 3]],
                                        "ply": 3, "cells": None, "note": ""}
    assert paste("[[8, 4], [7, 4]]")[1]["moves"] == [[8, 4], [7, 4]]
    record = GameRecord("b", 1, 0, 0, "x", "y", 9, 11, 2, 3, 1.0, 0, "four",
                        moves=WIN_IN_ONE + [[8, 3]])
    status, shown = paste(record.to_json(), board=None)
    assert status == 200 and shown["board"] == [9, 11, 2, 3]
    assert shown["moves"] == WIN_IN_ONE + [[8, 3]] and shown["ply"] == 6  # before the four
    assert shown["note"].startswith("the game is over")
    status, text = paste("hello world")
    assert status == 400 and text.startswith("no moves in the text")
    status, text = paste('{"batch": "b", "a": "x"}', board=None)
    assert status == 400 and text.startswith("not a record line of games.jsonl: no seed")
    status, text = paste("8 4 7")
    assert status == 400 and text.startswith("3 numbers")
    status, text = paste("8.4,6.4")
    assert status == 400 and text.startswith("move 2 (6, 4) is not legal there")


@pytest.mark.parametrize("query, answer", [
    ("", {"board": [9, 9, 8, 4], "moves": [], "ply": 0, "cells": None}),
    ("?board=9,9,0,0&moves=8.0,7.0,8.1", {"moves": [[8, 0], [7, 0], [8, 1]], "ply": 3}),
    ("?board=9,9,0,0&moves=8.0,7.0,8.1&ply=1&seconds=2.5&playouts=300",
     {"ply": 1, "seconds": 2.5, "playouts": 300}),
    ("?board=9,9,0,0&cells=" + "/".join(["." * 9] * 8 + ["X...O...."]),
     {"moves": [], "cells": ["." * 9] * 8 + ["X...O...."]}),
])
def test_the_pages_url_names_its_game_cursor_and_budget(served, query, answer):
    status, text = served.call("GET", "/api/analysis/position" + query)
    assert status == 200, text
    shown = json.loads(text)
    assert {k: shown[k] for k in answer} == answer


def test_a_whole_game_in_the_url_keeps_its_last_move_and_says_it_ended(served):
    moves = ",".join(f"{x}.{y}" for x, y in WIN_IN_ONE + [[8, 3]])
    shown = json.loads(served.call("GET", f"/api/analysis/position?board=9,9,0,0&moves={moves}")[1])
    assert shown["ply"] == 7 and shown["note"].startswith("the game is over: move 7")


@pytest.mark.parametrize("query, message", [
    ("?board=9,13,0,0", "board: N = 13 is not within 9..12"),
    ("?board=9,9,0", "board: M,N,no_x,no_y"),
    ("?board=a", "board: M,N,no_x,no_y"),
    ("?moves=8.4,hello", "moves: expected x.y"),
    ("?board=9,9,0,0&moves=8.4,6.4", "move 2 (6, 4) is not legal there"),
    ("?board=9,9,0,0&moves=8.4&ply=2", "ply: a whole number within 0..1"),
    ("?board=9,9,0,0&moves=8.4&ply=x", "ply: a whole number, got 'x'"),
    ("?seconds=-1", "seconds: a number within"),
    ("?board=9,9,0,0&cells=XX", "cells: expected 9 strings"),
    ("?cells=" + "/".join(["." * 9] * 8) + "/X...O....&moves=8.4", "give the position as"),
    ("?colour=red", "unknown field 'colour'"),
])
def test_a_bad_url_is_one_line(served, query, message):
    status, text = served.call("GET", "/api/analysis/position" + query)
    assert status == 400 and text.startswith(message) and text.count("\n") == 1, text


def test_a_finished_game_opens_on_the_board_by_its_key(served, tmp_path):
    from records.log import write_log

    record = GameRecord("b", 1, 0, 0, "x", "y", 9, 9, 0, 0, 1.0, 0, "four",
                        moves=WIN_IN_ONE + [[8, 3]])
    write_log(tmp_path / "games.jsonl", [record])
    key = "&".join(f"{k}={v}" for k, v in record.key.to_dict().items())
    host, port = served.server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("GET", f"/analyse/game?{key}&ply=2")
    answer = conn.getresponse()
    moves = ",".join(f"{x}.{y}" for x, y in record.moves)
    assert answer.status == 302
    assert answer.getheader("location") == f"/analyse?board=9,9,0,0&moves={moves}&ply=2"
    conn.close()
    # the page's note is about the position at its cursor: the game's end only there
    over = "the game is over: move 7 makes a four (analyse the position before it)"
    for ply, note in ((2, ""), (6, ""), (7, over)):
        query = answer.getheader("location").replace("ply=2", f"ply={ply}").split("?")[1]
        shown = json.loads(served.call("GET", f"/api/analysis/position?{query}")[1])
        assert (shown["ply"], shown["note"]) == (ply, note)
    assert served.call("GET", f"/analyse/game?{key}&ply=x")[0] == 400


def test_the_top_lines_rank_a_proven_win_first_and_a_proven_loss_last():
    from arena.engine.client import Info

    def move(y, visits, result=None):
        return {"move": [8, y], "visits": visits,
                "proof": None if result is None else {"result": result}}

    line = Info.parse({"moves": [move(0, 50), move(1, 0, "loss"), move(2, 0), move(3, 3, "win"),
                                 move(4, 90), move(5, 20, "draw")]}, Seat.FIRST)
    assert line.top(3) == [3, 4, 0]
    assert line.top(10) == [3, 4, 0, 5, 1]  # the unvisited, unproven one left out


@pytest.mark.parametrize("to_move, line, first", [
    (1, {"proof": {"result": "loss"}, "best": [8, 0], "moves": []}, (0.0, "loss")),
    (2, {"proof": {"result": "loss"}, "best": [8, 0], "moves": []}, (1.0, "win")),
    (2, {"proof": None, "best": [8, 0],
         "moves": [{"move": [8, 0], "value": 0.7}, {"move": [8, 1], "value": 0.9}]}, (0.3, None)),
    (1, {"proof": None, "best": None, "moves": []}, (None, None)),
])
def test_the_positions_value_is_the_first_players(to_move, line, first):
    from arena.engine.client import Info

    shown = Info.parse(line, Seat.of_ply(to_move - 1))
    assert (shown.pov(Seat.FIRST), shown.proof_pov(Seat.FIRST)) == first


def test_two_idle_analysis_tabs_do_not_delay_a_review(served, tmp_path):
    """Every engine place free for the review while two analysis pages stay open idle."""
    from arena.engine.limit import Limit
    from records.log import write_log

    record = GameRecord("b", 1, 0, 0, "x", "y", 9, 9, 0, 0, 1.0, 0, "four",
                        moves=WIN_IN_ONE + [[8, 3]])
    write_log(tmp_path / "games.jsonl", [record])
    app = served.server.app.state
    app.boards.pool.cap = 2  # two cores' worth, as on this machine
    app.reviews.budget = Limit(None, 100)
    tabs = [Stream(served), Stream(served)]
    key = "&".join(f"{k}={v}" for k, v in record.key.to_dict().items())
    status, text = served.call("POST", f"/api/review?{key}")
    assert status == 202 and json.loads(text)["state"] in ("queued", "running", "ready")
    wait_until(lambda: json.loads(served.call("GET", f"/api/review?{key}")[1])["state"]
               in ("ready", "failed"))
    state = json.loads(served.call("GET", f"/api/review?{key}")[1])
    assert state["state"] == "ready", state["message"]
    assert app.boards.pool.in_use == 0  # the review gave its engine back; the tabs hold none
    for tab in tabs:
        tab.close()


def test_analyse_this_game_runs_the_loss_analysis_in_a_child_and_keeps_its_file(
        tmp_path, monkeypatch):
    """"Analyse this game" (arena/web/games.py): the loss analysis in a child process
    (arena.engine.client.analyse_in_child), its file kept in analysed/; a child past its time
    is killed, and the job says why."""
    from arena.engine import client
    from arena.web.games import ANALYSED_DIR, Analyses
    from records.log import read_log

    # X stacks column 0, O answers in column 8 until (6, 8) lets X make four at (5, 0)
    record = GameRecord("b", 1, 0, 0, "x", "y", 9, 9, 0, 4, 1.0, 1, "four",
                        moves=[[8, 0], [8, 8], [7, 0], [7, 8], [6, 0], [6, 8], [5, 0]])
    analyses = Analyses(tmp_path)
    assert analyses.start("g1", record).words == "running"
    assert wait_until(lambda: analyses.status["g1"].words, lambda s: s != "running", 120) == "ready"
    [analysed] = read_log(tmp_path / ANALYSED_DIR / "g1.jsonl")
    assert analysed.analysis.decisive.index == 5
    assert [p.name for p in (tmp_path / ANALYSED_DIR).iterdir()] == ["g1.jsonl"]
    monkeypatch.setattr(client, "ANALYSIS_TIMEOUT_S", 0.0)
    assert analyses.start("g2", record).words == "running"
    assert wait_until(lambda: analyses.status["g2"].words, lambda s: s != "running", 60) == (
        "failed: the analysis took over 0 s")
