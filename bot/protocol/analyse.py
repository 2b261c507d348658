"""The analysis protocol (docs/protocol.md): positions in, the search's view of them out.

Each request is one line of JSON: a position (with an optional budget) to analyse, or
``{"stop": true}``. While a position is analysed, one line of JSON goes out at once and then
every TICK seconds (bot.search.report's view of the root); a final line, marked ``"done":
true``, when the budget is spent, the root is proven, or any input arrives (a stop, a new
position, end of input). The search is the one that plays (MCTS.search), watched: the final
line's best move is the move the bot plays at the same budget and seed. A new position is
searched from the last tree where the last position leads to it within two plies (tree reuse,
MCTS.root_for). A bad request gets one line ``{"error": "..."}`` and the process serves on.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, TextIO

from bot.choose import rule_move
from bot.protocol.lines import FdLines
from bot.protocol.parse import MAX_LINE, quote
from bot.rules import DRAW, LOSS, WIN, InvalidPosition, Position, geometry, parse_board
from bot.search.clock import Deadline, Limit
from bot.search.mcts import MCTS
from bot.search.report import Report, report
from bot.search.turn import Turn

TICK = 0.25  # seconds between two updates
LOOK = 0.02  # seconds between two looks at the input: how soon a stop is seen
MAX_PLAYOUTS = 500_000  # an analysis without a budget ends here (a tree of about 250 MB)
KEYS = {"M", "N", "no", "moves", "board", "seconds", "playouts"}
RESULT = {WIN: "win", DRAW: "draw", LOSS: "loss"}


@dataclass(frozen=True)
class Request:
    """A position to analyse and its budget (``limit``; no bound: until stopped, and at most
    MAX_PLAYOUTS play-outs)."""

    position: Position
    limit: Limit


def parse_request(line: str) -> Optional[Request]:
    """The request of one line; None for a stop. Raises InvalidPosition (one line) on a
    request that is not JSON, not one of the two forms, or a position no game reaches."""
    try:
        data = json.loads(line)
    except ValueError:
        raise InvalidPosition(f"not JSON: {quote(line)}") from None
    if not isinstance(data, dict):
        raise InvalidPosition(f"not a JSON object: {quote(line)}")
    if "stop" in data:
        if data != {"stop": True}:
            raise InvalidPosition('a stop is {"stop": true} alone')
        return None
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise InvalidPosition(f"unknown field {quote(unknown[0])}")
    M, N = _int(data, "M"), _int(data, "N")
    no_x, no_y = _cell(data.get("no"), "no")
    geometry(M, N, no_x, no_y)
    if ("moves" in data) == ("board" in data):
        raise InvalidPosition("give the position as exactly one of moves or board")
    if "moves" in data:
        position = _from_moves(M, N, no_x, no_y, data["moves"])
    else:
        position = _from_board(M, N, no_x, no_y, data["board"])
    seconds = data.get("seconds")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not math.isfinite(seconds) or seconds <= 0):
        raise InvalidPosition("seconds: expected a positive number")
    playouts = _int(data, "playouts") if data.get("playouts") is not None else None
    if playouts is not None and playouts <= 0:
        raise InvalidPosition("playouts: expected a positive integer")
    return Request(position, Limit(seconds, playouts))


def _int(data: Dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidPosition(f"{key}: expected an integer")
    return value


def _cell(value: Any, what: str) -> List[int]:
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise InvalidPosition(f"{what}: expected [x, y], two integers")
    return value


def _from_moves(M: int, N: int, no_x: int, no_y: int, moves: Any) -> Position:
    """The position after ``moves`` ([x, y] each, the first player's first) from the empty
    board; each must be legal in a game not yet over."""
    if not isinstance(moves, list):
        raise InvalidPosition("moves: expected a list of [x, y]")
    position = Position.new(M, N, no_x, no_y)
    for i, move in enumerate(moves):
        x, y = _cell(move, f"moves[{i}]")
        if position.last_mover_won():
            raise InvalidPosition(f"moves[{i}]: the game is over, a four is on the board")
        try:
            position = position.play_xy(x, y)
        except InvalidPosition as exc:
            raise InvalidPosition(f"moves[{i}]: {exc}") from None
    if position.last_mover_won():
        raise InvalidPosition("the game is over: a four is on the board")
    if position.is_full():
        raise InvalidPosition("the board is full")
    return position


def _from_board(M: int, N: int, no_x: int, no_y: int, rows: Any) -> Position:
    """The position of ``rows`` (M strings of N cells, top row first: ``X`` the first
    player's stones, ``O`` the second's, ``.`` empty); the side to move follows from the
    counts."""
    if (not isinstance(rows, list) or len(rows) != M
            or any(not isinstance(row, str) or len(row) != N or set(row) - set("XO.")
                   for row in rows)):
        raise InvalidPosition(f"board: expected {M} strings of {N} of X, O and .")
    first, second = sum(row.count("X") for row in rows), sum(row.count("O") for row in rows)
    if first - second not in (0, 1):
        raise InvalidPosition(f"board: {first} X and {second} O, which no turn order gives")
    if first > second:  # the second player to move: parse_board's X is the side to move
        rows = [row.translate(str.maketrans("XO", "OX")) for row in rows]
    return parse_board(rows, (no_x, no_y))


class Watch:
    """Watches one analysis (Turn.watch): writes an update when one is due and ends the
    search when input arrives (``stopped``)."""

    def __init__(self, out: TextIO, lines: FdLines, request: Request, best: int) -> None:
        self.out, self.lines, self.best = out, lines, best
        self.geo = request.position.geo
        self.started = time.perf_counter()
        self.next_update = self.next_look = 0.0
        self.turn: Optional[Turn] = None
        self.stopped = False

    def __call__(self, turn: Turn) -> bool:
        self.turn = turn
        now = time.perf_counter()
        if now >= self.next_update:
            self.next_update = now + TICK
            self.write(report(turn, self.best), done=False)
        if not self.stopped and now >= self.next_look:
            self.next_look = now + LOOK
            self.stopped = self.lines.ready()
        return self.stopped

    def write(self, seen: Report, done: bool, reason: str = "") -> None:
        """One line of JSON: ``seen`` (docs/protocol.md has the fields)."""
        seconds = time.perf_counter() - self.started
        line: Dict[str, Any] = {
            "done": done,
            "best": self.xy(seen.best),
            "proof": _proof(seen.outcome, seen.plies),
            "pv": [self.xy(move) for move in seen.pv],
            "moves": [{"move": self.xy(m.move), "visits": m.visits,
                       "value": None if m.value is None else round(m.value, 4),
                       "proof": _proof(m.outcome, m.plies),
                       "pv": [self.xy(move) for move in m.line]} for m in seen.moves],
            "playouts": seen.playouts, "nodes": seen.nodes,
            "pps": round(seen.playouts / seconds) if seconds > 0 else 0,
            "depth": seen.depth, "reused": seen.reused, "seconds": round(seconds, 3)}
        if done:
            line["reason"] = reason
        self.out.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.out.flush()

    def xy(self, move: Optional[int]) -> Optional[List[int]]:
        return None if not move else list(self.geo.xy(move))


def _proof(outcome: Optional[int], plies: Optional[int]) -> Optional[Dict[str, Any]]:
    return None if outcome is None else {"result": RESULT[outcome], "plies": plies}


def analyse(request: Request, lines: FdLines, out: TextIO, searcher: MCTS) -> None:
    """Search ``request``'s position, watched, and write its updates and its final line; a
    request without a budget searches MAX_PLAYOUTS play-outs at most."""
    position = request.position
    ruled = rule_move(position)
    watch = Watch(out, lines, request, ruled)
    unbounded = request.limit == Limit()
    limit = Limit(playouts=MAX_PLAYOUTS) if unbounded else request.limit
    result = searcher.search(position, Deadline(limit), watch)
    assert watch.turn is not None  # MCTS.begin shows every watch its turn
    if watch.stopped:
        reason = "stopped"
    elif watch.turn.root.outcome is not None:
        reason = "proven"
    elif unbounded and watch.turn.playouts >= MAX_PLAYOUTS:
        reason = "limit"
    else:
        reason = "budget"
    watch.write(report(watch.turn, ruled or result.move), done=True, reason=reason)


def serve(lines: FdLines, out: TextIO, searcher: MCTS) -> None:
    """Answer requests until end of input; a bad one gets an error line and is skipped (a
    line over MAX_LINE characters as a whole)."""
    while True:
        line = lines.readline(MAX_LINE + 1)
        if not line:
            return
        try:
            if len(line) > MAX_LINE:
                while line and not line.endswith("\n"):
                    line = lines.readline(MAX_LINE)
                raise InvalidPosition(f"a line of over {MAX_LINE} characters")
            request = parse_request(line) if line.strip() else None
        except InvalidPosition as exc:
            out.write(json.dumps({"error": str(exc)}) + "\n")
            out.flush()
            continue
        if request is not None:
            analyse(request, lines, out, searcher)
