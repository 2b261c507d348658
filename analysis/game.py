"""One game record's analysis (docs/analyse.md, "How it works"): the walk back from the last move
over the loser's positions, stopping at the decisive mistake. Indices are 0-based into the
record's ``moves``."""

from __future__ import annotations

import time
from itertools import accumulate
from typing import List

from analysis.proof import OUTCOMES, Prover, kind_of, plies_of
from bot.rules import LOSS, Position
from records.analysis import Alternative, Decisive, LossAnalysis, Phase, Value
from records.game import GameRecord
from records.result import Seat

OPENING_SHARE, END_SHARE = 0.2, 0.5  # of the board's cells: the phases of a mistake's ply


def phase_of(index: int, cells: int) -> Phase:
    """OPENING before 20% of the playable cells are filled, END from half on, else MIDDLE
    (a 12x12 board: moves 1-28, 29-71, 72-143)."""
    share = (index + 1) / cells
    return Phase.OPENING if share <= OPENING_SHARE else Phase.END if share > END_SHARE \
        else Phase.MIDDLE


def replay(record: GameRecord) -> List[Position]:
    """The positions after 0, 1, ... moves; raises InvalidPosition on a move that is not legal."""
    start = Position.new(record.M, record.N, record.no_x, record.no_y)
    return list(accumulate(record.moves, lambda p, m: p.play_xy(*m), initial=start))


def analyse_game(record: GameRecord, seconds: float) -> LossAnalysis:
    """The analysis of one lost game (records.analysis names its fields); the winning line is
    the proof's, else the game's own remainder. ValueError for a game not lost on the board."""
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
    for index in reversed(range(int(loser_seat is Seat.SECOND), n, 2)):  # the loser's moves
        position = positions[index]
        values, safe_plies = prover.move_values(position)
        searched += 1
        if all(v == LOSS for v in values.values()):  # every move proven lost
            lost_after = max(index - 1, 0)
            continue
        played = position.play_xy(*record.moves[index]).mask ^ position.mask
        alternatives = [Alternative(list(position.xy(m)), Value(OUTCOMES[v].value) if v is not
                                    None else Value.UNSETTLED, safe_plies.get(m, 0))
                        for m, v in sorted(values.items()) if m != played and v != LOSS]
        decisive = Decisive(index, list(record.moves[index]), alternatives,
                            proven=any(a.value != Value.UNSETTLED for a in alternatives))
        lost_after = index + 1
        break
    won = positions[lost_after]
    winner_to_move = Seat.of_ply(lost_after) is not loser_seat
    short = prover.shortest_win(won) if winner_to_move else None
    line = prover.winning_line(won, attacker=winner_to_move, shortest=short)
    if decisive is not None:
        # proven within bounds: the mistake allowed a forced four in `short` plies that some
        # other move was proven clear of for at least as long
        decisive.avoidable = decisive.proven or (short is not None and any(
            a.no_four_within >= plies_of(short) for a in decisive.alternatives))
    if line.complete:
        moves, source = [list(won.xy(m)) for m in line.moves], "proof"
    else:  # every position of the game's own remainder is proven lost for the loser
        moves, source = [list(m) for m in record.moves[lost_after:]], "game"
    return LossAnalysis(
        loser=record.name(side), loser_moved=loser_seat,
        seconds=seconds, lost_after=lost_after, decisive=decisive,
        kind=kind_of(short, line),
        forced_four_in=None if short is None else plies_of(short),
        win_in=len(line.moves) if line.complete else None, line=moves, line_source=source,
        phase=phase_of(decisive.index, won.geo.M * won.geo.N - 1) if decisive else Phase.OPENING,
        positions=searched, elapsed=round(time.perf_counter() - started, 3))

