"""One game record's analysis: where the loser was proven lost and which move decided it.

The walk goes backwards from the last move. The position before the winner's move is lost
for the loser whenever the position after it is (the winner's move proves it), so only the
loser's positions are searched: each is lost when every move the loser had there is proven
lost. The first of them that is not (a move held, or the budget could not settle one) is the
decisive mistake; the walk stops there, so a game costs the budget of a few positions, not of
every ply.

Indices are 0-based into the record's ``moves``; the text says "move k" for index k - 1.
"""

from __future__ import annotations

import time
from typing import List, Optional

from analysis.proof import Prover, plies_of, verdict
from bot.rules import DRAW, LOSS, WIN, Position
from records.analysis import Alternative, Decisive, Kind, LossAnalysis, Phase, Value
from records.game import GameRecord
from records.result import Seat

VALUES = {WIN: Value.WIN, DRAW: Value.DRAW, LOSS: Value.LOSS, None: Value.UNSETTLED}
OPENING_SHARE, END_SHARE = 0.2, 0.5  # of the board's cells: the phases of a mistake's ply


def phase_of(index: int, cells: int) -> Phase:
    """OPENING before 20% of the playable cells are filled, END from half on, else MIDDLE
    (a 12x12 board: moves 1-28, 29-71, 72-143)."""
    share = (index + 1) / cells
    return Phase.OPENING if share <= OPENING_SHARE else Phase.END if share > END_SHARE \
        else Phase.MIDDLE


def replay(record: GameRecord) -> List[Position]:
    """The positions after 0, 1, ... moves; raises InvalidPosition on a move that is not legal."""
    position = Position.new(record.M, record.N, record.no_x, record.no_y)
    positions = [position]
    for x, y in record.moves:
        position = position.play_xy(x, y)
        positions.append(position)
    return positions


def _xy(position: Position, move: int) -> List[int]:
    """Course coordinates of a single-bit cell (the same on every position of the board)."""
    return list(position.xy(move))


def analyse_game(record: GameRecord, seconds: float) -> LossAnalysis:
    """The analysis of one lost game (see the module docstring; records.analysis names its
    fields): where the loser was first proven lost, its decisive mistake with the other moves
    not proven lost (None when it was lost before its first move), how the win after it goes,
    and the winning line: the proof's, else the game's own remainder, every position of which
    is proven lost. ValueError for a game not lost on the board."""
    started = time.perf_counter()
    side = record.loser
    if side is None:
        raise ValueError("the game was not lost on the board")
    positions = replay(record)
    loser_seat = record.seat(side)
    prover = Prover(positions[0].geo, seconds)
    n = len(record.moves)
    lost_after = n - 1  # before the winner's last move the loser is lost: a four is there
    decisive = None
    searched = 0
    for index in range(n - 1, -1, -1):
        if Seat.of_ply(index) is not loser_seat:
            continue
        position = positions[index]
        values, safe_plies = prover.move_values(position)
        searched += 1
        if verdict(values) == LOSS:
            lost_after = max(index - 1, 0)
            continue
        played = position.play_xy(*record.moves[index]).mask ^ position.mask
        alternatives = [Alternative(_xy(position, m), VALUES[v], safe_plies.get(m, 0))
                        for m, v in sorted(values.items()) if m != played and v != LOSS]
        decisive = Decisive(index, list(record.moves[index]), alternatives,
                            proven=any(a.value != Value.UNSETTLED for a in alternatives))
        lost_after = index + 1
        break
    won = positions[lost_after]
    # else: lost before the loser's first move
    winner_to_move = Seat.of_ply(lost_after) is not loser_seat
    short = prover.shortest_win(won) if winner_to_move else None
    line = prover.winning_line(won, attacker=winner_to_move, shortest=short)
    if decisive is not None:
        # proven within bounds: the mistake allowed a forced four in `short` plies that some
        # other move was proven clear of for at least as long
        decisive.avoidable = decisive.proven or (short is not None and any(
            a.no_four_within >= plies_of(short) for a in decisive.alternatives))
    if line.complete:
        moves, source = [_xy(won, m) for m in line.moves], "proof"
    else:  # every position of the game's own remainder is proven lost for the loser
        moves, source = [list(m) for m in record.moves[lost_after:]], "game"
    return LossAnalysis(
        loser=record.name(side), loser_moved=loser_seat,
        seconds=seconds, lost_after=lost_after, decisive=decisive,
        kind=_kind(short, line.ending, line.complete),
        forced_four_in=None if short is None else plies_of(short),
        win_in=len(line.moves) if line.complete else None, line=moves, line_source=source,
        phase=phase_of(decisive.index, _cells(won)) if decisive else Phase.OPENING,
        positions=searched, elapsed=round(time.perf_counter() - started, 3))


def _cells(position: Position) -> int:
    return position.geo.M * position.geo.N - 1


def _kind(short: Optional[int], ending: Optional[Kind], complete: bool) -> Kind:
    """How the win after the mistake goes: a missed block (the winner makes four at once), a
    double threat or a zugzwang the winner forces (the proof line's ending), a combination (a
    forced four within SHORT_WIN_PLIES' reach whose line the budget did not finish), or deep
    (proven by the solver, no forced four that short)."""
    if short == 0:
        return Kind.MISSED_BLOCK
    if complete and ending in (Kind.DOUBLE_THREAT, Kind.ZUGZWANG):
        return ending
    return Kind.COMBINATION if short is not None else Kind.DEEP
