"""The web app's server without a browser: bad requests are refused with a 4xx and one line and
change nothing, games are played by the arena's referee and recorded, a game whose page is gone
is recorded as abandoned and leaves no process behind, and the watch state is the batch's."""

import json
import socket
import sys
import time
import uuid
from pathlib import Path

import pytest
from procs import marked
from web_server import PLAYERS, Followed, Served, new_game, play_to_the_end, your_turn

import arena.web.games as games_module
from arena.batch.config import adhoc_config, with_overrides
from arena.batch.scheduler import run_batch
from arena.core.boards import draw_board
from arena.core.live import LiveFile, MoveSink, is_watched, mark_watching, read_live
from arena.core.players.base import MoveResult
from arena.core.tasks import Task
from arena.core.worker import GameWorker
from arena.report.results import course_game
from arena.web.jobs import Job, JobState
from arena.web.watch import FolderWatch, _sprt
from devtools.sample import write_sample
from records.codes import FaultKind
from records.game import GameKey, GameRecord
from records.log import ResultLog, read_log, sort_log
from records.result import Fault, Result, Side

ROOT = Path(__file__).resolve().parents[3]
MARK = "ARENA_WEB_TEST_MARK"


def test_a_game_against_random_is_played_to_its_end_and_recorded(served, tmp_path):
    game = new_game(served, colour="first")
    state = play_to_the_end(served, game["id"])[-1]
    [record] = read_log(tmp_path / "games.jsonl")
    assert (record.a, record.b, record.leg, record.batch) == ("human", "random", 0, "play")
    assert record.moves == state["moves"] and record.code == state["code"]
    b = draw_board(5, 0)
    assert (record.M, record.N, record.no_x, record.no_y) == (b.M, b.N, b.no_x, b.no_y)
    assert state["result"] == {"a": "win", "b": "loss", "draw": "draw"}[record.result]
    assert len(record.times) == len(record.moves)


@pytest.mark.parametrize("body, status, reason", [
    ({"column": 99}, 409, "there is no column 99"),
    ({"column": "3"}, 400, "column: expected a whole number"),
    ({"column": 0, "ply": 7}, 409, "out of turn"),
    ({}, 400, "column: expected a whole number"),
    ({"column": 0, "ply": None}, 400, "ply: expected a whole number, got nothing"),
])
def test_a_bad_move_gets_a_4xx_with_one_line_and_changes_nothing(served, body, status, reason):
    game = new_game(served, colour="first")
    with Followed(served, game["id"]) as followed:
        before = followed.next(your_turn)
        # the ply the page shows, unless the case says otherwise (None: none sent, so a move
        # sent twice would be played twice)
        body = {k: v for k, v in {"ply": len(before["moves"]), **body}.items() if v is not None}
        got, text = served.call("POST", f"/api/games/{game['id']}/move", body)
        assert got == status and text.startswith(reason) and text.count("\n") == 1, text
        after = json.loads(served.call("GET", f"/api/games/{game['id']}")[1])
        assert after["moves"] == before["moves"] and after["your_turn"]


def test_the_game_state_carries_its_analysis_state_as_a_value(served):
    """The page reads the analysis's JobState value; the words are only shown."""
    game = new_game(served)
    assert json.loads(served.call("GET", f"/api/games/{game['id']}")[1])["analysis_state"] is None
    served.server.app.state.analyses.status[game["id"]] = Job(JobState.FAILED, "no time")
    state = json.loads(served.call("GET", f"/api/games/{game['id']}")[1])
    assert (state["analysis"], state["analysis_state"]) == ("failed: no time", "failed")


def test_a_full_column_is_refused(served):
    game = new_game(served, colour="first", board=[9, 9, 0, 8])
    gid = game["id"]
    with Followed(served, gid) as followed:
        while True:  # play column 0 until it is full (or the game ends on it)
            state = followed.next(your_turn)
            if state["over"] or sum(1 for m in state["moves"] if m[1] == 0) == 9:
                break
            served.call("POST", f"/api/games/{gid}/move", {"column": 0, "ply": len(state["moves"])})
        if not state["over"]:
            status, text = served.call("POST", f"/api/games/{gid}/move",
                                       {"column": 0, "ply": len(state["moves"])})
            assert (status, text) == (409, "column 0 is full\n")


