"""One search's state (``Turn``) and what its loop may do beside its own iterations (``Beside``).

A search, of our move or of the opponent's while we ponder, keeps everything that lives only as
long as it does in one ``Turn``: the tree's root and board, the move's deadline, what else ends
its forced-win questions, the play-outs and nodes so far, and the move the guard cleared. The
searcher (bot.search.mcts.MCTS) keeps only what outlives a search: its tree, its forced-win
table, its random stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, Optional

from bot.rules import LOSS, Geometry
from bot.search.clock import Deadline
from bot.search.node import Node, sort_key
from bot.search.tactics import Budget


@dataclass
class Turn:
    """The state of one search.

    - ``root``, ``geo``: the node searched (kept in the searcher's tree) and its board.
    - ``deadline``: the move's; its end also ends any forced-win question (a probe or the
      guard), and its play-out cap counts ``playouts``.
    - ``interrupt``: while pondering, says that the opponent's move has arrived, which also
      ends any forced-win question; None otherwise.
    - ``playouts``: play-outs backed up so far (the worker's included); ``nodes``: nodes
      created; ``reused``: the visits the root had from earlier searches and pondering;
      ``depth``: the longest path below the root the search selected, in plies.
    - ``cleared``: the move the guard cleared (bot.search.guard), if any.
    - ``watch``: what looks at the search while it runs (an analysis's reporter,
      bot.protocol.analyse): called once at the start, before each iteration and wherever
      ``interrupt`` is looked at; True ends the search as ``interrupt`` does. None in play.
    """

    root: Node
    geo: Geometry
    deadline: Deadline
    interrupt: Optional[Callable[[], bool]] = None
    playouts: int = 0
    nodes: int = 0
    reused: int = 0
    depth: int = 0
    cleared: Optional[Node] = None
    watch: Optional[Callable[[Turn], bool]] = None

    def budget(self, nodes: int) -> Budget:
        """The budget of a forced-win question asked in this search: ``nodes``, ended by the
        move's deadline and by the interrupt or the watch (a search has at most one of them:
        pondering the interrupt, an analysis the watch)."""
        return Budget(nodes, self.deadline.end,
                      self.interrupt if self.watch is None else partial(self.watch, self))

    def choice(self) -> Optional[Node]:
        """The child the search would play now: sort_key's first, unless the guard cleared
        another and no proven win is there instead; None when none is expanded yet."""
        if not self.root.children:
            return None
        best = max(self.root.children, key=sort_key)
        if self.cleared is not None and best.outcome != LOSS:
            best = self.cleared
        return best


class Beside:
    """What a search loop (MCTS.run) does beside its own iterations; here nothing.

    Pondering looks at the input and guards our likely answer (bot.search.mcts.Pondering);
    the leaf worker's batches are sent and backed up (bot.search.leaves.LeafBatches). The loop
    calls ``start`` once, ``step`` before each iteration (True ends the loop) and ``finish``
    after the last.
    """

    def start(self, turn: Turn) -> None:
        """Before the first iteration."""

    def step(self, turn: Turn) -> bool:
        """Before each iteration: True ends the loop."""
        return False

    def finish(self, turn: Turn) -> None:
        """After the last iteration."""


ALONE = Beside()  # a loop that only iterates
