"""The game review in the web app: a finished game of the folder reviewed as a queued job (it
waits while every engine of the pool is taken), its state over HTTP (from a log a batch is still
writing; from the job while it runs), bad keys refused with a 4xx and one line, the play page's
finished game linked to its review; in Chromium, the review page's graph and marks, a click on
the graph opening that position on the analysis board, and the replay page's link (and its
analysis-board link at the game's four: the position before it)."""

import json
import time
from urllib.parse import urlencode

import pytest
from skips import skip_if_missing
from web_server import Served, new_game, play_to_the_end

from arena.engine.client import EnginePool
from arena.engine.review import WALKED_INTO, Budget, review_path
from devtools.browser import chrome, driver_missing, wait_for
from records.game import GameRecord
from records.log import write_log

# X stacks column 0 and O answers in column 8 until its third move, (6, 8), lets X make four
OPENING = [[8, 0], [8, 8], [7, 0], [7, 8], [6, 0], [6, 8], [5, 0]]
RECORD = GameRecord(batch="hand", seed=0, round=0, leg=0, a="alice", b="bob", M=9, N=9, no_x=0,
                    no_y=4, time_limit=3.0, code=1, reason="four in a row", moves=OPENING,
                    times=[0.01] * len(OPENING), win_line=[[8, 0], [7, 0], [6, 0], [5, 0]])
KEY = urlencode(RECORD.key.to_dict())


@pytest.fixture()
def served(tmp_path):
    write_log(tmp_path / "games.jsonl", [RECORD])
    s = Served(tmp_path)
    s.server.app.reviews.budget = Budget(None, 100)  # a short game, quickly
    yield s
    s.close()


