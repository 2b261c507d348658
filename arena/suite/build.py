"""The suites' builds. `arena suite build` (docs/suites.md, "Building a suite"): each game walked
back from its end, each position proven by the analysis's exact questions
(analysis.proof.Questions, imported as a build runs). `arena suite value` (docs/suites.md,
"Building a valued suite"): positions of the middle game (plies FIRST_PLY to LAST_PLY, every
``every``-th), each legal column valued by the engine's analysis (`python -m bot --analyse`) in
two runs of different seeds at a play-out budget, kept where one column stands clear of the
rest (arena.suite.item.clear_best); a game is walked by one fresh engine a seed, its positions
in order, so a rebuild repeats. Either suite gets each item as it is made, its ledger
(``SUITE.games``) each game walked (``Built.gather``), so Ctrl-C keeps the work done and the
same command walks only the rest."""

import copy
import json
import signal
import sys
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Dict,
    Generic,
    Iterable,
    List,
    Optional,
    Sequence,
    Set,
    Tuple,
    Type,
    TypeVar,
)

from arena.core.rules import Grid
from arena.engine.client import ARGV, EngineError, EnginePool, Info
from arena.engine.limit import Limit
from arena.engine.position import PositionError, Setup, game_positions, replay
from arena.suite.item import (
    Goal,
    Item,
    Source,
    SuiteError,
    Valuation,
    Value,
    ValuedItem,
    clear_best,
    parse_line,
)
from arena.suite.position import fours_at, legal_moves, refusal, stones_id
from records.analysis import Kind, LossAnalysis, Proof
from records.game import GameKey, GameRecord
from records.log import log_path, read_games, whole_lines
from records.move import Move
from records.result import Outcome, Seat

if TYPE_CHECKING:
    from analysis.proof import Questions, Values

# why a position is no test (besides arena.suite.position's refusals)
FOUR, FULL = "a four on the board", "the board is full"
SEEN = "the same stones as a position kept before"
SEVERAL_WIN, UNSETTLED = "several columns win", "unsettled within the budget"
ALL_LOSE, SEVERAL_HOLD = "every column loses", "several columns hold"

K = TypeVar("K", Item, ValuedItem)  # the kind of item a build makes


def ledger_path(suite: Path) -> Path:
    """The ledger of the games a build walked, beside its suite."""
    return suite.with_name(suite.name + ".games")


@dataclass
class Walked(Generic[K]):
    """One game walked: the items it gave and why each other position is none; ``seconds``,
    what its engines took where a build counts its cost (the valued build)."""

    log: str
    key: GameKey
    items: List[K] = field(default_factory=list)
    left_out: Counter = field(default_factory=Counter)
    seconds: Optional[float] = None

    def to_json(self, kept: int) -> str:
        """The game's ledger line, ``kept`` being its items not seen before."""
        cost = {} if self.seconds is None else {"seconds": round(self.seconds, 3)}
        return json.dumps({"log": self.log, "game": self.key.to_dict(), "kept": kept,
                           "left_out": dict(self.left_out), **cost})


def walk(job: Tuple[str, GameRecord, Limit]) -> Walked[Item]:
    """The items of one game: its positions from the last back until one is unsettled, then
    an analysed loss's decisive position where the walk did not reach it. Each position's
    values are paid from the limit's nodes (so a build is the same on any machine; the
    solver's table is kept along the game), the plies and the theme from its seconds."""
    from analysis.proof import Questions

    log, record, limit = job
    walked: Walked[Item] = Walked(log, record.key)
    # the referee's grid before each move and after the last
    grids = [copy.deepcopy(grid) for grid, _ in replay(record.board, record.moves)]
    questions = Questions(record.board, [Move(*m) for m in record.moves], limit.seconds,
                          limit.nodes)
    ply = len(record.moves)
    over = FOUR if record.moves and grids[ply].four_through(*record.moves[-1]) \
        else FULL if grids[ply].is_full() else None
    if over is not None:
        walked.left_out[over] += 1
        ply -= 1
    while ply > 0 and _try(walked, questions, record, grids[ply], ply) != UNSETTLED:
        ply -= 1
    # the walk ends at ``ply``: unsettled, or the empty board
    decisive = record.analysis.decisive if isinstance(record.analysis, LossAnalysis) else None
    if decisive is not None and decisive.index < ply:
        _try(walked, questions, record, grids[decisive.index], decisive.index)
    return walked


