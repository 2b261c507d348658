"""A game review: every position of a finished game evaluated by the engine at one budget, the
moves marked by the rules of docs/web.md, "Game review", each mark kept only where two deeper
looks (the check, at least a player's own move time, and one at twice that) confirm it, and the
loss analysis's decisive move; kept beside the log with its budgets, so a second look at them
reads the file."""

from __future__ import annotations

import json
import logging
import re
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from arena.engine.client import ANALYSIS_SECONDS, ARGV, Engine, EnginePool, Info, analyse_in_child
from arena.engine.limit import Limit
from arena.engine.position import Setup, game_positions
from records.analysis import LossAnalysis
from records.game import GameKey, GameRecord
from records.log import read_log, write_atomic
from records.result import Outcome, Seat, WinChance

LOG = logging.getLogger("arena.review")
REVIEWS_DIR = "reviews"  # beside the log: reviews/<game>.json
REVIEW_VERSION = 4  # 4: each mark kept by the check confirmed by a second look
DEFAULT_SECONDS = 0.5  # the engine's budget a position
BUDGET = Limit(DEFAULT_SECONDS)  # a review's unless it asks for another
SECONDS_CHOICES = (0.5, 2.0, 5.0)  # the review page's budgets
# lichess's marks: the mover's winning chances on -1..1 falling by at least this much
FALLS = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))
# How much a move's fall differs between two reviews, by seconds and by play-outs a position:
# the 90th percentiles of docs/web.md, "Game review" (devtools/review_noise.py).
FALL_NOISE_SECONDS = {0.5: 0.120, 2.0: 0.099, 5.0: 0.053}
FALL_NOISE_PLAYOUTS = {2000: 0.082, 10000: 0.071}
# The check's budget a position: the course's limit a move (RULES.md), so at least any
# player's own move time; a review at a larger budget checks at twice its own. A review by
# play-outs checks at CHECK_PLAYOUTS_FACTOR times its play-outs (so a seeded one repeats).
CHECK_SECONDS = 3.0
CHECK_PLAYOUTS_FACTOR = 10
# A mark the check keeps is looked at once more at CONFIRM_FACTOR times the check's budget and
# shown only where that look marks it too, by the milder of the two marks: on the bot's losses
# a 3 s look and a 10 s look disagree on about one mark in four, and a look at 6 s proves lost
# the positions where a 3 s look called a move "walked into a proven loss" that the 10 s look
# finds lost already (docs/web.md, "Game review").
CONFIRM_FACTOR = 2
# Fewer play-outs than this through the move played in a look's search of the position
# before it (an eighth of a 3 s search here): the look reads its value from a search of the
# position after it, at the same budget. A move the search thinks little of gets few
# play-outs, and their mean reads low: on the bot's losses, 0.12 for a move that a search of
# its own valued 0.22 (docs/web.md, "Game review").
CHECK_VISITS = 1000
# A review by seconds ends its looks by this many seconds from its start, scaled by its budget
# against the default one (a 0.5 s review of one game, the command's start-up included, stays
# under a minute here); a look starts only where twice its budget is left (a look is at most
# two searches), largest fall first, and a mark whose looks the time cut short is not shown
# (the review says how many). A review by play-outs looks at every mark, so a seeded one
# repeats.
REVIEW_SECONDS = 56.0
GAVE_AWAY = "gave away a proven win"
WALKED_INTO = "walked into a proven loss"
# how hard each mark marks, the larger the harder: a proof mark as hard as a blunder
SEVERITY = {**{name: len(FALLS) - i for i, (_, name) in enumerate(FALLS)},
            WALKED_INTO: len(FALLS), GAVE_AWAY: len(FALLS)}


def noise(budget: Limit) -> float:
    """How much a move's fall differs between two reviews at ``budget``, from the nearest
    budget measured at or below it (the search ends at whichever of seconds and play-outs
    comes first: the noisier counts); 1.0 below every one measured."""
    found = [max((k, v) for k, v in [(0, 1.0), *measured.items()] if k <= amount)[1]
             for measured, amount in ((FALL_NOISE_SECONDS, budget.seconds),
                                      (FALL_NOISE_PLAYOUTS, budget.playouts)) if amount]
    return max(found, default=1.0)


def falls(budget: Limit) -> Tuple[Tuple[float, str], ...]:
    """The fall marks ``budget``'s values are steady enough to show."""
    return tuple((size, name) for size, name in FALLS if size > noise(budget))


