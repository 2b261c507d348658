"""A game review (docs/web.md, "Game review"): every position of a finished game evaluated by
the engine at one budget, as the first player's win chance (a proof overrides the engine's
value), with the engine's value and proof of each move there, and the moves marked by rules
that each say one thing: a move that leaves a proven win, one that enters a proven loss where a
move that held was there, and lichess's falls of the mover's chances (0.1, 0.2, 0.3 on -1..1:
an inaccuracy, a mistake, a blunder) on a move the engine itself does not play, shown only
where the budget's values are steadier than the fall. The loss analysis's decisive move comes
with it (run where the record has none). A review is kept beside the log with its budget, so a
second look at that budget reads the file."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import re
import subprocess
import sys
import tempfile
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from arena.children.reaper import kill_tree, spawn
from arena.children.tail import StderrTail
from arena.engine.client import ARGV, Engine, EngineError, EnginePool
from arena.engine.position import PositionError, game_positions
from records.analysis import LossAnalysis
from records.game import GameKey, GameRecord
from records.log import (
    LOG_NAME,
    ResultsError,
    log_path,
    losses,
    read_games,
    read_log,
    write_atomic,
    write_log,
)
from records.result import Outcome, Seat, WinChance

LOG = logging.getLogger("arena.review")
ROOT = Path(__file__).resolve().parents[2]  # where `python -m arena analyse` runs
REVIEWS_DIR = "reviews"  # beside the log: reviews/<game>.json
REVIEW_VERSION = 2  # 2: each position keeps its moves' values and proofs
DEFAULT_SECONDS = 0.5  # the engine's budget a position
SECONDS_CHOICES = (0.5, 2.0, 5.0)  # the review page's budgets
# lichess's marks: the mover's winning chances on -1..1 falling by at least this much
FALLS = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))
# How much a move's fall differs between two reviews at a budget (devtools/review_noise.py: 60
# positions of the bot's losses in docs/results/partner-2.4s-seed2039.jsonl, two engines with
# different seeds; the 90th percentile on -1..1, the larger of two pairs of seeds where two
# were run), by seconds and by play-outs a position (docs/web.md): a fall mark is shown only
# where its size is above its budget's figure; below the smallest budget measured none is.
FALL_NOISE_SECONDS = {0.5: 0.120, 2.0: 0.099, 5.0: 0.053}
FALL_NOISE_PLAYOUTS = {2000: 0.082, 10000: 0.071}
GAVE_AWAY = "gave away a proven win"
WALKED_INTO = "walked into a proven loss"
ANALYSIS_SECONDS = 1.0  # the loss analysis's budget a position, as "Analyse this game"'s
ANALYSIS_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Budget:
    """The engine's budget a position: seconds, a play-out cap, or both."""

    seconds: Optional[float] = DEFAULT_SECONDS
    playouts: Optional[int] = None

    def __str__(self) -> str:
        parts = ([f"{self.seconds:g} s"] if self.seconds else []) + (
            [f"{self.playouts} play-outs"] if self.playouts else [])
        return " and ".join(parts) + " a position"

    @property
    def noise(self) -> float:
        """How much a move's fall differs between two reviews at this budget, from the
        nearest budget measured at or below it (the search ends at whichever of seconds and
        play-outs comes first: the noisier counts); 1.0 below every one measured."""
        def at(measured: Dict[Any, float], amount: Optional[float]) -> float:
            below = [k for k in measured if amount is not None and k <= amount]
            return measured[max(below)] if below else 1.0

        found = [at(table, amount) for table, amount in (
            (FALL_NOISE_SECONDS, self.seconds), (FALL_NOISE_PLAYOUTS, self.playouts))
            if amount]
        return max(found, default=1.0)

    def falls(self) -> Tuple[Tuple[float, str], ...]:
        """The fall marks this budget's values are steady enough to show."""
        return tuple((size, name) for size, name in FALLS if size > self.noise)


@dataclass
class MoveValue:
    """One move of a position as the engine saw it: the mover's win chance after it (None:
    not searched) and its proof for the mover (None: not proven)."""

    move: List[int]
    value: Optional[float] = None
    proof: Optional[Outcome] = None

    def __post_init__(self) -> None:
        self.proof = None if self.proof is None else Outcome(self.proof)  # the file's word


