"""The game's rules as a bitboard, relative to the side to move (after Pascal Pons' Position).

A board of M rows and N columns is one Python int. Each board column owns M + 1 bits: M
playable cells counted from the BOTTOM, then one always-empty sentinel bit that keeps
columns apart (vertical and diagonal shifts run into it instead of the next column).
Bit ``y * (M + 1) + h`` is the cell of column ``y`` at height ``h`` (0 = bottom row), which
is the course's cell ``(x, y)`` with ``x = M - 1 - h`` (x counted from the TOP).

9 x 9 (stride 10)                                12 x 12 (stride 13)
  .  .  .  .  .  .  .  .  .   <- sentinels        .   .   .   .   .   .  ...  .   <- sentinels
  8 18 28 38 48 58 68 78 88   x = 0 (top)        11  24  37  50  63  76  ... 154  x = 0 (top)
  7 17 27 37 47 57 67 77 87                      10  23  36  49  62  75  ... 153
  6 16 26 36 46 56 66 76 86                       9  22  35  48  61  74  ... 152
  5 15 25 35 45 55 65 75 85                       .   .   .   .   .   .       .
  4 14 24 34 44 54 64 74 84                       .   .   .   .   .   .       .
  3 13 23 33 43 53 63 73 83                       2  15  28  41  54  67  ... 145
  2 12 22 32 42 52 62 72 82                       1  14  27  40  53  66  ... 144
  1 11 21 31 41 51 61 71 81                       0  13  26  39  52  65  ... 143  x = 11
  0 10 20 30 40 50 60 70 80   x = 8 (bottom)      y=0 y=1 ...                y=11

Three bitboards describe a position, as in Pons' solver:
- ``mask``: every occupied cell, PLUS the forbidden cell, which is "occupied" from the start
  and owned by no one; so ``(mask + bottom) & ~mask`` (the next free cell of every column)
  skips it by carry, and no four can run through it.
- ``current``: the stones of the side to move.
- the opponent's stones are ``mask ^ current ^ forbidden``.

Example, 9x9 with the forbidden cell at course (8, 1) (bottom row, column 1), after the first
player dropped a stone in column 0 (bit 0): mask = bits {0, 10}, current (second player) = {},
opponent = {0}; the next free cell of column 1 is bit 11 = course (7, 1).

Winning cells are computed for the whole board at once (``winning_cells``): every empty cell
that would complete four for a side. Everything tactical is built from that set.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, List, Optional, Sequence, Tuple

MIN_SIZE = 9
MAX_SIZE = 12

# Results from the point of view of a given side.
LOSS, DRAW, WIN = -1, 0, 1


class InvalidPosition(ValueError):
    """The input does not describe a position that can arise in a game (one line for humans)."""


class Geometry:
    """Everything fixed by (M, N, noX, noY): shifts and constant masks, shared by positions."""

    __slots__ = ("M", "N", "no_x", "no_y", "stride", "bottom", "board_mask", "forbidden",
                 "above_forbidden", "column_masks")

    def __init__(self, M: int, N: int, no_x: int, no_y: int) -> None:
        self.M, self.N, self.no_x, self.no_y = M, N, no_x, no_y
        self.stride = M + 1
        column = (1 << M) - 1
        self.column_masks = tuple(column << (y * self.stride) for y in range(N))
        self.bottom = sum(1 << (y * self.stride) for y in range(N))
        self.board_mask = self.bottom * column
        self.forbidden = 1 << ((M - 1 - no_x) + no_y * self.stride)
        # A threat right above the forbidden cell makes the cell right below it dangerous.
        self.above_forbidden = self.forbidden << 1

    def bit(self, x: int, y: int) -> int:
        """The bit of course cell (x, y) (x = row from the top, y = column)."""
        return 1 << ((self.M - 1 - x) + y * self.stride)

    def xy(self, bit: int) -> Tuple[int, int]:
        """Course coordinates (x, y) of a single-bit cell."""
        index = bit.bit_length() - 1
        y, h = divmod(index, self.stride)
        return self.M - 1 - h, y

    def column(self, bit: int) -> int:
        """The column of a single-bit cell."""
        return (bit.bit_length() - 1) // self.stride

    def winning_cells(self, stones: int, mask: int) -> int:
        """Empty cells (not the forbidden one) that would complete four or more for ``stones``."""
        return winning_cells(stones, mask, self.stride, self.board_mask)

    def danger(self, threats: int) -> int:
        """Cells that must not be played because the cell they open is in ``threats``.

        Playing a cell opens the one above it, or the one two above when the forbidden cell
        sits in between.
        """
        return (threats >> 1) | ((threats & self.above_forbidden) >> 2)

    def non_losing(self, possible: int, threats: int) -> int:
        """The cells of ``possible`` (the next free cell of each column) that do not let the
        opponent, who wins on ``threats``, win on its next move (Pons'
        ``possibleNonLosingMoves``): the block of a single threat, never a cell under one.
        0 when every move loses at once (two threats, or only cells under one). The tree's
        nodes, the forced-win search and the solver all filter their moves with it; the
        play-out writes it out inline for speed (bot.search.rollout)."""
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return 0
            possible = forced
        return possible & ~self.danger(threats)


@lru_cache(maxsize=64)
def geometry(M: int, N: int, no_x: int, no_y: int) -> Geometry:
    """The shared Geometry of a board; validates the sizes and the forbidden cell."""
    if not (MIN_SIZE <= M <= MAX_SIZE and MIN_SIZE <= N <= MAX_SIZE):
        raise InvalidPosition(f"board size {M}x{N} outside {MIN_SIZE}..{MAX_SIZE}")
    if not (0 <= no_x < M and 0 <= no_y < N):
        raise InvalidPosition(f"forbidden cell ({no_x}, {no_y}) outside the {M}x{N} board")
    return Geometry(M, N, no_x, no_y)


def winning_cells(stones: int, mask: int, stride: int, board_mask: int) -> int:
    """Pons' ``compute_winning_position``: empty cells completing a four for ``stones``.

    ``stride`` is M + 1 (horizontal shift); diagonals shift by ``stride - 1`` and
    ``stride + 1``; vertical by 1. The sentinel bits break lines across columns.
    Along a shift d, ``t = s & (s >> d)`` marks the first cell of each pair of stones, so a
    cell c completes four when ``t`` holds c + d and a stone is at c - d or c + 3d, or ``t``
    holds c - 2d and a stone is at c + d or c - 3d (fewer operations than Pons' form).
    """
    s = stones
    t = s & (s << 1)
    r = (t << 1) & (t << 2)  # vertical: three stones right below
    for d in (stride, stride - 1, stride + 1):
        sd = s >> d
        t = s & sd
        r |= ((t >> d) & ((s >> 3 * d) | (s << d))) | ((t << 2 * d) & (sd | (s << 3 * d)))
    return r & board_mask & ~mask


def has_four(stones: int, stride: int) -> bool:
    """Whether ``stones`` contains four in a row in any direction."""
    for d in (1, stride, stride - 1, stride + 1):
        m = stones & (stones >> d)
        if m & (m >> 2 * d):
            return True
    return False


def bits(s: int) -> Iterator[int]:
    """The single-bit members of a set, lowest first."""
    while s:
        b = s & -s
        yield b
        s ^= b


class Position:
    """A position relative to the side to move: ``current`` is its stones, ``mask`` all
    occupied cells plus the forbidden one. Immutable: ``play`` returns a new Position."""

    __slots__ = ("geo", "current", "mask", "ply")

    def __init__(self, geo: Geometry, current: int, mask: int, ply: int) -> None:
        self.geo = geo
        self.current = current
        self.mask = mask
        self.ply = ply  # stones on the board

    # --- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, M: int, N: int, no_x: int, no_y: int) -> Position:
        """The empty board of the course's (M, N, noX, noY)."""
        geo = geometry(M, N, no_x, no_y)
        return cls(geo, 0, geo.forbidden, 0)

    @classmethod
    def from_view(cls, M: int, N: int, top: Sequence[int], board: Sequence[int],
                  no_x: int, no_y: int) -> Position:
        """The position getPoint sees: ``board[x * N + y]`` is 2 for the side to move, 1 for
        the opponent, 0 empty. Raises InvalidPosition when it cannot arise in a game."""
        geo = geometry(M, N, no_x, no_y)
        if len(top) != N:
            raise InvalidPosition(f"top has {len(top)} entries, expected N = {N}")
        if len(board) != M * N:
            raise InvalidPosition(f"board has {len(board)} entries, expected M*N = {M * N}")
        current = opponent = 0
        for x in range(M):
            for y in range(N):
                v = board[x * N + y]
                if v == 0:
                    continue
                if v not in (1, 2):
                    raise InvalidPosition(f"board value {v} at ({x}, {y}) is not 0, 1 or 2")
                if (x, y) == (no_x, no_y):
                    raise InvalidPosition(f"a piece sits on the forbidden cell ({x}, {y})")
                if v == 2:
                    current |= geo.bit(x, y)
                else:
                    opponent |= geo.bit(x, y)
        mask = current | opponent | geo.forbidden
        for y in range(N):
            col = (mask & geo.column_masks[y]) >> (y * geo.stride)
            height = (col ^ (col + 1)).bit_length() - 1  # filled cells from the bottom
            if col & ~((1 << height) - 1) & ~(geo.forbidden >> (y * geo.stride)):
                raise InvalidPosition(f"column {y} has a piece floating above an empty cell")
            if top[y] != M - height:
                raise InvalidPosition(f"top[{y}] = {top[y]} but the board says {M - height}")
        own, opp = bin(current).count("1"), bin(opponent).count("1")
        if opp - own not in (0, 1):
            raise InvalidPosition(f"{own} own and {opp} opponent pieces: not the bot's turn")
        if has_four(current, geo.stride) or has_four(opponent, geo.stride):
            raise InvalidPosition("the game is already over: a four is on the board")
        if mask == geo.board_mask:
            raise InvalidPosition("the board is full")
        return cls(geo, current, mask, own + opp)

    # --- moves --------------------------------------------------------------------------
    def possible(self) -> int:
        """The set of cells the side to move may play (one per non-full column)."""
        g = self.geo
        return (self.mask + g.bottom) & ~self.mask & g.board_mask

    def legal_columns(self) -> List[int]:
        """Columns that are not full, left to right."""
        return [self.geo.column(b) for b in bits(self.possible())]

    def move_bit(self, column: int) -> int:
        """The cell a stone dropped in ``column`` lands on; 0 when the column is full."""
        return self.possible() & self.geo.column_masks[column]

    def play(self, column: int) -> Position:
        """The position after the side to move drops a stone in ``column``."""
        b = self.move_bit(column)
        if not b:
            raise InvalidPosition(f"column {column} is full")
        return self.play_bit(b)

    def play_bit(self, b: int) -> Position:
        """The position after playing the single-bit cell ``b`` (must be in ``possible()``)."""
        opponent = self.mask ^ self.current ^ self.geo.forbidden
        return Position(self.geo, opponent, self.mask | b, self.ply + 1)

    def play_xy(self, x: int, y: int) -> Position:
        """Play course cell (x, y); raises InvalidPosition unless it is a legal move."""
        g = self.geo
        if not (0 <= x < g.M and 0 <= y < g.N):
            raise InvalidPosition(f"move ({x}, {y}) is outside the {g.M}x{g.N} board")
        b = self.move_bit(y)
        if not b:
            raise InvalidPosition(f"move ({x}, {y}) goes into full column {y}")
        if b != g.bit(x, y):
            raise InvalidPosition(f"move ({x}, {y}) is not legal: column {y} takes row "
                                  f"{g.xy(b)[0]}")
        return self.play_bit(b)

    # --- tactics ------------------------------------------------------------------------
    def opponent(self) -> int:
        """The stones of the side that just moved."""
        return self.mask ^ self.current ^ self.geo.forbidden

    def winning_cells(self) -> int:
        """Empty cells where the side to move would complete four (reachable or not)."""
        return self.geo.winning_cells(self.current, self.mask)

    def opponent_winning_cells(self) -> int:
        """Empty cells where the opponent would complete four (reachable or not)."""
        return self.geo.winning_cells(self.opponent(), self.mask)

    def winning_moves(self) -> int:
        """Playable cells that win at once for the side to move."""
        return self.winning_cells() & self.possible()

    def can_win_now(self) -> bool:
        """Whether the side to move has a move that makes four."""
        return bool(self.winning_moves())

    def non_losing_moves(self) -> int:
        """Moves that do not let the opponent win on its next move (Geometry.non_losing).
        Empty when every move loses at once. Assumes no win now exists."""
        return self.geo.non_losing(self.possible(), self.opponent_winning_cells())

    # --- game state ---------------------------------------------------------------------
    def last_mover_won(self) -> bool:
        """Whether the side that just moved has four in a row."""
        return has_four(self.opponent(), self.geo.stride)

    def is_full(self) -> bool:
        """Whether no legal move is left (a tie unless the last move made four)."""
        return not self.possible()

    def xy(self, b: int) -> Tuple[int, int]:
        """Course coordinates of a single-bit cell."""
        return self.geo.xy(b)

    def key(self) -> Tuple[int, int]:
        """Identifies the position (with its geometry): the side to move's stones and mask."""
        return self.current, self.mask

    # --- the course's view --------------------------------------------------------------
    def top(self) -> List[int]:
        """The course's ``top`` array (next piece lands at row ``top[y] - 1``)."""
        g = self.geo
        nxt = self.possible()
        out = []
        for y in range(g.N):
            b = nxt & g.column_masks[y]
            out.append(g.xy(b)[0] + 1 if b else 0)
        return out

    def board(self) -> List[int]:
        """The course's flat board from the side to move's view: 2 own, 1 opponent, 0 empty."""
        g = self.geo
        opp = self.opponent()
        out = [0] * (g.M * g.N)
        for x in range(g.M):
            for y in range(g.N):
                b = g.bit(x, y)
                out[x * g.N + y] = 2 if self.current & b else 1 if opp & b else 0
        return out

    def __repr__(self) -> str:
        g = self.geo
        opp = self.opponent()
        rows = []
        for x in range(g.M):
            row = ""
            for y in range(g.N):
                b = g.bit(x, y)
                row += ("#" if b == g.forbidden else "X" if self.current & b
                        else "O" if opp & b else ".")
            rows.append(row)
        return "Position(X to move)\n" + "\n".join(rows)


def parse_board(rows: Sequence[str], no_cell: Optional[Tuple[int, int]] = None) -> Position:
    """A position from readable rows, top row first: ``X`` side to move, ``O`` opponent,
    ``.`` empty, ``#`` the forbidden cell (else ``no_cell``). For tests and analysis."""
    M, N = len(rows), len(rows[0])
    if no_cell is None:
        no_cell = next((x, row.index("#")) for x, row in enumerate(rows) if "#" in row)
    flat = [{"X": 2, "O": 1}.get(ch, 0) for row in rows for ch in row]
    top = [M] * N
    for y in range(N):
        for x in range(M):
            if flat[x * N + y] or ((x, y) == no_cell and x == M - 1):
                top[y] = x
                break
            if (x, y) == no_cell and x + 1 < M and flat[(x + 1) * N + y]:
                top[y] = x
                break
    return Position.from_view(M, N, top, flat, no_cell[0], no_cell[1])
