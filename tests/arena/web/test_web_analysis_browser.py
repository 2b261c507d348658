"""The analysis board in a real browser (headless Chromium under Selenium): a position set up
by clicks with a win in one gets that column marked proven, a position with one safe move
gets every other column marked lost and the safe move's line drawn on hover, a replayed
game opens on the board with every move, a game's moves step by the arrow keys and a
variation is played and left, the top lines show on hover, the bar shows the position's
value, a reloaded URL shows the same position and budget, a column is chosen and dropped by
the keyboard, a set-up no game reaches is refused on the page, and a closed tab leaves no
engine process."""

import time

from skips import skip_if_missing

from arena.children.reaper import in_session
from devtools.browser import at_column, driver_missing, wait_for
from records.game import GameRecord
from records.log import ResultLog

pytestmark = skip_if_missing(driver_missing(), "no chromedriver")
BOARD = "9,9,0,0"
PLAYOUTS = 2000  # a budget that gives the same proofs on a quiet machine and a busy one
ONE_SAFE = "8.0,8.1,8.8,8.2,7.8,8.3"  # red must block yellow's (8, 1..3) at (8, 4)


def board_data(driver, key):
    return driver.execute_script(
        f"return document.getElementById('analysis-board').dataset.{key} || ''")


def column_data(driver, y):
    return driver.execute_script(
        f"return Object.assign({{}}, document.querySelector("
        f"'#analysis-board g[data-column=\"{y}\"]').dataset)")


def over_column(driver, column, action):
    """A real mouse move (and click) over a column's top cell."""
    board = driver.find_element("id", "analysis-board")
    at_column(driver, board, column, click=action == "click", top_row=True)


def analysed(driver, plies):
    """Wait for the final line of the analysis of the position after ``plies`` pieces."""
    wait_for(driver, f"document.getElementById('analysis-board').dataset.plies === '{plies}'"
                     " && document.getElementById('analysis-board').dataset.done", timeout=30)


def test_a_win_in_one_set_up_by_clicks_is_marked_proven(browser, served):
    browser.get(served.url(f"/analyse?board={BOARD}&playouts={PLAYOUTS}"))
    wait_for(browser, "document.body.dataset.ready")
    for column in (0, 0, 1, 1, 2, 2):  # red on the bottom row, yellow above
        plies = int(board_data(browser, "plies"))
        over_column(browser, column, "click")
        wait_for(browser, f"document.getElementById('analysis-board').dataset.plies === "
                          f"'{plies + 1}'")
    analysed(browser, 6)
    assert board_data(browser, "best") == "8,3" and board_data(browser, "done") == "proven"
    assert column_data(browser, 3)["proof"] == "win" and column_data(browser, 3)["plies"] == "1"
    marked = browser.execute_script(
        "return document.querySelector('#analysis-board circle[data-x=\"8\"][data-y=\"3\"]')"
        ".getAttribute('class')")
    assert "mark-win" in marked
    assert "/analyse?board=9,9,0,0&moves=8.0,7.0,8.1,7.1,8.2,7.2" in browser.current_url
    # two red pieces dropped by hand: no turn order gives that, and the page says so
    browser.find_element("css selector", "input[name=drop][value='1']").click()
    over_column(browser, 5, "click")
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '7'")
    over_column(browser, 5, "click")
    wait_for(browser, "document.getElementById('analysis-board').dataset.refused")
    assert browser.find_element("id", "message").text.startswith(
        "5 first-player and 3 second-player pieces")
    browser.find_element("id", "undo").click()  # back to a game's position: analysed again
    analysed(browser, 7)
    assert browser.find_element("id", "message").text == ""
    assert browser.current_url.endswith(f"&moves=8.0,7.0,8.1,7.1,8.2,7.2,8.5&playouts={PLAYOUTS}")


def test_with_one_safe_move_the_others_are_marked_lost_and_its_line_drawn(browser, served):
    browser.get(served.url(f"/analyse?board={BOARD}&moves={ONE_SAFE}&playouts={PLAYOUTS}"))
    analysed(browser, 6)
    assert int(board_data(browser, "playouts")) <= PLAYOUTS  # the budget is the page's
    proofs = {y: column_data(browser, y)["proof"] for y in range(9)}
    assert proofs.pop(4) != "loss"
    assert set(proofs.values()) == {"loss"}
    assert board_data(browser, "best") == "8,4"
    over_column(browser, 4, "move")
    ghosts = wait_for(browser, "document.getElementById('analysis-board').dataset.ghosts")
    assert ghosts.split(" ")[0] == "8,4"
    numbers = browser.execute_script(
        "return Array.from(document.querySelectorAll('#analysis-board .ghost-n'))"
        ".map(function (t) { return t.textContent; })")
    assert numbers == [str(i + 1) for i in range(len(ghosts.split(" ")))]


