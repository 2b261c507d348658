"""The game review in the web app: a finished game of the folder reviewed as a queued job (it
waits while every engine of the pool is taken, saying for what), its state over HTTP (from a log
a batch is still writing; from the job while it runs), at the server's budget or one the page
chooses, the loss analysis's decisive move for a record that has none, bad keys and budgets
refused with a 4xx and one line, the play page's finished game linked to its review; in
Chromium, the review page's graph and marks, a mark's dot and its list entry opening the same
position on the analysis board (the one before the move, the game's moves all there), a click
elsewhere on the graph the position under the pointer, a failed poll retried, and the replay
page's links (and its analysis-board link at the game's four: the whole game, its cursor
there)."""

import json
import threading
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from skips import skip_if_missing
from waits import wait_until
from web_server import Served, new_game, play_to_the_end

from arena.engine.client import EnginePool
from arena.engine.limit import Limit
from arena.engine.review import WALKED_INTO, review_path
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
    s.server.app.state.reviews.budget = Limit(None, 100)  # a short game, quickly
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
    # each position of the first pass before the loss analysis proves the game lost (6),
    # then the two looks at its one mark
    assert state["done"] == state["total"] == len(OPENING) + 1
    assert state["game"]["names"] == ["alice", "bob"] and state["game"]["moves"] == OPENING
    review = state["review"]
    assert len(review["positions"]) == len(OPENING) + 1
    # O's (6, 8) let X's four in while the block (5, 0) held: the one mark (no fall is shown
    # at 100 play-outs, too few to tell a fall from noise)
    assert [{k: m[k] for k in ("index", "mark")} for m in review["marks"]] == [
        {"index": 5, "mark": WALKED_INTO}]
    assert review["hidden"] == ["blunder", "mistake", "inaccuracy"]
    # the check, at ten times the play-outs, and the second look, at twice that, kept it: the
    # same mark, the block recommended
    assert review["check"] == {"seconds": None, "playouts": 1000}
    assert review["confirm"] == {"seconds": None, "playouts": 2000}
    assert [m["index"] for m in review["candidates"]] == [5]
    assert [len(c) for c in review["checks"]] == [2] and review["unchecked"] == 0
    assert review["marks"][0]["best"] == [5, 0]
    # each position keeps its moves' proofs: the block was not proven lost, (6, 8) was
    proofs = {tuple(m["move"]): m["proof"] for m in review["positions"][5]["moves"]}
    assert proofs[(5, 0)] is None and proofs[(6, 8)] == "loss"
    # the record has no loss analysis: the review ran one, which names the same move
    assert RECORD.analysis is None and review["decisive"] == 5
    assert review_path(tmp_path, RECORD.key).is_file()
    # asked again: ready at once, from the kept file
    status, text = served.call("POST", f"/api/review?{KEY}")
    assert status == 202 and json.loads(text)["state"] == "ready"


def test_a_review_waits_for_a_free_engine_and_says_for_what(served):
    pool = served.server.app.state.reviews.pool = EnginePool(1)  # one core's worth
    held = pool.acquire()  # the analysis board of another page, say
    board = object()  # and a second page's board, in line before the review
    second = threading.Thread(target=lambda: pool.release(pool.acquire(
        ticket=board, label="an analysis board")), daemon=True)
    second.start()
    try:
        assert wait_until(lambda: pool.waiting)
        status, text = served.call("POST", f"/api/review?{KEY}")
        assert status == 202 and json.loads(text)["state"] == "queued"
        # what must not happen has no event to wait for: a wrongly started job would have
        # half a second to show; the test cannot fail when the server is right
        time.sleep(0.5)
        state = json.loads(served.call("GET", f"/api/review?{KEY}")[1])
        assert (state["state"], state["done"]) == ("queued", 0)
        assert state["message"] == ("waiting for an engine: all 1 are busy (one a core); "
                                    "1 analysis board asked first")
    finally:
        pool.release(held)
    assert review_when_ready(served)["state"] == "ready"
    second.join(timeout=30)
    pool.close()


