"""A game review: every position of a finished game evaluated by the engine, the moves marked.

Each position before a move is analysed by the bot's analysis mode (`python -m bot --analyse`,
docs/protocol.md section 4) at one fixed budget, through `arena.engine.client` (the arena never
imports the bot). A position's value is the first player's win chance: the engine's best move's
value for the side to move, turned to the first player's view; a proof overrides it (a proven
win 1, a draw 0.5, a loss 0). The position after the last move is the game's result when the
game ended on the board, and the engine's view when a fault ended it.

The marks follow lichess's rule on the mover's winning chances on -1..1 (2p - 1): a fall of at
least 0.1, 0.2 or 0.3 over its move is an inaccuracy, a mistake or a blunder. A proof says
more: a move from a position proven won for the mover to one that is not "gave away a proven
win", and a move from a position not proven lost to one proven lost "walked into a proven
loss"; these two win over the fall's mark. The loss analysis's decisive move (docs/analyse.md)
comes with the review where the record carries one.

A review is kept beside the log, one JSON file a game (`reviews/<batch>_<a>_<b>_<seed>_<round>
_<leg>.json`, the key inside), with the budget it was made at: a second look at that budget
reads the file, a review at another budget is made again (docs/web.md, "Game review").
"""

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
        return {"v": self.v, "key": self.key.to_dict(), "budget": asdict(self.budget),
                "positions": [asdict(p) for p in self.positions],
                "marks": [asdict(m) for m in self.marks], "decisive": self.decisive,
                "elapsed": self.elapsed}

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


def final_position(record: GameRecord) -> Optional[Position]:
    """The position after the last move when the game ended on the board (its result, a
    proof); None when a fault ended it (the engine has a view of it)."""
    if record.fault is not None:
        return None
    to_move = record.side(Seat.of_ply(len(record.moves)))
    return Position(record.result.outcome(record.first).score, None,
                    record.result.outcome(to_move))


def searched(record: GameRecord) -> int:
    """How many of a game's positions the engine evaluates."""
    return len(record.moves) + (record.fault is not None)


def decisive_of(record: GameRecord) -> Optional[int]:
    a = record.analysis
    return a.decisive.index if isinstance(a, LossAnalysis) and a.decisive else None


def review_game(record: GameRecord, engine: Engine, budget: Budget,
                progress: Optional[Callable[[int, int], None]] = None) -> Review:
    """Every position of a game evaluated at ``budget``, the moves marked; ``progress(done,
    total)`` after each position. PositionError, before any search, for a move no referee
    allows (the game is replayed once, by `arena.engine.position.game_positions`)."""
    start = time.monotonic()
    setups = game_positions(record.board, record.moves)[:searched(record)]
    final = final_position(record)
    positions: List[Position] = []
    for i, setup in enumerate(setups):
        updates = engine.analyse(setup, seconds=budget.seconds, playouts=budget.playouts)
        line = deque(updates, maxlen=1)[0]  # the final line (EngineError: none)
        positions.append(position_of(line, Seat.of_ply(i)))
        if progress:
            progress(i + 1, len(setups))
    if final is not None:
        positions.append(final)
    return Review(record.key, budget, positions, mark_moves(record.moves, positions),
                  decisive_of(record), round(time.monotonic() - start, 3))


# ---- the files --------------------------------------------------------------------------
def review_path(folder: Path, key: GameKey) -> Path:
    """A game's review file in a results folder (characters a file name should not hold
    become '-'; the key inside tells two games apart)."""
    name = "_".join(str(v) for v in key.to_dict().values())
    return folder / REVIEWS_DIR / (re.sub(r"[^A-Za-z0-9._=+-]", "-", name) + ".json")


def load_review(folder: Path, key: GameKey, budget: Budget) -> Optional[Review]:
    """The game's kept review when it was made at ``budget``; None otherwise."""
    try:
        data = json.loads(review_path(folder, key).read_text(encoding="utf-8"))
        review = Review.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return review if review.key == key and review.budget == budget else None


def save_review(folder: Path, review: Review) -> Path:
    """Write a review's file whole (a reader never sees half of it)."""
    path = review_path(folder, review.key)
    path.parent.mkdir(parents=True, exist_ok=True)
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


def parse_budget(seconds: Optional[float], playouts: Optional[int]) -> Budget:
    """The budget the options give; ResultsError for one that is not positive."""
    if (seconds is not None and seconds <= 0) or (playouts is not None and playouts <= 0):
        raise ResultsError("--seconds and --playouts must be positive")
    if seconds is None and playouts is None:
        seconds = DEFAULT_SECONDS
    return Budget(seconds, playouts)


def review_all(records: List[GameRecord], folder: Path, budget: Budget, jobs: int = 1,
               quiet: bool = False) -> Tuple[List[Review], int]:
    """Review each game not yet reviewed at ``budget`` (kept in ``folder``), ``jobs`` engines
    at once: every game's review, in the records' order, and how many were made now.
    PositionError, before any search, for a game with a move no referee allows."""
    from tqdm import tqdm

    kept = {r.key: load_review(folder, r.key, budget) for r in records}
    todo = [r for r in records if kept[r.key] is None]
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

    reviews = {key: review for key, review in kept.items() if review is not None}
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
            row = counts.setdefault(record.name(record.side(mark.mover)),
                                    dict.fromkeys(names, 0))
            row[mark.mark] += 1
    width = max([len(n) for n in counts] + [6])
    lines = [f"{'player':<{width}}  " + "  ".join(names)]
    for name in sorted(counts):
        lines.append(f"{name:<{width}}  " + "  ".join(f"{counts[name][m]:>{len(m)}}"
                                                      for m in names))
    return lines


def main(argv: List[str], prog: str = "python -m arena review") -> int:
    """The command: review a log's games and print the marks by player. Raises
    ResultsError (one line, exit status 2) for input it cannot use; on Ctrl-C the reviews
    finished so far are kept (exit status 130) and the same command reviews the rest."""
    args = build_parser(prog).parse_args(argv)
    if args.verbose:
        logging.getLogger().setLevel(logging.DEBUG)
    if args.jobs < 1:
        raise ResultsError("--jobs must be at least 1")
    budget = parse_budget(args.seconds, args.playouts)
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