def test_a_replayed_games_move_opens_on_the_board(browser, served, tmp_path):
    moves = [[8, 4], [7, 4], [8, 3], [8, 5], [6, 4]]
    record = GameRecord("b", 1, 0, 0, "x", "y", 9, 10, 0, 9, 1.0, 0, "four", moves=moves,
                        times=[0.1] * len(moves))
    with ResultLog(tmp_path / "games.jsonl") as log:
        log.append(record)
    browser.get(served.url("/replay#game=0&step=3"))
    wait_for(browser, "document.body.dataset.ready")
    browser.find_element("id", "btn-analyse").click()
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '3' && "
                      "document.getElementById('analysis-board').dataset.best")  # analysed
    # the whole game, its cursor at the step
    assert browser.current_url.endswith("/analyse?board=9,10,0,9&moves=8.4,7.4,8.3,8.5,6.4&ply=3")
    assert browser.execute_script(
        "return document.getElementById('move-list').dataset.moves") == "5"
    cells = browser.execute_script("""
        const out = {};
        document.querySelectorAll('#analysis-board circle[data-s]').forEach(function (c) {
          if (c.dataset.s !== '0') out[c.dataset.x + ',' + c.dataset.y] = c.dataset.s; });
        return out;""")
    assert cells == {"8,4": "1", "7,4": "2", "8,3": "1"}
    assert board_data(browser, "toMove") == "2"
    browser.find_element("id", "stop").click()  # no budget: it runs until stopped
    wait_for(browser, "document.getElementById('analysis-board').dataset.done === 'stopped'")


def test_a_pasted_record_line_opens_before_its_winning_move(browser, served):
    moves = [[8, 0], [7, 0], [8, 1], [7, 1], [8, 2], [7, 2], [8, 3]]
    record = GameRecord("b", 1, 0, 0, "x", "y", 10, 9, 0, 0, 1.0, 0, "four",
                        moves=[[x + 1, y] for x, y in moves])
    browser.get(served.url("/analyse"))
    wait_for(browser, "document.body.dataset.ready")
    browser.find_element("id", "paste").send_keys(record.to_json())
    browser.find_element("id", "open-paste").click()
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '6'")
    assert browser.find_element("id", "message").text.startswith("the game is over: move 7")
    assert browser.current_url.endswith(  # every move kept, the cursor before the four
        "/analyse?board=10,9,0,0&moves=9.0,8.0,9.1,8.1,9.2,8.2,9.3&ply=6")
    assert browser.find_element("id", "rows").get_attribute("value") == "10"


def test_a_closed_tab_leaves_no_engine_process(browser, served):
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(served.url(f"/analyse?board={BOARD}&moves=8.4"))
    wait_for(browser, "document.getElementById('analysis-board').dataset.updates")
    boards = served.server.app.state.boards
    [pid] = [s.engine.pid for s in boards._sessions.values() if s.engine]
    assert in_session(pid)
    browser.close()
    browser.switch_to.window(first)
    deadline = time.monotonic() + 10
    while (in_session(pid) or boards.pool.in_use) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert in_session(pid) == [] and boards.pool.in_use == 0


def cursor(driver):
    return driver.execute_script(
        "const b = document.querySelector('#move-list button.current');"
        "return b ? [b.dataset.ply, b.dataset.move] : null")


def key(driver, name):
    from selenium.webdriver.common.keys import Keys

    driver.find_element("tag name", "body").send_keys(getattr(Keys, name))