@dataclass
class MoveValue:
    """One move of a position as the engine saw it: the mover's win chance after it (None:
    not searched), its proof for the mover (None: not proven) and the play-outs through it."""

    move: List[int]
    value: Optional[float] = None
    proof: Optional[Outcome] = None
    visits: int = 0

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
    fall of the mover's winning chances on -1..1, what its rule saw, in words, and the move
    the mark recommends (None: none named)."""

    index: int
    move: List[int]
    mover: Seat
    mark: str
    fall: float
    why: str = ""
    best: Optional[List[int]] = None

    def __post_init__(self) -> None:
        self.mover = Seat.parse(self.mover)  # the file's word


@dataclass
class Review:
    """One game's review, as its file keeps it (``positions[i]`` is before move i; the last
    one is after the game's last move)."""

    key: GameKey
    budget: Limit  # the engine's seconds and play-outs a position
    positions: List[Position]
    marks: List[Mark]  # the marks the check confirmed, as it judged them
    decisive: Optional[int]  # the loss analysis's decisive move (index), where there is one
    elapsed: float
    v: int = REVIEW_VERSION
    noise: float = 1.0  # the budget's: falls this size or less are not marked
    hidden: List[str] = field(default_factory=list)  # the fall marks not shown at the budget
    settled: Optional[int] = None  # the loss analysis's lost_after: no mark from there on
    analysis_seconds: Optional[float] = None  # the loss analysis's budget a position
    check: Limit = Limit()  # the check's budget a position
    confirm: Limit = Limit()  # the confirming look's budget a position
    candidates: List[Mark] = field(default_factory=list)  # the first pass's marks
    # each candidate's looks, the check's then the confirming one's ([]: not looked at)
    checks: List[List[Position]] = field(default_factory=list)
    unchecked: int = 0  # candidates whose looks the review's seconds cut short: not shown
    check_elapsed: float = 0.0  # seconds the looks took

    def to_dict(self) -> Dict[str, Any]:
        return {"v": self.v, **asdict(self), "key": self.key.to_dict(),  # "v" first
                "budget": self.budget.engine_budget(), "check": self.check.engine_budget(),
                "confirm": self.confirm.engine_budget()}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Review:
        return cls(**{**data, "key": GameKey.from_dict(data["key"]),
                      "budget": Limit(**data["budget"]), "check": Limit(**data["check"]),
                      "confirm": Limit(**data["confirm"]),
                      "positions": [Position(**p) for p in data["positions"]],
                      "marks": [Mark(**m) for m in data["marks"]],
                      "candidates": [Mark(**m) for m in data["candidates"]],
                      "checks": [[Position(**p) for p in c] for c in data["checks"]]})


# ---- the rule ---------------------------------------------------------------------------
def mark_moves(moves: Sequence[List[int]], positions: Sequence[Position],
               falls: Sequence[Tuple[float, str]] = FALLS,
               settled: Optional[int] = None) -> List[Mark]:
    """The marked moves of a game whose positions (one more than the moves) are evaluated, by
    the rules of docs/web.md, "Game review": ``falls`` the fall marks shown; from ``settled``
    moves on (the loss analysis's ``lost_after``) none is marked."""
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


# ---- the check --------------------------------------------------------------------------
_RANK = {Outcome.LOSS: 0, Outcome.DRAW: 1, Outcome.WIN: 2}


def proven_worse(move: MoveValue, than: MoveValue) -> bool:
    """``move`` is proven to lose where ``than`` is not proven to, or proven to give less
    than ``than`` is proven to give (a move to recommend over ``than``: never one of these)."""
    if move.proof is None:
        return False
    if than.proof is None:
        return move.proof is Outcome.LOSS
    return _RANK[move.proof] < _RANK[than.proof]


def _worth(move: MoveValue) -> Optional[float]:
    """A move's value for its mover, 0..1: its proof's, else the search's (None: neither)."""
    return move.proof.score if move.proof else move.value


def with_proofs(looked: Position, *others: Position, played: Optional[Sequence[int]] = None,
                after: Optional[Position] = None) -> Position:
    """``looked`` with every proof that ``others`` (searches of the same position) found, and
    the proof of the position ``after`` the move ``played`` (for the side to move there), as
    the played move's: a proof is exact whichever search found it."""
    proofs = {tuple(m.move): m.proof for o in others for m in o.moves if m.proof}
    if played is not None and after is not None and after.proof is not None:
        proofs.setdefault(tuple(played), after.proof.reversed)
    proof = looked.proof or next((o.proof for o in others if o.proof), None)
    return replace(looked, proof=proof, moves=[
        replace(m, proof=m.proof or proofs.get(tuple(m.move))) for m in looked.moves])


