"""The ladder's members at the decisive mistakes of analysed losses: each member moves in the
position of every analysed loss's decisive mistake (records from `python -m arena analyse`),
and the loss analysis's searches say whether its move is proven lost. It shows whether a
change of the search avoids the mistakes that lost the games, in minutes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional, Tuple

from bot.rules import Position
from devtools.members import Member, one_move, variant
from records.analysis import LossAnalysis


def verdict(position: Position, move: Tuple[int, int], seconds: float) -> str:
    """'lost in N' (the opponent forces a four within N plies after ``move``), else, from the
    exact solver in ``seconds`` more, 'lost deep' (the opponent wins all the same) or 'holds'
    (it does not: a draw at least), else 'clear N' (no forced four within N plies, N up to
    15) or 'unsettled', by the loss analysis's searches."""
    from analysis.proof import Prover, plies_of
    prover = Prover(position.geo, seconds)
    after = position.play_xy(*move)
    found, clear = prover.forced_search(after)
    if found is not None:
        return f"lost in {plies_of(found)}"
    wins = prover.solver.wins(after, time.perf_counter() + seconds)
    if wins is not None:
        return "lost deep" if wins else "holds"
    return f"clear {plies_of(clear)}" if clear > 0 else "unsettled"


def pondered_move(member: Member, positions: List[Position], index: int,
                  ponder: float) -> Tuple[int, int]:
    """The move of a bot member at ``positions[index]`` as the process reaches it: it searches
    the move before (``index - 2``), ponders ``ponder`` seconds while the opponent thinks,
    then searches this one with the tree that leaves."""
    from bot.choose import safe_decide
    from bot.protocol.platform import PONDER_LIMIT
    from bot.search.clock import Deadline, Limit
    from bot.search.leaves import make_searcher
    searcher = variant(member.knobs) if member.knobs else make_searcher(1)
    limit = Limit(member.seconds, member.playouts)
    safe_decide(positions[index - 2], limit, searcher, Deadline(limit))
    end = time.perf_counter() + ponder
    searcher.ponder(positions[index - 1], lambda: time.perf_counter() > end, PONDER_LIMIT)
    return positions[index].xy(safe_decide(positions[index], limit, searcher, Deadline(limit)))


def decisive(path: Path, members: List[Member], seconds: float,
             ponder: Optional[float] = None, kinds: Optional[List[str]] = None) -> None:
    """Each member's move at each analysed loss's decisive mistake (of ``kinds``, default
    all), and its verdict(). With ``ponder``, bot members reach the position as the process
    does (pondered_move)."""
    from analysis.game import replay
    from records.log import read_games
    cases = [(r, r.analysis) for r in read_games(path) if isinstance(r.analysis, LossAnalysis)
             and r.analysis.decisive and (kinds is None or r.analysis.kind.value in kinds)]
    if not cases:
        raise SystemExit(f"{path}: no analysed loss with a decisive mistake of those kinds")
    lost = {m.name: 0 for m in members}
    deep = {m.name: 0 for m in members}
    players = {m.name: m.player() for m in members}
    try:
        for record, analysis in cases:
            index = analysis.decisive.index
            positions = replay(record)
            pos = positions[index]
            last = tuple(record.moves[index - 1]) if index else (-1, -1)
            game = tuple(record.moves[index])
            row = [f"ply {index + 1:>2} {record.M}x{record.N}",
                   f"game {game}: {verdict(pos, game, seconds)}"]
            for member in members:
                if ponder is not None and member.kind == "bot" and index >= 2:
                    move = pondered_move(member, positions, index, ponder)
                else:
                    move = one_move(players[member.name], record.M, record.N, pos.top(),
                                    pos.board(), last[0], last[1], record.no_x, record.no_y)
                said = verdict(pos, move, seconds)
                lost[member.name] += said.startswith("lost in")
                deep[member.name] += said == "lost deep"
                row.append(f"{member.name} {move}: {said}")
            print(" | ".join(row), flush=True)
    finally:
        for player in players.values():
            player.close()
    print(f"{len(cases)} decisive positions; moves proven lost to a forced four, and by the "
          "solver: " + ", ".join(f"{name} {lost[name]} and {deep[name]}" for name in lost))