def test_the_budget_is_the_servers_or_one_the_page_chooses(served):
    status, text = served.call("GET", f"/api/review?{KEY}")
    state = json.loads(text)
    assert state["budgets"] == {"default": {"seconds": None, "playouts": 100},
                                "seconds": [0.5, 2.0, 5.0]}
    assert served.call("POST", f"/api/review?{KEY}")[0] == 202
    assert review_when_ready(served)["review"]["budget"] == {"seconds": None, "playouts": 100}
    # another budget is another review: not made yet
    status, text = served.call("GET", f"/api/review?{KEY}&seconds=2")
    assert status == 200 and json.loads(text)["state"] == "none"
    for bad in ("3", "x", "0.50001"):
        status, text = served.call("POST", f"/api/review?{KEY}&seconds={bad}")
        assert status == 400 and "seconds: one of 0.5, 2, 5" in text and text.count("\n") == 1


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
    ("POST", KEY + "&seconds=1", 400, "seconds: one of 0.5, 2, 5, got '1'"),
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


def board_query(url):
    """The analysis board's URL as its parts: path, and each field's one value."""
    parts = urlsplit(url)
    return parts.path, {k: v[0] for k, v in parse_qs(parts.query).items()}


ON_THE_BOARD = "location.pathname === '/analyse' && document.body.dataset.ready"
# The analysis board with the whole game, its cursor before move index 5 (O's (6, 8))
BEFORE_5 = ("/analyse", {"board": "9,9,0,4", "moves": "8.0,8.8,7.0,7.8,6.0,6.8,5.0",
                         "ply": "5"})


