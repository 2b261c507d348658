"""How much one position may cost, as python-chess's `Limit`: the engine's seconds and
play-outs, an exact search's nodes, whichever it reaches first. The review, the analysis board
and a suite's build each take one: a budget is one idea in the arena whatever it measures."""

from dataclasses import dataclass
from typing import Dict, Optional, Union


@dataclass(frozen=True)
class Limit:
    """A position's budget; a field left None does not bound it."""

    seconds: Optional[float] = None
    playouts: Optional[int] = None
    nodes: Optional[int] = None

    def __str__(self) -> str:
        parts = ([f"{self.seconds:g} s"] if self.seconds else []) + [
            f"{amount} {unit}" for amount, unit in (
                (self.playouts, "play-outs"), (self.nodes, "nodes")) if amount]
        return " and ".join(parts) + " a position"

    def engine_budget(self) -> Dict[str, Union[float, int, None]]:
        """Its seconds and play-outs, as an engine request, a review's file and the review
        page read a budget (nodes bound an exact search, never the engine)."""
        return {"seconds": self.seconds, "playouts": self.playouts}
