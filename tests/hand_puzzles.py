"""Two hand-checked puzzles on one 9x9 board (forbidden cell (0, 4)), for the puzzle step's
tests (tests/arena/suite) and the puzzle page's (tests/arena/web), as suite items made by hand
(arena/suite/item.py's JSON form). One module for every test folder (tests/ is on each one's
path).

WIN: 70 moves, X (the first player) to move with 10 empty cells:

    row 0  O . X O # . . O O
    row 1  O . O X . . O X X
    row 2  X . X O . . X X O
    row 3  X O O O X . O O X
    row 4  O X X X O X O O O
    row 5  X O X O X X O X O
    row 6  O O X O O O X X X
    row 7  X X O X X X O O X
    row 8  X X O X O O X X O
           0 1 2 3 4 5 6 7 8

Only (2, 4) wins: it makes two fours to come in column 5, the diagonal (0, 2)..(3, 5) and
the row (2, 4)..(2, 7); O must block at (3, 5), which lets X in at (2, 5). (3, 5) loses at
once (O's diagonal (2, 5)..(5, 8)); (2, 1) and (0, 6) lose to a 7-ply line ending in that
same four of O's.

HOLD: the QUIET game of tests/analysis/games.py, X to move: only (2, 4) holds (a draw);
(1, 7) loses to a zugzwang seven plies later, (4, 2) and (4, 3) lose too.
"""

from pathlib import Path
from typing import List, Sequence

from arena.suite.item import Goal, Item
from arena.suite.position import reach, stones_id
from devtools.hand_games import LOST
from records.analysis import Kind, Proof
from records.board import Board
from records.move import Move
from records.result import Outcome

BOARD = Board(9, 9, 0, 4)
WIN = LOST[:70]  # X to move, before its mistake (2, 1)
HOLD = [
    [8, 5], [8, 4], [8, 1], [8, 6], [8, 7], [7, 7], [7, 6], [7, 1], [8, 0], [8, 2], [6, 6],
    [7, 5], [7, 4], [5, 6], [8, 3], [4, 6], [7, 0], [6, 0], [3, 6], [7, 2], [6, 1], [6, 7],
    [6, 2], [5, 1], [4, 1], [8, 8], [5, 0], [6, 5], [5, 5], [7, 3], [2, 6], [3, 1], [4, 5],
    [2, 1], [4, 0], [3, 5], [2, 5], [5, 2], [5, 7], [1, 6], [7, 8], [1, 5], [6, 8], [0, 6],
    [0, 5], [5, 8], [1, 1], [0, 1], [4, 8], [3, 0], [2, 0], [6, 3], [6, 4], [1, 0], [3, 8],
    [2, 8], [5, 3], [5, 4], [0, 0], [4, 7], [3, 7], [4, 4], [3, 4], [2, 7], [1, 8], [0, 8]]
# every legal column's proof, left to right: (move, result, plies to the game's end)
WIN_PROOFS = [((2, 1), Outcome.LOSS, 8), ((2, 4), Outcome.WIN, 3), ((3, 5), Outcome.LOSS, 2),
              ((0, 6), Outcome.LOSS, 8)]
HOLD_PROOFS = [((4, 2), Outcome.LOSS, 14), ((4, 3), Outcome.LOSS, 12),
               ((2, 4), Outcome.DRAW, None), ((1, 7), Outcome.LOSS, 8)]


def item(moves: Sequence[Sequence[int]], goal: Goal, proofs: Sequence[tuple]) -> Item:
    """A suite item made by hand: its id from its stones, as a build names it."""
    played = tuple(Move.from_list(list(m)) for m in moves)
    return Item(stones_id(BOARD, reach(BOARD, played)), BOARD, played, goal,
                tuple(Proof(Move(*m), result, plies) for m, result, plies in proofs),
                Kind.DOUBLE_THREAT)


def items() -> List[Item]:
    """The two puzzles: the win first, then the hold."""
    return [item(WIN, Goal.WIN, WIN_PROOFS), item(HOLD, Goal.HOLD, HOLD_PROOFS)]


def write_suite(path: Path) -> Path:
    """A suite file of the two puzzles, one item's line each."""
    path.write_text("".join(i.to_json() + "\n" for i in items()), encoding="utf-8")
    return path
