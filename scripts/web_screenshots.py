"""Makes the web app's pictures in docs/ (web-play.png, web-review.png, web-analyse.png,
web-watch.png, web-replay.png).

    .venv/bin/python scripts/web_screenshots.py [--out docs]

Serves a temporary folder (arena.web, port 0), then, in headless Chromium under Selenium: plays
a game against greedy on the board of seed 7 by clicking columns and shoots the end with the
winning four drawn; opens that game's review (the engine at 0.5 s a position) and shoots it,
the pointer on the graph; opens a 9x9 position on the analysis board (the engine at 3 s) and
shoots it, the best move's line drawn; runs a small batch (the bot at 0.05 s a move against
random and greedy) and shoots the watch page while games are in progress, one followed; shoots
the replay page of the folder's games. The games differ from run to run (the bot's search is
timed), the layout does not.
"""

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.batch.config import load_config  # noqa: E402
from arena.web.server import make_server  # noqa: E402
from devtools.browser import at_column, chrome, driver_missing, wait_for  # noqa: E402


def play(driver, base: str, out: Path) -> None:
    from selenium.webdriver.support.ui import Select

    driver.get(base + "/play")
    wait_for(driver, "document.body.dataset.ready")
    Select(driver.find_element("id", "opponent")).select_by_value("greedy")
    driver.find_element("id", "seed").send_keys("7")
    driver.find_element("id", "start").click()
    board = driver.find_element("id", "play-board")
    columns = [4, 4, 3, 5, 2, 6, 1, 0, 7, 8]
    for column in columns * 6:
        turn = wait_for(driver, "['you', 'over'].includes(document.getElementById('play-board')"
                                ".dataset.turn) && document.getElementById('play-board')"
                                ".dataset.turn")
        if turn == "over":
            break
        at_column(driver, board, column)
        time.sleep(0.2)
    wait_for(driver, "document.getElementById('play-board').dataset.turn === 'over'")
    driver.save_screenshot(str(out / "web-play.png"))


def review(driver, out: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    driver.get(driver.find_element("id", "review-link").get_attribute("href"))
    wait_for(driver, "document.body.dataset.state === 'ready'", timeout=300)
    graph = driver.find_element("id", "graph")
    ActionChains(driver).move_to_element_with_offset(graph, 0, 0).perform()
    driver.save_screenshot(str(out / "web-review.png"))


def analyse(driver, base: str, out: Path) -> None:
    # red must block yellow's three at (8, 4): every other move is proven lost
    driver.get(base + "/analyse?board=9,9,0,0&moves=8.0,8.1,8.8,8.2,7.8,8.3&seconds=3")
    wait_for(driver, "document.getElementById('analysis-board').dataset.done", timeout=30)
    board = driver.find_element("id", "analysis-board")
    best = int(board.get_attribute("data-best").split(",")[1])
    at_column(driver, board, best, click=False, top_row=True)  # its line as ghost stones
    wait_for(driver, "document.getElementById('analysis-board').dataset.ghosts")
    driver.save_screenshot(str(out / "web-analyse.png"))


def watch(driver, base: str, folder: Path, out: Path) -> None:
    driver.get(base + "/watch")
    wait_for(driver, "document.body.dataset.ready")
    time.sleep(1.5)
    batch = subprocess.Popen(
        [sys.executable, "-m", "arena", "gauntlet", "bot=python -m bot --time 0.05", "random",
         "greedy", "--rounds", "6", "-j", "2", "--time", "1", "--output", str(folder), "-q",
         "--batch", "demo"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(driver, "Number(document.getElementById('score').dataset.games) >= 8 && "
                         "document.querySelectorAll('.mini').length > 0")
        driver.find_element("css selector", ".mini").click()
        wait_for(driver, "Number(document.getElementById('followed').dataset.plies) >= 6")
        driver.save_screenshot(str(out / "web-watch.png"))
    finally:
        batch.wait(timeout=300)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    missing = driver_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        players = load_config(ROOT / "configs" / "arena.yaml").players
        server = make_server(folder, players, port=0)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        threading.Thread(target=server.serve_forever, daemon=True).start()
        driver = chrome(1400, 900)
        try:
            play(driver, base, args.out)
            review(driver, args.out)
            analyse(driver, base, args.out)
            watch(driver, base, folder, args.out)
            driver.get(base + "/replay")
            wait_for(driver, "document.body.dataset.ready")
            driver.save_screenshot(str(args.out / "web-replay.png"))
        finally:
            driver.quit()
            server.shutdown()  # the app too: its streams end, its games are abandoned
            server.server_close()
    for name in ("web-play.png", "web-review.png", "web-analyse.png", "web-watch.png",
                 "web-replay.png"):
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
