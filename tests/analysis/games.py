"""Hand-made games whose decisive mistake is known, on one 9x9 board (forbidden cell (0, 4)).

QUIET is 66 moves in which no one ever had a winning cell. After them X (the first player)
is to move, with 14 empty cells (rows from the top, ``#`` the forbidden cell):

    row 0  X O . . # X O . O
    row 1  O X . . . O O . X
    row 2  X O . . . X X O O
    row 3  O O . . X O X X X
    row 4  X X . . O X O O X
    row 5  X O O X O X O X O
    row 6  O X X O X O X O X
    row 7  X O O O X O X O X
    row 8  X X O X O X O X O
           0 1 2 3 4 5 6 7 8

Only (2, 4) holds (a draw); (4, 2), (4, 3) and (1, 7) lose. Each game below is QUIET, then a
mistake, then the winner's line to its four (the line the analysis's proof finds, checked by
replaying it):
- ZUGZWANG: X plays (1, 7); seven plies later X has nothing to block, yet every move of its
  opens a cell O wins on.
- DOUBLE_THREAT: X plays (4, 2); thirteen plies later O has two threats.
- MISSED_BLOCK: X holds with (2, 4), both play on, and with O threatening (1, 7) X plays
  (2, 2); O makes four at once.
"""

from typing import List

from records.game import GameRecord

QUIET = [[8, 5], [8, 4], [8, 1], [8, 6], [8, 7], [7, 7], [7, 6], [7, 1], [8, 0], [8, 2],
         [6, 6], [7, 5], [7, 4], [5, 6], [8, 3], [4, 6], [7, 0], [6, 0], [3, 6], [7, 2],
         [6, 1], [6, 7], [6, 2], [5, 1], [4, 1], [8, 8], [5, 0], [6, 5], [5, 5], [7, 3],
         [2, 6], [3, 1], [4, 5], [2, 1], [4, 0], [3, 5], [2, 5], [5, 2], [5, 7], [1, 6],
         [7, 8], [1, 5], [6, 8], [0, 6], [0, 5], [5, 8], [1, 1], [0, 1], [4, 8], [3, 0],
         [2, 0], [6, 3], [6, 4], [1, 0], [3, 8], [2, 8], [5, 3], [5, 4], [0, 0], [4, 7],
         [3, 7], [4, 4], [3, 4], [2, 7], [1, 8], [0, 8]]
HOLD = [2, 4]

ZUGZWANG = QUIET + [[1, 7], [4, 3], [3, 3], [2, 4], [1, 4], [0, 7], [4, 2], [3, 2]]
DOUBLE_THREAT = QUIET + [[4, 2], [4, 3], [3, 2], [2, 2], [2, 4], [1, 4], [1, 7], [1, 2],
                         [0, 2], [0, 7], [3, 3], [2, 3], [1, 3], [0, 3]]
MISSED_BLOCK = QUIET + [[2, 4], [4, 2], [3, 2], [1, 4], [2, 2], [1, 7]]

# An opening lost at once: X stacks column 0, O never blocks. Only the block at (5, 0) holds at
# O's third move, and no short budget settles a 9x9 opening: the mistake stays unsettled.
OPENING = [[8, 0], [8, 8], [7, 0], [7, 8], [6, 0], [6, 8], [5, 0]]


def record(moves: List[List[int]], winner: str = "b", leg: int = 0) -> GameRecord:
    """A game on this board won on the board by ``winner`` ("a" or "b")."""
    return GameRecord(batch="hand", seed=0, round=0, leg=leg, a="alice", b="bob", M=9, N=9,
                      no_x=0, no_y=4, time_limit=3.0, code=2 if winner == "b" else 1,
                      reason="four in a row", moves=moves, times=[0.01] * len(moves))