def test_a_games_moves_step_by_the_keys_and_a_variation_is_played_and_left(browser, served,
                                                                           tmp_path):
    moves = [[8, 4], [7, 4], [8, 3], [8, 5], [6, 4]]
    record = GameRecord("b", 1, 0, 0, "x", "y", 9, 10, 0, 9, 1.0, 0, "four", moves=moves,
                        times=[0.1] * len(moves))
    with ResultLog(tmp_path / "games.jsonl") as log:
        log.append(record)
    query = "&".join(f"{k}={v}" for k, v in record.key.to_dict().items())
    browser.get(served.url(f"/analyse/game?{query}&ply=2"))
    wait_for(browser, "document.body.dataset.ready")
    assert cursor(browser) == ["2", "7,4"]
    key(browser, "ARROW_RIGHT")
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '3'")
    assert cursor(browser) == ["3", "8,3"] and browser.current_url.endswith("&ply=3")
    key(browser, "ARROW_LEFT")
    key(browser, "ARROW_LEFT")
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '1'")
    key(browser, "END")
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '5'")
    assert "&ply=" not in browser.current_url  # the end: no cursor in the URL
    # a move off the game's line at ply 2 starts a branch; the game's line stays
    key(browser, "HOME")
    key(browser, "ARROW_RIGHT")
    key(browser, "ARROW_RIGHT")
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '2'")
    over_column(browser, 0, "click")
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '3'")
    assert cursor(browser) == ["3", "8,0"]
    assert browser.execute_script(
        "return document.getElementById('move-list').dataset.variations") == "1"
    assert browser.current_url.endswith("&moves=8.4,7.4,8.0")  # the line through the cursor
    # left: back on the game's line, every move still there
    browser.find_element("css selector", "#move-list button[data-ply='5']").click()
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '5'")
    assert browser.current_url.endswith("&moves=8.4,7.4,8.3,8.5,6.4")
    assert browser.execute_script(
        "return document.getElementById('move-list').dataset.moves") == "6"


def test_the_top_lines_the_bar_and_a_reload_keep_the_position_and_budget(browser, served):
    browser.get(served.url(f"/analyse?board={BOARD}&moves={ONE_SAFE}&ply=5&seconds=30"
                           f"&playouts={PLAYOUTS}"))
    analysed(browser, 5)
    assert browser.find_element("id", "seconds").get_attribute("value") == "30"
    first = float(browser.execute_script(
        "return document.getElementById('eval-bar').dataset.first"))
    assert 0.0 <= first <= 1.0
    lines = browser.find_elements("css selector", "#lines li")
    assert 1 <= len(lines) <= 3
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).move_to_element(lines[0]).perform()
    ghosts = wait_for(browser, "document.getElementById('analysis-board').dataset.ghosts")
    assert ghosts == lines[0].get_attribute("data-pv")
    assert ghosts.split(" ")[0] == lines[0].get_attribute("data-move")
    # a budget changed during an analysis is asked for at once, and kept in the URL
    field = browser.find_element("id", "seconds")
    field.clear()
    field.send_keys("20\t")
    wait_for(browser, "location.search.indexOf('seconds=20') >= 0")
    url = browser.current_url
    browser.refresh()
    analysed(browser, 5)
    assert browser.current_url == url
    assert browser.find_element("id", "seconds").get_attribute("value") == "20"
    assert cursor(browser) == ["5", "7,8"]


def test_a_column_is_chosen_and_dropped_by_the_keyboard(browser, served):
    from selenium.webdriver.common.keys import Keys

    browser.get(served.url(f"/analyse?board={BOARD}&playouts={PLAYOUTS}"))
    wait_for(browser, "document.body.dataset.ready")
    board = browser.find_element("id", "analysis-board")
    board.send_keys(Keys.ARROW_RIGHT)  # the middle column first
    board.send_keys(Keys.ARROW_RIGHT)
    assert board.get_attribute("data-column") == "5"
    board.send_keys(Keys.ENTER)
    wait_for(browser, "document.getElementById('analysis-board').dataset.plies === '1'")
    assert cursor(browser) == ["1", "8,5"]
    status = browser.find_element("id", "message")
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live")


def test_a_set_up_survives_a_reload(browser, served):
    browser.get(served.url(f"/analyse?board={BOARD}&playouts={PLAYOUTS}"))
    wait_for(browser, "document.body.dataset.ready")
    browser.find_element("css selector", "input[name=drop][value='2']").click()
    over_column(browser, 3, "click")  # a yellow piece alone: a set-up, not a game
    wait_for(browser, "location.search.indexOf('cells=') >= 0")
    url = browser.current_url
    browser.refresh()
    wait_for(browser, "document.body.dataset.ready")
    assert browser.current_url == url
    cells = browser.execute_script("""
        const out = {};
        document.querySelectorAll('#analysis-board circle[data-s]').forEach(function (c) {
          if (c.dataset.s !== '0') out[c.dataset.x + ',' + c.dataset.y] = c.dataset.s; });
        return out;""")
    assert cells == {"8,3": "2"}
