"""The analysis board in a real browser (headless Chromium under Selenium): a position set up
by clicks with a win in one gets that column marked proven, a position with one safe move
gets every other column marked lost and the safe move's line drawn on hover, a replayed
game's move opens on the board, a set-up no game reaches is refused on the page, and a
closed tab leaves no engine process."""

import time

from skips import skip_if_missing

from arena.children.reaper import leftovers
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
    assert browser.current_url.endswith("&moves=8.0,7.0,8.1,7.1,8.2,7.2,8.5")


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
    assert "/analyse?board=9,10,0,9&moves=8.4,7.4,8.3" in browser.current_url
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
    assert "/analyse?board=10,9,0,0&moves=9.0,8.0,9.1,8.1,9.2,8.2" in browser.current_url
    assert browser.find_element("id", "rows").get_attribute("value") == "10"


def test_a_closed_tab_leaves_no_engine_process(browser, served):
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(served.url(f"/analyse?board={BOARD}&moves=8.4"))
    wait_for(browser, "document.getElementById('analysis-board').dataset.updates")
    boards = served.server.app.boards
    [pid] = [s.engine.pid for s in boards._sessions.values() if s.engine]
    assert leftovers(pid, set())
    browser.close()
    browser.switch_to.window(first)
    deadline = time.monotonic() + 10
    while (leftovers(pid, set()) or boards.pool.in_use) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert leftovers(pid, set()) == [] and boards.pool.in_use == 0