@dataclass
class Position:
    """One evaluated position: the first player's win chance, the engine's best move there,
    the proof for the side to move (None: not proven) and each move's value and proof."""

    chance: float
    best: Optional[List[int]] = None
    proof: Optional[Outcome] = None
    moves: List[MoveValue] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.proof = None if self.proof is None else Outcome(self.proof)  # the file's word
        self.moves = [m if isinstance(m, MoveValue) else MoveValue(**m) for m in self.moves]

    @property
    def win_chance(self) -> WinChance:
        return WinChance(self.chance, Seat.FIRST)

    def proof_of(self, move: Sequence[int]) -> Optional[Outcome]:
        """The engine's proof of ``move`` here, for the side to move (None: none)."""
        return next((m.proof for m in self.moves if list(m.move) == list(move)), None)


@dataclass
class Mark:
    """A marked move: its index into the game's moves, the move, who made it, the mark, the
    fall of the mover's winning chances on -1..1 and what its rule saw, in words."""

    index: int
    move: List[int]
    mover: Seat
    mark: str
    fall: float
    why: str = ""

    def __post_init__(self) -> None:
        self.mover = Seat.parse(self.mover)  # the file's word


@dataclass
class Review:
    """One game's review, as its file keeps it (``positions[i]`` is before move i; the last
    one is after the game's last move)."""

    key: GameKey
    budget: Budget
    positions: List[Position]
    marks: List[Mark]
    decisive: Optional[int]  # the loss analysis's decisive move (index), where there is one
    elapsed: float
    v: int = REVIEW_VERSION
    noise: float = 1.0  # the budget's: falls this size or less are not marked
    hidden: List[str] = field(default_factory=list)  # the fall marks not shown at the budget
    settled: Optional[int] = None  # the loss analysis's lost_after: no mark from there on

    def to_dict(self) -> Dict[str, Any]:
        return {"v": self.v, **asdict(self), "key": self.key.to_dict()}  # "v" first

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Review:
        return cls(GameKey.from_dict(data["key"]), Budget(**data["budget"]),
                   [Position(**p) for p in data["positions"]],
                   [Mark(**m) for m in data["marks"]], data["decisive"], data["elapsed"],
                   data["v"], data.get("noise", 1.0), data.get("hidden", []),
                   data.get("settled"))


# ---- the rule ---------------------------------------------------------------------------
def mark_moves(moves: Sequence[List[int]], positions: Sequence[Position],
               falls: Sequence[Tuple[float, str]] = FALLS,
               settled: Optional[int] = None) -> List[Mark]:
    """The marked moves of a game whose positions (one more than the moves) are evaluated;
    ``falls`` the fall marks shown (by default all: `Budget.falls` leaves out those its
    budget's noise would make); from ``settled`` moves on (the loss analysis's ``lost_after``:
    every position from there is proven lost for the loser) no move changes the result, and
    none is marked. Each mark is one rule's (docs/web.md, "Game review")."""
    marks = []
    for i, move in enumerate(moves[:settled]):
        mover = Seat.of_ply(i)
        before, after = positions[i], positions[i + 1]
        fall = 2 * (before.win_chance.pov(mover) - after.win_chance.pov(mover))
        # what the move is proven to give the mover: the engine's proof of it before, else
        # the proof after it (for the side to move then: the opponent)
        proven = before.proof_of(move) or (after.proof.reversed if after.proof else None)
        held = [m.move for m in before.moves
                if m.move != list(move) and m.proof is not Outcome.LOSS]
        # a position proven won has a winning move: the engine's proof of it names it, else
        # (the forced-win search proved the position, not a move) its best move is the one
        won = [m.move for m in before.moves if m.proof is Outcome.WIN] or (
            [before.best] if before.best else [])
        if before.proof is Outcome.WIN and proven is not Outcome.WIN and list(move) not in won:
            mark, why = GAVE_AWAY, f"proven to win: {_listed(won)}" if won else ""
        elif before.proof is not Outcome.LOSS and proven is Outcome.LOSS and held:
            mark, why = WALKED_INTO, f"not proven lost: {_listed(held)}"
        elif (list(move) == before.best or before.proof is Outcome.LOSS
              or proven is Outcome.LOSS or (before.proof is not None and proven is before.proof)):
            # the engine's own move; a move in (or into) a loss with no move known to hold; the
            # proven result kept: a fall there is the engine's values, not the move
            mark = why = ""
        else:
            mark = next((name for size, name in falls if fall >= size - 1e-9), "")
            why = (f"the mover's chances fell {fall:.2f}"
                   + (f"; the engine plays {_listed([before.best])}" if before.best else ""))
        if mark:
            marks.append(Mark(i, list(move), mover, mark, round(fall, 4), why))
    return marks