def look(engine: Engine, setups: Sequence[Setup], index: int, move: Sequence[int],
         limit: Limit) -> Position:
    """A deeper look at the move played at ``index``: a search of the position before it at
    ``limit`` (``setups`` the game's positions). Where the move played has fewer than
    CHECK_VISITS play-outs there (the search thought little of it, and its value is a few
    play-outs' mean), its value and proof are read from a search of the position after it
    at the same ``limit``."""
    looked = position_of(_final(engine, setups[index], limit))
    played = next((m for m in looked.moves if m.move == list(move)), None)
    if (played is None or looked.proof is not None or played.proof is not None
            or played.visits >= CHECK_VISITS or index + 1 >= len(setups)):
        return looked
    after = position_of(_final(engine, setups[index + 1], limit))
    valued = replace(played, value=round(after.win_chance.pov(Seat.of_ply(index)), 4),
                     proof=after.proof.reversed if after.proof else None)
    return replace(looked, moves=[valued if m is played else m for m in looked.moves])


def judge(index: int, move: Sequence[int], looked: Position, limit: Limit,
          margin: float = 0.0) -> Optional[Mark]:
    """The mark one search of the position before a move (``looked``, at ``limit``, with the
    proofs known: `with_proofs`) gives the move played, by the rules of docs/web.md, "Game
    review": a proof mark where the proofs say so, else a fall of the played move's value
    below the recommended move's, shown at ``limit``, named by the largest step it clears by
    ``margin``; the recommended move is the search's best unless that is proven worse than
    the move played (then the best valued move that is not), so a mark never recommends a
    move proven worse. No fall mark in a position proven for the mover (a search that proves
    its root stops, and the values of the moves it left are not a judgement). None: no
    mark."""
    mover = Seat.of_ply(index)
    played = next((m for m in looked.moves if m.move == list(move)), None)
    if played is None:
        return None
    others = [m for m in looked.moves if m is not played and not proven_worse(m, played)]
    ranked = sorted(others, key=lambda m: -(_worth(m) or 0.0))
    best = next((m for m in others if m.move == looked.best), ranked[0] if ranked else None)
    shown = falls(limit)
    if played.proof is Outcome.LOSS and looked.proof is not Outcome.LOSS:
        held = [m for m in ranked if m.proof is not Outcome.LOSS]
        if not held:
            return None
        worth = _worth(held[0])  # the mover's chances from that move's to nothing
        fall = 2 * (0.5 if worth is None else worth)
        return Mark(index, list(move), mover, WALKED_INTO, round(fall, 4),
                    f"not proven lost at {limit}: {_listed([m.move for m in held])}",
                    held[0].move)
    if looked.proof is Outcome.WIN and played.proof in (Outcome.LOSS, Outcome.DRAW):
        won = [m.move for m in looked.moves if m.proof is Outcome.WIN] or (
            [looked.best] if looked.best else [])
        fall = 2 * (1.0 - played.proof.score)
        return Mark(index, list(move), mover, GAVE_AWAY, round(fall, 4),
                    f"proven to win: {_listed(won)}", won[0]) if won else None
    if (looked.proof is not None or played.proof is Outcome.WIN or best is None
            or looked.best == list(move)):
        return None  # a proven position, the engine's own move: a fall is not the move's
    worth, best_worth = _worth(played), _worth(best)
    if worth is None or best_worth is None:
        return None
    fall = 2 * (best_worth - worth)
    name = next((name for size, name in shown if fall - margin >= size - 1e-9), "")
    return Mark(index, list(move), mover, name, round(fall, 4),
                f"{fall:.2f} below {_listed([best.move])}, the engine's move at {limit}",
                best.move) if name else None


def check_budget(record: GameRecord, budget: Limit) -> Limit:
    """The check's budget a position: at least CHECK_SECONDS, the game's longest move and twice
    the review's seconds; a review by play-outs alone checks by play-outs."""
    playouts = budget.playouts and CHECK_PLAYOUTS_FACTOR * budget.playouts
    if budget.seconds is None:
        return Limit(None, playouts)
    longest = max(record.times[:len(record.moves)], default=0.0)
    return Limit(round(max(CHECK_SECONDS, longest, 2 * budget.seconds), 2), playouts)


def confirm_budget(check: Limit) -> Limit:
    """The confirming look's budget: CONFIRM_FACTOR times the check's."""
    return Limit(check.seconds and round(CONFIRM_FACTOR * check.seconds, 2),
                 check.playouts and CONFIRM_FACTOR * check.playouts)


