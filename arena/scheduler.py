"""Runs a batch: boards from a seeded generator, both colours per board, `-j` worker processes.

Round r's board (M, N, forbidden cell) comes from `random.Random(f"{seed}/{r}")` alone, so any
game can be replayed by itself and every pairing meets the same boards. Each board is played
twice, A first (leg 0) then B first (leg 1): the course's two lines per round.

Workers are plain processes that keep their players between games (a `.so` host stays loaded
for the whole batch). The parent owns the log: it appends each record as the game ends, and on
start it skips the games already logged, so a batch that was killed resumes where it stopped.
Ctrl-C or SIGTERM stops the workers, and each worker closes its players (killing their process
groups) before it exits; a worker whose parent dies gets SIGTERM from the kernel.
"""

import ctypes
import logging
import multiprocessing as mp
import queue
import random
import signal
import sys
import traceback
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Dict, Iterator, List, Optional, Tuple

from arena.config import Config
from arena.players import make_player
from arena.players.base import Player
from arena.referee import GameOutcome, play_game
from arena.results import GameKey, GameRecord, ResultLog, read_log, write_course_files

LOG = logging.getLogger("arena.scheduler")
LOG_NAME = "games.jsonl"


@dataclass(frozen=True)
class BoardSpec:
    """A board: M rows, N columns (9..12 each) and the forbidden cell (any cell)."""

    M: int
    N: int
    no_x: int
    no_y: int


def draw_board(seed: int, round_: int) -> BoardSpec:
    """The board of one round, drawn as the course draws it (uniform sizes, uniform cell)."""
    rng = random.Random(f"{seed}/{round_}")
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    return BoardSpec(M, N, rng.randrange(M), rng.randrange(N))


@dataclass(frozen=True)
class Task:
    """One game to play: its key, its board and the time limit per move (seconds)."""

    key: GameKey
    board: BoardSpec
    time_limit: float


def plan(config: Config) -> List[Task]:
    """Every game of the batch, round by round, so a cut-short batch is balanced."""
    return [Task(GameKey(config.batch, a, b, config.seed, r, leg), draw_board(config.seed, r),
                 config.time_limit)
            for r in range(config.rounds) for a, b in config.pairings for leg in (0, 1)]




def to_record(task: Task, outcome: GameOutcome) -> GameRecord:
    """The referee's first/second outcome as a record from the pairing's A/B view."""
    k, b = task.key, task.board
    a_first = k.leg == 0
    side_of = {1: "a" if a_first else "b", 2: "b" if a_first else "a"}
    fault = outcome.fault
    # Players' stderr is kept where it explains something: in games lost by a fault.
    stderr = ({side_of[1]: outcome.stderr[0], side_of[2]: outcome.stderr[1]} if fault
              else {"a": "", "b": ""})
    return GameRecord(
        batch=k.batch, seed=k.seed, round=k.round, leg=k.leg, a=k.a, b=k.b, M=b.M, N=b.N,
        no_x=b.no_x, no_y=b.no_y, time_limit=task.time_limit,
        code=int(outcome.course_code(a_first)), reason=outcome.reason,
        moves=[list(m) for m in outcome.moves], times=list(outcome.times),
        fault=None if fault is None else {"side": side_of[fault.side], "kind": fault.kind.value,
                                          "detail": fault.detail},
        win_line=[list(c) for c in outcome.win_line] or None, stderr=stderr,
        finished=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))


def play_task(players: Dict[str, Player], task: Task) -> GameRecord:
    """Play one game of the batch between two of a worker's players."""
    pa, pb = players[task.key.a], players[task.key.b]
    first, second = (pa, pb) if task.key.leg == 0 else (pb, pa)
    b = task.board
    return to_record(task, play_game(first, second, b.M, b.N, b.no_x, b.no_y, task.time_limit))


def _die_with_parent() -> None:
    """Ask Linux to SIGTERM this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _worker(specs: Dict[str, Dict[str, Any]], tasks: "mp.Queue[Optional[Task]]",
            results: "mp.Queue[Tuple[str, Any]]") -> None:
    """Play tasks until the sentinel; players are made once and kept; closed on any exit."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means
    signal.signal(signal.SIGTERM, _terminate)
    players: Dict[str, Player] = {}
    try:
        for task in iter(tasks.get, None):
            try:
                for name in (task.key.a, task.key.b):
                    if name not in players:
                        players[name] = make_player(name, specs[name])
                results.put(("done", play_task(players, task)))
            except Exception:
                results.put(("error", f"{task.key}: {traceback.format_exc()}"))
    finally:
        for player in players.values():
            player.close()


