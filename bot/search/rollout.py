"""Leaf evaluators: how MCTS values a position it has not expanded.

An evaluator is any object with ``evaluate(geo, current, mask, rand) -> float``: the expected
score (1 win, 0.5 draw, 0 loss) for the side to move in the position (``current``, ``mask``)
of ``geo`` (see bot.rules). Later knowledge (threat parity, an endgame solver) plugs in here.
"""

from __future__ import annotations

from typing import Callable

from bot.rules import Geometry, winning_cells


class TacticalRollout:
    """Play the game out with tactical moves, computed as whole-board bitboard sets.

    Each ply: win now if possible; else block the opponent's single immediate threat; never
    play directly under a cell the opponent wins on (counting the forbidden-cell gap); else a
    uniformly random move. A side that cannot avoid losing next ply is scored as lost at once,
    which both shortens the play-out and is exact.
    """

    def evaluate(self, geo: Geometry, current: int, mask: int,
                 rand: Callable[[], float]) -> float:
        """Score for the side to move: 1 win, 0.5 draw, 0 loss (one random tactical game)."""
        stride, bottom, board_mask = geo.stride, geo.bottom, geo.board_mask
        forbidden, above_forbidden = geo.forbidden, geo.above_forbidden
        me = 1.0  # the score if the side moving now wins; flips every ply
        own_wins = winning_cells(current, mask, stride, board_mask)
        while True:
            possible = (mask + bottom) & ~mask & board_mask
            if not possible:
                return 0.5
            if own_wins & possible:
                return me
            opponent = mask ^ current ^ forbidden
            threats = winning_cells(opponent, mask, stride, board_mask)
            danger = (threats >> 1) | ((threats & above_forbidden) >> 2)
            forced = possible & threats
            if forced:
                if forced & (forced - 1) or forced & danger:
                    return 1.0 - me
                move = forced
            else:
                candidates = possible & ~danger
                if not candidates:
                    return 1.0 - me
                n = bin(candidates).count("1")
                for _ in range(int(rand() * n)):
                    candidates &= candidates - 1
                move = candidates & -candidates
            mask |= move
            # Next ply: the opponent moves; its winning cells are the threats, minus the cell
            # just filled (its stones did not change).
            own_wins = threats & ~mask
            current = opponent
            me = 1.0 - me