def _try(walked: Walked[Item], questions: "Questions", record: GameRecord, grid: Grid,
         ply: int) -> str:
    """Proves the position after ``ply`` moves (``grid``): its item goes to ``walked``, or the
    reason it is none is counted there and returned ("" for an item)."""
    reason = refusal(grid, Seat.of_ply(ply))
    if reason is None:
        values = questions.values(ply, legal_moves(grid))
        goal, reason = goal_of(values)
        if goal is not None:
            found = questions.proofs(ply, values)
            walked.items.append(Item(
                stones_id(record.board, grid), record.board,
                tuple(Move(*m) for m in record.moves[:ply]), goal, found,
                theme(questions, ply, goal, found), Source(walked.log, record.key, ply)))
            return ""
    walked.left_out[reason] += 1
    return reason


def goal_of(values: "Values") -> Tuple[Optional[Goal], str]:
    """The goal a position's values make it a test of; else None and why it is none."""
    results = list(values.values())
    wins, holds = results.count(Outcome.WIN), results.count(Outcome.DRAW)
    if wins >= 2:
        return None, SEVERAL_WIN
    if None in results:
        return None, UNSETTLED
    if wins == 1:
        return Goal.WIN, ""
    if holds == 1:
        return Goal.HOLD, ""
    return None, ALL_LOSE if holds == 0 else SEVERAL_HOLD


def theme(questions: "Questions", ply: int, goal: Goal, proofs: Tuple[Proof, ...]) -> Kind:
    """How the win goes, as the loss analysis names it: for a win, the answer's; for a hold,
    the one the slowest of the losses to avoid allows (deep past the forced-win search)."""
    if goal is Goal.WIN:
        return questions.theme(ply, None)
    losses = [p for p in proofs if p.result is Outcome.LOSS]
    if any(p.plies is None for p in losses):
        return Kind.DEEP
    return questions.theme(ply, max(losses, key=lambda p: p.plies or 0).move)


def games_to_walk(logs: Iterable[Path],
                  lost_by: Optional[str]) -> Tuple[List[Tuple[str, GameRecord]], int]:
    """Each game of the logs once, with the log it is read from (the same board and moves in
    two logs: once, an analysed copy before a bare one): the games ``lost_by`` (a name or its
    start) lost first, the analysed ones among them first (None: in the logs' order); and how
    many copies were dropped. ResultsError for a log that cannot be read or a game no referee
    allows."""
    games: Dict[Tuple[object, ...], Tuple[str, GameRecord]] = {}
    copies = 0
    for path in logs:
        log = str(log_path(path))
        for record in read_games(path):
            try:
                game_positions(record.board, record.moves)  # the referee's rules, move by move
            except PositionError as exc:
                raise SuiteError(f"{log}: round {record.round} leg {record.leg}: {exc}") from None
            same = (record.board, tuple(map(tuple, record.moves)))
            if same in games:
                copies += 1
                if isinstance(games[same][1].analysis, LossAnalysis) \
                        or not isinstance(record.analysis, LossAnalysis):
                    continue
            games[same] = (log, record)

    def rank(game: Tuple[str, GameRecord]) -> Tuple[bool, bool]:
        record = game[1]
        lost = (lost_by is not None and record.loser is not None
                and record.name(record.loser).startswith(lost_by))
        return not lost, lost_by is not None and not isinstance(record.analysis, LossAnalysis)

    return sorted(games.values(), key=rank), copies


