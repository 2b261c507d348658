"""Makes the web app's pictures in docs/ (web-play.png, web-review.png, web-analyse.png,
web-watch.png, web-replay.png, web-puzzles.png).

    .venv/bin/python scripts/web_screenshots.py [--out docs] [--only play review analyse ...]

Serves a temporary folder (arena.web, port 0), then, in headless Chromium under Selenium: plays
a game against greedy on the board of seed 7 by clicking columns and shoots the end with the
winning four drawn; opens that game's review (the engine at 0.5 s a position) and shoots it,
the pointer on the graph; opens a 9x9 game on the analysis board, plays a move off its line
(a branch in the move list) and shoots it with the engine's bar and top lines at 3 s, the best
line drawn on hover; runs a small batch (the bot at 0.05 s a move against
random and greedy) and shoots the watch page while games are in progress, one followed; shoots
the replay page of the folder's games; builds a suite (`arena suite build`) from a lost game
made by hand and shoots one of its puzzles answered wrong, the refutation drawn. The games
differ from run to run (the bot's search is timed), the layout does not.
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
from devtools.hand_games import LOST  # noqa: E402


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
    # the pointer on the first mark, else the graph's middle: its position on the board
    marks = driver.find_elements("css selector", "#graph .mark")
    ActionChains(driver).move_to_element(marks[0] if marks else graph).perform()
    driver.save_screenshot(str(out / "web-review.png"))


def analyse(driver, base: str, out: Path) -> None:
    # a game's first eleven moves, the cursor at its tenth; a move off its line there makes a
    # branch in the list; the engine at 3 s, its best line drawn on hover
    from selenium.webdriver.common.action_chains import ActionChains

    moves = "8.4,7.4,8.3,8.5,8.2,8.1,6.4,7.3,7.2,5.4,6.2"
    driver.get(base + f"/analyse?board=9,9,0,0&moves={moves}&ply=10&seconds=3")
    wait_for(driver, "document.body.dataset.ready")
    board = driver.find_element("id", "analysis-board")
    at_column(driver, board, 6, top_row=True)  # off the game's line: a branch
    wait_for(driver, "document.getElementById('analysis-board').dataset.plies === '11' && "
                     "document.getElementById('analysis-board').dataset.done", timeout=30)
    ActionChains(driver).move_to_element(driver.find_element("css selector", "#lines li")) \
        .perform()
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


def puzzles(driver, base: str, folder: Path, out: Path) -> None:
    """A suite built from LOST, its puzzle before X's mistake answered with the avoided column
    that loses slowest: the refutation as numbered ghost stones, the right column ringed."""
    import json

    from records.game import GameRecord
    from records.log import write_log

    game = GameRecord("hand", 0, 0, 0, "you", "bot", 9, 9, 0, 4, 3.0, 2, "four in a row",
                      moves=LOST, times=[0.01] * len(LOST))
    write_log(folder / "lost.jsonl", [game])
    subprocess.run([sys.executable, "-m", "arena", "suite", "build", str(folder / "lost.jsonl"),
                    "-o", str(folder / "suite.jsonl"), "-q"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    lines = (folder / "suite.jsonl").read_text().splitlines()
    item = next(i for i in map(json.loads, lines) if len(i["moves"]) == 70)
    losses = [p for p in item["proofs"] if p["result"] == "loss"]
    column = max(losses, key=lambda p: p["plies"] or 99)["move"][1]
    driver.get(base + f"/puzzles?suite=suite.jsonl#id={item['id']}")
    wait_for(driver, "document.body.dataset.ready")
    at_column(driver, driver.find_element("id", "puzzle-board"), column)
    wait_for(driver, "document.getElementById('puzzle-board').dataset.state === 'failed'")
    driver.save_screenshot(str(out / "web-puzzles.png"))


PICTURES = ("play", "review", "analyse", "watch", "replay", "puzzles")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--only", nargs="+", choices=PICTURES, default=PICTURES,
                        help="the pictures to make (default: all)")
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
            if {"play", "review"} & set(args.only):
                play(driver, base, args.out)  # the review's game
            if "review" in args.only:
                review(driver, args.out)
            if "analyse" in args.only:
                analyse(driver, base, args.out)
            if {"watch", "replay"} & set(args.only):
                watch(driver, base, folder, args.out)  # the replay's games
            if "puzzles" in args.only:
                puzzles(driver, base, folder, args.out)
            if "replay" in args.only:
                driver.get(base + "/replay")
                wait_for(driver, "document.body.dataset.ready")
                driver.save_screenshot(str(args.out / "web-replay.png"))
        finally:
            driver.quit()
            server.shutdown()  # the app too: its streams end, its games are abandoned
            server.server_close()
    for name in args.only:
        print(args.out / f"web-{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
