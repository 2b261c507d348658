"""Monte-Carlo tree search with a solver (Winands et al.): UCB1 selection, one expansion per
iteration, a pluggable leaf evaluator, and proven wins/losses propagated up the tree. Nodes
that reach a visit threshold are probed by a shallow exact forced-win search (MCTS-MS, Baier
and Winands), and the few visited far more often by deeper ones; their proofs enter the same
propagation.

Choosing a move is ``MCTS.search``: grow the tree until the guard's share of the time is left,
guard the move to play (bot.search.guard), search on when the guard cleared it early, and play
by sort_key. A search's state is one Turn (bot.search.turn). One loop, ``MCTS.run``, serves our
move and pondering; what each does beside its iterations plugs into it as a Beside (pondering
looks at the input, bot.search.leaves sends leaves to a second process).

The searcher keeps its last tree so that the next move can start from the grandchild that
the game actually reached (tree reuse); a fresh tree is built whenever that fails.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, List, Optional

from bot.rules import DRAW, LOSS, WIN, Geometry, Position
from bot.search.clock import Deadline, Limit
from bot.search.evaluator import Evaluator
from bot.search.guard import GuardOutcome, guard_move
from bot.search.node import Node, sort_key
from bot.search.rollout import TacticalRollout
from bot.search.settings import DEFAULT, Settings
from bot.search.tactics import Budget, ForcedWin
from bot.search.turn import ALONE, Beside, Turn

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


def random_bit(s: int, rand: Callable[[], float]) -> int:
    """A uniformly random single-bit member of the non-empty set ``s``."""
    for _ in range(int(rand() * bin(s).count("1"))):
        s &= s - 1
    return s & -s


class MCTS:
    """The search, tuned by ``settings`` (bot.search.settings); ``evaluator`` values the
    leaves (the settings' tactical play-outs by default), ``seed`` fixes the random stream.

    It keeps what outlives one search: the last tree (``tree``, on board ``tree_geo``), the
    board's forced-win search (``probes``, bot.search.tactics) and the random stream. What
    lives only as long as one search is its Turn (bot.search.turn).
    """

    def __init__(self, settings: Settings = DEFAULT, seed: Optional[int] = None,
                 evaluator: Optional[Evaluator] = None) -> None:
        self.settings = settings
        self.evaluator = evaluator if evaluator is not None else TacticalRollout(
            keep_threats=settings.keep_threats, follow=settings.follow)
        self.c = settings.c
        # visits -> (plies, node budget) of the probe a node gets when it reaches them
        self.probe_at = settings.probe_schedule()
        self.probes: Optional[ForcedWin] = None  # one per board
        self.rand = random.Random(seed).random
        self.tree: Optional[Node] = None
        self.tree_geo: Optional[Geometry] = None

    # --- choosing a move ------------------------------------------------------------------
    def search(self, position: Position, deadline: Deadline,
               watch: Optional[Callable[[Turn], bool]] = None) -> SearchResult:
        """Choose the move for ``position``: grow the tree until the guard's share of the time
        is left, guard the move to play, search on when the guard cleared it early, and play
        by sort_key (the cleared move unless a proven win is there to play instead).

        ``watch`` looks at the search while it runs and may end it (Turn.watch); an analysis
        reads the tree through it (bot.search.report), play passes none.
        The root must have at least one non-losing move (the engine handles the rest).
        """
        turn = self.begin(position, deadline, watch=watch)
        self.run(turn, deadline.shortened(self.settings.guard_share), self.beside(turn))
        guard_started = deadline.elapsed()
        if self.guard(turn) is GuardOutcome.CLEARED and deadline.clock_only():
            self.search_on(turn, deadline.elapsed() - guard_started)
        return self.result(turn)

    def begin(self, position: Position, deadline: Deadline,
              interrupt: Optional[Callable[[], bool]] = None,
              watch: Optional[Callable[[Turn], bool]] = None) -> Turn:
        """A search of ``position`` until ``deadline``: its root from the last tree
        (root_for), which becomes the tree kept; ``watch``, if any, sees it once now."""
        root = self.root_for(position)
        self.tree, self.tree_geo = root, position.geo
        turn = Turn(root, position.geo, deadline, interrupt, reused=root.visits, watch=watch)
        if watch is not None:
            watch(turn)
        return turn

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

    def beside(self, turn: Turn) -> Beside:
        """What the loop of our own move's search does beside its iterations: nothing here;
        a second process plays leaves out in bot.search.leaves."""
        return ALONE

    def guard(self, turn: Turn) -> GuardOutcome:
        """Guard the move ``turn``'s root is about to play (bot.search.guard)."""
        return guard_move(turn, self.forced_wins(turn.geo), self.settings)

    def search_on(self, turn: Turn, took: float) -> None:
        """After the guard cleared a move early (mostly within a few hundredths of a second),
        search on, keeping back what that guard ``took`` (at least a quarter of its share) to
        guard the move the longer search prefers, if that changed: that move replaces the
        cleared one only when it is cleared too."""
        deadline, cleared, root = turn.deadline, turn.cleared, turn.root
        # called only for a move the guard cleared, on a deadline with a clock (clock_only)
        assert cleared is not None and deadline.end is not None
        share = max(took / (deadline.end - deadline.start), self.settings.guard_share / 4)
        more_time = deadline.shortened(share)
        if not more_time.past():  # else a run would still send leaves and wait for them
            self.run(turn, more_time, self.beside(turn))
        if root.children and max(root.children, key=sort_key) is not cleared:
            if self.guard(turn) is not GuardOutcome.CLEARED and cleared.outcome is not None:
                turn.cleared = None  # the tree proved it since: nothing cleared to play

    def result(self, turn: Turn) -> SearchResult:
        """The move to play: sort_key's first, unless the guard cleared another and no proven
        win is there instead; a random non-losing move when none is expanded yet."""
        root = turn.root
        best = turn.choice()
        if best is not None:
            move, visits = best.move, best.visits
        else:
            move, visits = random_bit(root.untried, self.rand), 0
        return SearchResult(move, turn.playouts, turn.nodes, turn.deadline.elapsed(),
                            root.outcome, visits, turn.reused)

    # --- thinking on the opponent's time --------------------------------------------------
    def ponder(self, position: Position, stop: Callable[[], bool], limit: Limit) -> int:
        """Search ``position`` (the opponent to move) until ``stop()`` says its move arrived,
        the root is proven, or ``limit`` is spent; returns the play-outs run.

        The tree is kept, so the next search starts from the opponent's actual reply with
        the play-outs spent below it (thinking on the opponent's time).
        """
        turn = self.begin(position, Deadline(limit), interrupt=stop)
        self.run(turn, turn.deadline, Pondering(self, stop))
        return turn.playouts

    # --- the loop -------------------------------------------------------------------------
    def run(self, turn: Turn, deadline: Deadline, beside: Beside = ALONE) -> None:
        """Iterate until ``deadline`` (the move's, or an earlier end for a step of the move;
        its play-out cap counts the turn's play-outs), a proof of the root, or until
        ``beside`` or the turn's watch ends the loop."""
        root, watch = turn.root, turn.watch
        beside.start(turn)
        while root.outcome is None and not deadline.expired(turn.playouts):
            if beside.step(turn) or (watch is not None and watch(turn)):
                break
            self.iterate(turn)
        beside.finish(turn)

    def iterate(self, turn: Turn) -> None:
        """One selection-expansion-evaluation-backup pass: one play-out."""
        path = self.descend(turn)
        node = path[-1]
        if node.outcome is None:
            result = self.evaluator.evaluate(turn.geo, node.current, node.mask, self.rand)
        else:
            result = self.proven(path)
        self.back_up(path, result)
        turn.playouts += 1

    def descend(self, turn: Turn) -> List[Node]:
        """Selection and expansion (probing the nodes met at their visit thresholds): the
        path from the root to the node to evaluate; a node created counts in ``turn``."""
        geo = turn.geo
        node = turn.root
        path = [node]
        while True:
            probe = self.probe_at.get(node.visits)
            if probe is not None:
                plies, nodes = probe
                self.probe(node, geo, plies, turn.budget(nodes))
            if node.outcome is not None or node.untried:
                break
            node = self.select(node)
            path.append(node)
        if node.outcome is None:
            path.append(node.expand(geo, random_bit(node.untried, self.rand)))
            turn.nodes += 1
        if len(path) > turn.depth + 1:
            turn.depth = len(path) - 1
        return path

    @staticmethod
    def proven(path: List[Node]) -> float:
        """The score of a path ending in a proven node, whose proof goes up as far as it
        settles ancestors (MCTS-solver)."""
        for ancestor in reversed(path[:-1]):
            if not ancestor.solve():
                break
        outcome = path[-1].outcome
        assert outcome is not None  # the path ends in a proven node
        return SCORE[outcome]

    @staticmethod
    def back_up(path: List[Node], result: float, visits: int = 1) -> None:
        """Add one play-out's ``result`` (for the side to move at the path's end) along the
        path; ``visits`` 0 when the visits were counted already (a leaf evaluated elsewhere)."""
        for n in reversed(path):
            n.visits += visits
            result = 1.0 - result
            n.value += result

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
        # an unproven node with every move expanded has a child not won (else Node.solve
        # would have proven the node lost)
        assert best is not None
        return best

    # --- forced wins ----------------------------------------------------------------------
    def forced_wins(self, geo: Geometry) -> ForcedWin:
        """The board's forced-win search, kept from question to question (its table and move
        order carry over)."""
        if self.probes is None or self.probes.geo is not geo:
            self.probes = ForcedWin(geo)
        return self.probes

    def probe(self, node: Node, geo: Geometry, plies: int, budget: Budget) -> None:
        """Search ``node`` ``plies`` deep for a forced win; if one is found, mark the child
        it plays as lost for the opponent and the node as won (the caller backs it up)."""
        move = self.forced_wins(geo).winning_move(node.current, node.mask, plies, budget)
        if move is None:
            return
        child = next((c for c in node.children if c.move == move), None)
        if child is None:
            child = node.expand(geo, move)
            child.visits, child.value = 1, 1.0  # UCB needs a visit; the mover's score
        child.outcome = LOSS
        node.solve()


class Pondering(Beside):
    """What pondering does beside its iterations: it looks at the input every PONDER_CHECK
    play-outs (``stop()`` says the opponent's move has arrived, which ends the loop), and
    after ``settings.ponder_guard`` play-outs (0: never) it guards our answer to the
    opponent's likely reply."""

    def __init__(self, searcher: MCTS, stop: Callable[[], bool]) -> None:
        self.searcher, self.stop = searcher, stop
        self.guard_at = searcher.settings.ponder_guard

    def step(self, turn: Turn) -> bool:
        if turn.playouts % PONDER_CHECK == 0 and self.stop():
            return True
        if turn.playouts == self.guard_at and self.guard_at:
            self.guard_reply(turn)
        return False

    def guard_reply(self, turn: Turn) -> None:
        """Guard our answer to the most visited reply, so that the search after that reply
        starts with the answers proven lost already marked. Why: the move's own share of its
        time is short for the proofs the guard exists for; the opponent's time has room. The
        opponent's move ends the questions."""
        root = turn.root
        if not root.children:
            return
        reply = max(root.children, key=sort_key)
        if reply.outcome is None:
            self.searcher.guard(Turn(reply, turn.geo, turn.deadline, turn.interrupt))
            root.solve()
