"""A suite's positions and their JSON forms, parsed and printed here only (docs/suites.md, "An
item" and "A valued item"): an exact item's answer, moves to avoid, plies and level follow from
its proofs; a valued item's answer and values follow from its engine runs, and it is a test only
where one column stands clear of the others (``clear_best``). A line whose written fields
disagree, or whose position no game reaches, is refused in one line."""

import json
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from arena.suite.position import legal_moves, reach, stones_id
from records.analysis import Kind, Proof
from records.board import Board
from records.game import GameKey
from records.log import ResultsError
from records.move import Move
from records.result import Outcome, Seat

SHORT_PLIES = 5  # a win this close (a four now, a double threat, one more) is level R1
REACH_PLIES = 17  # the forced-win search's reach (analysis/proof.py): R2 up to here, R3 beyond
KEYS = {"id", "board", "moves", "to_move", "goal", "answer", "avoid", "proofs", "plies",
        "level", "theme", "source"}
VALUED_KEYS = {"id", "board", "moves", "to_move", "goal", "answer", "values", "budget", "level",
               "source"}
BEST = "best"  # a valued item's goal: the column of the highest value
FLOOR = 0.02  # the least lead of a valued item's best column on its worst: every move as good

# why a position's values make it no valued test (``clear_best``)
EVEN = f"every column within {FLOOR:g} of the best"
RUNS_DIFFER = "the runs differ on the best column"
CLOSE = "the best column's lead within the runs' difference"


class SuiteError(ResultsError):
    """A suite file or line that cannot be used; one line naming the file and line."""


class Goal(str, Enum):
    """What the side to move must find."""

    WIN = "win"  # the one column that wins
    HOLD = "hold"  # no column wins: the one that does not lose

    def met_by(self, result: Outcome) -> bool:
        """Whether a move proven to ``result`` meets the goal."""
        return result is Outcome.WIN or (self is Goal.HOLD and result is Outcome.DRAW)


@dataclass(frozen=True)
class Source:
    """Where the position was met: the log as the build named it, the game, moves played."""

    log: str
    game: GameKey
    ply: int

    def to_dict(self) -> Dict[str, Any]:
        return {"log": self.log, "game": self.game.to_dict(), "ply": self.ply}

    @classmethod
    def from_dict(cls, data: Any) -> "Source":
        if not isinstance(data, Mapping) or set(data) != {"log", "game", "ply"}:
            raise ValueError(f"a source is {{log, game, ply}}, got {data!r:.80}")
        return cls(str(data["log"]), GameKey.from_dict(data["game"]), int(data["ply"]))