@dataclass
class Built(Generic[K]):
    """What a suite file and its ledger hold: the items, each walked game's counts, and the
    seconds its ledger counts (the valued build's cost)."""

    items: List[K] = field(default_factory=list)
    games: Set[Tuple[str, GameKey]] = field(default_factory=set)
    left_out: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @classmethod
    def read(cls, suite: Path, kind: Type[K]) -> "Built[K]":
        """What an earlier build left: the games of its ledger, and the suite's items except
        those of a game the ledger lacks (cut off before its line: it is walked again);
        SuiteError for an item of another kind than this build makes."""
        built: Built[K] = cls()
        ledger = ledger_path(suite)
        for number, line in whole_lines(ledger):
            try:
                data = json.loads(line)
                built.games.add((data["log"], GameKey.from_dict(data["game"])))
                built.left_out.update(data["left_out"])
                built.seconds += float(data.get("seconds", 0.0))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise SuiteError(f"{ledger}:{number}: not a ledger line ({exc})") from None
        items: List[K] = []
        for number, line in whole_lines(suite):
            item = parse_line(line, f"{suite}:{number}")
            if not isinstance(item, kind):
                raise SuiteError(f"{suite}:{number}: {'a valued' if kind is Item else 'an exact'}"
                                 " item, which this build does not make: name another -o")
            items.append(item)
        built.items = [i for i in items
                       if i.source is None or (i.source.log, i.source.game) in built.games]
        if len(built.items) < len(items):
            suite.write_text("".join(i.to_json() + "\n" for i in built.items), encoding="utf-8")
        return built

    def gather(self, suite: Path, walks: Iterable[Walked[K]], games: int, left: int, desc: str,
               quiet: bool = False) -> None:
        """Each walked game's new items appended to ``suite`` and its line to the ledger as it
        comes (a position with the stones of one kept before is left out), with a progress
        bar over the logs' ``games``, ``left`` of them to walk; KeyboardInterrupt leaves both
        files whole."""
        from tqdm import tqdm

        seen = {item.id for item in self.items}
        # line-buffered: each write reaches the files whole before the next game
        with open(suite, "a", buffering=1, encoding="utf-8") as out, \
                open(ledger_path(suite), "a", buffering=1, encoding="utf-8") as ledger, \
                tqdm(total=games, initial=games - left, unit="game", desc=desc,
                     disable=True if quiet else None, file=sys.stderr) as bar:
            for walked in walks:
                new = [item for item in walked.items if item.id not in seen]
                if len(new) < len(walked.items):
                    walked.left_out[SEEN] += len(walked.items) - len(new)
                out.write("".join(item.to_json() + "\n" for item in new))
                ledger.write(walked.to_json(len(new)) + "\n")
                seen.update(item.id for item in new)
                self.items.extend(new)
                self.games.add((walked.log, walked.key))
                self.left_out.update(walked.left_out)
                self.seconds += walked.seconds or 0.0
                bar.set_postfix(kept=len(self.items))
                bar.update()


def summary(built: Built[Item], suite: Path, copies: int) -> List[str]:
    """What the build says: the positions kept, by goal, level and theme, and how many it
    left out and why."""
    goals = Counter(i.goal for i in built.items)
    levels = Counter(i.level for i in built.items)
    themes = Counter(i.theme.value if i.theme else "none" for i in built.items)
    return [f"{suite}: {len(built.items)} positions ("
            + ", ".join(f"{g.value} {goals[g]}" for g in Goal)
            + f") from {len(built.games)} games{repeated(copies)}",
            "  by level: " + counts(sorted(levels.items())),
            "  by theme: " + counts(themes.most_common()),
            f"  left out: {sum(built.left_out.values())} positions: "
            + counts(built.left_out.most_common())]


def repeated(copies: int) -> str:
    """The games read once though met in several logs, in words ("" for none)."""
    return f" ({copies} copies of a game read once)" if copies else ""


def counts(pairs: Iterable[Tuple[str, int]]) -> str:
    """Counts in words: "name n, name n", "none" for none."""
    return ", ".join(f"{name} {n}" for name, n in pairs) or "none"


