"""The web app in a real browser: headless Chromium driven by Selenium clicks columns until a
game against the random player ends, shows a finished game's loss analysis once it is ready,
watches a batch until the page's score is the batch's, and opens the replay page the server
serves."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from skips import skip_if_missing
from web_server import PLAYERS, Served, new_game, play_to_the_end

from devtools.browser import at_column, driver_missing, wait_for
from devtools.gate import GATE_ENV
from records.log import read_log
from records.result import Result

pytestmark = skip_if_missing(driver_missing(), "no chromedriver")
ROOT = Path(__file__).resolve().parents[3]


def cells_of(driver):
    return driver.execute_script("""
        const out = {};
        document.querySelectorAll('#play-board circle').forEach(function (c) {
          out[c.dataset.x + ',' + c.dataset.y] = Number(c.dataset.s); });
        return out;""")


def test_the_time_a_move_is_asked_only_of_a_player_that_takes_it(browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    s = Served(tmp_path, {**PLAYERS, "bot": {"process": "python -m bot --time 0.3"}})
    try:
        browser.get(s.url("/play"))
        wait_for(browser, "document.body.dataset.ready")
        row = browser.find_element("id", "seconds-row")
        assert row.is_displayed()  # the bot is the page's first choice
        Select(browser.find_element("id", "opponent")).select_by_value("random")
        assert not row.is_displayed()
    finally:
        s.close()


def test_clicking_columns_plays_a_game_against_random_to_its_end(browser, served, tmp_path):
    browser.get(served.url("/play"))
    wait_for(browser, "document.body.dataset.ready")
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "opponent")).select_by_value("random")
    browser.find_element("id", "seed").send_keys("11")
    browser.find_element("id", "start").click()
    board = browser.find_element("id", "play-board")
    column = 0
    while True:
        turn = wait_for(browser, "['you', 'over'].includes(document.getElementById("
                                 "'play-board').dataset.turn) && "
                                 "document.getElementById('play-board').dataset.turn")
        if turn == "over":
            break
        plies = int(board.get_attribute("data-plies"))
        top_free = [k for k, v in cells_of(browser).items() if v == 0]
        columns = sorted({int(k.split(",")[1]) for k in top_free})
        column = columns[column % len(columns)] if column not in columns else column
        at_column(browser, board, column)
        wait_for(browser, f"Number(document.getElementById('play-board').dataset.plies) > {plies}"
                          " || document.getElementById('play-board').dataset.turn === 'over'")
        column = (column + 1) % 9
    [record] = read_log(tmp_path / "games.jsonl")
    assert record.a == "human" and record.b == "random" and record.seed == 11
    cells = cells_of(browser)
    expected = {f"{x},{y}": 0 for x in range(record.M) for y in range(record.N)
                if (x, y) != (record.no_x, record.no_y)}
    for ply, (x, y) in enumerate(record.moves):
        expected[f"{x},{y}"] = ply % 2 + 1
    assert cells == expected
    result = browser.find_element("id", "result")
    assert result.get_attribute("data-result") == {"a": "win", "b": "loss",
                                                   "draw": "draw"}[record.result]
    assert f"course code {record.code}" in result.text
    if record.win_line:
        won = browser.execute_script(
            "return Array.from(document.querySelectorAll('#play-board circle.win'))"
            ".map(function (c) { return [Number(c.dataset.x), Number(c.dataset.y)]; })")
        assert sorted(won) == sorted(record.win_line)
    assert all(t >= 0 for t in record.side_times("a"))  # the person's times, as they were
    # the analysis board gets every move; without a cursor it opens at the last position
    # with a move left (before a winning four: tests/arena/web/test_web_analysis.py)
    assert browser.find_element("id", "analyse-board").get_attribute("href").endswith(
        f"/analyse?board={record.M},{record.N},{record.no_x},{record.no_y}&moves="
        + ",".join(f"{x}.{y}" for x, y in record.moves))
    # a bad request from the page gets its 4xx and one line
    answer = browser.execute_async_script("""
        var done = arguments[arguments.length - 1];
        fetch('/api/games/' + document.getElementById('play-board').dataset.game + '/move',
              {method: 'POST', body: '{"column": 0'}).then(function (r) {
          r.text().then(function (t) { done([r.status, t]); }); });""")
    assert answer[0] == 400 and answer[1].startswith("malformed body")


def test_the_play_page_shows_the_loss_analysis_once_it_is_ready(browser, served):
    # the page follows the finished game while its analysis (a JobState) is under way
    game = new_game(served)
    assert play_to_the_end(served, game["id"])[-1]["analysable"]
    browser.get(served.url(f"/play#game={game['id']}"))
    wait_for(browser, "!document.getElementById('end').hidden")
    browser.find_element("id", "analyse").click()
    wait_for(browser, "document.getElementById('analysis-status').textContent.indexOf("
                      "'analysing') === 0")
    link = wait_for(browser, "document.getElementById('analysis-link')", timeout=120)
    assert link.get_attribute("href").endswith(f"/replay?log=analysed/{game['id']}.jsonl#game=0")


def test_the_watch_page_reaches_the_batchs_final_score(browser, served, tmp_path):
    browser.get(served.url("/watch"))
    wait_for(browser, "document.body.dataset.ready")
    # the first push comes after the server has marked the folder as watched
    wait_for(browser, "Number(document.body.dataset.updates) >= 1")
    gate = tmp_path / "gate"
    batch = subprocess.Popen(
        [sys.executable, "-m", "arena", "gauntlet", "quick=python -m bot --time 0.03",
         "gated=devtools.gate:get_point", "--rounds", "2", "-j", "2", "--time", "120",
         "--output", str(tmp_path), "--batch", "watched", "-q"],
        cwd=ROOT, env={**os.environ, GATE_ENV: str(gate)}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        # the gated player holds each game until the page has shown one in progress
        wait_for(browser, "Number(document.body.dataset.maxLive) >= 1", timeout=120)
        gate.touch()
        _, err = batch.communicate(timeout=180)
    except BaseException:
        batch.kill()
        batch.communicate()
        raise
    assert batch.returncode == 0, err
    records = read_log(tmp_path / "games.jsonl")
    wins = sum(r.result is Result.A for r in records)
    wait_for(browser, f"document.getElementById('score').dataset.games === '{len(records)}'")
    score = browser.find_element("id", "score")
    assert score.get_attribute("data-wins") == str(wins)
    assert float(score.get_attribute("data-score")) == pytest.approx(
        sum({"a": 1, "draw": 0.5, "b": 0}[r.result] for r in records) / len(records))
    rows = browser.find_elements("css selector", "#table tbody tr")
    assert [c.text for c in rows[0].find_elements("tag name", "td")][:3] == [
        "quick", "gated", str(len(records))]
    # a finished game opens on the replay page, at that game
    link = browser.find_element("css selector", "#recent a")
    link.click()
    wait_for(browser, "document.body.dataset.ready === '1' && location.pathname === '/replay'")
    shown = json.loads(browser.execute_script(
        "return JSON.stringify([document.getElementById('board').dataset.game,"
        " document.getElementById('game-title').textContent])"))
    assert shown[1].startswith(f"Game {shown[0]}:")