class Progress:
    """Games done and A's W/D/L and score so far, on a tqdm bar (stderr)."""

    def __init__(self, total: int, done: List[GameRecord], quiet: bool) -> None:
        from tqdm import tqdm

        self.counts = {"a": 0, "draw": 0, "b": 0}
        self.bar = tqdm(total=total, initial=len(done), unit="game", disable=quiet,
                        dynamic_ncols=True, file=sys.stderr)
        for record in done:
            self.counts[record.result] += 1
        self._show()

    def add(self, record: GameRecord) -> None:
        self.counts[record.result] += 1
        self._show()  # postfix first: update() redraws, so the bar shows this game too
        self.bar.update(1)

    def _show(self) -> None:
        w, d, loss = self.counts["a"], self.counts["draw"], self.counts["b"]
        games = w + d + loss
        score = f"{(2 * w + d) / (2 * games):.1%}" if games else "-"
        self.bar.set_postfix_str(f"A W/D/L {w}/{d}/{loss} score {score}", refresh=False)

    def close(self) -> None:
        self.bar.close()


class BatchError(Exception):
    """A game could not be played for a reason that is not a player's fault (a bug, a bad spec)."""


def run_batch(config: Config, quiet: bool = False) -> List[GameRecord]:
    """Play every game of the batch not yet in its log; returns the batch's records.

    The log is `<output>/games.jsonl`; a torn last line is cut off first. The course's text
    files are rewritten from the log at the end, also after Ctrl-C or an error.
    """
    out = config.output_dir
    log_path = out / LOG_NAME
    games = plan(config)
    wanted = {t.key for t in games}
    logged = read_log(log_path, repair=True)
    done = {r.key: r for r in logged if r.key in wanted}
    todo = [t for t in games if t.key not in done]
    if done:
        LOG.info("resuming %s: %d of %d games already in %s", config.batch, len(done),
                 len(games), log_path)
    records = list(done.values())
    progress = Progress(len(games), records, quiet)
    try:
        with ResultLog(log_path) as log:
            for record in _play_all(config, todo):
                log.append(record)
                records.append(record)
                progress.add(record)
    finally:
        progress.close()
        write_course_files(records, out)
    return records


class _Feeder:
    """Hands tasks to the workers a few at a time, then one end-of-work sentinel per worker.

    Keeping the queue short means an interrupted batch never leaves a pipe full of tasks that
    nobody will read (which would block the parent's exit)."""

    def __init__(self, tasks: Any, todo: List[Task], jobs: int) -> None:
        self.queue, self.pending, self.jobs = tasks, iter(todo), jobs
        self.done = False

    def feed(self, count: int) -> None:
        for _ in range(count):
            task = next(self.pending, None)
            if task is None:
                if not self.done:
                    for _ in range(self.jobs):
                        self.queue.put(None)
                    self.done = True
                return
            self.queue.put(task)


def _play_all(config: Config, todo: List[Task]) -> Iterator[GameRecord]:
    """Yield records as workers finish games; stop every worker on any way out."""
    if not todo:
        return
    ctx = mp.get_context("fork")
    tasks, results = ctx.Queue(), ctx.Queue()
    jobs = min(config.jobs, len(todo))
    feeder = _Feeder(tasks, todo, jobs)
    feeder.feed(2 * jobs)
    workers = [ctx.Process(target=_worker, args=(config.players, tasks, results), daemon=True)
               for _ in range(jobs)]
    previous = signal.signal(signal.SIGTERM, _terminate)
    for w in workers:
        w.start()
    try:
        remaining = len(todo)
        while remaining:
            try:
                kind, payload = results.get(timeout=1.0)
            except queue.Empty:
                dead = [w.exitcode for w in workers if not w.is_alive()]
                if any(code != 0 for code in dead) or len(dead) == jobs:
                    raise BatchError(f"a worker died (exit codes {dead}) with {remaining} "
                                     "games left; run the batch again to resume") from None
                continue
            if kind == "error":
                raise BatchError(payload)
            remaining -= 1
            feeder.feed(1)
            yield payload
    finally:
        tasks.cancel_join_thread()  # undelivered tasks are simply not played
        _stop(workers)
        signal.signal(signal.SIGTERM, previous)


def _stop(workers: List[mp.Process]) -> None:
    """SIGTERM the workers (they close their players), then SIGKILL any that linger."""
    for w in workers:
        if w.is_alive():
            w.terminate()
    for w in workers:
        w.join(timeout=10)
        if w.is_alive():
            w.kill()
            w.join()
