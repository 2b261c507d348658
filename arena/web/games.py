"""The play page's games, a person against an arena player under the batches' own referee
(`play_task`; docs/web.md, "How it works"), "Analyse this game" (in a child:
arena.engine.client.analyse_in_child), and their routes."""

import itertools
import json
import logging
import random
import secrets
import threading
import time
from pathlib import Path
from typing import Any, AsyncIterator, Dict, List, Mapping, Optional, Tuple
from urllib.parse import urlencode

from starlette.responses import JSONResponse, Response

from arena.core.boards import draw_board
from arena.core.players import make_player
from arena.core.players.base import MoveResult
from arena.core.players.observed import Observed
from arena.core.players.web import NotYourTurn, WebPlayer
from arena.core.tasks import Task, play_task
from arena.engine.client import analyse_in_child
from arena.web.analysis_board import analysis_url
from arena.web.asgi import (
    PING_S,
    BadRequest,
    Call,
    Changes,
    Conflict,
    EventStream,
    NotFound,
    bad_request,
    board_of,
    fields,
    number,
    route,
)
from arena.web.jobs import Job, JobState
from records.game import GameKey, GameRecord
from records.log import LOG_NAME, ResultLog
from records.player import PlayerSpec
from records.result import Seat, Side

LOG = logging.getLogger("arena.web")
HUMAN = "human"
BATCH = "play"  # the records' batch name, as `python -m arena play` writes it
GRACE_S = 5.0  # seconds a game waits for its page to come back (a reload) before it is abandoned
MIN_SECONDS, MAX_SECONDS = 0.01, 60.0
ANALYSED_DIR = "analysed"  # inside the served folder: analysed/<game id>.jsonl


def parse_new_game(body: Any, players: Mapping[str, PlayerSpec], round_: int,
                   time_limit: float) -> Tuple[PlayerSpec, Task]:
    """The opponent and the game (its round ``round_``) that a body {"opponent", "seconds",
    "colour" (the person's Seat; first by default), "seed" or "board" (then seed -1)} asks
    for; BadRequest with the reason otherwise."""
    [name] = fields(body, opponent=str)
    if name not in players:
        raise BadRequest(f"opponent: no player named {name!r}")
    spec = players[name]
    if body.get("seconds") is not None and spec.takes_time:
        spec = spec.with_time(number(body, "seconds", float, MIN_SECONDS, MAX_SECONDS))
    with bad_request(ValueError, prefix="colour: "):
        human = Seat.parse(body.get("colour", Seat.FIRST.value))
    if body.get("board") is not None:
        board, seed = board_of(body["board"]), -1
    else:
        seed = (random.randrange(10**6) if body.get("seed") is None
                else number(body, "seed", int, 0, 2**31 - 1))
        board = draw_board(seed, 0)
    key = GameKey(BATCH, HUMAN, name, seed, round_, 0 if human is Seat.FIRST else 1)
    return spec, Task(key, board, time_limit)


class PlayGame:
    """One game between the person and an opponent, played in its own thread."""

    def __init__(self, game_id: str, spec: PlayerSpec, task: Task, log_path: Path) -> None:
        self.id, self.spec, self.task, self.log_path = game_id, spec, task, log_path
        self.opponent = task.key.b
        self.changes = Changes()  # bumped at every change, so a page waits for the next one
        self.human = WebPlayer(HUMAN, on_change=self.changes.bump)
        self.moves: List[List[int]] = []  # the game so far, as the referee accepted it
        self.record: Optional[GameRecord] = None
        self.error = ""
        self.watchers = 0  # pages following the game now
        self.seen = time.monotonic()  # when a page last followed it
        self.thread = threading.Thread(target=self._run, name=f"game-{game_id}", daemon=True)

    def _moved(self, res: MoveResult, _view: List[int]) -> None:
        if res.point is not None:
            self.moves.append(list(res.point))
            self.changes.bump()

    def _run(self) -> None:
        try:
            with make_player(self.opponent, self.spec) as opponent:
                players = {HUMAN: Observed(self.human, self._moved),
                           self.opponent: Observed(opponent, self._moved)}
                record = play_task(players, self.task)
            with ResultLog(self.log_path) as log:
                log.append(record)
            self.record = record
        except Exception as exc:  # a spec that cannot make a player: the page says so
            LOG.exception("game %s failed", self.id)
            self.error = f"the game could not be played: {exc}"
        self.changes.bump()

    def submit(self, body: Any) -> None:
        """The person's move from a request's JSON body {"column": Y, "ply": MOVES_SEEN};
        BadRequest or Conflict, and nothing changes, when it cannot be played now (a move
        without its ply too: the ply keeps a move sent twice from being played twice)."""
        column, ply = fields(body, column=int, ply=int)
        if self.over:
            raise Conflict("the game is over")
        if ply != len(self.moves):
            raise Conflict(f"out of turn: the page shows move {ply}, the game is at move "
                           f"{len(self.moves)}")
        try:
            self.human.submit(column)
        except NotYourTurn as exc:
            raise Conflict(f"out of turn: {exc}") from None
        except ValueError as exc:
            raise Conflict(str(exc)) from None

    @property
    def over(self) -> bool:
        return self.record is not None or bool(self.error)

    def state(self) -> Dict[str, Any]:
        """Everything the page draws, from the server's view (the page judges nothing)."""
        b, key, rec = self.task.board, self.task.key, self.record
        state: Dict[str, Any] = {
            "id": self.id, "opponent": self.opponent, "M": b.M, "N": b.N, "no_x": b.no_x,
            "no_y": b.no_y, "seed": key.seed, "human_first": key.first is Side.A,
            "moves": rec.moves if rec else list(self.moves), "your_turn": self.human.waiting(),
            "over": self.over, "error": self.error, "time_limit": self.task.time_limit,
            "version": self.changes.version,
        }
        if rec:
            outcome = rec.result.outcome(Side.A)
            state.update(result=outcome.value, verdict=outcome.verdict, reason=rec.reason,
                         code=rec.code, win_line=rec.win_line or [], times=rec.times,
                         fault=rec.fault.to_dict() if rec.fault else None)
        return state


