"""The seam between the tree and what it knows about positions (OpenSpiel's ``Evaluator``).

The search asks an evaluator two things and does not know whether play-outs or learned
knowledge answer: the value of a leaf for its side to move, and the prior of a node just
expanded. Play-outs (bot.search.rollout) answer the first and give no prior; a prior from
learned patterns was measured and not adopted (docs/knowledge.md).
"""

from __future__ import annotations

from typing import Callable

from bot.rules import Geometry


class Evaluator:
    """Values leaves; gives new nodes no prior unless a subclass knows one."""

    def evaluate(self, geo: Geometry, current: int, mask: int,
                 rand: Callable[[], float]) -> float:
        """The expected score (1 win, 0.5 draw, 0 loss) for the side to move in the position
        (``current``, ``mask``) of ``geo`` (bot.rules); ``rand`` is the search's stream."""
        raise NotImplementedError

    def prior(self, geo: Geometry, parent, child) -> None:
        """Give ``child``, just expanded below ``parent`` (bot.search.node.Node), virtual
        visits and value before its first play-out; by default none."""
