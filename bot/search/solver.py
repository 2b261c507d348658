"""Exact endgame solver: win/draw/loss alpha-beta with a transposition table (after Pons).

The loss analysis (analysis.proof) settles positions with it: late in a game a single quiet
move decides, and only an exact search says which. The bot's search does not use it (its
proofs come from the tree and bot.search.tactics). Values are only WIN/DRAW/LOSS (no
distance), so every window is narrow and cut-offs come early.

- Only non-losing moves are searched (a move that hands over an immediate win is a loss).
- Moves are ordered by the number of winning cells they give the mover (Pons' move sorter),
  then by closeness to the centre.
- The table maps (current, mask) to the bounds known for that position; it is kept between
  calls on the same board, so the next move's search starts from this one's work.
- The search stops itself when its node budget or time budget is spent (``OutOfBudget``).
- Each node gets both sides' winning cells from its parent, which has them already: fewer
  winning_cells() calls a node, with the same nodes and values.
"""

from __future__ import annotations

import time
from typing import Dict, List, Optional, Tuple

from bot.rules import DRAW, LOSS, WIN, Geometry, Position, bits, winning_cells

TABLE_LIMIT = 400_000  # entries (~120 MB at most); cleared when it grows past this
CLOCK_EVERY = 1024  # nodes between two looks at the clock


class OutOfBudget(Exception):
    """The node or time budget ran out before the search finished."""


class Solver:
    """Solves positions of one board exactly within a budget; reusable between moves."""

    def __init__(self) -> None:
        self.geo: Optional[Geometry] = None
        self.table: Dict[Tuple[int, int], Tuple[int, int]] = {}
        self.nodes = 0
        self.max_nodes: Optional[int] = None
        self.end: Optional[float] = None
        self.order: Dict[int, int] = {}

    def _start(self, geo: Geometry, max_nodes: Optional[int], end: Optional[float]) -> None:
        if geo is not self.geo or len(self.table) > TABLE_LIMIT:
            self.table = {}
            self.geo = geo
            centre = (geo.N - 1) / 2
            self.order = {y: int(abs(y - centre) * 2) for y in range(geo.N)}
        self.nodes = 0
        self.max_nodes, self.end = max_nodes, end

    def solve_moves(self, position: Position, max_nodes: Optional[int] = None,
                    seconds: Optional[float] = None, moves: Optional[int] = None) -> Dict[int, int]:
        """The proven outcome (for the side to move) of each move it could prove in budget.

        Stops at the first proven win. ``moves`` (a set of cells) defaults to the non-losing
        moves; moves that lose at once are never listed. Budget: ``max_nodes`` and/or
        ``seconds``.
        """
        end = None if seconds is None else time.perf_counter() + seconds
        self._start(position.geo, max_nodes, end)
        opponent = position.opponent()
        proven: Dict[int, int] = {}
        safe = position.non_losing_moves()
        theirs = position.opponent_winning_cells()
        ordered = self._ordered(position.current, position.mask,
                                safe if moves is None else safe & moves)
        try:
            win = self._first_win(position, ordered)
            if win:
                proven[win] = WIN
                return proven
            # Second pass: each move's exact value, now known to be a draw or a loss: one
            # more null window on the child (does the opponent win?) settles it.
            for m, cells in ordered:
                proven[m] = -self._negamax(opponent, position.mask | m, DRAW, WIN,
                                           theirs & ~m, cells)
        except OutOfBudget:
            pass
        return proven

    def wins(self, position: Position, end: Optional[float],
             max_nodes: Optional[int] = None) -> Optional[bool]:
        """Whether the side to move forces a win (False: a draw at best), or None when the
        ``end`` (a perf_counter() instant) or ``max_nodes`` came first. A null-window search:
        it does not tell a draw from a loss, which makes it the cheapest exact question."""
        if position.can_win_now():
            return True
        self._start(position.geo, max_nodes, end)
        moves = self._ordered(position.current, position.mask, position.non_losing_moves())
        try:
            return bool(self._first_win(position, moves))
        except OutOfBudget:
            return None

    def _first_win(self, position: Position, ordered: List[Tuple[int, int]]) -> int:
        """The first of the ``ordered`` moves proven to win (0: none wins), each searched with
        a null window on the child: lost for the opponent or not."""
        opponent = position.opponent()
        theirs = position.opponent_winning_cells()
        for m, cells in ordered:
            if self._negamax(opponent, position.mask | m, LOSS, DRAW, theirs & ~m, cells) == LOSS:
                return m
        return 0

    def _ordered(self, current: int, mask: int, moves: int) -> List[Tuple[int, int]]:
        """``moves`` best first: most winning cells created, then the most central column;
        each with the mover's winning cells after it (its child's opponent's cells)."""
        g = self.geo
        assert g is not None  # set by _start, before any search
        stride, board_mask, order = g.stride, g.board_mask, self.order
        keyed = []
        for m in bits(moves):
            cells = winning_cells(current | m, mask | m, stride, board_mask)
            keyed.append((-bin(cells).count("1"), order[(m.bit_length() - 1) // stride], m,
                          cells))
        keyed.sort()
        return [(m, cells) for _, _, m, cells in keyed]

    def _negamax(self, current: int, mask: int, alpha: int, beta: int, mine: int,
                 threats: int) -> int:
        """Value for the side to move (``current``) with fail-hard bounds in [alpha, beta].

        ``mine`` and ``threats``: the winning cells of the side to move and of its opponent,
        handed down by the parent, which has them already (a move leaves the other side's
        cells as they were, less the cell filled; the move sorter computes the mover's)."""
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0:
            if self.max_nodes is not None and self.nodes >= self.max_nodes:
                raise OutOfBudget
            if self.end is not None and time.perf_counter() >= self.end:
                raise OutOfBudget
        g = self.geo
        assert g is not None  # set by _start, before any search
        possible = (mask + g.bottom) & ~mask & g.board_mask
        if not possible:
            return DRAW
        if mine & possible:
            return WIN
        moves = g.non_losing(possible, threats)
        if not moves:
            return LOSS
        opponent = mask ^ current ^ g.forbidden
        key = (current, mask)
        bounds = self.table.get(key)
        if bounds is not None:
            low, high = bounds
            if low >= beta:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
            if alpha >= beta:
                return alpha
        else:
            low, high = LOSS, WIN
        a0 = alpha
        best = LOSS
        for m, cells in self._ordered(current, mask, moves):
            value = -self._negamax(opponent, mask | m, -beta, -alpha, threats & ~m, cells)
            if value > best:
                best = value
                if value >= beta:
                    break
                if value > alpha:
                    alpha = value
        if best <= a0:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high)
        return best