def _listed(moves: Sequence[Sequence[int]], most: int = 3) -> str:
    """Moves in words: "(5,0), (8,1) and 2 more"."""
    shown = ", ".join(f"({x},{y})" for x, y in moves[:most])
    return shown + (f" and {len(moves) - most} more" if len(moves) > most else "")


def position_of(line: Dict[str, Any], to_move: Seat) -> Position:
    """A position from the engine's final line: the best move's value for the side to move (a
    proof wins), and each move's value and proof."""
    word = (line.get("proof") or {}).get("result")
    proof = None if word is None else Outcome(word)
    best = line.get("best")
    moves = [MoveValue(list(m["move"]), m.get("value"), (m.get("proof") or {}).get("result"))
             for m in line.get("moves", [])]
    values = {tuple(m.move): m.value for m in moves if m.value is not None}
    if proof is not None:
        value = proof.score
    elif best is not None and tuple(best) in values:
        value = values[tuple(best)]
    else:  # no best move searched (a rule's move): the best value searched
        value = max(values.values(), default=0.5)
    return Position(round(WinChance(value, to_move).pov(Seat.FIRST), 4), best, proof, moves)


def searched(record: GameRecord) -> int:
    """How many of a game's positions the engine evaluates."""
    return len(record.moves) + (record.fault is not None)


def needs_analysis(record: GameRecord) -> bool:
    """Whether a review runs the loss analysis: a game lost on the board whose record has
    none."""
    return record.loser is not None and not isinstance(record.analysis, LossAnalysis)


def loss_analysis(record: GameRecord, seconds: float = ANALYSIS_SECONDS,
                  stopped: Callable[[], bool] = lambda: False) -> Optional[LossAnalysis]:
    """The game's loss analysis: the record's own, else `python -m arena analyse` run on it in
    a child process (the arena never imports the analysis, which searches with the bot's
    solver; a child also leaves the caller's threads the interpreter); None for a game not
    lost on the board, or an analysis that failed (logged: the review goes on without it).
    EngineError once ``stopped()`` (looked at ten times a second): the child is killed."""
    if not needs_analysis(record):
        return record.analysis if isinstance(record.analysis, LossAnalysis) else None
    with tempfile.TemporaryDirectory(prefix="review-analysis-") as tmp:
        given, out = Path(tmp) / "game.jsonl", Path(tmp) / "analysed.jsonl"
        write_log(given, [record])
        child = spawn([sys.executable, "-m", "arena", "analyse", str(given), "-o", str(out),
                       "--seconds", f"{seconds:g}", "-q"], cwd=str(ROOT))
        tail = StderrTail(child.stderr_fd)
        deadline = time.monotonic() + ANALYSIS_TIMEOUT_S
        try:
            child.stdin.close()
            while child.proc.poll() is None and time.monotonic() < deadline:
                if stopped():
                    raise EngineError("the review was stopped")
                with contextlib.suppress(subprocess.TimeoutExpired):
                    child.proc.wait(timeout=0.1)
        finally:  # stopped, timed out or done: the child and whatever it started go
            kill_tree(child)
        if child.proc.returncode != 0:
            why = (tail.text().strip().splitlines() or [f"over {ANALYSIS_TIMEOUT_S:g} s"])[-1]
            LOG.warning("the loss analysis of %s failed: %s", record.key, why)
            return None
        analysed = read_log(out)
    found = analysed[0].analysis if analysed else None
    return found if isinstance(found, LossAnalysis) else None


