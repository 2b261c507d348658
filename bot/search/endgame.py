"""When and how long the exact solver runs before MCTS, and how its proofs enter the tree.

Late in the game (few empty cells) the solver gets a share of the move's budget at the root.
A proven win ends the search at once (MCTS-solver sees a child lost for the opponent); proven
losses are marked so that UCB never visits them again (unless every move loses: then MCTS
still looks for the loss the opponent is least likely to find); proven draws are marked too.
"""

from __future__ import annotations

import time

from bot.rules import LOSS, Position
from bot.search.clock import Deadline
from bot.search.node import Node
from bot.search.solver import Solver

NODES_PER_PLAYOUT = 8  # solver nodes that cost about one MCTS play-out (bench/endgame.py)


class Endgame:
    """Root pre-search by the exact solver.

    ``max_empties``: run only when at most this many playable cells are empty.
    ``share``: fraction of the move's budget given to the solver (time, or play-outs turned
    into nodes at NODES_PER_PLAYOUT when the limit is a play-out count).
    """

    def __init__(self, max_empties: int = 60, share: float = 0.2) -> None:
        self.max_empties = max_empties
        self.share = share
        self.solver = Solver()

    def prove(self, root: Node, position: Position, deadline: Deadline) -> None:
        """Mark the root's children the solver proves within its share of ``deadline``."""
        g = position.geo
        empties = g.M * g.N - 1 - position.ply
        if empties > self.max_empties or root.outcome is not None:
            return
        seconds = nodes = None
        if deadline.end is not None:
            seconds = self.share * max(0.0, deadline.end - time.perf_counter())
        if deadline.max_playouts is not None:
            nodes = int(self.share * deadline.max_playouts * NODES_PER_PLAYOUT)
        proven = self.solver.solve_moves(position, max_nodes=nodes, seconds=seconds)
        lost = [move for move, outcome in proven.items() if outcome == LOSS]
        if len(lost) == bin(position.non_losing_moves()).count("1"):
            return  # every move loses: let MCTS find the loss hardest for the opponent to win
        children = {child.move: child for child in root.children}
        for move, outcome in proven.items():
            child = children.get(move)
            if child is None:
                if not move & root.untried:
                    continue
                child = root.expand(g, move)
                child.visits, child.value = 1, 0.5  # UCB needs a visit; a draw's score
            if child.outcome is None:
                child.outcome = -outcome  # the child's side to move is the opponent
        root.solve()
