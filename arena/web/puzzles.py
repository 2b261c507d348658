"""The puzzle page's server side (docs/web.md, "Puzzles"): the puzzles of a suite or of the
folder's own lost games, each with its last result; a step judged by exact proof
(arena/suite/puzzle.py) in the request's thread; each finished attempt kept; and the routes."""

import json
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from starlette.responses import JSONResponse

from arena.engine.position import PositionError
from arena.engine.review import Review, review_path
from arena.suite.item import Goal, Item, SuiteError, level_of, parse_line, read_suite
from arena.suite.position import reach, stones_id
from arena.suite.puzzle import NODES, attempt_moves, parse_request, play_step
from arena.web.asgi import BadRequest, NotFound, bad_request, fields, number, route, served_path
from records.analysis import LossAnalysis
from records.game import GameRecord
from records.log import LOG_NAME, LogFollower, whole_lines
from records.move import Move
from records.result import Seat

KEPT = "puzzles.jsonl"  # beside the log: one line an attempt, appended
SHIPPED = Path(__file__).resolve().parents[2] / "suites"  # the repository's suites, by name


def item_view(item: Item) -> Dict[str, Any]:
    """What the page needs of a suite's item: never its answer (the server judges)."""
    return {"id": item.id, "board": item.board.to_list(),
            "moves": [m.to_list() for m in item.moves], "to_move": item.to_move.value,
            "goal": item.goal.value, "level": item.level, "plies": item.plies,
            "theme": item.theme.value if item.theme else None,
            "origin": item.source.to_dict() if item.source else None}


def mistake_view(folder: Path, record: GameRecord, log: str) -> Optional[Dict[str, Any]]:
    """The position before a lost game's decisive move as a "hold" puzzle (the loser's move to
    find is one that does not lose): the move of the loss analysis the record carries where it
    proves a move held there, else of its kept review; None without one, or for a record no
    referee allows."""
    analysis = record.analysis if isinstance(record.analysis, LossAnalysis) else None
    decisive = analysis and analysis.decisive
    index = (_reviewed_decisive(folder, record) if analysis is None
             else decisive.index if decisive and decisive.proven else None)
    if index is None:
        return None
    moves = [Move.from_list(m) for m in record.moves[:index]]
    try:
        grid = reach(record.board, moves)
    except PositionError:
        return None
    plies = analysis.forced_four_in if analysis else None
    return {"id": stones_id(record.board, grid), "board": record.board.to_list(),
            "moves": [m.to_list() for m in moves],
            "to_move": Seat.of_ply(index).value, "goal": Goal.HOLD.value,
            "level": level_of(record.board, index, plies), "plies": plies,
            "theme": analysis.kind.value if analysis else None,
            "origin": {"log": log, "game": record.key.to_dict(), "ply": index}}


def _exact(path: Path) -> bool:
    """Whether a shipped suite is one of exact items, which make puzzles (its first line says:
    a suite holds one kind; a valued one, of the middle game, has no one right column)."""
    with open(path, encoding="utf-8") as lines:
        first = next((line for line in lines if line.strip()), "")
    try:
        return isinstance(parse_line(first, f"{path}:1"), Item)
    except SuiteError:
        return False


