"""The replay page, one renderer for `python -m arena view` and `/replay` (docs/viewer.md,
"Size and speed"): one self-contained file; and the routes to the served folder's finished
games: its log's page, a game in it, a game on the analysis board."""

import html
import json
import logging
from pathlib import Path
from typing import Dict, List, Tuple, Union

from starlette.responses import HTMLResponse, RedirectResponse, Response

from arena.web.analysis_board import analysis_url
from arena.web.asgi import BadRequest, Call, NotFound, route, served_path
from arena.web.replay_data import encode_records
from records.game import GameKey, GameRecord
from records.log import LOG_NAME, LogFollower, log_path, read_log

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
    for marker, part in parts.items():
        head, sep, tail = page.partition(marker)
        if not sep:
            raise ValueError(f"template lacks {marker}")
        page = head + part + tail
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


def replay(call: Call) -> Response:
    """The replay page of the folder's log (or of `?log=PATH` inside it), read as a watcher
    reads it (a batch may be appending); the title counts the lines not a record."""
    folder = call.state.folder
    path = served_path(folder, call.query.get("log", LOG_NAME), is_file=True)
    follower = LogFollower(path)
    records = follower.read()[1]
    title = f"{path.relative_to(folder)}: {len(records)} games"
    if follower.skipped:
        title += (f" ({follower.skipped} line{'s' * (follower.skipped > 1)} not a record, "
                  "skipped: the server's log names each)")
    return HTMLResponse(render_page(records, title))


def game_key(query: Dict[str, str]) -> GameKey:
    """The game a page's query names by its key; BadRequest otherwise."""
    try:
        return GameKey.from_dict(query)
    except (KeyError, ValueError):
        raise BadRequest("a game's key: batch, a, b, seed, round and leg (whole numbers for "
                         "the last three)") from None


def finished(folder: Path, key: GameKey) -> Tuple[int, GameRecord]:
    """The finished game of ``key`` and its place in the folder's log, read as a watcher
    reads it (its order changes when a batch ends, so pages name games by key)."""
    _, records = LogFollower(served_path(folder, LOG_NAME, is_file=True)).read()
    for index, record in enumerate(records):
        if record.key == key:
            return index, record
    raise NotFound("no finished game with that key in the folder's log")


def replay_game(call: Call) -> Response:
    """The replay page at one finished game, named by its key."""
    index = finished(call.state.folder, game_key(call.query))[0]
    return RedirectResponse(f"/replay#game={index}", 302)


def analyse_game(call: Call) -> Response:
    """The analysis board with a finished game, named by its key, every move reachable;
    ``ply`` its cursor (none: the last position that can be analysed)."""
    record = finished(call.state.folder, game_key(call.query))[1]
    ply = call.query.get("ply")
    if ply is not None and not ply.isdigit():
        raise BadRequest(f"ply: a whole number, got {ply!r}")
    return RedirectResponse(
        analysis_url(record.board, record.moves, None if ply is None else int(ply)), 302)


routes = [route("/replay", replay), route("/replay/game", replay_game),
          route("/analyse/game", analyse_game)]
