"""choose_move(): the one call every protocol ends in.

It turns a getPoint-style request into a Position, plays the obvious moves without searching
(win now; the only move that does not lose at once; the second player's first reply, from
bot.search.opening), searches otherwise, and never returns an illegal move: if anything but
bad input goes wrong, it logs one line and plays a legal move.
"""

from __future__ import annotations

import logging
from typing import Optional, Sequence, Tuple

from bot.rules import InvalidPosition, Position, bits
from bot.search.clock import Deadline, Limit
from bot.search.mcts import MCTS
from bot.search.opening import follow_up

log = logging.getLogger("bot")

# Per-move search time (seconds): the platform's limit is 3 s a move (RULES.md), and a loaded
# machine's overshoot must still end under it (docs/strength.md has the moves measured).
DEFAULT_SECONDS = 2.4
DEFAULT_LIMIT = Limit(DEFAULT_SECONDS)


def check_last_move(position: Position, last_x: int, last_y: int) -> None:
    """Raise InvalidPosition unless (last_x, last_y) can be the opponent's last move:
    ``-1 -1`` only on an empty board, else the opponent's topmost stone of its column."""
    g = position.geo
    if (last_x, last_y) == (-1, -1):
        if position.ply:
            raise InvalidPosition("last move -1 -1 but the board is not empty")
        return
    if not (0 <= last_x < g.M and 0 <= last_y < g.N):
        raise InvalidPosition(f"last move ({last_x}, {last_y}) is outside the board")
    b = g.bit(last_x, last_y)
    if not position.opponent() & b:
        raise InvalidPosition(f"last move ({last_x}, {last_y}) is not an opponent's piece")
    above = position.mask & g.column_masks[last_y] & ~(b | (b - 1)) & ~g.forbidden
    if above:
        raise InvalidPosition(f"last move ({last_x}, {last_y}) has a piece above it")


def fallback_move(position: Position) -> int:
    """A legal move without search: a non-losing one if any, else a block, else any; the
    most central such column (central stones take part in the most lines)."""
    possible = position.possible()
    choice = position.non_losing_moves() or possible & position.opponent_winning_cells()
    centre = (position.geo.N - 1) / 2
    return min(bits(choice or possible), key=lambda b: abs(position.geo.column(b) - centre))


def rule_move(position: Position) -> int:
    """The move played without a search, 0 when the search decides: a win now; the only
    move that does not lose at once (fallback_move when none is left); the second player's
    first reply (bot.search.opening)."""
    wins = position.winning_moves()
    if wins:
        return wins & -wins
    safe = position.non_losing_moves()
    if not safe or not safe & (safe - 1):
        return fallback_move(position)
    return follow_up(position) or 0


def decide(position: Position, limit: Limit, searcher: MCTS,
           deadline: Optional[Deadline] = None) -> int:
    """The move (single-bit cell) for a valid position with at least one legal move."""
    ruled = rule_move(position)
    if ruled:
        return ruled
    deadline = deadline if deadline is not None else Deadline(limit)
    result = searcher.search(position, deadline)
    log.debug("search: %d playouts (%d reused), %d nodes, %.3f s, root outcome %s, "
              "move %s (%d visits)", result.playouts, result.reused, result.nodes,
              result.seconds, result.outcome, position.xy(result.move), result.visits)
    return result.move


def safe_decide(position: Position, limit: Limit, searcher: MCTS,
                deadline: Optional[Deadline] = None) -> int:
    """decide(), but any failure of the search is logged and answered with a legal move."""
    try:
        move = decide(position, limit, searcher, deadline)
        if move & position.possible() and not move & (move - 1):
            return move
        log.error("search returned an illegal move %#x; playing a fallback move", move)
    except Exception as exc:  # the search must never cost the game
        log.error("search failed (%s: %s); playing a fallback move", type(exc).__name__, exc)
    return fallback_move(position)


def choose_move(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
                last_y: int, no_x: int, no_y: int, limit: Limit = DEFAULT_LIMIT,
                searcher: Optional[MCTS] = None) -> Tuple[int, int]:
    """The getPoint contract: the move (x, y) for the side whose view ``board`` is.

    Raises InvalidPosition (one line) when the request cannot arise in a game.
    """
    deadline = Deadline(limit)
    position = Position.from_view(M, N, top, board, no_x, no_y)
    check_last_move(position, last_x, last_y)
    searcher = searcher if searcher is not None else MCTS()
    return position.xy(safe_decide(position, limit, searcher, deadline))
