"""A game review (docs/web.md, "Game review"): every position of a finished game evaluated by
the engine at one budget, as the first player's win chance (a proof overrides the engine's
value), and the moves marked by lichess's rule: the mover's chances on -1..1 falling 0.1, 0.2
or 0.3 make an inaccuracy, a mistake or a blunder; leaving a proven win or entering a proven
loss wins over the fall. A review is kept beside the log with its budget, so a second look at
that budget reads the file."""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from arena.engine.client import Engine, EngineError, EnginePool
from arena.engine.position import PositionError, game_positions
from records.analysis import LossAnalysis
from records.game import GameKey, GameRecord
from records.log import LOG_NAME, ResultsError, log_path, losses, read_games, write_atomic
from records.result import Outcome, Seat, WinChance

REVIEWS_DIR = "reviews"  # beside the log: reviews/<game>.json
REVIEW_VERSION = 1
DEFAULT_SECONDS = 0.5  # the engine's budget a position
# lichess's marks: the mover's winning chances on -1..1 falling by at least this much
FALLS = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))
GAVE_AWAY = "gave away a proven win"
WALKED_INTO = "walked into a proven loss"


@dataclass(frozen=True)
class Budget:
    """The engine's budget a position: seconds, a play-out cap, or both."""

    seconds: Optional[float] = DEFAULT_SECONDS
    playouts: Optional[int] = None

    def __str__(self) -> str:
        parts = ([f"{self.seconds:g} s"] if self.seconds else []) + (
            [f"{self.playouts} play-outs"] if self.playouts else [])
        return " and ".join(parts) + " a position"


@dataclass
class Position:
    """One evaluated position: the first player's win chance, the engine's best move there and
    the proof for the side to move (None: not proven)."""

    chance: float
    best: Optional[List[int]] = None
    proof: Optional[Outcome] = None

    def __post_init__(self) -> None:
        self.proof = None if self.proof is None else Outcome(self.proof)  # the file's word

    @property
    def win_chance(self) -> WinChance:
        return WinChance(self.chance, Seat.FIRST)


@dataclass
class Mark:
    """A marked move: its index into the game's moves, the move, who made it, the mark and the
    fall of the mover's winning chances on -1..1."""

    index: int
    move: List[int]
    mover: Seat
    mark: str
    fall: float

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

    def to_dict(self) -> Dict[str, Any]:
        return {"v": self.v, **asdict(self), "key": self.key.to_dict()}  # "v" first

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Review:
        return cls(GameKey.from_dict(data["key"]), Budget(**data["budget"]),
                   [Position(**p) for p in data["positions"]],
                   [Mark(**m) for m in data["marks"]], data["decisive"], data["elapsed"],
                   data["v"])


# ---- the rule ---------------------------------------------------------------------------
def mark_moves(moves: Sequence[List[int]], positions: Sequence[Position]) -> List[Mark]:
    """The marked moves of a game whose positions (one more than the moves) are evaluated."""
    marks = []
    for i, move in enumerate(moves):
        mover = Seat.of_ply(i)
        before, after = positions[i], positions[i + 1]
        fall = 2 * (before.win_chance.pov(mover) - after.win_chance.pov(mover))
        # after the move, for the mover (the proof is for the side to move: the opponent)
        proof_after = after.proof.reversed if after.proof else None
        if before.proof is Outcome.WIN and proof_after is not Outcome.WIN:
            mark = GAVE_AWAY
        elif before.proof is not Outcome.LOSS and proof_after is Outcome.LOSS:
            mark = WALKED_INTO
        else:
            mark = next((name for size, name in FALLS if fall >= size - 1e-9), "")
        if mark:
            marks.append(Mark(i, list(move), mover, mark, round(fall, 4)))
    return marks


def position_of(line: Dict[str, Any], to_move: Seat) -> Position:
    """A position from the engine's final line: the best move's value for the side to move (a
    proof wins)."""
    word = (line.get("proof") or {}).get("result")
    proof = None if word is None else Outcome(word)
    best = line.get("best")
    values = {tuple(m["move"]): m["value"] for m in line.get("moves", [])
              if m.get("value") is not None}
    if proof is not None:
        value = proof.score
    elif best is not None and tuple(best) in values:
        value = values[tuple(best)]
    else:  # no best move searched (a rule's move): the best value searched
        value = max(values.values(), default=0.5)
    return Position(round(WinChance(value, to_move).pov(Seat.FIRST), 4), best, proof)


def searched(record: GameRecord) -> int:
    """How many of a game's positions the engine evaluates."""
    return len(record.moves) + (record.fault is not None)


def review_game(record: GameRecord, engine: Engine, budget: Budget,
                progress: Optional[Callable[[int, int], None]] = None) -> Review:
    """Every position of a game evaluated at ``budget``, the moves marked, ``progress(done,
    total)`` called after each; PositionError, before any search, for a move no referee allows."""
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
    a = record.analysis
    decisive = a.decisive.index if isinstance(a, LossAnalysis) and a.decisive else None
    return Review(record.key, budget, positions, mark_moves(record.moves, positions),
                  decisive, round(time.monotonic() - start, 3))


# ---- the files --------------------------------------------------------------------------
def review_path(folder: Path, key: GameKey) -> Path:
    """A game's review file in a results folder (characters a file name should not hold
    become '-'; the key inside tells two games apart)."""
    name = "_".join(str(v) for v in key.to_dict().values())
    return folder / REVIEWS_DIR / (re.sub(r"[^A-Za-z0-9._=+-]", "-", name) + ".json")


def load_review(folder: Path, key: GameKey, budget: Budget) -> Optional[Review]:
    """The game's kept review when it was made at ``budget``; None otherwise."""
    try:
        review = Review.from_dict(json.loads(review_path(folder, key).read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return review if review.key == key and review.budget == budget else None


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
                    "inaccuracies, mistakes and blunders marked (docs/web.md, 'Game review'); "
                    f"the reviews are kept in {REVIEWS_DIR}/ beside the log.")
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
    parser.add_argument("--lost-by", metavar="NAME",
                        help="only the games this player lost on the board (a name, or its "
                             "start)")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar (one is drawn only on a terminal anyway)")
    return parser


def review_all(records: List[GameRecord], folder: Path, budget: Budget, jobs: int = 1,
               quiet: bool = False) -> Tuple[List[Review], int]:
    """Every game's review at ``budget`` in the records' order, those not kept in ``folder``
    made now, ``jobs`` engines at once, and how many were; PositionError before any search."""
    from tqdm import tqdm

    reviews = {r.key: rv for r in records if (rv := load_review(folder, r.key, budget))}
    todo = [r for r in records if r.key not in reviews]
    for record in todo:  # every game checked before any search (one kept at a time)
        game_positions(record.board, record.moves)
    jobs = max(1, min(jobs, len(todo) or 1))
    pool = EnginePool(jobs)
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
        reviews, made = review_all(records, folder, budget, args.jobs, args.quiet)
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

