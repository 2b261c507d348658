"""Runs a batch: plans its games, hands them to an executor, and alone writes the log: a game
back twice (a lost worker's, rescheduled) is logged once, a logged one never played again."""

import logging
import signal
import sys
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Protocol, Set

from arena.batch.config import Config, ConfigError
from arena.batch.early_stop import SprtStop, Stop
from arena.batch.pool import LocalPool, terminate
from arena.core.boards import draw_board
from arena.core.tasks import Task
from arena.report.results import CourseGame, course_game, write_course_files
from records.game import GameKey, GameRecord
from records.log import LOG_NAME, ResultLog, read_log, sort_log
from records.player import PlayerSpec
from records.tally import WDL, wdl

LOG = logging.getLogger("arena.batch.scheduler")


class Executor(Protocol):
    """Plays tasks somewhere: `play` is `as_completed(submit(play_task, t) for t in todo)`, and
    closing its iterator cancels every game not yet yielded, running ones included."""

    def describe(self) -> str:
        """Where the games run, for the batch's first log line (`-j 2`, `cluster local:4`)."""

    def play(self, specs: Dict[str, PlayerSpec], todo: List[Task]) -> Iterator[GameRecord]:
        """Records in the order games end."""


def plan(config: Config) -> List[Task]:
    """Every game of the batch, round by round, so a cut-short batch is balanced."""
    return [Task(GameKey(config.batch, a, b, config.seed, r, leg), draw_board(config.seed, r),
                 config.time_limit)
            for r in range(config.rounds) for a, b in config.pairings for leg in (0, 1)]


def executor_for(config: Config) -> Executor:
    """Local processes, or Dask workers when the config names a cluster."""
    if config.cluster is None:
        return LocalPool(config.jobs, config.output_dir)
    try:
        from arena.cluster.client import DaskPool
    except ImportError:
        raise ConfigError("cluster: Dask is not installed; pip install '.[cluster]' "
                          "(or: pip install distributed)") from None
    return DaskPool(config.cluster, config.shared_fs, {config.output_dir}, config.output_dir)


class Progress:
    """Games done and A's W/D/L and score so far, on a tqdm bar (stderr)."""

    def __init__(self, total: int, done: List[GameRecord], quiet: bool) -> None:
        from tqdm import tqdm

        self.count = wdl(done)
        # drawn on a terminal only (disable=None), never into a redirected log
        self.bar = tqdm(total=total, initial=len(done), unit="game",
                        disable=True if quiet else None, dynamic_ncols=True, file=sys.stderr)
        self._show()

    def add(self, record: GameRecord) -> None:
        self.count += wdl([record])
        self._show()  # postfix first: update() redraws, so the bar shows this game too
        self.bar.update(1)

    def _show(self) -> None:
        c: WDL = self.count
        score = f"{c.score:.1%}" if c.games else "-"
        self.bar.set_postfix_str(f"A W/D/L {c.wins}/{c.draws}/{c.losses} score {score}",
                                 refresh=False)

    def close(self) -> None:
        self.bar.close()


class BatchResult(List[GameRecord]):
    """The batch's records, and the early stop that ended it (None: every game was played)."""

    stop: Optional[Stop] = None


@dataclass
class Played:
    """What the parent keeps of each logged game: its key (a game back twice is logged once)
    and, for an SPRT stop, its course line; never the whole record, so memory stays flat."""

    early: Optional[SprtStop]
    keys: Set[GameKey] = field(default_factory=set)
    games: List[CourseGame] = field(default_factory=list)  # only with an early stop
    stop: Optional[Stop] = None

    def add(self, record: GameRecord) -> None:
        self.keys.add(record.key)
        if self.early:
            self.games.append(course_game(record))

    def decided(self) -> Optional[Stop]:
        """The SPRT's stop over the games so far; None without an early stop, or to play on."""
        self.stop = self.early.check(self.games) if self.early else None
        return self.stop


def run_batch(config: Config, quiet: bool = False,
              executor: Optional[Executor] = None) -> BatchResult:
    """Play every game of the batch not yet in its log (docs/arena.md, "Results": the resume,
    the sorted log, the course's files, also after Ctrl-C); its records, read back from the log."""
    out = config.output_dir
    log_path = out / LOG_NAME
    early = SprtStop(config) if config.sprt else None
    games = plan(config)
    wanted = {t.key for t in games}
    logged = [r for r in read_log(log_path, repair=True) if r.key in wanted]
    played = Played(early)
    for record in logged:
        played.add(record)
    todo = [] if played.decided() else [t for t in games if t.key not in played.keys]
    if logged:
        LOG.info("resuming %s: %d of %d games already in %s", config.batch, len(logged),
                 len(games), log_path)
    executor = executor or executor_for(config)
    progress = Progress(len(games), logged, quiet)
    del logged
    previous = signal.signal(signal.SIGTERM, terminate)  # SIGTERM stops the batch as Ctrl-C does
    try:
        with ResultLog(log_path) as log:
            _collect(executor.play(config.players, todo), played, log, progress)
    finally:
        signal.signal(signal.SIGTERM, previous)
        progress.close()
        records = BatchResult(r for r in sort_log(log_path) if r.key in wanted)
        records.stop = played.stop
        write_course_files(records, out)
        if played.stop and early:
            early.record(played.stop)
    return records


def _collect(results: Iterator[GameRecord], played: Played, log: ResultLog,
             progress: "Progress") -> None:
    """Log each new record; stop (closing `results`, which cancels the rest) on an SPRT verdict."""
    try:
        for record in results:
            if record.key in played.keys:
                LOG.debug("%s came back twice (a rescheduled game); counted once", record.key)
                continue
            log.append(record)
            played.add(record)
            progress.add(record)
            if played.decided():
                return
    finally:
        getattr(results, "close", lambda: None)()