def review_when_ready(served, key=KEY, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, text = served.call("GET", f"/api/review?{key}")
        assert status == 200, text
        state = json.loads(text)
        if state["state"] in ("ready", "failed"):
            return state
        time.sleep(0.05)
    raise AssertionError(f"the review never ended: {state}")


def test_a_finished_game_is_reviewed_as_a_job_and_kept(served, tmp_path):
    status, text = served.call("GET", f"/api/review?{KEY}")
    assert status == 200 and json.loads(text)["state"] == "none"
    status, text = served.call("POST", f"/api/review?{KEY}")
    assert status == 202 and json.loads(text)["state"] in ("queued", "running")
    state = review_when_ready(served)
    assert state["state"] == "ready", state["message"]
    assert state["done"] == state["total"] == len(OPENING)
    assert state["game"]["names"] == ["alice", "bob"] and state["game"]["moves"] == OPENING
    review = state["review"]
    assert len(review["positions"]) == len(OPENING) + 1
    assert {"index": 5, "mark": WALKED_INTO} in [
        {k: m[k] for k in ("index", "mark")} for m in review["marks"]]
    assert review_path(tmp_path, RECORD.key).is_file()
    # asked again: ready at once, from the kept file
    status, text = served.call("POST", f"/api/review?{KEY}")
    assert status == 202 and json.loads(text)["state"] == "ready"


def test_a_review_waits_for_a_free_engine(served):
    pool = served.server.app.reviews.pool = EnginePool(1)  # one core's worth
    held = pool.acquire()  # the analysis board of another page, say
    try:
        status, text = served.call("POST", f"/api/review?{KEY}")
        assert status == 202 and json.loads(text)["state"] == "queued"
        # what must not happen has no event to wait for: a wrongly started job would have
        # half a second to show; the test cannot fail when the server is right
        time.sleep(0.5)
        state = json.loads(served.call("GET", f"/api/review?{KEY}")[1])
        assert (state["state"], state["done"]) == ("queued", 0)
    finally:
        pool.release(held)
    assert review_when_ready(served)["state"] == "ready"
    pool.close()


def test_a_log_a_batch_is_writing_still_answers_and_polls_answer_from_the_job(served,
                                                                             tmp_path):
    log = tmp_path / "games.jsonl"
    with open(log, "ab") as out:
        out.write(b'{"batch": "hand", "seed": 1, "rou')  # a line a batch is still writing
    status, text = served.call("GET", f"/api/review?{KEY}")
    assert status == 200 and json.loads(text)["game"]["moves"] == OPENING, text
    assert served.call("POST", f"/api/review?{KEY}")[0] == 202
    log.unlink()  # the job keeps its game: its polls never read the log
    status, text = served.call("GET", f"/api/review?{KEY}")
    assert status == 200 and json.loads(text)["game"]["moves"] == OPENING, text
    assert review_when_ready(served)["state"] == "ready"


@pytest.mark.parametrize("method, query, status, reason", [
    ("GET", "batch=hand&a=alice", 400, "a game's key: batch, a, b, seed, round and leg"),
    ("POST", KEY.replace("seed=0", "seed=x"), 400, "a game's key"),
    ("GET", KEY.replace("round=0", "round=9"), 404, "no finished game with that key"),
    ("POST", KEY.replace("bob", "carol"), 404, "no finished game with that key"),
])
def test_a_bad_key_gets_a_4xx_and_one_line(served, tmp_path, method, query, status, reason):
    got, text = served.call(method, f"/api/review?{query}")
    assert got == status and reason in text and text.count("\n") == 1
    assert not (tmp_path / "reviews").exists()


def test_the_play_pages_finished_game_links_its_review(tmp_path):
    s = Served(tmp_path)
    try:
        game = new_game(s, colour="first")
        *turns, state = play_to_the_end(s, game["id"])
        assert turns and all("review_url" not in t for t in turns)
        assert state["review_url"].startswith("/review?batch=play&a=human&b=random&")
        assert state["analysable"] == (state["result"] != "draw" and state["fault"] is None)
        status, text = s.call("GET", "/api/" + state["review_url"][1:])
        assert status == 200 and json.loads(text)["game"]["moves"] == state["moves"]
    finally:
        s.close()


@skip_if_missing(driver_missing(), "no chromedriver")
def test_the_review_page_draws_the_graph_and_marks_and_opens_the_analysis_board(served):
    browser = chrome()
    try:
        browser.get(served.url(f"/review?{KEY}"))
        wait_for(browser, "document.body.dataset.state === 'ready'")
        graph = browser.find_element("id", "graph")
        assert graph.get_attribute("data-plies") == str(len(OPENING))
        points = browser.execute_script(
            "return document.querySelector('#graph .chance').points.length")
        assert points == len(OPENING) + 1
        marks = browser.execute_script("""return Array.from(document.querySelectorAll(
            '#graph .mark')).map(function (c) { return [c.dataset.mark, c.dataset.index]; })""")
        assert [WALKED_INTO, "5"] in marks
        items = browser.find_elements("css selector", "#marks li[data-mark]")
        assert any(li.get_attribute("data-index") == "5" and WALKED_INTO in li.text
                   for li in items)
        # a click on the graph's first point opens the empty board on the analysis board
        from selenium.webdriver.common.action_chains import ActionChains

        width = float(graph.get_attribute("width"))
        ActionChains(browser).move_to_element_with_offset(graph, 40 - width / 2, 0).click() \
            .perform()
        wait_for(browser, "location.pathname === '/analyse'")
        assert browser.current_url.endswith("/analyse?board=9,9,0,4&moves=")
        # the marked move in the list opens the position before it
        browser.back()
        wait_for(browser, "document.body.dataset.state === 'ready'")
        browser.find_element("css selector", "#marks li[data-index='5']").click()
        wait_for(browser, "location.pathname === '/analyse'")
        assert browser.current_url.endswith(
            "/analyse?board=9,9,0,4&moves=8.0,8.8,7.0,7.8,6.0")
    finally:
        browser.quit()


@skip_if_missing(driver_missing(), "no chromedriver")
def test_the_replay_page_links_the_games_review(served):
    browser = chrome()
    try:
        browser.get(served.url(f"/replay/game?{KEY}"))
        wait_for(browser, "document.body.dataset.ready === '1'")
        link = browser.find_element("id", "review-link")
        assert link.is_displayed()
        link.click()
        wait_for(browser, "location.pathname === '/review' && document.body.dataset.state")
        assert browser.current_url == served.url(f"/review?{KEY}")
    finally:
        browser.quit()


@skip_if_missing(driver_missing(), "no chromedriver")
def test_the_replay_pages_last_step_opens_the_position_before_the_four(served):
    browser = chrome()
    try:
        browser.get(served.url(f"/replay/game?{KEY}"))
        wait_for(browser, "document.body.dataset.ready === '1'")
        browser.execute_script("location.hash = '#game=0&step=7'")
        wait_for(browser, "document.getElementById('board').dataset.step === '7'")
        href = browser.find_element("id", "btn-analyse").get_attribute("href")
        assert href.endswith("/analyse?board=9,9,0,4&moves=8.0,8.8,7.0,7.8,6.0,6.8"), href
    finally:
        browser.quit()