class Games:
    """Every game this server plays or played; abandons those whose page is gone."""

    def __init__(self, folder: Path, players: Mapping[str, PlayerSpec],
                 time_limit: float) -> None:
        self.folder, self.time_limit = folder, time_limit
        self.players = {name: PlayerSpec.parse(spec, name) for name, spec in players.items()}
        self._games: Dict[str, PlayGame] = {}
        self._lock = threading.Lock()
        self._numbers = itertools.count(int(time.time()))

    def create(self, body: Any) -> PlayGame:
        spec, task = parse_new_game(body, self.players, next(self._numbers), self.time_limit)
        game = PlayGame(secrets.token_hex(6), spec, task, self.folder / LOG_NAME)
        with self._lock:
            self._games[game.id] = game
        game.thread.start()
        return game

    def get(self, game_id: str) -> PlayGame:
        with self._lock:
            game = self._games.get(game_id)
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        return game

    def running(self) -> List[PlayGame]:
        with self._lock:
            return [g for g in self._games.values() if not g.over]

    def abandon_unwatched(self) -> List[str]:
        """Abandon each running game no page has followed for GRACE_S seconds; their ids."""
        now = time.monotonic()
        gone = [g for g in self.running() if g.watchers == 0 and now - g.seen > GRACE_S]
        for game in gone:
            game.human.abandon("the person left the game (abandoned: the page closed)")
        return [g.id for g in gone]

    def close(self) -> None:
        """End every running game (the server stops): each is recorded as abandoned."""
        for game in self.running():
            game.human.abandon("the person left the game (abandoned: the server stopped)")
        for game in self.running():
            game.thread.join(timeout=10)


class Analyses:
    """The loss analyses the server started, by game id (running, ready, or failed with why);
    one at a time a game."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.status: Dict[str, Job] = {}
        self._lock = threading.Lock()

    def start(self, game_id: str, record: GameRecord) -> Job:
        """Start analysing a finished game unless it is analysed or being analysed; its job."""
        with self._lock:
            if self.status.get(game_id, Job(JobState.FAILED)).state is JobState.FAILED:
                self.status[game_id] = Job(JobState.RUNNING)
                threading.Thread(target=self._run, args=(game_id, record), daemon=True).start()
            return self.status[game_id]

    def _run(self, game_id: str, record: GameRecord) -> None:
        why = analyse_in_child(record, self.folder / ANALYSED_DIR / f"{game_id}.jsonl")
        with self._lock:
            self.status[game_id] = Job(JobState.READY) if why is None else Job(JobState.FAILED, why)


def opponents(call: Call) -> Response:
    games = call.state.games
    players = [{"name": name, "kind": s.kind.value, "takes_time": s.takes_time}
               for name, s in games.players.items()]
    return JSONResponse({"players": players, "time_limit": games.time_limit})


def state_of(call: Call, game: PlayGame) -> Dict[str, Any]:
    """The game's state with its loss analysis's (``analysis``: the words shown,
    ``analysis_state``: the JobState's value) and the links to its other pages."""
    state = game.state()
    job = call.state.analyses.status.get(game.id)
    state.update(analysis=job and job.words, analysis_state=job and job.state.value,
                 board_url=analysis_url(game.task.board, state["moves"]))
    if game.record is not None:
        state["review_url"] = "/review?" + urlencode(game.record.key.to_dict())
        state["analysable"] = game.record.loser is not None
    if job and job.state is JobState.READY:
        state["analysis_url"] = f"/replay?log={ANALYSED_DIR}/{game.id}.jsonl#game=0"
    return state


def game_events(call: Call, game_id: str) -> Response:
    """The game's state whenever it changes, until it is over; while a page follows it, it
    is not abandoned."""
    game = call.state.games.get(game_id)

    async def changes() -> AsyncIterator[Optional[str]]:
        game.watchers += 1
        try:
            sent, over = -1, False
            while not over:
                game.seen = time.monotonic()
                version = await game.changes.wait(sent, PING_S)
                if version == sent:
                    yield None
                else:
                    sent, over = version, game.over
                    yield json.dumps(state_of(call, game), separators=(",", ":"))
        finally:
            game.watchers -= 1
            game.seen = time.monotonic()

    return EventStream(call, changes())


def move(call: Call, game_id: str) -> Response:
    call.state.games.get(game_id).submit(call.body())
    return JSONResponse({"ok": True})


def analyse(call: Call, game_id: str) -> Response:
    game = call.state.games.get(game_id)
    if game.record is None:
        raise Conflict("the game is not over")
    if game.record.loser is None:
        raise Conflict("only a game lost on the board has a loss to analyse")
    job = call.state.analyses.start(game.id, game.record)
    game.changes.bump()
    return JSONResponse({"analysis": job.words}, 202)


routes = [
    route("/api/opponents", opponents),
    route("/api/games",
          lambda call: JSONResponse(call.state.games.create(call.body()).state(), 201), "POST"),
    route("/api/games/{game_id}",
          lambda call, game_id: JSONResponse(state_of(call, call.state.games.get(game_id)))),
    route("/api/games/{game_id}/events", game_events),
    route("/api/games/{game_id}/move", move, "POST"),
    route("/api/games/{game_id}/analyse", analyse, "POST"),
]