def third_of(board: Board, played: int) -> int:
    """Which third of the board's playable cells ``played`` stones reach: 1, 2 or 3."""
    return min(3 * played // (board.M * board.N - 1), 2) + 1


def level_of(board: Board, played: int, plies: Optional[int]) -> str:
    """Pons' benchmark sets for these boards: L1, L2, L3 for the third of the board's cells
    played, R1 for a win within SHORT_PLIES plies, R2 within REACH_PLIES, R3 beyond or only
    the solver's (``L3R1``: late in a game, near its end)."""
    third = third_of(board, played)
    depth = 3 if plies is None or plies > REACH_PLIES else 1 if plies <= SHORT_PLIES else 2
    return f"L{third}R{depth}"


@dataclass(frozen=True)
class Item:
    """One test position: reached by ``moves`` on ``board``; ``proofs`` has every legal column,
    left to right; ``theme`` is how the win goes (records.analysis.Kind), where known."""

    id: str
    board: Board
    moves: Tuple[Move, ...]
    goal: Goal
    proofs: Tuple[Proof, ...]
    theme: Optional[Kind] = None
    source: Optional[Source] = None

    @property
    def to_move(self) -> Seat:
        return Seat.of_ply(len(self.moves))

    @property
    def answer(self) -> Move:
        """The one column that meets the goal."""
        return next(p.move for p in self.proofs if self.goal.met_by(p.result))

    @property
    def avoid(self) -> List[Move]:
        """Every other column."""
        return [p.move for p in self.proofs if not self.goal.met_by(p.result)]

    @property
    def plies(self) -> Optional[int]:
        """How far the player must see: the answer's win, or for a hold the slowest of the
        losses it avoids (None where one is deeper than the forced-win search)."""
        if self.goal is Goal.WIN:
            return next(p.plies for p in self.proofs if p.result is Outcome.WIN)
        losses = [p.plies for p in self.proofs if p.result is Outcome.LOSS]
        return None if None in losses else max(p for p in losses if p is not None)

    @property
    def level(self) -> str:
        return level_of(self.board, len(self.moves), self.plies)

    def proof(self, move: Move) -> Optional[Proof]:
        """The proof of ``move``; None when it is no legal move here."""
        return next((p for p in self.proofs if p.move == move), None)

    def legal(self, move: Move) -> bool:
        """Whether ``move`` is a legal move here (every legal move has its proof)."""
        return self.proof(move) is not None

    def solves(self, move: Move) -> bool:
        """Whether ``move`` is proven to meet the goal (the answer, or any column proven as
        good: none other wins, but the proofs are the judge)."""
        proof = self.proof(move)
        return proof is not None and self.goal.met_by(proof.result)

    def to_json(self) -> str:
        """The item's line in a suite file."""
        return json.dumps({
            "id": self.id, "board": self.board.to_list(),
            "moves": [m.to_list() for m in self.moves], "to_move": self.to_move.value,
            "goal": self.goal.value, "answer": self.answer.to_list(),
            "avoid": [m.to_list() for m in self.avoid],
            "proofs": [p.to_dict() for p in self.proofs], "plies": self.plies,
            "level": self.level, "theme": self.theme.value if self.theme else None,
            "source": self.source.to_dict() if self.source else None},
            separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> "Item":
        """An item from its JSON object, checked against the referee's rules: a position a game
        reaches and is not over, proofs for exactly its legal columns, exactly one meeting the
        goal, and the derived fields as the proofs make them. ValueError (one line) otherwise."""
        if not isinstance(data, Mapping):
            raise ValueError("not a JSON object")
        unknown, missing = sorted(set(data) - KEYS), sorted(KEYS - set(data))
        if unknown or missing:
            raise ValueError(f"unknown field {unknown[0]!r}" if unknown
                             else f"no {', '.join(missing)}")
        board = Board.from_list(data["board"])
        if not isinstance(data["moves"], list) or not isinstance(data["proofs"], list):
            raise ValueError("moves and proofs: expected lists")
        moves = tuple(Move.from_list(m) for m in data["moves"])
        item = cls(str(data["id"]), board, moves, Goal(data["goal"]),
                   tuple(Proof.from_dict(p) for p in data["proofs"]),
                   Kind(data["theme"]) if data["theme"] is not None else None,
                   Source.from_dict(data["source"]) if data["source"] is not None else None)
        grid = reach(board, moves)
        legal = legal_moves(grid)
        answer = Move.from_list(data["answer"])
        if answer not in legal:
            raise ValueError(f"the answer ({answer.x}, {answer.y}) is not a legal move here "
                             f"(legal: {' '.join(m.to_text() for m in legal)})")
        if [p.move for p in item.proofs] != legal:
            raise ValueError("proofs: expected one for each legal move, left to right")
        meeting = [p for p in item.proofs if item.goal.met_by(p.result)]
        if len(meeting) != 1 or (item.goal is Goal.HOLD and meeting[0].result is Outcome.WIN):
            raise ValueError(f"the proofs give {len(meeting)} columns that {item.goal.value}, "
                             "not exactly one")
        for field, written, derived in (
                ("answer", answer, item.answer),
                ("avoid", [Move.from_list(m) for m in data["avoid"]], item.avoid),
                ("to_move", data["to_move"], item.to_move.value),
                ("plies", data["plies"], item.plies), ("level", data["level"], item.level),
                ("id", item.id, stones_id(board, grid))):
            if written != derived:
                raise ValueError(f"{field}: the line says {written!r:.60}, its proofs and moves "
                                 f"make it {derived!r:.60}")
        return item


@dataclass(frozen=True)
class Value:
    """One column of a valued item: the mover's win chance after it in each engine run (0..1,
    a run that proves the column its proof's score), and the proof where a run settles it."""

    move: Move
    runs: Tuple[float, ...]
    proof: Optional[Outcome] = None

    @property
    def value(self) -> float:
        """The column's value: its proof's score (1, 0.5, 0), else the runs' mean to four
        places."""
        if self.proof is not None:
            return self.proof.score
        return round(sum(self.runs) / len(self.runs), 4)

    @property
    def spread(self) -> float:
        """How far the runs differ on the column (0 for a proven one: the proof settles it)."""
        return 0.0 if self.proof is not None else round(max(self.runs) - min(self.runs), 4)

    def run(self, index: int) -> float:
        """Run ``index``'s value of the column, a proof's score where there is one."""
        return self.proof.score if self.proof is not None else self.runs[index]

    def to_dict(self) -> Dict[str, Any]:
        return {"move": self.move.to_list(), "value": self.value, "runs": list(self.runs),
                "proof": self.proof.value if self.proof else None}

    @classmethod
    def from_dict(cls, data: Any) -> "Value":
        """A column's value from its JSON object; ValueError (one line) for a number outside
        0..1 or a value its runs and proof do not make."""
        if not isinstance(data, Mapping) or set(data) != {"move", "value", "runs", "proof"}:
            raise ValueError(f"a value is {{move, value, runs, proof}}, got {data!r:.80}")
        move = Move.from_list(data["move"])
        numbers = [data["value"], *data["runs"]] if isinstance(data["runs"], list) else []
        if not numbers[1:] or not all(_chance(n) for n in numbers):
            raise ValueError(f"the value of ({move.x}, {move.y}) and its runs: expected win "
                             f"chances within 0..1, got {data['value']!r:.20} and "
                             f"{data['runs']!r:.60}")
        value = cls(move, tuple(float(r) for r in data["runs"]),
                    None if data["proof"] is None else Outcome(data["proof"]))
        if data["value"] != value.value:
            raise ValueError(f"the value of ({move.x}, {move.y}): the line says "
                             f"{data['value']!r}, its runs and proof make it {value.value!r}")
        return value


def _chance(number: Any) -> bool:
    return isinstance(number, (int, float)) and not isinstance(number, bool) and 0 <= number <= 1


def clear_best(values: Sequence[Value]) -> Tuple[Optional[Move], str]:
    """The column a valued position tests, and "" (else None and why it is no test): the best
    column by value, where it leads the worst by more than FLOOR (else every move is about as
    good), every run makes it the one best (else the budget does not tell), and its lead on
    each column is more than either column's runs differ (else the lead is the runs' noise)."""
    ranked = sorted(values, key=lambda v: -v.value)
    best = ranked[0]
    if len(ranked) < 2 or best.value - ranked[-1].value <= FLOOR:
        return None, EVEN
    for run in range(len(best.runs)):
        if any(v.run(run) >= best.run(run) for v in ranked[1:]):
            return None, RUNS_DIFFER
    if any(best.value - v.value <= max(best.spread, v.spread) for v in ranked[1:]):
        return None, CLOSE
    return best.move, ""


@dataclass(frozen=True)
class Valuation:
    """How a valued item's columns were valued: the engine's play-outs a run, and each run's
    seed (one run a seed, so a build at a play-out budget repeats)."""

    playouts: int
    seeds: Tuple[int, ...]

    def to_dict(self) -> Dict[str, Any]:
        return {"playouts": self.playouts, "seeds": list(self.seeds)}

    @classmethod
    def from_dict(cls, data: Any) -> "Valuation":
        if (not isinstance(data, Mapping) or set(data) != {"playouts", "seeds"}
                or not isinstance(data["playouts"], int) or data["playouts"] < 1
                or not isinstance(data["seeds"], list) or len(data["seeds"]) < 2
                or not all(isinstance(s, int) for s in data["seeds"])):
            raise ValueError(f"a budget is {{playouts: at least 1, seeds: two or more whole "
                             f"numbers}}, got {data!r:.80}")
        return cls(data["playouts"], tuple(data["seeds"]))


@dataclass(frozen=True)
class ValuedItem:
    """A middle-game position whose every legal column has a value (``values``, left to right):
    the mover's win chance after it, as STS scores chess, so a second-best move earns part of
    the credit; ``answer`` is the one column that stands clear of the rest (``clear_best``)."""

    id: str
    board: Board
    moves: Tuple[Move, ...]
    values: Tuple[Value, ...]
    budget: Valuation
    source: Optional[Source] = None

    @property
    def to_move(self) -> Seat:
        return Seat.of_ply(len(self.moves))

    @property
    def answer(self) -> Move:
        """The column of the highest value."""
        return max(self.values, key=lambda v: v.value).move

    @property
    def level(self) -> str:
        """The third of the board's cells played: L1, L2 or L3 (as an exact item's level)."""
        return f"L{third_of(self.board, len(self.moves))}"

    @property
    def shape(self) -> str:
        return f"{self.board.M}x{self.board.N}"

    def value(self, move: Move) -> Optional[float]:
        """The value of ``move``; None when it is no legal move here."""
        return next((v.value for v in self.values if v.move == move), None)

    def legal(self, move: Move) -> bool:
        return self.value(move) is not None

    def solves(self, move: Move) -> bool:
        """Whether ``move`` is the best column."""
        return move == self.answer

    def given_away(self, move: Optional[Move]) -> float:
        """The win chance ``move`` gives away: the best column's value less its value; no
        move, or one that is not legal, gives away the most (the best less the worst)."""
        best = max(v.value for v in self.values)
        value = None if move is None else self.value(move)
        return round(best - (min(v.value for v in self.values) if value is None else value), 4)

    def to_json(self) -> str:
        """The item's line in a suite file."""
        return json.dumps({
            "id": self.id, "board": self.board.to_list(),
            "moves": [m.to_list() for m in self.moves], "to_move": self.to_move.value,
            "goal": BEST, "answer": self.answer.to_list(),
            "values": [v.to_dict() for v in self.values], "budget": self.budget.to_dict(),
            "level": self.level, "source": self.source.to_dict() if self.source else None},
            separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ValuedItem":
        """A valued item from its JSON object, checked against the referee's rules: a position a
        game reaches and is not over, a value for exactly its legal columns with as many runs
        as seeds, one column clear of the rest, and the derived fields as the values make
        them. ValueError (one line) otherwise."""
        unknown, missing = sorted(set(data) - VALUED_KEYS), sorted(VALUED_KEYS - set(data))
        if unknown or missing:
            raise ValueError(f"unknown field {unknown[0]!r}" if unknown
                             else f"no {', '.join(missing)}")
        board = Board.from_list(data["board"])
        if not isinstance(data["moves"], list) or not isinstance(data["values"], list):
            raise ValueError("moves and values: expected lists")
        moves = tuple(Move.from_list(m) for m in data["moves"])
        item = cls(str(data["id"]), board, moves,
                   tuple(Value.from_dict(v) for v in data["values"]),
                   Valuation.from_dict(data["budget"]),
                   Source.from_dict(data["source"]) if data["source"] is not None else None)
        grid = reach(board, moves)
        legal = legal_moves(grid)
        if [v.move for v in item.values] != legal:
            raise ValueError("values: expected one for each legal move, left to right")
        if any(len(v.runs) != len(item.budget.seeds) for v in item.values):
            raise ValueError(f"values: expected {len(item.budget.seeds)} runs each, one a seed")
        best, why = clear_best(item.values)
        if best is None:
            raise ValueError(f"no column stands clear of the rest: {why}")
        for field, written, derived in (
                ("answer", Move.from_list(data["answer"]), best),
                ("to_move", data["to_move"], item.to_move.value),
                ("level", data["level"], item.level), ("id", item.id, stones_id(board, grid))):
            if written != derived:
                raise ValueError(f"{field}: the line says {written!r:.60}, its values and moves "
                                 f"make it {derived!r:.60}")
        return item


SuiteItem = Union[Item, ValuedItem]  # a suite's line: an exact item, or a valued one


def parse_line(line: str, where: str) -> SuiteItem:
    """One suite line's item, exact or valued (by its goal); SuiteError naming ``where``
    (``file:line``) and the problem."""
    try:
        data = json.loads(line)
        if isinstance(data, Mapping) and data.get("goal") == BEST:
            return ValuedItem.from_dict(data)
        return Item.from_dict(data)
    except (ValueError, TypeError, KeyError) as exc:  # a PositionError, a BoardError too
        raise SuiteError(f"{where}: not a suite item ({str(exc)[:200]})") from None


def read_items(path: Path) -> List[SuiteItem]:
    """The items of a suite file, or of every ``*.jsonl`` in a folder (by name), both kinds;
    SuiteError for a file that is not there, holds none, or has a line that is not an item."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    if not files or not all(f.is_file() for f in files):
        raise SuiteError(f"{path}: no such suite file" if not path.is_dir()
                         else f"{path}: no *.jsonl suite in the folder")
    items = [parse_line(line, f"{file}:{number}") for file in files
             for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)
             if line.strip()]
    if not items:
        raise SuiteError(f"{path}: no suite items")
    twice = [i for i, n in Counter(item.id for item in items).items() if n > 1]
    if twice:
        raise SuiteError(f"{path}: the position {twice[0]} comes twice")
    return items


def read_suite(path: Path) -> List[Item]:
    """The exact items of ``read_items`` (the positions with a proven answer, which the puzzle
    page plays); SuiteError where there are none."""
    items = read_items(path)
    exact = [item for item in items if isinstance(item, Item)]
    if not exact:
        raise SuiteError(f"{path}: no exact items ({len(items)} valued positions, which have "
                         "no proven answer)")
    return exact
