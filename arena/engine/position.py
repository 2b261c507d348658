"""The positions the engine is asked about, checked first by the referee's rules
(arena/core/rules.py, never the bot's): only a position a game reaches and that is not over
gets to the engine; anything else is refused here with one line."""

from collections import deque
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional, Sequence, Tuple

from arena.core.rules import Grid
from records.board import Board
from records.move import Move
from records.result import Seat

FIRST, SECOND = Seat.FIRST.stone, Seat.SECOND.stone  # the grid's cells, 0 empty
SYMBOLS = {0: ".", **{s.stone: s.symbol for s in Seat}}  # the engine's rows (docs/protocol.md, 4)


class PositionError(ValueError):
    """A position no game reaches, or one where the game is over: the message is one line."""


class GameOver(PositionError):
    """A position where the game is over (a four, a full board): nothing left to analyse."""


@dataclass(frozen=True)
class Setup:
    """An analysable position: its board, its cells (``Grid.cells``: row-major, 0 empty, 1 the
    first player's, 2 the second's) and the moves that reach it where they are known."""

    board: Board
    cells: Tuple[int, ...]
    moves: Optional[Tuple[Tuple[int, int], ...]] = None

    @property
    def seat(self) -> Seat:
        """The seat to move."""
        return Seat.of_ply(len(self.cells) - self.cells.count(0))

    @property
    def to_move(self) -> int:
        """The stone to move: 1 when the first player is to move, 2 for the second."""
        return self.seat.stone

    def rows(self) -> List[str]:
        """The engine's ``board`` form: M strings of N of ``X``, ``O`` and ``.``, top row first."""
        N = self.board.N
        return ["".join(SYMBOLS[c] for c in self.cells[x * N:(x + 1) * N])
                for x in range(self.board.M)]


def replay(board: Board, moves: Sequence[Any]) -> Iterator[Tuple[Grid, List[Tuple[int, int]]]]:
    """The grid and the moves played so far before the first move and after each one (the
    same objects, updated in place); PositionError for a move not legal where it is played."""
    if not isinstance(moves, (list, tuple)):
        raise PositionError("moves: expected a list of [x, y]")
    grid = Grid(board.M, board.N, board.no_x, board.no_y)
    played: List[Tuple[int, int]] = []
    yield grid, played
    for i, move in enumerate(moves):
        try:
            x, y = Move.from_list(move).to_list()
        except ValueError as exc:
            raise PositionError(f"moves[{i}]: {exc}"[:200]) from None
        if played and grid.four_through(*played[-1]):
            raise PositionError(f"move {i + 1} ({x}, {y}) comes after the game ended with a four")
        if not grid.is_legal(x, y):
            raise PositionError(f"move {i + 1} ({x}, {y}) is not legal there (off the board, "
                                f"floating, the forbidden cell or a full column)")
        grid.play(x, y, Seat.of_ply(i).stone)
        played.append((x, y))
        yield grid, played


def _game_over(grid: Grid, played: List[Tuple[int, int]]) -> Optional[GameOver]:
    """Why the game is over after ``played`` (a four, a full board); None while it goes on."""
    if played and grid.four_through(*played[-1]):
        return GameOver(f"the game is over: move {len(played)} makes a four (analyse the "
                        f"position before it)")
    if grid.is_full():
        return GameOver("the game is over: the board is full")
    return None


def from_moves(board: Board, moves: Sequence[Any]) -> Setup:
    """The position after ``moves`` ([x, y] each, course coordinates) from the empty board;
    PositionError for a move not legal where it is played, GameOver when the game is over."""
    grid, played = deque(replay(board, moves), maxlen=1)[0]  # after the last move
    over = _game_over(grid, played)
    if over is not None:
        raise over
    return Setup(board, tuple(grid.cells), tuple(played))


def game_positions(board: Board, moves: Sequence[Any]) -> List[Setup]:
    """Every analysable position of a game, replayed once: the one before each move, and the
    one after the last unless the game is over; PositionError for a move no referee allows."""
    return [Setup(board, tuple(grid.cells), tuple(played)) for grid, played in replay(board, moves)
            if len(played) < len(moves) or _game_over(grid, played) is None]


def from_rows(board: Board, rows: Any) -> Setup:
    """The position set up by hand in the engine's ``board`` form (`rows_cells`); PositionError
    naming the first thing no game reaches."""
    M, N = board.M, board.N
    cells = rows_cells(board, rows)
    if cells[board.no_x * N + board.no_y]:
        raise PositionError(f"a piece on the forbidden cell ({board.no_x}, {board.no_y})")
    for y in range(N):
        column = [x for x in reversed(range(M)) if (x, y) != (board.no_x, board.no_y)]  # bottom up
        gap = next((i for i, x in enumerate(column) if not cells[x * N + y]), len(column))
        floating = next((x for x in column[gap:] if cells[x * N + y]), None)
        if floating is not None:
            raise PositionError(f"a floating piece at ({floating}, {y}): the cell "
                                f"({column[gap]}, {y}) below it is empty")
    first, second = cells.count(FIRST), cells.count(SECOND)
    if first - second not in (0, 1):
        raise PositionError(f"{first} first-player and {second} second-player pieces: no turn "
                            f"order gives that (as many, or one more of the first player's)")
    grid = Grid(M, N, board.no_x, board.no_y)
    grid.cells = cells
    four = next(((x, y) for x in range(M) for y in range(N) if grid.four_through(x, y)), None)
    if four is not None:
        raise GameOver(f"a four is already on the board, through {four}: the game is over")
    if first + second == M * N - 1:
        raise GameOver("the board is full: the game is over")
    return Setup(board, tuple(cells))


def rows_cells(board: Board, rows: Any) -> List[int]:
    """The cells of the engine's ``board`` form (M strings of N of X, O and .), as drawn:
    PositionError when it is not that form, whether or not a game reaches it."""
    if (not isinstance(rows, list) or len(rows) != board.M
            or any(not isinstance(r, str) or len(r) != board.N or set(r) - set("XO.")
                   for r in rows)):
        raise PositionError(f"cells: expected {board.M} strings of {board.N} of X, O and .")
    code = {symbol: stone for stone, symbol in SYMBOLS.items()}
    return [code[c] for row in rows for c in row]
