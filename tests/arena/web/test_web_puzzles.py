"""The puzzle page's API over HTTP: a suite in the served folder listed (never its answers),
steps judged (right with the defence, solved, wrong with the refutation, unsettled) and each
finished attempt appended to puzzles.jsonl and shown in the list; the positions where the
folder's games went wrong (a record's loss analysis, a kept review's decisive move); and every
bad request refused with one line that changes nothing."""

import json
from pathlib import Path

import pytest
from hand_puzzles import BOARD, HOLD, WIN, items, write_suite

from analysis.game import analyse_game
from arena.engine.review import BUDGET, Review, save_review
from arena.web import puzzles as puzzles_module
from records.game import GameRecord
from records.log import ResultLog

ROOT = Path(__file__).resolve().parents[3]
ZUGZWANG = [[1, 7], [4, 3], [3, 3], [2, 4], [1, 4], [0, 7], [4, 2], [3, 2]]  # after HOLD


def listing(served, query):
    status, text = served.call("GET", f"/api/puzzles?{query}")
    assert status == 200, text
    return json.loads(text)


def move(served, moves, goal, column, **extra):
    status, text = served.call("POST", "/api/puzzles/move", {
        "board": BOARD.to_list(), "moves": moves, "goal": goal, "column": column, **extra})
    assert status == 200, text
    return json.loads(text)


def kept(folder):
    path = folder / "puzzles.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_suite_is_listed_without_its_answers(served, tmp_path):
    write_suite(tmp_path / "hand.jsonl")
    listed = listing(served, "suite=hand.jsonl")
    assert listed["source"] == "suite hand.jsonl" and listed["kept"] == "puzzles.jsonl"
    win, hold = listed["puzzles"]
    assert [win["id"], hold["id"]] == [i.id for i in items()]
    assert (win["goal"], win["to_move"], win["level"], win["theme"]) == (
        "win", "first", "L3R1", "double threat")
    assert win["moves"] == WIN and hold["goal"] == "hold"
    assert win["result"] is None and win["tries"] == 0
    assert not {"answer", "avoid", "proofs"} & set(win)


def test_a_puzzle_played_to_its_end_and_a_failed_one_are_kept(served, tmp_path):
    write_suite(tmp_path / "hand.jsonl")
    win, hold = listing(served, "suite=hand.jsonl")["puzzles"]
    attempt = {"id": win["id"], "source": "suite hand.jsonl", "start": len(WIN)}
    right = move(served, WIN, "win", 4, puzzle=attempt)
    assert (right["verdict"], right["result"], right["defence"], right["over"]) == (
        "right", "win", [3, 5], False)
    assert not right["kept"] and kept(tmp_path) == []
    solved = move(served, WIN + [[2, 4], [3, 5]], "win", 5, puzzle=attempt)
    assert solved["solved"] and solved["four"] == [[2, 4], [2, 5], [2, 6], [2, 7]]
    assert solved["kept"]
    [line] = kept(tmp_path)
    assert (line["id"], line["source"], line["result"], line["moves"]) == (
        win["id"], "suite hand.jsonl", "solved", [[2, 4], [3, 5], [2, 5]])
    wrong = move(served, HOLD, "hold", 7, puzzle={"id": hold["id"], "source": "suite hand.jsonl",
                                                  "start": len(HOLD)})
    assert wrong["verdict"] == "wrong" and wrong["complete"] and len(wrong["refutation"]) == 7
    assert {"move": [2, 4], "result": "draw"} in wrong["values"]
    assert [k["result"] for k in kept(tmp_path)] == ["solved", "failed"]
    again = move(served, WIN, "win", 1, puzzle=attempt)  # a second try, failed: appended
    assert again["verdict"] == "wrong" and again["kept"]
    assert [k["result"] for k in kept(tmp_path)] == ["solved", "failed", "failed"]
    results = {p["id"]: (p["result"], p["tries"])
               for p in listing(served, "suite=hand.jsonl")["puzzles"]}
    assert results == {win["id"]: ("failed", 2), hold["id"]: ("failed", 1)}


def test_a_column_the_budget_cannot_settle_is_not_judged_nor_kept(served, tmp_path):
    answer = move(served, [[8, 4], [7, 4], [8, 3]], "hold", 2, nodes=1000,
                  puzzle={"id": "x", "source": "s", "start": 3})
    assert answer["verdict"] == "unsettled" and answer["result"] is None
    assert not answer["over"] and not answer["kept"] and kept(tmp_path) == []


def record(moves, round, analysed):
    """A game of alice (first) lost on the board, with its loss analysis where asked."""
    game = GameRecord(batch="hand", seed=0, round=round, leg=0, a="alice", b="bob", M=9, N=9,
                      no_x=0, no_y=4, time_limit=3.0, code=2, reason="four in a row",
                      moves=moves, times=[0.01] * len(moves))
    if analysed:
        game.analysis = analyse_game(game, 60.0)  # an endgame: exact within a few hundredths
    return game