def known(mark: Mark, looked: Position, looks: Sequence[Position],
          positions: Sequence[Position]) -> Position:
    """``looked`` (a search of the position before ``mark``'s move) with every proof that
    ``looks`` (other searches of it) and the first pass's ``positions`` found: the position's
    own, and the proof of the one after the move, as the move's."""
    i = mark.index
    return with_proofs(looked, *looks, positions[i], played=mark.move, after=positions[i + 1])


def confirmed(mark: Mark, looks: Sequence[Position], budgets: Sequence[Limit],
              positions: Sequence[Position], margins: bool = True) -> Optional[Mark]:
    """The mark shown for a first-pass ``mark`` whose looks (at ``budgets``, in order) are
    ``looks``: each look judged with every proof any of them and the first pass found
    (``positions``, the game's), a fall clearing its step by its budget's `noise` (none
    without ``margins``); None unless every look of ``budgets`` marks the move, else the
    mildest of their marks (of two alike, the smaller fall's)."""
    if len(looks) < len(budgets):
        return None
    found = [judge(mark.index, mark.move, known(mark, looked, looks, positions), limit,
                   noise(limit) if margins else 0.0) for looked, limit in zip(looks, budgets)]
    if any(m is None for m in found):
        return None
    return min(reversed(found), key=lambda m: (SEVERITY[m.mark], m.fall))  # type: ignore


def _listed(moves: Sequence[Sequence[int]], most: int = 3) -> str:
    """Moves in words: "(5,0), (8,1) and 2 more"."""
    shown = ", ".join(f"({x},{y})" for x, y in moves[:most])
    return shown + (f" and {len(moves) - most} more" if len(moves) > most else "")


def position_of(line: Info) -> Position:
    """A position from the engine's final line: its value (a proof wins; without a value for
    the best move, a rule's move, the best value searched), and each move's value and proof."""
    values = [m.value for m in line.moves if m.value is not None]
    chance = line.chance or WinChance(max(values, default=0.5), line.to_move)
    best = None if line.best is None else line.best.to_list()
    return Position(round(chance.pov(Seat.FIRST), 4), best, line.proof,
                    [MoveValue(m.move.to_list(), m.value, m.proof, m.visits)
                     for m in line.moves])


def searched(record: GameRecord) -> int:
    """How many of a game's positions the engine evaluates."""
    return len(record.moves) + (record.fault is not None)


def loss_analysis(record: GameRecord, stopped: Callable[[], bool],
                  say: Callable[[str], None] = lambda text: None) -> Optional[LossAnalysis]:
    """The game's loss analysis: the record's own, else one run in a child process
    (`analyse_in_child`, at ANALYSIS_SECONDS a position: EngineError once ``stopped()``;
    ``say`` told first); None for a game not lost on the board, or an analysis that failed
    (logged: the review goes on)."""
    if isinstance(record.analysis, LossAnalysis) or record.loser is None:
        return record.analysis if isinstance(record.analysis, LossAnalysis) else None
    say(f"the loss analysis: proving where the game was lost ({ANALYSIS_SECONDS:g} s a "
        "position)")
    with tempfile.TemporaryDirectory(prefix="review-analysis-") as tmp:
        out = Path(tmp) / "analysed.jsonl"
        why = analyse_in_child(record, out, stopped)
        if why is not None:
            LOG.warning("the loss analysis of %s failed: %s", record.key, why)
            return None
        analysed = read_log(out)
    found = analysed[0].analysis if analysed else None
    return found if isinstance(found, LossAnalysis) else None


def _final(engine: Engine, setup: Setup, budget: Limit) -> Info:
    return deque(engine.analyse(setup, budget), maxlen=1)[0]


