"""The web app's costs: how long a click waits for the opponent's answer to be drawn, what an
open watch page costs a batch, and how soon the analysis board draws the engine's first word.

    .venv/bin/python bench/web.py [--clicks 10] [--games 600] [--repeats 3] [--part PART]

1. Click to answer: `python -m arena serve` on a temporary folder, the play page in headless
   Chromium (Selenium) against the bot at 0.3 s a move; each click on a column is timed by the
   page from the click to the opponent's move drawn (`data-click-to-draw-ms`), and the bot's
   own time for that move is read from the game's record, so the rest is the app's.
2. Batch speed: a gauntlet of in-process players (greedy against random and heuristic, a few
   milliseconds a game, where a per-move cost shows most) at -j 2, timed around `run_batch`,
   with no server, with the server and no page, and with the watch page open in Chromium
   (the workers then write every move to their live files); the three alternate, `--repeats`
   times, and the median games per second of each is printed.
3. Analysis board: the page at a 9x9 board, analysing without a budget; each click plays a
   move, and the page times the new position's request to its first update drawn
   (`data-first-update-ms`); the page's first request (the engine started for it) is timed
   apart; then the updates a second the page draws over 5 s.
4. Open pages: `--streams` watch pages' event streams (200) open on one server, each read until
   its first pushed state; then `/` is asked `--asks` times, each answer timed (no browser).
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.batch.config import adhoc_config, with_overrides  # noqa: E402
from arena.batch.scheduler import run_batch  # noqa: E402
from devtools.browser import at_column, chrome, driver_missing, wait_for  # noqa: E402
from records.log import read_log  # noqa: E402

FAST = {"greedy": {"python": "opponents.greedy:get_point"},
        "random": {"python": "opponents.random_player:get_point"},
        "heuristic": {"python": "opponents.heuristic:get_point"}}


def start_server(folder: Path, port: int) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(folder), "--port",
                               str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    server.stderr.readline()  # "arena serve: http://... serving ...": it listens
    return server


def click_latency(driver: Any, clicks: int, port: int) -> None:
    from selenium.webdriver.support.ui import Select

    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp), port)
        try:
            driver.get(f"http://127.0.0.1:{port}/play")
            wait_for(driver, "document.body.dataset.ready")
            Select(driver.find_element("id", "opponent")).select_by_value("bot")
            seconds = driver.find_element("id", "seconds")
            seconds.clear()
            seconds.send_keys("0.3")
            driver.find_element("id", "seed").send_keys("5")
            driver.find_element("id", "start").click()
            board = driver.find_element("id", "play-board")
            waits: List[float] = []
            for i in range(clicks):
                turn = wait_for(driver, "['you', 'over'].includes(document.getElementById("
                                        "'play-board').dataset.turn) && document."
                                        "getElementById('play-board').dataset.turn")
                if turn == "over":
                    break
                driver.execute_script("delete document.getElementById('play-board')"
                                      ".dataset.clickToDrawMs")
                at_column(driver, board, [4, 3, 5, 2, 6, 4, 3, 5, 1, 7][i % 10])
                waits.append(float(wait_for(driver, "document.getElementById('play-board')"
                                                    ".dataset.clickToDrawMs")) / 1000)
        finally:
            server.terminate()
            server.wait(timeout=30)
        record = read_log(Path(tmp) / "games.jsonl")[-1]  # abandoned at the server's stop
        bot = record.side_times("b")[:len(waits)]
    rest = [w - b for w, b in zip(waits, bot)]
    print(f"click to the bot's answer drawn (bot at 0.3 s a move, {len(waits)} clicks):")
    print(f"  click to drawn   median {statistics.median(waits) * 1000:7.1f} ms, "
          f"min {min(waits) * 1000:.1f}, max {max(waits) * 1000:.1f}")
    print(f"  the bot's time   median {statistics.median(bot) * 1000:7.1f} ms")
    print(f"  the app's part   median {statistics.median(rest) * 1000:7.1f} ms, "
          f"max {max(rest) * 1000:.1f} (request, referee, push, drawing)")


def analysis_board(driver: Any, clicks: int, port: int) -> None:
    data = "document.getElementById('analysis-board').dataset"
    first, count = data + ".firstUpdateMs", f"Number({data}.updates)"
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp), port)
        try:
            driver.get(f"http://127.0.0.1:{port}/analyse?board=9,9,8,4")
            cold = float(wait_for(driver, first))
            board = driver.find_element("id", "analysis-board")
            waits: List[float] = []
            for i in range(clicks):
                time.sleep(1.0)  # the engine searches a while, as a person reads the board
                driver.execute_script(f"delete {first}")
                at_column(driver, board, [4, 3, 5, 2, 6, 4, 3, 5, 1, 7][i % 10], top_row=True)
                waits.append(float(wait_for(driver, first)))
            before, start = driver.execute_script("return " + count), time.perf_counter()
            time.sleep(5.0)
            rate = (driver.execute_script("return " + count) - before) / (
                time.perf_counter() - start)
            driver.get("about:blank")
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"\nanalysis board (9x9, no budget; {len(waits)} clicks, one a second):")
    print(f"  request to first update drawn   median {statistics.median(waits):6.1f} ms, "
          f"max {max(waits):.1f}")
    print(f"  the page's first request        {cold:6.1f} ms (the engine starts for it)")
    print(f"  updates drawn a second          {rate:6.2f}")


def one_batch(folder: Path, rounds: int) -> float:
    """Games per second of one fresh batch in `folder`."""
    log = folder / "games.jsonl"
    if log.exists():
        log.unlink()
    config = with_overrides(adhoc_config("gauntlet", FAST, "speed"),
                            {"rounds": rounds, "jobs": 2, "output": str(folder), "seed": 1})
    start = time.perf_counter()
    records = run_batch(config, quiet=True)
    return len(records) / (time.perf_counter() - start)


def batch_speed(driver: Any, games: int, repeats: int, port: int) -> None:
    rounds = max(1, games // 4)
    speeds: Dict[str, List[float]] = {"no server": [], "server, no page": [],
                                      "watch page open": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for _ in range(repeats):
            speeds["no server"].append(one_batch(folder, rounds))
            server = start_server(folder, port)
            try:
                speeds["server, no page"].append(one_batch(folder, rounds))
                driver.get(f"http://127.0.0.1:{port}/watch")
                wait_for(driver, "document.body.dataset.ready")
                time.sleep(1.5)  # the page has marked the folder as watched
                before = int(driver.execute_script("return document.body.dataset.updates"
                                                   " || 0"))
                speeds["watch page open"].append(one_batch(folder, rounds))
                time.sleep(1.0)
                updates = int(driver.execute_script("return document.body.dataset.updates"))
                live = driver.execute_script("return document.body.dataset.maxLive")
                driver.get("about:blank")
            finally:
                server.terminate()
                server.wait(timeout=30)
    base = statistics.median(speeds["no server"])
    print(f"\nbatch speed: greedy vs random and heuristic, in-process, -j 2, {rounds * 4} games "
          f"a batch, median of {repeats} (the page got {updates - before} updates in its "
          f"last batch, at most {live} games in progress at once):")
    for label, values in speeds.items():
        median = statistics.median(values)
        print(f"  {label:17s} {median:7.1f} games/s  ({(median / base - 1) * 100:+5.1f}%)  "
              f"runs: {', '.join(f'{v:.1f}' for v in values)}")


def open_streams(streams: int, asks: int, port: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp), port)
        opened: List[socket.socket] = []
        try:
            for _ in range(streams):
                conn = socket.create_connection(("127.0.0.1", port), timeout=60)
                conn.sendall(b"GET /api/watch/events HTTP/1.1\r\nHost: bench\r\n\r\n")
                opened.append(conn)
            for conn in opened:  # each stream's first state pushed: all are served
                seen = b""
                while b"\ndata: " not in seen:
                    seen += conn.recv(65536)
            waits = []
            for _ in range(asks):
                start = time.perf_counter()
                with socket.create_connection(("127.0.0.1", port), timeout=60) as conn:
                    conn.sendall(b"GET / HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
                    while conn.recv(65536):
                        pass
                waits.append(time.perf_counter() - start)
                time.sleep(0.2)
        finally:
            for conn in opened:
                conn.close()
            server.terminate()
            server.wait(timeout=30)
    print(f"\n/ with {streams} watch streams open ({asks} asks, one each 0.2 s):")
    print(f"  answered in   median {statistics.median(waits) * 1000:6.1f} ms, "
          f"max {max(waits) * 1000:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=10)
    parser.add_argument("--games", type=int, default=600, help="games a batch (4 a round)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--asks", type=int, default=20)
    parser.add_argument("--part", choices=("all", "click", "batch", "analysis", "streams"),
                        default="all", help="run one part only")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start\n")
    if args.part in ("all", "streams"):
        open_streams(args.streams, args.asks, args.port)
    if args.part == "streams":
        return 0
    missing = driver_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    driver = chrome(1400, 900)
    try:
        if args.part in ("all", "click"):
            click_latency(driver, args.clicks, args.port)
        if args.part in ("all", "batch"):
            batch_speed(driver, args.games, args.repeats, args.port)
        if args.part in ("all", "analysis"):
            analysis_board(driver, args.clicks, args.port)
    finally:
        driver.quit()
    print(json.dumps({"load_average_end": round(os.getloadavg()[0], 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
