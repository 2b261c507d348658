"""A puzzle played one step at a time, each step judged by exact proof (docs/web.md, "Puzzles"):
right, wrong (with its refutation) or unsettled within the node budget; after a right move that
makes no four, the defence that holds out longest. The referee's rules check the position first
(arena/suite/position.py); the searches are analysis.proof's, imported when a step runs."""

from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from arena.engine.position import replay
from arena.suite.item import Goal
from arena.suite.position import legal_moves, reach
from records.board import Board, BoardError
from records.move import Move
from records.result import Outcome

NODES = 200_000  # a step's budget, the solver's and the forced-win search's nodes: ~2 s here


class Verdict(str, Enum):
    """What the exact search says of the player's column."""

    RIGHT = "right"  # proven to meet the goal
    WRONG = "wrong"  # proven not to
    UNSETTLED = "unsettled"  # the budget settled neither: not judged


@dataclass(frozen=True)
class Step:
    """One judged move (docs/web.md, "Puzzles"): the verdict, the move's exact value, the
    engine's defence after a right move, the refutation after a wrong one (``complete``: to
    the opponent's four) with the other columns' values, the four on the board."""

    verdict: Verdict
    move: Move
    result: Optional[Outcome]
    solved: bool = False
    defence: Optional[Move] = None
    refutation: Tuple[Move, ...] = ()
    complete: bool = False
    four: Tuple[Move, ...] = ()
    values: Dict[Move, Optional[Outcome]] = field(default_factory=dict)
    right: Tuple[Move, ...] = ()  # of ``values``, the columns proven to meet the goal
    nodes: int = 0  # spent

    @property
    def over(self) -> bool:
        """Whether the attempt ends here: solved, or failed by a wrong move."""
        return self.solved or self.verdict is Verdict.WRONG

    def to_dict(self) -> Dict[str, Any]:
        return {
            "verdict": self.verdict.value, "move": self.move.to_list(),
            "result": None if self.result is None else self.result.value,
            "solved": self.solved, "over": self.over,
            "defence": None if self.defence is None else self.defence.to_list(),
            "refutation": [m.to_list() for m in self.refutation], "complete": self.complete,
            "four": [m.to_list() for m in self.four],
            "values": [{"move": m.to_list(), "result": None if v is None else v.value}
                       for m, v in self.values.items()],
            "right": [m.to_list() for m in self.right], "nodes": self.nodes}


@dataclass(frozen=True)
class Request:
    """A step asked for: the board, the moves from the empty board (the puzzle's and those
    played in it so far), the goal and the player's column."""

    board: Board
    moves: Tuple[Move, ...]
    goal: Goal
    column: int


def parse_request(body: Any) -> Request:
    """A step's request from its JSON object ({board, moves, goal, column}), checked by the
    referee's rules: a position a game reaches and that is not over, a column on the board
    that is not full. ValueError, in one line, otherwise."""
    if not isinstance(body, Mapping):
        raise ValueError("expected a JSON object {board, moves, goal, column}")
    missing = sorted({"board", "moves", "goal", "column"} - set(body))
    if missing:
        raise ValueError(f"no {', '.join(missing)}")
    try:
        board = Board.from_list(body["board"])
    except (BoardError, ValueError, TypeError) as exc:
        raise ValueError(f"board: {exc}") from None
    if not isinstance(body["moves"], list):
        raise ValueError("moves: expected a list of [x, y]")
    try:
        moves = tuple(Move.from_list(m) for m in body["moves"])
    except ValueError as exc:
        raise ValueError(f"moves: {exc}") from None
    try:
        goal = Goal(body["goal"])
    except ValueError:
        raise ValueError(f"goal: win or hold, got {body['goal']!r:.40}") from None
    column = body["column"]
    if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < board.N:
        raise ValueError(f"column: a whole number within 0..{board.N - 1}, got {column!r:.40}")
    if column not in [m.y for m in legal_moves(reach(board, moves))]:  # or a PositionError
        raise ValueError(f"column {column} is full")
    return Request(board, moves, goal, column)


def play_step(request: Request, nodes: int = NODES) -> Step:
    """Judge the player's column by its exact value within ``nodes``, then the engine's part:
    the defence after a right move that wins no four yet, the refutation and the other
    columns' values after a wrong one."""
    from analysis.proof import Questions

    legal = legal_moves(reach(request.board, request.moves))
    move = next(m for m in legal if m.y == request.column)
    ask, ply = Questions(request.board, request.moves, nodes=nodes), len(request.moves)
    result = ask.value(ply, move)
    if result is None:
        return Step(Verdict.UNSETTLED, move, None, nodes=ask.spent)
    if not request.goal.met_by(result):
        line, complete = ask.line(ply, move) if result is Outcome.LOSS else ((), False)
        values = {m: result if m == move else ask.value(ply, m) for m in [move, *legal]}
        right = tuple(m for m, v in values.items() if v is not None and request.goal.met_by(v))
        return Step(Verdict.WRONG, move, result, refutation=line, complete=complete,
                    four=_four(request.board, request.moves, move, line), values=values,
                    right=right, nodes=ask.spent)
    four = _four(request.board, request.moves, move, ())
    if four or request.goal is Goal.HOLD:
        return Step(Verdict.RIGHT, move, result, solved=True, four=four, nodes=ask.spent)
    return Step(Verdict.RIGHT, move, result, defence=ask.defence(ply, move), nodes=ask.spent)


def _four(board: Board, moves: Sequence[Move], move: Move,
          line: Sequence[Move]) -> Tuple[Move, ...]:
    """The four that the last of ``move`` and ``line`` makes after ``moves``, by the referee's
    rules (its cells), or none."""
    played = [m.to_list() for m in (*moves, move, *line)]
    grid, _ = deque(replay(board, played), maxlen=1)[0]
    return tuple(Move(x, y) for x, y in grid.four_through(*played[-1]))


def attempt_moves(moves: Sequence[Move], start: int, step: Step) -> List[List[int]]:
    """The moves of one attempt, from the puzzle's position: those played before this step,
    its move, and the engine's defence where there is one."""
    played = [m.to_list() for m in moves[start:]] + [step.move.to_list()]
    return played + ([step.defence.to_list()] if step.defence else [])