def review_game(record: GameRecord, engine: Engine, budget: Limit,
                progress: Optional[Callable[[int, int], None]] = None,
                say: Callable[[str], None] = lambda text: None) -> Review:
    """The loss analysis's decisive move, then every position of the game up to where that
    analysis proves the game settled evaluated at ``budget`` (the positions from there on are
    its proofs, not searched again) and the moves marked: the first pass; then each mark,
    largest fall first until REVIEW_SECONDS (scaled by the budget) are spent, looked at by a
    `look` at `check_budget` and, where that look marks it, by one at `confirm_budget`, and
    shown only as `confirmed` (both looks mark it, each fall clearing its step by its own
    budget's `noise`: the milder mark). ``progress(done, total)`` is called after each search
    (the total grows by the looks once they are known), ``say`` told what runs;
    PositionError, before any search, for a move no referee allows."""
    start = time.monotonic()
    setups = game_positions(record.board, record.moves)[:searched(record)]
    a = loss_analysis(record, lambda: not engine.alive, say)
    decisive = a.decisive.index if a is not None and a.decisive else None
    settled = None if a is None else a.lost_after
    first = len(setups) if settled is None else min(settled, len(setups))
    positions: List[Position] = []
    for i, setup in enumerate(setups[:first]):
        positions.append(position_of(_final(engine, setup, budget)))
        if progress:
            progress(i + 1, first)
    loser = None if record.loser is None else record.seat(record.loser)
    for ply in range(first, len(setups) + (record.fault is None)):
        # proven: by the loss analysis from ``settled`` on (the loser lost, the winner won);
        # after the last move of a game that ended on the board, by its result
        to_move = Seat.of_ply(ply)
        outcome = (record.result.outcome(record.side(to_move)) if ply == len(setups)
                   else Outcome.LOSS if to_move is loser else Outcome.WIN)
        positions.append(Position(WinChance.of(outcome, to_move).pov(Seat.FIRST), None,
                                  outcome))
    shown = falls(budget)
    candidates = mark_moves(record.moves, positions, shown, settled)
    budgets = [check_budget(record, budget)]
    budgets.append(confirm_budget(budgets[0]))
    end = None if budget.seconds is None else (
        start + REVIEW_SECONDS * max(1.0, budget.seconds / DEFAULT_SECONDS))
    checked = time.monotonic()
    looks: Dict[int, List[Position]] = {}
    marks: Dict[int, Mark] = {}
    unchecked = 0
    for k, mark in enumerate(sorted(candidates, key=lambda m: -m.fall)):
        found: List[Position] = []
        kept: Optional[Mark] = None
        for limit in budgets:
            if end is not None and time.monotonic() + 2 * (limit.seconds or 0.0) > end:
                unchecked += 1  # the review's seconds are spent: not shown
                break
            say(f"checking mark {k + 1} of {len(candidates)} at {limit}")
            found.append(look(engine, setups, mark.index, mark.move, limit))
            if progress:
                done = sum(map(len, looks.values())) + len(found)
                progress(first + done, first + done + len(candidates) - k - 1)
            kept = confirmed(mark, found, budgets[:len(found)], positions)
            if kept is None:
                break  # this look does not mark the move: dropped
        if found:
            looks[mark.index] = found
        if kept is not None and len(found) == len(budgets):
            marks[mark.index] = kept
    now = time.monotonic()
    return Review(record.key, budget, positions, [marks[i] for i in sorted(marks)], decisive,
                  round(now - start, 3), noise=noise(budget),
                  hidden=[name for size, name in FALLS if (size, name) not in shown],
                  settled=settled, analysis_seconds=None if a is None else a.seconds,
                  check=budgets[0], confirm=budgets[1], candidates=candidates,
                  checks=[looks.get(c.index, []) for c in candidates],
                  unchecked=unchecked,
                  check_elapsed=round(now - checked, 3))


# ---- the files --------------------------------------------------------------------------
def review_path(folder: Path, key: GameKey) -> Path:
    """A game's review file in a results folder (characters a file name should not hold
    become '-'; the key inside tells two games apart)."""
    name = "_".join(str(v) for v in key.to_dict().values())
    return folder / REVIEWS_DIR / (re.sub(r"[^A-Za-z0-9._=+-]", "-", name) + ".json")


def load_review(folder: Path, key: GameKey, budget: Limit) -> Optional[Review]:
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


def review_all(records: List[GameRecord], folder: Path, budget: Limit, jobs: int = 1,
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

    totals = threading.Lock()

    def one(record: GameRecord) -> Review:
        counted = searched(record)  # in the bar's total so far: the first pass's searches

        def progress(done: int, total: int) -> None:
            nonlocal counted
            with totals:  # the checks, once known, join the bar's total
                bar.total += total - counted
                counted = total
                bar.update()

        engine = pool.acquire()  # no timeout: waits for a place, never None
        try:
            review = review_game(record, engine, budget, progress)
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
    counts = Counter((record.name(record.side(mark.mover)), mark.mark)
                     for record, review in zip(records, reviews) for mark in review.marks)
    players = sorted({name for name, _ in counts})
    width = max([len(n) for n in players] + [6])
    return [f"{'player':<{width}}  " + "  ".join(names)] + [
        f"{name:<{width}}  " + "  ".join(f"{counts[name, m]:>{len(m)}}" for m in names)
        for name in players]
