"""Makes the replay page's pictures in docs/, shot by headless Chromium.

    .venv/bin/python scripts/screenshot.py [--out docs/viewer.png]
    .venv/bin/python scripts/screenshot.py --records FILE --fragment 'game=3&step=40' --out P

By default the batch is synthetic (devtools.sample: random games lasting about as long as
real ones), so the picture is the same on every machine; the game shown ends with a four on
the board. With --records it shoots the page of those records at the URL fragment given
(docs/analyse.png: an analysed loss, docs/analyse.md says which).
"""

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.web.replay import write_report  # noqa: E402
from devtools.browser import chromium_missing, screenshot  # noqa: E402
from devtools.sample import write_sample  # noqa: E402
from records.log import read_log  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "viewer.png")
    parser.add_argument("--size", type=int, nargs=2, default=(1400, 900), metavar=("W", "H"))
    parser.add_argument("--records", type=Path, help="a JSON Lines log instead of the sample")
    parser.add_argument("--fragment", default="", help="the page's URL fragment (game, step)")
    args = parser.parse_args()
    missing = chromium_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        if args.records:
            page = write_report(args.records, Path(tmp) / "games.html")
            screenshot(page, args.out, args.fragment, tuple(args.size))
            print(args.out)
            return 0
        records = write_sample(Path(tmp) / "games.jsonl", 400, seed=2, min_plies=40)
        games = read_log(records)
        shown = next(i for i, g in enumerate(games) if g.win_line and g.result == "b"
                     and 40 <= len(g.moves) <= 60)
        page = write_report(records, Path(tmp) / "games.html")
        screenshot(page, args.out, f"game={shown}", tuple(args.size))
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
