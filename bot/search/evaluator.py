"""The seam between the tree and what values its leaves (OpenSpiel's ``Evaluator``).

The search asks an evaluator one thing, the value of a leaf for its side to move, and does not
know what answers it: the tactical play-out (bot.search.rollout) in play, simpler evaluators in
the tests.
"""

from __future__ import annotations

from typing import Callable

from bot.rules import Geometry


class Evaluator:
    """Values leaves of the tree."""

    def evaluate(self, geo: Geometry, current: int, mask: int,
                 rand: Callable[[], float]) -> float:
        """The expected score (1 win, 0.5 draw, 0 loss) for the side to move in the position
        (``current``, ``mask``) of ``geo`` (bot.rules); ``rand`` is the search's stream."""
        raise NotImplementedError
