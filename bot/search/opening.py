"""Opening knowledge: the second player answers the first stone in the same column.

Why: in the 280 recorded games against the native UCT (docs/results/*.jsonl, either side
second), the second player won 54% of the games whose second stone went on top of the first
one and 32% of the others; our bot at 2.4 s, 67% and 36% (bench/openings.py,
docs/strength.md). It is the first step of Allis' follow-up strategy (claimeven): answering
in the same column hands the second player the cells of the other parity, which the
kept-threat play-outs then make use of. Our search does not find it: its first-move values
are within noise of each other (bench/root_spread.py).
"""

from __future__ import annotations

from typing import Optional

from bot.rules import Position


def follow_up(position: Position) -> Optional[int]:
    """The cell on top of the first player's stone (above the forbidden cell if that sits
    between) when ``position`` is the second player's first move; otherwise None."""
    if position.ply != 1:
        return None
    column = position.geo.column(position.opponent())
    return position.move_bit(column) or None
