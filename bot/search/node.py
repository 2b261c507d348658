"""The MCTS tree node: statistics, the solver's proven outcome, and the final-move order."""

from __future__ import annotations

from typing import List, Optional, Tuple

from bot.rules import DRAW, LOSS, WIN, Geometry, winning_cells


class Node:
    """One position in the search tree.

    Attributes:
        move:     the single-bit cell played to reach this node (0 at the root).
        current:  stones of the side to move here; ``mask`` all occupied cells + forbidden.
        untried:  bitset of moves not yet expanded: the non-losing moves only (a move that
                  lets the opponent win at once is a proven loss and never enters the tree).
        children: expanded child nodes.
        visits:   play-outs through this node.
        value:    summed score of those play-outs for the side that MOVED INTO this node
                  (so a parent maximises its children's mean value).
        outcome:  None, or the proven result (WIN, DRAW, LOSS) for the side to move here.
    """

    __slots__ = ("move", "current", "mask", "untried", "children", "visits", "value", "outcome")

    def __init__(self, geo: Geometry, move: int, current: int, mask: int) -> None:
        self.move = move
        self.current = current
        self.mask = mask
        self.children: List[Node] = []
        self.visits = 0
        self.value = 0.0
        self.untried = 0
        self.outcome: Optional[int] = None
        possible = (mask + geo.bottom) & ~mask & geo.board_mask
        if winning_cells(current, mask, geo.stride, geo.board_mask) & possible:
            self.outcome = WIN
        elif not possible:
            self.outcome = DRAW
        else:
            threats = winning_cells(mask ^ current ^ geo.forbidden, mask, geo.stride,
                                    geo.board_mask)
            self.untried = geo.non_losing(possible, threats)
            if not self.untried:
                self.outcome = LOSS

    def expand(self, geo: Geometry, move: int) -> Node:
        """Add and return the child reached by ``move`` (taken out of ``untried``)."""
        self.untried &= ~move
        child = Node(geo, move, self.mask ^ self.current ^ geo.forbidden, self.mask | move)
        self.children.append(child)
        return child

    def solve(self) -> bool:
        """MCTS-solver step: prove this node from its children if possible; True if proven.

        Any child lost for its mover's opponent (LOSS for its side to move) makes this a WIN;
        when every move is expanded and proven, the best of them decides (DRAW or LOSS).
        """
        if self.outcome is not None:
            return True
        outcomes = [c.outcome for c in self.children]
        if LOSS in outcomes:
            self.outcome = WIN
        elif not self.untried and None not in outcomes:
            self.outcome = DRAW if DRAW in outcomes else LOSS
        return self.outcome is not None


# sort_key's first criterion by a child's proven outcome (for the side to move there)
RANK = {LOSS: 2, None: 1, DRAW: 1, WIN: 0}


def sort_key(child: Node) -> Tuple[int, int]:
    """Order of preference for the move finally played (largest first).

    1. a proven win (the child is LOSS for the opponent) - forced wins are always played;
    2. unproven and proven-drawn moves, by visits (the robust choice of UCT);
    3. proven losses last, the most visited first (the hardest loss to find for the opponent).
    """
    return RANK[child.outcome], child.visits
