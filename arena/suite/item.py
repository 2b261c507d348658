"""A suite's position and its one JSON form, parsed and printed here only (docs/suites.md, "An
item"): the answer, the moves to avoid, the plies and the level follow from the proofs, and a
line whose written ones disagree, or whose position no game reaches, is refused in one line."""

import json
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

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


def level_of(board: Board, played: int, plies: Optional[int]) -> str:
    """Pons' benchmark sets for these boards: L1, L2, L3 for the third of the board's cells
    played, R1 for a win within SHORT_PLIES plies, R2 within REACH_PLIES, R3 beyond or only
    the solver's (``L3R1``: late in a game, near its end)."""
    third = min(3 * played // (board.M * board.N - 1), 2) + 1
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


def parse_line(line: str, where: str) -> Item:
    """One suite line's item; SuiteError naming ``where`` (``file:line``) and the problem."""
    try:
        return Item.from_dict(json.loads(line))
    except (ValueError, TypeError, KeyError) as exc:  # a PositionError, a BoardError too
        raise SuiteError(f"{where}: not a suite item ({str(exc)[:200]})") from None


def read_suite(path: Path) -> List[Item]:
    """The items of a suite file, or of every ``*.jsonl`` in a folder (by name); SuiteError
    for a file that is not there, holds none, or has a line that is not an item."""
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