def build(logs: List[Path], suite: Path, limit: Limit, lost_by: str, jobs: int = 1,
          quiet: bool = False) -> List[str]:
    """Walks the games of ``logs`` that ``suite``'s ledger lacks, appending each new item to
    the suite and each game to the ledger as it is done; returns what the build says.
    ResultsError for input it cannot use; KeyboardInterrupt leaves both files whole."""
    from multiprocessing import Pool

    games, copies = games_to_walk(logs, lost_by)
    suite.parent.mkdir(parents=True, exist_ok=True)
    built = Built.read(suite, Item)
    work = [(log, record, limit) for log, record in games
            if (log, record.key) not in built.games]
    jobs = min(jobs, len(work))
    # a pool's worker leaves Ctrl-C to the build, whose pool ends it (no traceback of its own)
    pool = Pool(jobs, signal.signal, (signal.SIGINT, signal.SIG_IGN)) if jobs > 1 else None
    with pool or nullcontext():
        built.gather(suite, pool.imap(walk, work) if pool else map(walk, work), len(games),
                     len(work), "build", quiet)
    return summary(built, suite, copies)


# The valued build: `arena suite value`

FIRST_PLY, LAST_PLY = 8, 45  # the middle game: past the opening, before the exact build's reach
EVERY = 4  # every 4th ply: more than two apart, so no position reuses the last one's tree
PLAYOUTS = 10_000  # the engine's play-outs a run: about two seconds on one core
SEED = 1  # the first run's seed; the second run's is the next
RUNS = 2

TO_TAKE = "a four to take"  # the referee's rules settle it: no valued test
PROVEN = "a proven win, other columns unvalued"  # the search ends at a proof: an exact test
UNVALUED = "a column unvalued within the budget"  # a run never reached it


def plies_of(record: GameRecord, every: int) -> List[int]:
    """The plies of the game's positions a valued build looks at."""
    return list(range(FIRST_PLY, min(LAST_PLY, len(record.moves)) + 1, every))


def values_of(runs: Sequence[Info],
              legal: Sequence[Move]) -> Tuple[Optional[Tuple[Value, ...]], str]:
    """Each legal column's value from the runs' final lines, and "": each run's number (a
    proof's score where the run proves the column) and the proof where one settles it; None
    and why where a run left a column unvalued (a proven win ends the search). SuiteError
    where the engine's columns are not the referee's, or two runs prove a column differently
    (proofs are exact: the engine is wrong)."""
    for info in runs:
        if [m.move for m in info.moves] != list(legal):
            raise SuiteError(f"the engine's columns {[m.move.to_text() for m in info.moves]} "
                             f"are not the legal moves {[m.to_text() for m in legal]}")
    values = []
    for index, move in enumerate(legal):
        seen = [info.moves[index] for info in runs]
        numbers = [m.proof.score if m.proof is not None else m.value for m in seen]
        proofs = {m.proof for m in seen if m.proof is not None}
        if len(proofs) > 1:
            raise SuiteError(f"the runs prove ({move.x}, {move.y}) differently: "
                             f"{sorted(p.value for p in proofs)}")
        if any(n is None for n in numbers):
            won = any(m.proof is Outcome.WIN for info in runs for m in info.moves)
            return None, PROVEN if won else UNVALUED
        values.append(Value(move, tuple(round(n, 4) for n in numbers if n is not None),
                            next(iter(proofs), None)))
    return tuple(values), ""


def _final(pool: EnginePool, setups: Sequence[Setup], limit: Limit) -> List[Info]:
    """One fresh engine's final lines on ``setups``, in order (its seed is the pool's)."""
    engine = pool.acquire()
    try:
        return [deque(engine.analyse(setup, limit), maxlen=1)[0] for setup in setups]
    finally:
        pool.release(engine)


