"""The guard of the move about to be played: a longer forced-win search of the opponent's than
the in-tree probes reach, at each depth of ``Settings.guard_depths``.

Why: forced fours of 11 to 17 plies, beyond the 9-ply probes, decide a large share of the
analysed losses (docs/strength.md, "The guard of the move played").
"""

from __future__ import annotations

from enum import Enum

from bot.rules import WIN
from bot.search.node import sort_key
from bot.search.settings import Settings
from bot.search.tactics import ForcedWin
from bot.search.turn import Turn


class GuardOutcome(Enum):
    """How a guard ended. Only CLEARED lets the search go on with the time left."""

    CLEARED = "cleared"  # the move to play is cleared at every depth: Turn.cleared
    NOTHING_TO_GUARD = "nothing to guard"  # no depths, no move expanded, or it is proven
    OUT_OF_TIME = "out of time"  # the deadline came before the next move's questions
    UNSETTLED = "unsettled"  # a question's node budget or the deadline ran out


def guard_move(turn: Turn, probes: ForcedWin, settings: Settings) -> GuardOutcome:
    """Ask whether the opponent forces a four after the move ``turn``'s root is about to play
    (sort_key's first), at each depth; a move proven lost is marked so (a proof like any
    other in the tree), and the next is asked about, until one is cleared (then
    ``turn.cleared``) or the guard ends otherwise.

    A question gets ``settings.guard_nodes`` nodes; under a play-out cap, which has no clock to
    end it, at most ``guard_playout_nodes`` a play-out of the move, so a small search stays
    small.
    """
    root, deadline = turn.root, turn.deadline
    if not settings.guard_depths:
        return GuardOutcome.NOTHING_TO_GUARD
    nodes = settings.guard_nodes
    if deadline.max_playouts is not None:
        nodes = min(nodes, deadline.max_playouts * settings.guard_playout_nodes)
    budget = turn.budget(nodes)
    while root.outcome is None and root.children:
        move = max(root.children, key=sort_key)
        if move.outcome is not None:
            return GuardOutcome.NOTHING_TO_GUARD
        if deadline.past():
            return GuardOutcome.OUT_OF_TIME
        for plies in settings.guard_depths:
            lost = probes.settle(move.current, move.mask, plies, budget)
            if lost is None:
                return GuardOutcome.UNSETTLED
            if lost:
                move.outcome = WIN  # for the opponent, to move there
                root.solve()
                break
        else:
            turn.cleared = move
            return GuardOutcome.CLEARED
    return GuardOutcome.NOTHING_TO_GUARD
