"""The ladder's rule-based middle rung: tactics first, then a line-counting evaluation.

Rules, in order: win now; block the opponent's immediate win; never play directly under a cell
where the opponent would win; then among the remaining moves take the best by one-ply
evaluation, where a move that leaves two immediate wins (a double threat) is worth most, a move
that lets the opponent reply with a double threat is worth least, and otherwise every window of
four cells held by one side only counts for that side (more stones, much more weight). Clearly
stronger than greedy, far weaker than any search.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence, Tuple

from bot.rules import Position, bits, geometry
from opponents.chance import choose_bit, position_rng

WINDOW_WEIGHTS = (0, 1, 5, 25)  # by the number of one side's stones in an unblocked window
DOUBLE_THREAT = 10_000
UNDER_OWN_THREAT = 30  # playing right below our own winning cell lets the opponent kill it


def _count(cells: int) -> int:
    return bin(cells).count("1")


@lru_cache(maxsize=64)
def windows(M: int, N: int, no_x: int, no_y: int) -> Tuple[int, ...]:
    """Every line of four cells on the board (as bitmasks) that avoids the forbidden cell."""
    geo = geometry(M, N, no_x, no_y)
    out = []
    for y in range(N):
        for h in range(M):
            base = 1 << (y * geo.stride + h)
            steps = []
            if h + 3 < M:
                steps.append(1)
            if y + 3 < N:
                steps.append(geo.stride)
                if h + 3 < M:
                    steps.append(geo.stride + 1)
                if h >= 3:
                    steps.append(geo.stride - 1)
            for d in steps:
                w = base | base << d | base << 2 * d | base << 3 * d
                if not w & geo.forbidden:
                    out.append(w)
    return tuple(out)


def line_score(lines: Tuple[int, ...], mine: int, theirs: int) -> int:
    """Windows only ``mine`` occupies count for it, windows only ``theirs`` occupies against."""
    score = 0
    for w in lines:
        a, b = w & mine, w & theirs
        if not b:
            score += WINDOW_WEIGHTS[_count(a)]
        elif not a:
            score -= WINDOW_WEIGHTS[_count(b)]
    return score


def opponent_can_fork(after: Position) -> bool:
    """Whether the side to move in ``after`` has a reply leaving two immediate wins that the
    other side cannot pre-empt with a win of its own."""
    geo = after.geo
    for r in bits(after.non_losing_moves()):
        reply = after.play_bit(r)
        if reply.can_win_now():
            continue
        if _count(geo.winning_cells(reply.opponent(), reply.mask) & reply.possible()) >= 2:
            return True
    return False


def move_score(pos: Position, move: int, lines: Tuple[int, ...]) -> int:
    """The value of ``move`` for the side to move in ``pos`` (which has no win and no threat
    to block, and ``move`` does not open an opponent's winning cell)."""
    after = pos.play_bit(move)
    geo = pos.geo
    mine = after.opponent()
    if _count(geo.winning_cells(mine, after.mask) & after.possible()) >= 2:
        return DOUBLE_THREAT
    if opponent_can_fork(after):
        return -DOUBLE_THREAT
    score = line_score(lines, mine, after.current)
    if (move << 1) & pos.winning_cells():
        score -= UNDER_OWN_THREAT
    return score


def get_point(M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
              last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
    """getPoint-style entry (board from the mover's view: 2 own, 1 opponent)."""
    pos = Position.from_view(M, N, top, board, no_x, no_y)
    rng = position_rng(M, N, board, no_x, no_y)
    possible = pos.possible()
    threats = pos.opponent_winning_cells()
    urgent = pos.winning_moves() or possible & threats
    if urgent:
        return pos.xy(choose_bit(rng, urgent))
    safe = possible & ~pos.geo.danger(threats)
    if not safe:
        return pos.xy(choose_bit(rng, possible))
    lines = windows(M, N, no_x, no_y)
    scored = [(move_score(pos, b, lines), b) for b in bits(safe)]
    best = max(score for score, _ in scored)
    return pos.xy(choose_bit(rng, sum(b for score, b in scored if score == best)))
