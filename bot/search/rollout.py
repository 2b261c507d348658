"""The tactical play-out: the leaf evaluator of the search (bot.search.evaluator)."""

from __future__ import annotations

from typing import Callable

from bot.rules import Geometry, winning_cells
from bot.search.evaluator import Evaluator
from bot.search.settings import DEFAULT


class TacticalRollout(Evaluator):
    """Play the game out with tactical moves, computed as whole-board bitboard sets.

    Each ply: win now if possible; else block the opponent's single immediate threat; never
    play directly under a cell the opponent wins on (counting the forbidden-cell gap); else a
    uniformly random move. A side that cannot avoid losing next ply is scored as lost at once,
    which both shortens the play-out and is exact.

    ``keep_threats`` (on by default): also avoid playing directly under one's OWN winning cell
    when another move is safe, so that threats survive to the zugzwang at the end of the
    column (the opponent would block them at once), as a strong player keeps them
    (docs/strength.md has what it is worth, with the command).

    ``follow``: the chance that a free move is the follow-up, the cell on top of the last move
    (on top of the forbidden cell when that is next), when that cell is allowed. Answering in
    the same column keeps each column's cells alternating between the sides, the way the
    player who owns a column's zugzwang claims its even (or odd) cells, so the play-out keeps
    the parity structure of the position instead of dissolving it in random moves.

    This loop is most of the bot's time, so ``bot.rules.winning_cells`` is written out inline
    with its shifts held in locals (no call, no attribute look-ups a ply; bench/speed.py
    measures it); tests/bot/test_rollout.py checks it against the plain version.
    """

    def __init__(self, keep_threats: bool = DEFAULT.keep_threats,
                 follow: float = DEFAULT.follow) -> None:
        self.keep_threats = keep_threats
        self.follow = follow

    def evaluate(self, geo: Geometry, current: int, mask: int,
                 rand: Callable[[], float]) -> float:
        """Score for the side to move: 1 win, 0.5 draw, 0 loss (one random tactical game)."""
        bottom, board_mask = geo.bottom, geo.board_mask
        keep = self.keep_threats
        columns, width = geo.column_masks, geo.N
        above_forbidden = geo.above_forbidden
        h = geo.stride  # horizontal shift; the diagonals shift by h - 1 and h + 1
        u, d = h + 1, h - 1
        h2, u2, d2, h3, u3, d3 = 2 * h, 2 * u, 2 * d, 3 * h, 3 * u, 3 * d
        follow, forbidden = self.follow, geo.forbidden
        move = 0  # the last move of the play-out (none yet: the first ply never follows up)
        me = 1.0  # the score if the side moving now wins; flips every ply
        own_wins = winning_cells(current, mask, h, board_mask)
        opponent = mask ^ current ^ forbidden
        while True:
            free = board_mask & ~mask
            possible = (mask + bottom) & free
            if not possible:
                return 0.5
            if own_wins & possible:
                return me
            # winning_cells(opponent): t marks pairs (cell, cell + shift) of its stones.
            s = opponent
            t = s & (s << 1)
            r = (t << 1) & (t << 2)
            sd = s >> h
            t = s & sd
            r |= ((t >> h) & ((s >> h3) | (s << h))) | ((t << h2) & (sd | (s << h3)))
            sd = s >> u
            t = s & sd
            r |= ((t >> u) & ((s >> u3) | (s << u))) | ((t << u2) & (sd | (s << u3)))
            sd = s >> d
            t = s & sd
            r |= ((t >> d) & ((s >> d3) | (s << d))) | ((t << d2) & (sd | (s << d3)))
            threats = r & free
            danger = (threats >> 1) | ((threats & above_forbidden) >> 2) if threats else 0
            forced = possible & threats
            if forced:
                if forced & (forced - 1) or forced & danger:
                    return 1.0 - me
                move = forced
            else:
                candidates = possible & ~danger
                if not candidates:
                    return 1.0 - me
                if keep and own_wins:
                    kept = candidates & ~((own_wins >> 1) | ((own_wins & above_forbidden) >> 2))
                    if kept:
                        candidates = kept
                up = 0
                if follow and move and rand() < follow:
                    up = move << 1  # the cell on top of the last move, or on top of the
                    if up & forbidden:  # forbidden cell when that is next
                        up <<= 1
                move = up & candidates
                # Else a uniform choice: up to two tries of a random column (one cell a column
                # at most), then the general method; each path is uniform among candidates.
                if not move:
                    move = candidates & columns[int(rand() * width)]
                if not move:
                    move = candidates & columns[int(rand() * width)]
                if not move:
                    n = bin(candidates).count("1")
                    for _ in range(int(rand() * n)):
                        candidates &= candidates - 1
                    move = candidates & -candidates
            mask |= move
            # Next ply: the opponent moves; its winning cells are the threats, minus the cell
            # just filled (its stones did not change). The mover's stones gain ``move``.
            own_wins = threats & ~mask
            current, opponent = opponent, current | move
            me = 1.0 - me