@pytest.mark.parametrize("method, path, raw, status, reason", [
    ("POST", "/api/games/feedbeef/move", b'{"column": 1}', 404, "no game 'feedbeef'"),
    ("POST", "/api/games", b'{"opponent": "random", "colour"', 400, "malformed body: not JSON"),
    ("POST", "/api/games", b'{"opponent": "nobody"}', 400, "opponent: no player named"),
    ("POST", "/api/games", b'{"opponent": "random", "board": [13, 9, 0, 0]}', 400,
     "board: M = 13 is not within 9..12"),
    ("POST", "/api/games", b'{"opponent": "random", "board": [9, 9, 9, 0]}', 400,
     "board: the forbidden cell (9, 0) is not on a 9x9 board"),
    ("GET", "/replay?log=../../../etc/passwd", None, 403, "../../../etc/passwd: a path outside"),
    ("GET", "/replay?log=nothing.jsonl", None, 404, "nothing.jsonl: no such file"),
    ("GET", "/static/server.py", None, 404, "no such file"),
    ("GET", "/nowhere", None, 404, "no such page"),
    ("GET", "/api/games/feedbeef/move", None, 405, "GET is not allowed"),
])
def test_bad_requests_get_a_4xx_and_one_line(served, method, path, raw, status, reason):
    got, text = served.call(method, path, raw=raw)
    assert got == status and text.startswith(reason) and text.count("\n") == 1, text
    assert "Traceback" not in text


def test_a_move_after_the_end_and_two_games_at_once(served):
    one, two = new_game(served, seed=1), new_game(served, seed=2, colour="second")
    assert one["id"] != two["id"]
    with Followed(served, one["id"]) as first, Followed(served, two["id"]) as second:
        ply_one, ply_two = (len(g.next(your_turn)["moves"]) for g in (first, second))
        status, _ = served.call("POST", f"/api/games/{one['id']}/move",
                                {"column": 0, "ply": ply_one})
        assert status == 200
        status, text = served.call("POST", f"/api/games/{two['id']}/move",
                                   {"column": 1, "ply": ply_two})
        assert status == 200, text
        assert len(second.next(lambda s: your_turn(s) and len(s["moves"]) >= 2)["moves"]) >= 2


def marked_processes(mark: str):
    return marked(MARK, mark)


