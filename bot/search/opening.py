"""Opening knowledge: the second player answers the first stone in the same column.

Why: in recorded games against the native UCT played without this rule, the second player
won more often when its first stone went on top of the first one than elsewhere, our bot
too (docs/strength.md, "The second player's first reply", has the figures and the command).
It is the first step of Allis' follow-up strategy (claimeven): answering in the same column
hands the second player the cells of the other parity, which the kept-threat play-outs then
make use of. Our search does not find it: its first-move values there are within noise of
each other.
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
