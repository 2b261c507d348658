"""`arena suite build` (docs/suites.md, "Building a suite"): each game walked back from its end,
each position proven by the analysis's exact questions (analysis.proof.Questions, imported as a
build runs); the suite gets each item as it is proven, its ledger (``SUITE.games``) each game
walked, so Ctrl-C keeps the work done and the same command walks only the rest."""

import copy
import json
import signal
import sys
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Set, Tuple

from arena.core.rules import Grid
from arena.engine.limit import Limit
from arena.engine.position import PositionError, game_positions, replay
from arena.suite.item import Goal, Item, Source, SuiteError, parse_line
from arena.suite.position import legal_moves, refusal, stones_id
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


def ledger_path(suite: Path) -> Path:
    """The ledger of the games a build walked, beside its suite."""
    return suite.with_name(suite.name + ".games")


@dataclass
class Walked:
    """One game walked: the items it gave and why each other position is none."""

    log: str
    key: GameKey
    items: List[Item] = field(default_factory=list)
    left_out: Counter = field(default_factory=Counter)

    def to_json(self, kept: int) -> str:
        """The game's ledger line, ``kept`` being its items not seen before."""
        return json.dumps({"log": self.log, "game": self.key.to_dict(), "kept": kept,
                           "left_out": dict(self.left_out)})


def walk(job: Tuple[str, GameRecord, Limit]) -> Walked:
    """The items of one game: its positions from the last back until one is unsettled, then
    an analysed loss's decisive position where the walk did not reach it. Each position's
    values are paid from the limit's nodes (so a build is the same on any machine; the
    solver's table is kept along the game), the plies and the theme from its seconds."""
    from analysis.proof import Questions

    log, record, limit = job
    walked = Walked(log, record.key)
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


def _try(walked: Walked, questions: "Questions", record: GameRecord, grid: Grid, ply: int) -> str:
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


def games_to_walk(logs: Iterable[Path], lost_by: str) -> Tuple[List[Tuple[str, GameRecord]], int]:
    """Each game of the logs once, with the log it is read from (the same board and moves in
    two logs: once, an analysed copy before a bare one): the games ``lost_by`` (a name or its
    start) lost first, the analysed ones among them first; and how many copies were dropped.
    ResultsError for a log that cannot be read or a game no referee allows."""
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
        lost = record.loser is not None and record.name(record.loser).startswith(lost_by)
        return not lost, not isinstance(record.analysis, LossAnalysis)

    return sorted(games.values(), key=rank), copies


@dataclass
class Built:
    """What a suite file and its ledger hold: the items, and each walked game's counts."""

    items: List[Item] = field(default_factory=list)
    games: Set[Tuple[str, GameKey]] = field(default_factory=set)
    left_out: Counter = field(default_factory=Counter)

    @classmethod
    def read(cls, suite: Path) -> "Built":
        """What an earlier build left: the games of its ledger, and the suite's items except
        those of a game the ledger lacks (cut off before its line: it is walked again)."""
        built = cls()
        ledger = ledger_path(suite)
        for number, line in whole_lines(ledger):
            try:
                data = json.loads(line)
                built.games.add((data["log"], GameKey.from_dict(data["game"])))
                built.left_out.update(data["left_out"])
            except (ValueError, KeyError, TypeError) as exc:
                raise SuiteError(f"{ledger}:{number}: not a ledger line ({exc})") from None
        items = [parse_line(line, f"{suite}:{number}") for number, line in whole_lines(suite)]
        built.items = [i for i in items
                       if i.source is None or (i.source.log, i.source.game) in built.games]
        if len(built.items) < len(items):
            suite.write_text("".join(i.to_json() + "\n" for i in built.items), encoding="utf-8")
        return built

    def lines(self, suite: Path, copies: int) -> List[str]:
        """What the build says: the positions kept, by goal, level and theme, and how many it
        left out and why."""
        goals = Counter(i.goal for i in self.items)
        levels = Counter(i.level for i in self.items)
        themes = Counter(i.theme.value if i.theme else "none" for i in self.items)
        repeated = f" ({copies} copies of a game read once)" if copies else ""
        return [f"{suite}: {len(self.items)} positions ("
                + ", ".join(f"{g.value} {goals[g]}" for g in Goal)
                + f") from {len(self.games)} games{repeated}",
                "  by level: " + _counts(sorted(levels.items())),
                "  by theme: " + _counts(themes.most_common()),
                f"  left out: {sum(self.left_out.values())} positions: "
                + _counts(self.left_out.most_common())]


def _counts(pairs: Iterable[Tuple[str, int]]) -> str:
    return ", ".join(f"{name} {n}" for name, n in pairs) or "none"


def build(logs: List[Path], suite: Path, limit: Limit, lost_by: str, jobs: int = 1,
          quiet: bool = False) -> List[str]:
    """Walks the games of ``logs`` that ``suite``'s ledger lacks, appending each new item to
    the suite and each game to the ledger as it is done; returns what the build says.
    ResultsError for input it cannot use; KeyboardInterrupt leaves both files whole."""
    from multiprocessing import Pool

    from tqdm import tqdm

    games, copies = games_to_walk(logs, lost_by)
    suite.parent.mkdir(parents=True, exist_ok=True)
    built = Built.read(suite)
    seen = {item.id for item in built.items}
    work = [(log, record, limit) for log, record in games
            if (log, record.key) not in built.games]
    jobs = min(jobs, len(work))
    # a pool's worker leaves Ctrl-C to the build, whose pool ends it (no traceback of its own);
    # the files are line-buffered: each write reaches them whole before the next game
    pool = Pool(jobs, signal.signal, (signal.SIGINT, signal.SIG_IGN)) if jobs > 1 else None
    with pool or nullcontext(), open(suite, "a", buffering=1, encoding="utf-8") as out, \
            open(ledger_path(suite), "a", buffering=1, encoding="utf-8") as ledger, \
            tqdm(total=len(games), initial=len(games) - len(work), unit="game", desc="build",
                 disable=True if quiet else None, file=sys.stderr) as bar:
        for walked in pool.imap(walk, work) if pool else map(walk, work):
            new = [item for item in walked.items if item.id not in seen]
            if len(new) < len(walked.items):
                walked.left_out[SEEN] += len(walked.items) - len(new)
            out.write("".join(item.to_json() + "\n" for item in new))
            ledger.write(walked.to_json(len(new)) + "\n")
            seen.update(item.id for item in new)
            built.items.extend(new)
            built.games.add((walked.log, walked.key))
            built.left_out.update(walked.left_out)
            bar.set_postfix(kept=len(built.items))
            bar.update()
    return built.lines(suite, copies)


