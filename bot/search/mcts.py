"""Monte-Carlo tree search with a solver (Winands et al.): UCB1 selection, one expansion per
iteration, a pluggable leaf evaluator, and proven wins/losses propagated up the tree. Nodes
that reach a visit threshold are probed by a shallow exact forced-win search (MCTS-MS, Baier
and Winands), and the few visited far more often by deeper ones; their proofs enter the same
propagation.

The searcher keeps its last tree so that the next move can start from the grandchild that
the game actually reached (tree reuse); a fresh tree is built whenever that fails.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

from bot.rules import DRAW, LOSS, WIN, Position
from bot.search.clock import Deadline, Limit
from bot.search.node import Node, sort_key
from bot.search.rollout import TacticalRollout
from bot.search.settings import DEFAULT, Settings
from bot.search.tactics import ForcedWin

SCORE = {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}  # a proven outcome as a play-out score
PONDER_CHECK = 8  # play-outs between two looks at the input while pondering (well under 1 ms)


@dataclass
class SearchResult:
    """What a search found: the move (a single-bit cell), effort, and whether it is proven."""

    move: int
    playouts: int
    nodes: int
    seconds: float
    outcome: Optional[int]  # proven result of the ROOT for the side to move, or None
    visits: int  # visits of the chosen child
    reused: int = 0  # play-outs the root already had from earlier searches and pondering


def random_bit(s: int, rand) -> int:
    """A uniformly random single-bit member of the non-empty set ``s``."""
    for _ in range(int(rand() * bin(s).count("1"))):
        s &= s - 1
    return s & -s


class MCTS:
    """The search loop, tuned by ``settings`` (bot.search.settings); ``evaluator`` values the
    leaves (the settings' tactical play-outs by default), ``seed`` fixes the random stream."""

    def __init__(self, settings: Settings = DEFAULT, seed: Optional[int] = None,
                 evaluator=None) -> None:
        self.settings = settings
        self.evaluator = evaluator if evaluator is not None else TacticalRollout(
            keep_threats=settings.keep_threats, follow=settings.follow)
        self.c = settings.c
        # visits -> (plies, node budget) of the probe a node gets when it reaches them
        self.probe_at = settings.probe_schedule()
        self.stop_at: Optional[float] = None  # the current deadline, which ends any probe
        self.interrupt: Optional[Callable[[], bool]] = None  # while pondering: ends any probe
        self.probes: Optional[ForcedWin] = None  # bot.search.tactics, one per board
        self.rand = random.Random(seed).random
        self.tree: Optional[Node] = None
        self.tree_geo = None

    def root_for(self, position: Position) -> Node:
        """The node of ``position`` from the last tree (up to two plies down), else a new one.

        Two plies: from our last decision to our next one. One ply: from the position we
        pondered (the opponent to move) to our next decision. None: the same position again.
        """
        key = position.key()
        if self.tree is not None and self.tree_geo is position.geo:
            level = [self.tree]
            for depth in range(3):
                for node in level:
                    if (node.current, node.mask) == key:
                        return node
                if depth < 2:
                    level = [child for node in level for child in node.children]
        return Node(position.geo, 0, position.current, position.mask)

    def ponder(self, position: Position, stop: Callable[[], bool], limit: Limit) -> int:
        """Search ``position`` (the opponent to move) until ``stop()`` says its move arrived,
        the root is proven, or ``limit`` is spent; returns the play-outs run.

        The tree is kept, so the next search starts from the opponent's actual reply with
        the play-outs spent below it (thinking on the opponent's time).
        """
        root = self.root_for(position)
        self.tree, self.tree_geo = root, position.geo
        deadline = Deadline(limit)
        self.stop_at, self.interrupt = deadline.end, stop
        playouts = 0
        guard_at = self.settings.ponder_guard
        try:
            while root.outcome is None and not deadline.expired(playouts):
                if playouts % PONDER_CHECK == 0 and stop():
                    break
                if playouts == guard_at and guard_at:
                    self.guard_reply(root, position.geo, deadline)
                self.iterate(root, position.geo)
                playouts += 1
        finally:
            self.interrupt = None
        return playouts

    def search(self, position: Position, deadline: Deadline) -> SearchResult:
        """Search until the deadline (or a proof of the root) and pick the move by sort_key.

        The root must have at least one non-losing move (the engine handles the rest).
        """
        geo = position.geo
        root = self.root_for(position)
        reused = root.visits
        self.tree, self.tree_geo = root, geo
        self.stop_at = deadline.end
        playouts, nodes = self.run(root, geo, deadline.shortened(self.settings.guard_share))
        guarded = deadline.elapsed()
        cleared = self.guard(root, geo, deadline)
        if cleared is not None and deadline.end is not None and deadline.max_playouts is None:
            cleared, more, new = self.search_on(root, geo, deadline, cleared,
                                                deadline.elapsed() - guarded)
            playouts, nodes = playouts + more, nodes + new
        if root.children:
            best = max(root.children, key=sort_key)
            if cleared is not None and best.outcome != LOSS:  # no proven win to play instead
                best = cleared
            move, visits = best.move, best.visits
        else:
            move, visits = random_bit(root.untried, self.rand), 0
        return SearchResult(move, playouts, nodes, deadline.elapsed(), root.outcome, visits,
                            reused)

    def search_on(self, root: Node, geo, deadline: Deadline, cleared: Node,
                  took: float) -> Tuple[Optional[Node], int, int]:
        """After the guard cleared ``cleared`` early (mostly within a few hundredths of a
        second), search on, keeping back what that guard ``took`` (at least a quarter of its
        share) to guard the move the longer search prefers, if that changed: (the move
        cleared, or None when none is; play-outs, nodes created)."""
        share = max(took / (deadline.end - deadline.start), self.settings.guard_share / 4)
        more_time = deadline.shortened(share)
        playouts = nodes = 0
        if not more_time.past():  # else a run would still send leaves and wait for them
            playouts, nodes = self.run(root, geo, more_time)
        if root.children and max(root.children, key=sort_key) is not cleared:
            cleared = self.guard(root, geo, deadline) or (
                cleared if cleared.outcome is None else None)
        return cleared, playouts, nodes

    def run(self, root: Node, geo, deadline: Deadline) -> Tuple[int, int]:
        """Iterate until the deadline or a proof of the root: (play-outs, nodes created)."""
        playouts = 0
        nodes = 0
        while root.outcome is None and not deadline.expired(playouts):
            nodes += self.iterate(root, geo)
            playouts += 1
        return playouts, nodes

    def iterate(self, root: Node, geo) -> int:
        """One selection-expansion-evaluation-backup pass; returns the nodes created (0/1)."""
        path, created = self.descend(root, geo)
        node = path[-1]
        if node.outcome is None:
            result = self.evaluator.evaluate(geo, node.current, node.mask, self.rand)
        else:
            result = self.proven(path)
        self.back_up(path, result)
        return created

    def descend(self, root: Node, geo) -> Tuple[List[Node], int]:
        """Selection and expansion (probing the nodes met at their visit thresholds): the
        path from the root to the node to evaluate, and the nodes created (0/1)."""
        node = root
        path = [root]
        while True:
            probe = self.probe_at.get(node.visits)
            if probe is not None:
                self.probe(node, geo, *probe)
            if node.outcome is not None or node.untried:
                break
            node = self.select(node)
            path.append(node)
        if node.outcome is not None:
            return path, 0
        child = node.expand(geo, random_bit(node.untried, self.rand))
        self.evaluator.prior(geo, node, child)
        path.append(child)
        return path, 1

    @staticmethod
    def proven(path: List[Node]) -> float:
        """The score of a path ending in a proven node, whose proof goes up as far as it
        settles ancestors (MCTS-solver)."""
        for ancestor in reversed(path[:-1]):
            if not ancestor.solve():
                break
        return SCORE[path[-1].outcome]

    @staticmethod
    def back_up(path: List[Node], result: float, visits: int = 1) -> None:
        """Add one play-out's ``result`` (for the side to move at the path's end) along the
        path; ``visits`` 0 when the visits were counted already (a leaf evaluated elsewhere)."""
        for n in reversed(path):
            n.visits += visits
            result = 1.0 - result
            n.value += result

    def prober(self, geo, max_nodes: int) -> ForcedWin:
        """The board's forced-win search (its table is kept from question to question), set
        to ``max_nodes`` a question and to stop at the deadline or the interrupt."""
        if self.probes is None or self.probes.geo is not geo:
            self.probes = ForcedWin(geo, max_nodes)
        self.probes.max_nodes, self.probes.stop_at = max_nodes, self.stop_at
        self.probes.interrupt = self.interrupt
        return self.probes

    def guard(self, root: Node, geo, deadline: Deadline) -> Optional[Node]:
        """Check the move about to be played for a longer forced win of the opponent's than
        the in-tree probes reach; a move proven lost is marked so, and the next is checked.

        Ends at the deadline, at a question its node budget cannot settle, or at a move proven
        or cleared at every depth of ``settings.guard_depths``; returns the move cleared, if
        one was. Under a play-out cap a question gets at most ``guard_playout_nodes`` nodes a
        play-out, so a small search stays small.
        """
        depths, budget = self.settings.guard_depths, self.settings.guard_nodes
        if deadline.max_playouts is not None:  # a capped search's guard is as small as it is
            budget = min(budget, deadline.max_playouts * self.settings.guard_playout_nodes)
        probes = self.prober(geo, budget)
        while depths and root.outcome is None and root.children:
            best = max(root.children, key=sort_key)
            if best.outcome is not None or deadline.past():
                return None
            for plies in depths:
                found = probes.settle(best.current, best.mask, plies)
                if found is None:
                    return None
                if found:
                    best.outcome = WIN
                    root.solve()
                    break
            else:
                return best
        return None

    def guard_reply(self, root: Node, geo, deadline: Deadline) -> None:
        """While pondering ``root`` (the opponent to move): guard our answer to its most
        visited reply, so that the search after that reply starts with the answers proven
        lost already marked (settings.ponder_guard). The opponent's move ends the questions."""
        if not root.children:
            return
        reply = max(root.children, key=sort_key)
        if reply.outcome is None:
            self.guard(reply, geo, deadline)
            root.solve()

    def probe(self, node: Node, geo, plies: int, max_nodes: int) -> None:
        """Search ``node`` ``plies`` deep for a forced win; if one is found, mark the child
        it plays as lost for the opponent and the node as won (the caller backs it up)."""
        move = self.prober(geo, max_nodes).winning_move(node.current, node.mask, plies)
        if move is None:
            return
        child = next((c for c in node.children if c.move == move), None)
        if child is None:
            child = node.expand(geo, move)
            child.visits, child.value = 1, 1.0  # UCB needs a visit; the mover's score
        child.outcome = LOSS
        node.solve()

    def select(self, node: Node) -> Node:
        """UCB1 among the children not proven won for the opponent."""
        log_n = math.log(node.visits)
        c = self.c
        best, best_score = None, -1.0
        for child in node.children:
            if child.outcome == WIN:
                continue
            n = child.visits
            score = child.value / n + c * math.sqrt(log_n / n)
            if score > best_score:
                best, best_score = child, score
        return best