def walk_valued(log: str, record: GameRecord, pools: Sequence[EnginePool],
                valuation: Valuation, every: int) -> Walked[ValuedItem]:
    """The valued items of one game: the positions at ``plies_of`` the referee's rules leave
    to the engine, each valued by every pool's engine (one a seed), kept where one column
    stands clear; the engines' seconds are the game's cost."""
    walked: Walked[ValuedItem] = Walked(log, record.key)
    wanted = set(plies_of(record, every))
    asked: List[Tuple[int, Grid, Setup]] = []  # the positions for the engine
    for grid, played in replay(record.board, record.moves):
        ply = len(played)
        if ply not in wanted:
            continue
        seat = Seat.of_ply(ply)
        over = FOUR if played and grid.four_through(*played[-1]) \
            else FULL if grid.is_full() else None
        reason = over or refusal(grid, seat) or (TO_TAKE if fours_at(grid, seat.stone) else None)
        if reason is not None:
            walked.left_out[reason] += 1
            continue
        asked.append((ply, copy.deepcopy(grid),
                      Setup(record.board, tuple(grid.cells), tuple(played))))
    limit = Limit(playouts=valuation.playouts)
    started = time.monotonic()
    try:
        runs = [_final(pool, [setup for _, _, setup in asked], limit)
                for pool in pools] if asked else []  # no engine for a game with no position
    except EngineError as exc:
        raise SuiteError(f"{log}: round {record.round} leg {record.leg}: the engine failed: "
                         f"{exc}") from None
    walked.seconds = time.monotonic() - started
    for index, (ply, grid, _) in enumerate(asked):
        values, reason = values_of([run[index] for run in runs], legal_moves(grid))
        best, reason = clear_best(values) if values is not None else (None, reason)
        if best is None or values is None:
            walked.left_out[reason] += 1
            continue
        walked.items.append(ValuedItem(
            stones_id(record.board, grid), record.board,
            tuple(Move(*m) for m in record.moves[:ply]), values, valuation,
            Source(log, record.key, ply)))
    return walked


def build_valued(logs: List[Path], suite: Path, valuation: Valuation, every: int = EVERY,
                 jobs: int = 1, quiet: bool = False) -> List[str]:
    """Walks the games of ``logs`` that ``suite``'s ledger lacks, ``jobs`` at once (an engine
    each), appending each new item to the suite and each game to the ledger as it is done;
    returns what the build says. ResultsError for input it cannot use; KeyboardInterrupt
    leaves both files whole once the engines are killed."""
    started = time.monotonic()
    games, copies = games_to_walk(logs, None)
    suite.parent.mkdir(parents=True, exist_ok=True)
    built = Built.read(suite, ValuedItem)
    work = [(log, record) for log, record in games if (log, record.key) not in built.games]
    jobs = max(1, min(jobs, len(work)))
    pools = [EnginePool(jobs, list(ARGV) + ["--seed", str(seed)]) for seed in valuation.seeds]
    threads = ThreadPoolExecutor(jobs)
    try:
        walks = threads.map(lambda job: walk_valued(job[0], job[1], pools, valuation, every), work)
        built.gather(suite, walks, len(games), len(work), "value", quiet)
    finally:
        # on Ctrl-C the engines are killed first, so the games under way end at once
        for pool in pools:
            pool.close()
        threads.shutdown(wait=True, cancel_futures=True)
    return valued_summary(built, suite, copies, time.monotonic() - started)


def valued_summary(built: Built[ValuedItem], suite: Path, copies: int,
                   seconds: float) -> List[str]:
    """What the build says: the positions kept, by level and shape, how many it left out and
    why, and its cost: the engines' seconds its ledger counts, and this run's."""
    levels = Counter(i.level for i in built.items)
    shapes = Counter((i.board.M, i.board.N) for i in built.items)
    budget = built.items[0].budget if built.items else None
    runs = (f" ({len(budget.seeds)} runs of {budget.playouts} play-outs a position)"
            if budget else "")
    return [f"{suite}: {len(built.items)} positions from {len(built.games)} games"
            f"{repeated(copies)}{runs}",
            "  by level: " + counts(sorted(levels.items())),
            "  by shape: " + counts((f"{m}x{n}", k) for (m, n), k in sorted(shapes.items())),
            f"  left out: {sum(built.left_out.values())} positions: "
            + counts(built.left_out.most_common()),
            f"  cost: {built.seconds:.0f} s of engine time in all (one core an engine), "
            f"{seconds:.0f} s this run"]

