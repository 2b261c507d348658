"""The puzzle page in a real browser (headless Chromium under Selenium), on a suite made by
hand (tests/hand_puzzles.py): a "win" puzzle played to its end (a right click, the engine's
defence drawn, the four clicked: solved), then the next one, a "hold", answered wrong from the
keyboard and refuted (the opponent's line as numbered ghost stones, ending in its four; the
column that held ringed); both results kept beside the log and shown in the list after a
reload."""

import json

from hand_puzzles import HOLD, WIN, items, write_suite
from skips import skip_if_missing

from arena.core.rules import Grid
from devtools.browser import at_column, driver_missing, wait_for

pytestmark = skip_if_missing(driver_missing(), "no chromedriver")
BOARD = "document.getElementById('puzzle-board')"


def board_data(driver, key):
    return driver.execute_script(f"return {BOARD}.dataset.{key} || ''")


def cell_class(driver, x, y):
    return driver.execute_script(
        f"return {BOARD}.querySelector('circle[data-x=\"{x}\"][data-y=\"{y}\"]')"
        ".getAttribute('class')")


def results(driver):
    return driver.execute_script(
        "const out = {}; document.querySelectorAll('#rows tr').forEach(function (r) {"
        " out[r.dataset.id] = r.dataset.result; }); return out;")


def makes_four(moves):
    """By the referee's rules: the last of ``moves`` makes four, and the stone that did."""
    grid = Grid(9, 9, 0, 4)
    for ply, (x, y) in enumerate(moves):
        grid.play(x, y, ply % 2 + 1)
    return bool(grid.four_through(*moves[-1])), (len(moves) - 1) % 2 + 1


def test_a_puzzle_played_to_its_end_then_a_wrong_answer_refuted(browser, served, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    write_suite(tmp_path / "hand.jsonl")
    win, hold = items()
    browser.get(served.url("/puzzles?suite=hand.jsonl"))
    wait_for(browser, "document.body.dataset.ready")
    assert board_data(browser, "puzzle") == win.id and board_data(browser, "state") == "play"
    assert browser.find_element("id", "task").text.startswith("Puzzle 1 of 2: red")
    board = browser.find_element("id", "puzzle-board")

    at_column(browser, board, 4)  # right: (2, 4); the engine blocks at (3, 5)
    wait_for(browser, f"{BOARD}.dataset.defence === '3,5' && {BOARD}.dataset.state === 'play'")
    assert board_data(browser, "plies") == str(len(WIN) + 2)
    assert browser.find_element("id", "status").text.startswith(
        "Right: (2,4) is proven to win. The engine defends with (3,5)")
    assert cell_class(browser, 3, 5).split()[:2] == ["p2", "last"]

    at_column(browser, board, 5)  # the four
    wait_for(browser, f"{BOARD}.dataset.state === 'solved'")
    assert browser.find_element("id", "status").text == "Solved: (2,5) makes four."
    assert all("win" in cell_class(browser, 2, y) for y in (4, 5, 6, 7))
    assert results(browser) == {win.id: "solved", hold.id: ""}

    browser.find_element("id", "next").click()
    wait_for(browser, f"{BOARD}.dataset.puzzle === '{hold.id}'")
    assert "hold" in browser.find_element("id", "task").text
    # the keyboard: on the board, the first arrow chooses the middle column, three more go to
    # column 7, Enter drops there: (1, 7), which loses
    browser.execute_script(f"{BOARD}.focus()")
    keys = ActionChains(browser)
    for _ in range(4):
        keys.send_keys(Keys.ARROW_RIGHT)
    keys.send_keys(Keys.ENTER).perform()
    wait_for(browser, f"{BOARD}.dataset.state === 'failed'")
    assert board_data(browser, "verdict") == "wrong"
    assert browser.find_element("id", "status").text == (
        "Wrong: (1,7) loses (proven): the refutation, numbered, ends in yellow's four.")
    line = [[int(v) for v in m.split(",")] for m in board_data(browser, "ghosts").split(" ")]
    assert len(line) == 7 and makes_four(HOLD + [[1, 7]] + line) == (True, 2)
    numbers = browser.execute_script(
        f"return Array.from({BOARD}.querySelectorAll('.ghost-n'))"
        ".map(function (t) { return t.textContent; })")
    assert numbers == [str(i + 1) for i in range(7)]
    assert "right" in cell_class(browser, 2, 4)  # the one move that held, ringed
    assert results(browser) == {win.id: "solved", hold.id: "failed"}

    kept = [json.loads(line) for line in (tmp_path / "puzzles.jsonl").read_text().splitlines()]
    assert [(k["id"], k["result"], k["moves"]) for k in kept] == [
        (win.id, "solved", [[2, 4], [3, 5], [2, 5]]), (hold.id, "failed", [[1, 7]])]
    browser.refresh()  # the results are the server's: a reload shows them
    wait_for(browser, "document.body.dataset.ready")
    assert results(browser) == {win.id: "solved", hold.id: "failed"}