def state_when(served, game_id, ready, timeout=60.0):
    """The game's state once `ready(state)` holds, asked as a client that does not follow the
    game asks (such a client does not keep it from being abandoned)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = json.loads(served.call("GET", f"/api/games/{game_id}")[1])
        if ready(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} never got there: {state}")


def test_a_game_whose_page_is_gone_is_recorded_as_abandoned_and_its_opponent_ends(
        tmp_path, monkeypatch):
    monkeypatch.setattr(games_module, "GRACE_S", 3600.0)  # not abandoned before its page comes
    mark = uuid.uuid4().hex
    players = {"proto": {"process": [sys.executable, str(ROOT / "hostile" / "proto_bot.py"),
                                     "good"], "env": {MARK: mark}}}
    served = Served(tmp_path, players)
    try:
        status, text = served.call("POST", "/api/games", {"opponent": "proto", "seed": 3,
                                                          "colour": "second"})
        game = json.loads(text)
        # a page follows the game until the opponent has opened it, then its tab closes
        with Followed(served, game["id"]) as followed:
            followed.next(lambda s: s["moves"])
            assert marked_processes(mark), "the opponent's process should run during the game"
            monkeypatch.setattr(games_module, "GRACE_S", 0.0)
        state = state_when(served, game["id"], lambda s: s["over"])
        deadline = time.monotonic() + 30
        while marked_processes(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marked_processes(mark) == []
    finally:
        served.close()
    [record] = read_log(tmp_path / "games.jsonl")
    assert record.fault == Fault(Side.A, FaultKind.CRASH,
                                 "the person left the game (abandoned: the page closed)")
    assert record.code == 3 and state["result"] == "loss" and len(record.moves) == 1


def test_a_live_file_holds_the_watched_game_until_it_ends(tmp_path):
    task = Task(GameKey("b", "x", "y", 1, 0, 0), draw_board(1, 0), 1.0)
    live = LiveFile(tmp_path)
    assert not live.watched()
    mark_watching(tmp_path)
    assert is_watched(tmp_path) and live.watched()
    live.start(task)
    live.move(MoveResult((8, 3), 0.25, None))
    live.move(MoveResult(None, 1.0, FaultKind.TIMEOUT, "late"))  # a fault: no line
    [game] = read_live(tmp_path)
    assert (game.key, game.board, game.moves) == (task.key, task.board, [[8, 3, 0.25]])
    live.end()
    assert read_live(tmp_path) == [] and not live.path.exists()


class Recording(MoveSink):
    """A sink that keeps what the worker hands it."""

    def __init__(self, watched: bool) -> None:
        self.is_watched, self.calls = watched, []

    def watched(self) -> bool:
        return self.is_watched

    def start(self, task: Task) -> None:
        self.calls.append(("start", task.key))

    def move(self, res: MoveResult) -> None:
        self.calls.append(("move", res.point))

    def end(self) -> None:
        self.calls.append(("end", None))


@pytest.mark.parametrize("watched", [False, True])
def test_the_game_worker_hands_a_watched_games_moves_to_its_sink(watched):
    task = Task(GameKey("b", "x", "y", 1, 0, 0), draw_board(1, 0), 1.0)
    sink = Recording(watched)
    worker = GameWorker({n: PLAYERS["random"] for n in "xy"}, sink)
    try:
        record = worker.play(task)
    finally:
        worker.close()
    if not watched:
        assert sink.calls == []
    else:
        assert sink.calls[0] == ("start", task.key) and sink.calls[-1] == ("end", None)
        assert [point for what, point in sink.calls[1:-1]] == [tuple(m) for m in record.moves]


def test_the_watch_state_is_the_batchs_final_score(served, tmp_path):
    config = with_overrides(adhoc_config("gauntlet", {n: PLAYERS[n] for n in ("greedy", "random")},
                                         "watched"),
                            {"rounds": 4, "jobs": 1, "output": str(tmp_path), "seed": 3})
    records = run_batch(config, quiet=True)
    state = json.loads(served.call("GET", "/api/watch")[1])
    wins = sum(r.result is Result.A for r in records)
    losses = sum(r.result is Result.B for r in records)
    assert state["batch"] == "watched"
    assert (state["total"]["wins"], state["total"]["losses"], state["total"]["games"]) == (
        wins, losses, len(records))
    assert state["table"][0]["first"]["games"] == 4 and state["sprt"]["pairs"] == 4


def test_two_hundred_watch_pages_are_each_pushed_the_state_and_the_pages_still_answered(
        served, tmp_path, monkeypatch):
    """One look a tick for every open watch page, none holding a thread: each of 200 streams
    gets the state, and `/` is answered while they stay open (its time: bench/web.py)."""
    write_sample(tmp_path / "games.jsonl", 6)
    looks = []
    watch = served.server.app.state.watch
    monkeypatch.setattr(watch, "_look", lambda batches, look=watch._look: looks.append(
        batches) or look(batches))
    streams = [socket.create_connection(served.server.server_address[:2], timeout=60)
               for _ in range(200)]
    try:
        for conn in streams:
            conn.sendall(b"GET /api/watch/events HTTP/1.1\r\nHost: test\r\n\r\n")
        for conn in streams:
            seen = b""
            while b"\ndata: " not in seen:
                seen += conn.recv(65536)
            assert b'"batch":"sample"' in seen
        assert served.call("GET", "/")[0] == 200
        assert looks and all(batches == [None] for batches in looks)  # one state for all
    finally:
        for conn in streams:
            conn.close()


def test_an_infinite_llr_is_sent_as_its_sign_not_as_a_number(tmp_path):
    won = [course_game(GameRecord(batch="w", seed=1, round=r, leg=leg, a="a", b="b", M=9, N=9,
                                  no_x=0, no_y=0, time_limit=3.0, code=1, reason="four in a row",
                                  moves=[], times=[]))
           for r in range(4) for leg in (0, 1)]
    state = _sprt(won, (0.0, 10.0))
    assert state["llr"] is None and state["llr_sign"] == 1 and state["verdict"] == "accept"
    json.dumps(state, allow_nan=False)  # valid JSON for the page


def test_the_watch_state_follows_each_finished_game_and_a_rewrite_of_the_log(tmp_path):
    log = write_sample(tmp_path / "games.jsonl", 6, seed=2)
    watch = FolderWatch(tmp_path)
    first = watch.snapshot("sample")
    assert first["total"]["games"] == 6 and watch.snapshot("sample") == first
    extra = read_log(write_sample(tmp_path / "more.jsonl", 8, seed=5))[-1]
    with ResultLog(log) as out:
        out.append(extra)
    after = watch.snapshot("sample")
    assert after["total"]["games"] == 7 and after["recent"][0]["key"]["round"] == extra.round
    sort_log(log)
    assert watch.snapshot("sample")["total"] == after["total"]


def test_the_replay_page_of_a_log_a_batch_is_writing_shows_its_finished_games(served,
                                                                              tmp_path):
    log = write_sample(tmp_path / "games.jsonl", 3, seed=4)
    with open(log, "ab") as out:
        out.write(b'{"batch": "sample", "seed": 1, "rou')  # the line a batch is writing
    status, text = served.call("GET", "/replay")
    assert status == 200, text
    assert "<title>games.jsonl: 3 games</title>" in text
    with open(log, "ab") as out:
        out.write(b'nd": oops}\n')  # that line ends, and is not a record
    status, text = served.call("GET", "/replay")
    assert status == 200, text
    assert "<title>games.jsonl: 3 games (1 line not a record, skipped: " in text