def review_game(record: GameRecord, engine: Engine, budget: Budget,
                progress: Optional[Callable[[int, int], None]] = None,
                analysing: Optional[Callable[[], None]] = None) -> Review:
    """Every position of a game evaluated at ``budget``, the moves marked, ``progress(done,
    total)`` called after each, then the loss analysis's decisive move (``analysing()``
    called before it runs one); PositionError, before any search, for a move no referee
    allows."""
    start = time.monotonic()
    setups = game_positions(record.board, record.moves)[:searched(record)]
    positions: List[Position] = []
    for i, setup in enumerate(setups):
        updates = engine.analyse(setup, seconds=budget.seconds, playouts=budget.playouts)
        line = deque(updates, maxlen=1)[0]  # the final line (EngineError: none)
        positions.append(position_of(line, Seat.of_ply(i)))
        if progress:
            progress(i + 1, len(setups))
    if record.fault is None:  # ended on the board: the result is the last position's value
        to_move = record.side(Seat.of_ply(len(record.moves)))
        positions.append(Position(record.result.outcome(record.first).score, None,
                                  record.result.outcome(to_move)))
    if analysing and needs_analysis(record):
        analysing()
    a = loss_analysis(record, stopped=lambda: not engine.alive)
    decisive = a.decisive.index if a is not None and a.decisive else None
    shown = budget.falls()
    settled = None if a is None else a.lost_after
    return Review(record.key, budget, positions,
                  mark_moves(record.moves, positions, shown, settled), decisive,
                  round(time.monotonic() - start, 3), noise=budget.noise,
                  hidden=[name for size, name in FALLS if (size, name) not in shown],
                  settled=settled)


# ---- the files --------------------------------------------------------------------------
def review_path(folder: Path, key: GameKey) -> Path:
    """A game's review file in a results folder (characters a file name should not hold
    become '-'; the key inside tells two games apart)."""
    name = "_".join(str(v) for v in key.to_dict().values())
    return folder / REVIEWS_DIR / (re.sub(r"[^A-Za-z0-9._=+-]", "-", name) + ".json")


def load_review(folder: Path, key: GameKey, budget: Budget) -> Optional[Review]:
    """The game's kept review when it was made at ``budget`` by this version's rules; None
    otherwise (made again)."""
    try:
        review = Review.from_dict(json.loads(review_path(folder, key).read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (review if review.v == REVIEW_VERSION and review.key == key
            and review.budget == budget else None)


def save_review(folder: Path, review: Review) -> Path:
    """Write a review's file whole (a reader never sees half of it)."""
    path = review_path(folder, review.key)
    write_atomic(path, json.dumps(review.to_dict(), separators=(",", ":")))
    return path


# ---- the command ------------------------------------------------------------------------
def build_parser(prog: str = "python -m arena review") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Review every game of a log: each position evaluated by the engine, the "
                    "inaccuracies, mistakes and blunders marked, and the loss analysis's "
                    "decisive move of each game lost on the board (docs/web.md, 'Game "
                    f"review'); the reviews are kept in {REVIEWS_DIR}/ beside the log.")
    parser.add_argument("records", type=Path,
                        help=f"a JSON Lines log of games, or a results folder holding {LOG_NAME}")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="games reviewed at once, one engine each (about a core each; "
                             "default 1)")
    parser.add_argument("--seconds", type=float,
                        help=f"the engine's seconds a position (default {DEFAULT_SECONDS:g}, "
                             "or none with --playouts)")
    parser.add_argument("--playouts", type=int, help="the engine's play-outs a position (a cap; "
                                                     "with --seed, repeatable)")
    parser.add_argument("--seed", type=int, help="the engines' random seed (default: none)")
    parser.add_argument("--lost-by", metavar="NAME",
                        help="only the games this player lost on the board (a name, or its "
                             "start)")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar (one is drawn only on a terminal anyway)")
    return parser