class Puzzles:
    """The served folder's puzzles and their kept results; ``nodes``: a step's budget."""

    def __init__(self, folder: Path, nodes: int = NODES) -> None:
        self.folder, self.nodes = folder, nodes
        self.kept = folder / KEPT
        self._lock = threading.Lock()

    def listing(self, query: Mapping[str, str]) -> Dict[str, Any]:
        """The puzzles of ``?suite=NAME`` or ``?log=PATH`` (neither: the folder's own log),
        each with its last kept result ("solved", "failed", or None) and its tries; and the
        shipped suites' names."""
        if "suite" in query:
            path = self._suite(query["suite"])
            try:
                puzzles = [item_view(item) for item in read_suite(path)]
            except SuiteError as exc:
                raise BadRequest(str(exc).replace(str(self.folder) + "/", "")) from None
            source, note = f"suite {query['suite']}", ""
        elif "log" not in query and not (self.folder / LOG_NAME).is_file():
            puzzles, source = [], f"log {LOG_NAME}"
            note = (f"no {LOG_NAME} in the served folder yet: play or run games (their "
                    "reviewed or analysed losses become puzzles), or open a suite")
        else:
            relative = query.get("log", LOG_NAME)
            puzzles, note = self._mistakes(relative)
            source = f"log {relative}"
        results = self.results()
        for puzzle in puzzles:
            puzzle.update(results.get(puzzle["id"], {"result": None, "tries": 0}))
        return {"source": source, "puzzles": puzzles, "note": note, "kept": KEPT,
                "shipped": sorted(p.stem for p in SHIPPED.glob("*.jsonl") if _exact(p))}

    def _suite(self, name: str) -> Path:
        """A suite file (or folder of them) in the served folder, else a shipped suite by
        name (``suites/NAME`` or ``suites/NAME.jsonl``)."""
        path = served_path(self.folder, name)
        if path.exists():
            return path
        if "/" not in name and name not in ("", ".", ".."):
            for shipped in (SHIPPED / name, SHIPPED / f"{name}.jsonl"):
                if shipped.exists():
                    return shipped
        raise NotFound(f"{name}: no such suite in the served folder or the shipped suites")

    def _mistakes(self, relative: str) -> Tuple[List[Dict[str, Any]], str]:
        """The puzzles of a log's lost games (`mistake_view`), and a line saying how many lost
        games had none."""
        records = LogFollower(served_path(self.folder, relative, is_file=True)).read()[1]
        views = [mistake_view(self.folder, r, relative) for r in records if r.loser is not None]
        found: Dict[str, Dict[str, Any]] = {}
        for view in filter(None, views):
            found.setdefault(view["id"], view)  # the same stones twice: one puzzle
        note = f"{len(views)} lost game{'s' * (len(views) != 1)} in {relative}"
        if None in views:
            note += (f"; {views.count(None)} without a decisive move proven (analyse or review "
                     "a game to add its mistake)")
        return list(found.values()), note

    def results(self) -> Dict[str, Dict[str, Any]]:
        """Each puzzle's last kept result and how many attempts it had, by id (a line that is
        not an attempt is skipped)."""
        out: Dict[str, Dict[str, Any]] = {}
        with self._lock:  # no attempt half-written as a torn line is cut
            lines = whole_lines(self.kept)
        for _, line in lines:
            try:
                kept = json.loads(line)
                puzzle_id, result = str(kept["id"]), kept["result"]
            except (ValueError, KeyError, TypeError):
                continue
            tries = out.get(puzzle_id, {"tries": 0})["tries"] + 1
            out[puzzle_id] = {"result": result, "tries": tries}
        return out

    def step(self, body: Any) -> Dict[str, Any]:
        """Judge a step ({board, moves, goal, column}; ``nodes``: a smaller budget than the
        server's; ``puzzle``: {id, source, start}, the attempt to keep when it ends, ``start``
        the moves of the puzzle's own position) and keep the attempt once it is over."""
        fields(body, "board", "moves", "goal", "column", "nodes", "puzzle")
        with bad_request(ValueError):
            request = parse_request(body)
        nodes = number(body, "nodes", int, 1, self.nodes) if "nodes" in body else self.nodes
        puzzle = body.get("puzzle")
        if puzzle is not None and (
                not isinstance(puzzle, Mapping) or set(puzzle) != {"id", "source", "start"}
                or not all(isinstance(puzzle[k], str) for k in ("id", "source"))
                or not isinstance(puzzle["start"], int) or isinstance(puzzle["start"], bool)
                or not 0 <= puzzle["start"] <= len(request.moves)):
            raise BadRequest("puzzle: {id, source, start}, start the puzzle's moves (within "
                             f"0..{len(request.moves)})")
        step = play_step(request, nodes)
        answer = {**step.to_dict(), "kept": False}
        if puzzle is not None and step.over:
            line = json.dumps({"id": puzzle["id"], "source": puzzle["source"],
                               "result": "solved" if step.solved else "failed",
                               "moves": attempt_moves(request.moves, puzzle["start"], step),
                               "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                              separators=(",", ":")) + "\n"
            with self._lock, open(self.kept, "a", encoding="utf-8") as handle:
                handle.write(line)  # the attempt's line in one write, under the lock
            answer["kept"] = True
        return answer


def _reviewed_decisive(folder: Path, record: GameRecord) -> Optional[int]:
    """The decisive move's index in a game's kept review (at any budget), or None."""
    try:
        review = Review.from_dict(json.loads(review_path(folder, record.key).read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    index = review.decisive
    return index if review.key == record.key and index in range(len(record.moves)) else None


routes = [  # a step is judged by exact search in the request's thread
    route("/api/puzzles", lambda call: JSONResponse(call.state.puzzles.listing(call.query))),
    route("/api/puzzles/move", lambda call: JSONResponse(call.state.puzzles.step(call.body())),
          "POST"),
]