def test_the_folders_mistakes_are_puzzles(served, tmp_path):
    lost = HOLD + ZUGZWANG
    with ResultLog(tmp_path / "games.jsonl") as log:
        log.append(record(lost, 0, analysed=True))  # its analysis: the mistake at HOLD's end
        log.append(record(lost, 1, analysed=False))  # none yet: counted in the note
        log.append(record(WIN + [[2, 1], [2, 4], [1, 4], [0, 6], [1, 1], [0, 1], [3, 5], [2, 5]],
                          2, analysed=False))  # reviewed: its decisive move kept there
    reviewed = record(WIN + [[2, 1]], 2, analysed=False).key
    save_review(tmp_path, Review(reviewed, BUDGET, [], [], len(WIN), 0.0))
    listed = listing(served, "")
    assert listed["source"] == "log games.jsonl"
    [hold, win] = listed["puzzles"]  # the same stones twice: one puzzle
    assert hold["id"] == items()[1].id and hold["goal"] == "hold" and hold["theme"] == "zugzwang"
    assert hold["moves"] == HOLD and hold["origin"]["ply"] == len(HOLD)
    assert win["moves"] == WIN and win["goal"] == "hold" and win["theme"] is None
    assert listed["note"].startswith("3 lost games in games.jsonl; 1 without a decisive move")
    assert listing(served, "log=games.jsonl")["puzzles"] == listed["puzzles"]


def test_an_empty_folder_has_no_puzzles_yet(served):
    listed = listing(served, "")
    assert listed["puzzles"] == [] and "no games.jsonl" in listed["note"]


@pytest.mark.parametrize("query, status, line", [
    ("suite=../outside.jsonl", 403, "outside the served folder"),
    ("suite=nothing", 404, "nothing: no such suite"),
    ("suite=bad.jsonl", 400, "bad.jsonl:2: not a suite item"),
    ("log=../games.jsonl", 403, "outside the served folder"),
    ("log=missing.jsonl", 404, "missing.jsonl: no such file"),
])
def test_a_bad_listing_is_one_line(served, tmp_path, query, status, line):
    good = items()[0].to_json()
    (tmp_path / "bad.jsonl").write_text(good + "\n" + good.replace('"win"', '"hold"') + "\n")
    got, text = served.call("GET", f"/api/puzzles?{query}")
    assert got == status and line in text and text.count("\n") == 1, text


GOOD = {"board": [9, 9, 0, 4], "moves": WIN, "goal": "win", "column": 4}


@pytest.mark.parametrize("body, status, line", [
    (b"{", 400, "malformed body: not JSON"),
    ({**GOOD, "answer": [2, 4]}, 400, "unknown field 'answer'"),
    ({**GOOD, "column": 12}, 400, "column: a whole number within 0..8"),
    ({**GOOD, "moves": WIN + [[0, 4]]}, 400, "is not legal there"),
    ({**GOOD, "nodes": 10 ** 9}, 400, "nodes: a whole number within"),
    ({**GOOD, "puzzle": {"id": "x", "source": "s", "start": 99}}, 400, "puzzle: {id, source"),
    ({**GOOD, "puzzle": {"id": "x"}}, 400, "puzzle: {id, source"),
])
def test_a_bad_move_is_one_line_and_keeps_nothing(served, tmp_path, body, status, line):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    got, text = served.call("POST", "/api/puzzles/move", raw=raw)
    assert got == status and line in text and text.count("\n") == 1, text
    assert kept(tmp_path) == []


def test_the_page_and_its_script_are_served_and_the_move_takes_only_post(served):
    status, page = served.call("GET", "/puzzles?suite=hand.jsonl")
    assert status == 200 and 'id="puzzle-board"' in page and 'name="viewport"' in page
    assert served.call("GET", "/static/puzzles.js")[0] == 200
    assert served.call("GET", "/api/puzzles/move")[0] == 405
    assert 'href="/puzzles"' in served.call("GET", "/")[1]
    assert 'href="/puzzles?log=games.jsonl"' in served.call("GET", "/review")[1]


def test_a_shipped_suite_is_found_by_name(served, tmp_path, monkeypatch):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    write_suite(shipped / "hand.jsonl")
    # a suite of valued middle-game positions has no one right column: not a puzzle suite
    middle = (ROOT / "suites" / "middle.jsonl").read_text("utf-8").splitlines()[0]
    (shipped / "middle.jsonl").write_text(middle + "\n", "utf-8")
    monkeypatch.setattr(puzzles_module, "SHIPPED", shipped)
    listed = listing(served, "suite=hand")
    assert listed["source"] == "suite hand" and listed["shipped"] == ["hand"]
    assert [p["id"] for p in listed["puzzles"]] == [i.id for i in items()]
