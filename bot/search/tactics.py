"""A shallow exact search for forced wins: does the side to move win within ``depth`` plies?

Two uses: inside MCTS (a node reaching a visit threshold is probed, and a win found marks the
winning child proven, which the MCTS-solver then propagates: "MCTS-MS" of Baier and Winands,
2015, who found it useful in Connect-Four), and the loss analysis (analysis.proof: the shortest
forced win after a decisive mistake, and the line that shows it). Each question comes with
its own Budget (nodes, and the deadline or interrupt that ends it), so that one search and its
table serve the small probes, the guard's large questions and the analysis alike.

The search is an AND-OR search over non-losing moves only (bot.rules.Geometry.non_losing: a
move that lets the opponent win at once is never searched), with a table of proven wins and of
the depths already searched without one. Entering a position sees a win now, a double threat
and having no safe move, so "within 1 ply" is a move the opponent cannot answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from bot.rules import Geometry, winning_cells

TABLE_LIMIT = 200_000  # entries (a few tens of MB); cleared when it grows past this
# Nodes with at least this many plies left try the threatening moves first (``_threats_first``);
# nearer the leaves the ordering costs more than it saves.
ORDER_DEPTH = 4


def ordered(moves: int, killer: int, columns: Tuple[int, ...]) -> Iterator[int]:
    """The single-bit members of ``moves`` (at most one a column): ``killer`` first when it is
    one of them, then column by column in the order of ``columns`` (column masks)."""
    if killer & moves:
        yield killer
        moves ^= killer
    for column in columns:
        move = moves & column
        if move:
            yield move


@dataclass(frozen=True)
class Budget:
    """What one question may spend: at most ``nodes`` nodes; it also ends at ``until`` (a
    perf_counter() instant: the move's deadline) and as soon as ``interrupt()`` returns True
    (while pondering: the opponent's move has arrived, and its clock runs from then, so a long
    question must not hold it up). The clock and the interrupt are looked at every 256 nodes."""

    nodes: int
    until: Optional[float] = None
    interrupt: Optional[Callable[[], bool]] = None


class OutOfNodes(Exception):
    """The node budget of one question, or the time allowed, ran out."""


class ForcedWin:
    """Forced-win questions on one board, each within the Budget it is asked with; the table
    and the move order carry over from question to question."""

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.nodes = 0  # searched by the current (or last) question
        self.budget = Budget(0)  # the current (or last) question's
        # (current, mask) -> True (a forced win for the side to move), or the largest depth
        # searched without finding one.
        self.table: Dict[Tuple[int, int], Union[bool, int]] = {}
        # Move order (only the speed depends on it, not the answers):
        # the last move that won (attacker) or escaped (defender) at the same remaining depth
        # first, as it often does the same in sibling positions, then the centre outwards;
        # with ORDER_DEPTH plies or more left, the threatening moves before the others.
        # A question deeper than the board's cells is the same as one that deep (settle() clamps).
        self.cells = geo.M * geo.N
        centre = (geo.N - 1) / 2
        self.columns = tuple(geo.column_masks[y]
                             for y in sorted(range(geo.N), key=lambda y: abs(y - centre)))
        self.win_killers = [0] * (self.cells + 1)
        self.escape_killers = [0] * (self.cells + 1)

    def _start_question(self, budget: Budget) -> None:
        """Reset the node count (each question has its own budget) and bound the table."""
        self.nodes = 0
        self.budget = budget
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()

    def settle(self, current: int, mask: int, depth: int, budget: Budget) -> Optional[bool]:
        """Whether the side to move (stones ``current``) forces a win within ``depth``
        plies; None when the ``budget`` runs out first."""
        self._start_question(budget)
        try:
            return self._wins(current, mask, min(depth, self.cells),
                              self.geo.winning_cells(current, mask))
        except OutOfNodes:
            return None

    def winning_move(self, current: int, mask: int, depth: int,
                     budget: Budget) -> Optional[int]:
        """A move that forces a win within ``depth`` plies for the side to move, else None
        (also None when the ``budget`` runs out). Immediate wins are the caller's business."""
        self._start_question(budget)
        mine = self.geo.winning_cells(current, mask)
        status, moves, threats = self._moves(current, mask, mine)
        if status or depth <= 0:
            return None
        depth = min(depth, self.cells)
        opponent = mask ^ current ^ self.geo.forbidden
        try:
            for m, made in self._tries(current, mask, moves, self.win_killers[depth], mine,
                                       depth):
                if self._loses(opponent, mask | m, depth - 1, threats & ~m, made):
                    self.win_killers[depth] = m
                    return m
        except OutOfNodes:
            pass
        return None

    # A question's root computes its side's winning cells; below it each node is handed them
    # (``mine``): a move does not change the other side's stones, so the cells the parent
    # computed for the side now to move, minus the cell just filled, are this side's. One
    # winning_cells() a node instead of two, with the same nodes and answers.

    def _wins(self, current: int, mask: int, depth: int, mine: int,
              theirs: Optional[int] = None) -> bool:
        status, moves, threats = self._moves(current, mask, mine, theirs)
        if status or depth <= 0:
            return status == "win"
        key = (current, mask)
        known = self.table.get(key)
        if known is True or (known is not None and known >= depth):
            return known is True
        opponent = mask ^ current ^ self.geo.forbidden
        for m, made in self._tries(current, mask, moves, self.win_killers[depth], mine, depth):
            if self._loses(opponent, mask | m, depth - 1, threats & ~m, made):
                self.win_killers[depth] = m
                self.table[key] = True
                return True
        self.table[key] = depth
        return False

    def _loses(self, current: int, mask: int, depth: int, mine: int,
               theirs: Optional[int] = None) -> bool:
        """The side to move cannot avoid losing within ``depth`` plies."""
        status, moves, threats = self._moves(current, mask, mine, theirs)
        if status or depth <= 0:
            return status == "loss"
        opponent = mask ^ current ^ self.geo.forbidden
        for m, made in self._tries(current, mask, moves, self.escape_killers[depth], mine, depth):
            if not self._wins(opponent, mask | m, depth - 1, threats & ~m, made):
                self.escape_killers[depth] = m
                return False
        return True

    def _tries(self, current: int, mask: int, moves: int, killer: int, mine: int,
               depth: int) -> Iterable[Tuple[int, Optional[int]]]:
        """The side to move's ``moves`` in the order to try them, each with the winning cells
        it leaves that side when they are computed here (else None): ``_threats_first`` with
        ORDER_DEPTH plies or more left, plain ``ordered`` nearer the leaves."""
        if depth < ORDER_DEPTH:
            return ((m, None) for m in ordered(moves, killer, self.columns))
        return self._threats_first(current, mask, moves, killer, mine)

    def _threats_first(self, current: int, mask: int, moves: int, killer: int,
                       mine: int) -> List[Tuple[int, int]]:
        """``ordered(moves, killer)`` regrouped: first the moves that make a winning cell the
        opponent must fill at once, then those that make a new winning cell higher up, then
        the rest; each with the winning cells it leaves the mover (``mine`` before it).

        Why: the attacker's forcing moves leave the defender one reply, and the defender's
        counter-threats take the attacker's tempo, so the proofs and the refutations, mostly
        chains of such moves, come first. The cells computed here are the ones the child
        computes on entry, which it is handed instead (docs/performance.md has the speed, with
        the command).
        """
        g = self.geo
        forcing, threatening, quiet = [], [], []
        for m in ordered(moves, killer, self.columns):
            after = mask | m
            made = winning_cells(current | m, after, g.stride, g.board_mask)
            if made & (after + g.bottom) & ~after:
                forcing.append((m, made))
            elif made & ~mine:
                threatening.append((m, made))
            else:
                quiet.append((m, made))
        return forcing + threatening + quiet

    def _moves(self, current: int, mask: int, mine: int,
               theirs: Optional[int] = None) -> Tuple[str, int, int]:
        """("win" / "loss" / "draw", 0, 0) when decided on entry, else ("", the safe moves,
        the opponent's winning cells). ``mine``: the side to move's winning cells; ``theirs``
        the opponent's, when the caller has them."""
        self.nodes += 1
        budget = self.budget
        if self.nodes > budget.nodes:
            raise OutOfNodes
        if not self.nodes & 255 and (
                (budget.until is not None and time.perf_counter() > budget.until)
                or (budget.interrupt is not None and budget.interrupt())):
            raise OutOfNodes
        g = self.geo
        possible = (mask + g.bottom) & ~mask & g.board_mask
        if not possible:
            return "draw", 0, 0
        if mine & possible:
            return "win", 0, 0
        threats = theirs if theirs is not None else winning_cells(
            mask ^ current ^ g.forbidden, mask, g.stride, g.board_mask)
        moves = g.non_losing(possible, threats)
        return ("", moves, threats) if moves else ("loss", 0, 0)