@skip_if_missing(driver_missing(), "no chromedriver")
def test_the_review_page_draws_the_graph_and_marks_and_opens_the_analysis_board(served):
    from selenium.webdriver.common.action_chains import ActionChains

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
            '#graph .mark')).map(function (a) {
              return [a.dataset.mark, a.dataset.index, a.getAttribute('href')]; })""")
        # the walked-into mark and, with its own sign, the decisive move the review's loss
        # analysis found (the record has none): both at move index 5
        dots = {mark: (index, href) for mark, index, href in marks}
        assert set(dots) == {WALKED_INTO, "decisive"}
        assert dots[WALKED_INTO][0] == dots["decisive"][0] == "5"
        assert browser.find_element("css selector", "#legend").text.count(
            "decisive: the loss analysis proves the game lost from here") == 1
        items = {li.get_attribute("data-mark"): li for li in
                 browser.find_elements("css selector", "#marks li[data-mark]")}
        assert set(items) == {WALKED_INTO, "decisive"}
        # both looks mark it alike: the smaller fall's is shown, with its look's budget (the
        # play-outs are not seeded here, so either look's fall may be the smaller)
        text = items[WALKED_INTO].text
        assert any(f"not proven lost at {n} play-outs a position: (5,0)" in text
                   for n in (1000, 2000)), text
        assert items["decisive"].text.startswith("◆")
        # both budgets said: the first pass's, the check's; and the loss analysis's
        hint = browser.find_element("id", "graph-hint").text
        assert "the engine at 100 play-outs a position" in hint
        assert ("looked at again at 1000 play-outs a position, each one that look marks once "
                "more at 2000 play-outs, and shown only where both looks mark it, by the milder "
                "mark: 1 of 1 kept") in hint
        assert "the loss analysis (1 s a position) proves" in items["decisive"].text
        # the dot and the list entry of a mark link the same position: before the move
        entry = items[WALKED_INTO].find_element("tag name", "a").get_attribute("href")
        assert entry == served.url(dots[WALKED_INTO][1])
        browser.find_element("css selector", f"#graph .mark[data-mark='{WALKED_INTO}']").click()
        wait_for(browser, ON_THE_BOARD)
        assert board_query(browser.current_url) == BEFORE_5
        browser.back()
        wait_for(browser, "document.body.dataset.state === 'ready'")
        items = browser.find_elements("css selector", f"#marks li[data-mark='{WALKED_INTO}'] a")
        items[0].click()
        wait_for(browser, ON_THE_BOARD)
        assert board_query(browser.current_url) == BEFORE_5
        # the game opened from the review keeps every move: the arrow keys step through it
        from selenium.webdriver.common.keys import Keys

        wait_for(browser, "document.body.dataset.ready")
        body = browser.find_element("tag name", "body")
        board = "document.getElementById('analysis-board').dataset.plies"
        assert browser.execute_script(f"return {board}") == "5"
        body.send_keys(Keys.ARROW_RIGHT)
        wait_for(browser, f"{board} === '6'")
        body.send_keys(Keys.ARROW_LEFT)
        body.send_keys(Keys.ARROW_LEFT)
        wait_for(browser, f"{board} === '4'")
        body.send_keys(Keys.END)
        wait_for(browser, f"{board} === '{len(OPENING)}'")
        # a click elsewhere on the graph opens the position under the pointer: ply 2
        browser.back()
        wait_for(browser, "document.body.dataset.state === 'ready'")
        graph = browser.find_element("id", "graph")
        width, height = (browser.execute_script(
            f"return document.getElementById('graph').getBoundingClientRect().{side}")
            for side in ("width", "height"))
        x = (40 + 2 * (640 - 40 - 12) / len(OPENING)) * width / 640  # the page's xOf(2)
        ActionChains(browser).move_to_element_with_offset(
            graph, x - width / 2, height / 2 - 30 * height / 220).click().perform()
        wait_for(browser, ON_THE_BOARD)
        assert board_query(browser.current_url) == (
            "/analyse", {**BEFORE_5[1], "ply": "2"})
    finally:
        browser.quit()


@skip_if_missing(driver_missing(), "no chromedriver")
def test_the_review_page_says_what_it_waits_for_and_retries_a_failed_poll(served):
    pool = served.server.app.state.reviews.pool = EnginePool(1)
    held = pool.acquire()  # every engine busy: the review waits, the page polls
    browser = chrome()
    try:
        browser.get(served.url(f"/review?{KEY}"))
        wait_for(browser, "document.body.dataset.state === 'queued'")
        assert wait_for(browser, "document.getElementById('progress-text').textContent")\
            .startswith("waiting for an engine: all 1 are busy (one a core)")
        # the next poll fails as a lost connection does; the page says so and asks again
        browser.execute_script("""const real = window.fetch; let failed = false;
            window.fetch = function (url, init) {
              if (!failed) { failed = true; window.pollFailed = 1;
                             return Promise.reject(new TypeError('Failed to fetch')); }
              return real(url, init); };""")
        wait_for(browser, "window.pollFailed === 1 && document.getElementById('message')"
                          ".textContent.includes('asking again')")
        pool.release(held)
        held = None
        wait_for(browser, "document.body.dataset.state === 'ready'")
        assert browser.find_element("id", "message").text == ""
    finally:
        browser.quit()
        if held is not None:
            pool.release(held)
        pool.close()


@skip_if_missing(driver_missing(), "no chromedriver")
def test_the_review_pages_budget_is_chosen_in_its_url(served):
    browser = chrome()
    try:
        browser.get(served.url(f"/review?{KEY}"))
        wait_for(browser, "document.body.dataset.state === 'ready'")
        labels = browser.execute_script("""return Array.from(document.querySelectorAll(
            '#budget option')).map(function (o) {
              return [o.value, o.textContent, o.selected]; })""")
        assert labels == [["", "100 play-outs a position (the server's)", True],
                          ["0.5", "0.5 s a position", False], ["2", "2 s a position", False],
                          ["5", "5 s a position", False]]
        assert browser.find_element("css selector", "label[for='budget']").text
        browser.execute_script("""const s = document.getElementById('budget');
            s.value = '2'; s.dispatchEvent(new Event('change'));""")
        wait_for(browser, "location.search.endsWith('&seconds=2')")
        wait_for(browser, "document.getElementById('budget').value === '2'")
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
def test_the_replay_pages_last_step_opens_the_whole_game_there_on_the_analysis_board(served):
    browser = chrome()
    try:
        browser.get(served.url(f"/replay/game?{KEY}"))
        wait_for(browser, "document.body.dataset.ready === '1'")
        browser.execute_script("location.hash = '#game=0&step=7'")
        wait_for(browser, "document.getElementById('board').dataset.step === '7'")
        href = browser.find_element("id", "btn-analyse").get_attribute("href")
        assert href == served.url(f"/analyse/game?{KEY}&ply=7"), href
        browser.get(href)  # the server's redirect: every move, the cursor at the four (the
        wait_for(browser, ON_THE_BOARD)  # end: the board's URL names no cursor there)
        assert board_query(browser.current_url) == ("/analyse", {
            k: v for k, v in BEFORE_5[1].items() if k != "ply"})
    finally:
        browser.quit()