def review_all(records: List[GameRecord], folder: Path, budget: Budget, jobs: int = 1,
               quiet: bool = False, seed: Optional[int] = None) -> Tuple[List[Review], int]:
    """Every game's review at ``budget`` in the records' order, those not kept in ``folder``
    made now, ``jobs`` engines at once (with ``seed``, a review at a play-out budget repeats),
    and how many were; PositionError before any search."""
    from tqdm import tqdm

    reviews = {r.key: rv for r in records if (rv := load_review(folder, r.key, budget))}
    todo = [r for r in records if r.key not in reviews]
    for record in todo:  # every game checked before any search (one kept at a time)
        game_positions(record.board, record.moves)
    jobs = max(1, min(jobs, len(todo) or 1))
    pool = EnginePool(jobs, list(ARGV) + ([] if seed is None else ["--seed", str(seed)]))
    bar = tqdm(total=sum(searched(r) for r in todo), unit="position", desc="review",
               disable=True if quiet or not todo else None, file=sys.stderr)

    def one(record: GameRecord) -> Review:
        engine = pool.acquire()  # no timeout: waits for a place, never None
        try:
            review = review_game(record, engine, budget, lambda done, total: bar.update())
        finally:
            pool.release(engine)
        save_review(folder, review)
        return review

    threads = ThreadPoolExecutor(jobs)
    try:
        for review in threads.map(one, todo):
            reviews[review.key] = review
    finally:
        # on Ctrl-C the engines are killed first, so the games under way end at once (each
        # finished one is saved already) rather than at their last position
        pool.close()
        threads.shutdown(wait=True, cancel_futures=True)
        bar.close()
    return [reviews[r.key] for r in records], len(todo)


def summary(records: List[GameRecord], reviews: List[Review]) -> List[str]:
    """How many of each mark each player made."""
    names = [m for _, m in FALLS][::-1] + [WALKED_INTO, GAVE_AWAY]
    counts: Dict[str, Dict[str, int]] = {}
    for record, review in zip(records, reviews):
        for mark in review.marks:
            name = record.name(record.side(mark.mover))
            counts.setdefault(name, dict.fromkeys(names, 0))[mark.mark] += 1
    width = max([len(n) for n in counts] + [6])
    return [f"{'player':<{width}}  " + "  ".join(names)] + [
        f"{name:<{width}}  " + "  ".join(f"{counts[name][m]:>{len(m)}}" for m in names)
        for name in sorted(counts)]


def main(argv: List[str], prog: str = "python -m arena review") -> int:
    """The command: review a log's games and print the marks by player; ResultsError for input
    it cannot use, and on Ctrl-C (exit status 130) the reviews finished so far are kept."""
    args = build_parser(prog).parse_args(argv)
    if args.verbose:
        logging.getLogger().setLevel(logging.DEBUG)
    if args.jobs < 1:
        raise ResultsError("--jobs must be at least 1")
    if any(v is not None and v <= 0 for v in (args.seconds, args.playouts)):
        raise ResultsError("--seconds and --playouts must be positive")
    seconds = DEFAULT_SECONDS if args.seconds is None and args.playouts is None else args.seconds
    budget = Budget(seconds, args.playouts)
    records = read_games(args.records)
    if args.lost_by is not None:
        records = [records[i] for i in losses(records, args.lost_by)]
    folder = log_path(args.records).parent
    try:
        reviews, made = review_all(records, folder, budget, args.jobs, args.quiet, args.seed)
    except KeyboardInterrupt:
        held = sum(load_review(folder, r.key, budget) is not None for r in records)
        print(f"{prog}: interrupted; {held} of {len(records)} games are reviewed and kept in "
              f"{folder / REVIEWS_DIR}, and the same command reviews the rest", file=sys.stderr)
        return 130
    except (EngineError, PositionError) as exc:  # a game no referee played, a failed engine
        raise ResultsError(f"review: {exc}") from None
    print(f"{len(reviews)} games reviewed at {budget} ({made} now, {len(reviews) - made} "
          f"kept from before) in {folder / REVIEWS_DIR}")
    print("\n".join(summary(records, reviews)))
    return 0

