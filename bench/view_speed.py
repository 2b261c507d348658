"""Size and load time of the replay page for a large batch, measured in headless Chromium.

    .venv/bin/python bench/view_speed.py                 # 10 000 games of about 75 plies
    .venv/bin/python bench/view_speed.py --games 1000 --runs 3

Prints the JSON Lines size, the page size, the time to write the page, and over several fresh
browser starts the time from navigation start to the first drawn list and board (the page
writes it into <body data-render-ms>), one filter change, and one step of a replay (the mean
over 40 arrow-key presses).
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.web.replay import write_report  # noqa: E402
from devtools.browser import chromium_missing, dump_dom  # noqa: E402
from devtools.sample import write_sample  # noqa: E402

MEDIAN_PLIES = 75  # real games between strong players (../shared/FACTS.md): 35 to 112 plies


def body_attr(dom: str, name: str) -> float:
    """A number the page wrote into a data-* attribute of <body>."""
    head = dom[dom.index("<body"):]
    head = head[:head.index(">")]
    return float(head.split(f'{name}="', 1)[1].split('"', 1)[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5, help="browser starts to time")
    parser.add_argument("--keep", type=Path, help="also copy the page here")
    args = parser.parse_args()
    missing = chromium_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        records, page = Path(tmp) / "games.jsonl", Path(args.keep or Path(tmp) / "page.html")
        write_sample(records, args.games, seed=1, min_plies=MEDIAN_PLIES)
        start = time.perf_counter()
        write_report(records, page)
        written = time.perf_counter() - start
        print(f"games: {args.games}, records {records.stat().st_size / 1e6:.2f} MB, "
              f"page {page.stat().st_size / 1e6:.2f} MB, written in {written:.2f} s")
        load, script, filtering, stepping = [], [], [], []
        for _ in range(args.runs):
            dom = dump_dom(page, "do=set:f-result=loss")
            load.append(body_attr(dom, "data-render-ms"))
            script.append(body_attr(dom, "data-script-ms"))
            filtering.append(body_attr(dom, "data-action-ms"))
            dom = dump_dom(page, "do=key:Home,key:ArrowRight*40")
            stepping.append(body_attr(dom, "data-action-ms") / 40)
    for label, values in (("load to first render", load), ("  of which script", script),
                          ("filter 'result: loss'", filtering), ("one step (arrow key)", stepping)):
        print(f"{label:22s} median {statistics.median(values):7.1f} ms, "
              f"min {min(values):7.1f}, max {max(values):7.1f} ({args.runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
