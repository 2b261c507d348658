"""The replay page, one renderer for `python -m arena view` and `arena serve`'s `/replay`
(docs/viewer.md, "Size and speed"): the static folder's template, script and style, kept as
plain files to be edited and linted as what they are, inlined with the encoded records into one
self-contained file (no server, no network) that opens from a USB stick.
"""

import html
import json
import logging
from pathlib import Path
from typing import List, Union

from arena.web.replay_data import encode_records
from records.game import GameRecord
from records.log import log_path, read_log

STATIC = Path(__file__).with_name("static")
log = logging.getLogger(__name__)


def _read(*names: str) -> str:
    """Static files one after the other, to inline."""
    return "\n".join((STATIC / name).read_text(encoding="utf-8") for name in names)


def render_page(records: List[GameRecord], title: str) -> str:
    """The whole page as text: template with style, script and the encoded data inlined."""
    data = json.dumps(encode_records(records), separators=(",", ":"), ensure_ascii=False)
    # "<" only occurs inside JSON strings, where \u003c is equivalent and cannot end the script.
    data = data.replace("<", "\\u003c")
    page = (STATIC / "replay.html").read_text(encoding="utf-8")
    page = page.replace("__TITLE__", html.escape(title))
    parts = {
        "/*__STYLE__*/": _read("board.css", "replay.css"),
        "/*__SCRIPT__*/": _read("board.js", "replay.js"),
        "__DATA__": data,  # last, so no later replacement can touch the data
    }
    for marker, text in parts.items():
        head, sep, tail = page.partition(marker)
        if not sep:
            raise ValueError(f"template lacks {marker}")
        page = head + text + tail
    return page


def write_report(records_path: Union[str, Path], out_path: Union[str, Path]) -> Path:
    """Write the replay page for the records in `records_path` (a log, or a results folder
    holding one) to `out_path`; return the path."""
    records = read_log(log_path(Path(records_path)))
    out = Path(out_path)
    title = f"{Path(records_path).name}: {len(records)} games"
    out.write_text(render_page(records, title), encoding="utf-8")
    log.info("wrote %s (%d games, %d bytes)", out, len(records), out.stat().st_size)
    return out
