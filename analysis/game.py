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
from typing import Any, Dict, List, Optional, Tuple

from analysis.proof import DOUBLE_THREAT, ZUGZWANG, Prover, plies_of, verdict
from bot.rules import DRAW, LOSS, WIN, Position

VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss", None: "unsettled"}
MISSED_BLOCK = "missed block"  # the mistake let the winner make four at once
COMBINATION = "combination"  # a short forced four, its line not finished in the budget
DEEP = "deep"  # proven by the solver, no forced win within the forced-win depth
OPENING_SHARE, END_SHARE = 0.2, 0.5  # of the board's cells: the phases of a mistake's ply


def phase_of(index: int, cells: int) -> str:
    """"opening" before 20% of the playable cells are filled, "end" from half on, else
    "middle" (a 12x12 board: moves 1-28, 29-71, 72-143)."""
    share = (index + 1) / cells
    return "opening" if share <= OPENING_SHARE else "end" if share > END_SHARE else "middle"


def replay(record: Dict[str, Any]) -> List[Position]:
    """The positions after 0, 1, ... moves; raises InvalidPosition on a move that is not legal."""
    position = Position.new(record["M"], record["N"], record["no_x"], record["no_y"])
    positions = [position]
    for x, y in record["moves"]:
        position = position.play_xy(x, y)
        positions.append(position)
    return positions


def loser_of(record: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """(side, name) of the player who lost on the board, None for a tie or a fault's game."""
    if record.get("fault") or record.get("result") not in ("a", "b"):
        return None
    side = "b" if record["result"] == "a" else "a"
    return side, record[side]


def skip_reason(record: Dict[str, Any]) -> Optional[str]:
    """Why a record has nothing to analyse ("tie", "fault: timeout by uct"), else None."""
    fault = record.get("fault")
    if fault:
        return f"fault: {fault.get('kind', '?')} by {record.get(fault.get('side', ''), '?')}"
    if record.get("result") not in ("a", "b"):
        return "tie"
    return None


def _xy(position: Position, move: int) -> List[int]:
    """Course coordinates of a single-bit cell (the same on every position of the board)."""
    return list(position.xy(move))


def analyse_game(record: Dict[str, Any], seconds: float) -> Dict[str, Any]:
    """The analysis of one lost game (see the module docstring), a JSON-ready dict:
    ``loser``, ``loser_moved`` ("first"/"second"), ``lost_after`` (moves played when the loser
    was first proven lost), ``decisive`` (index, move, the other moves not proven lost with
    their values and the plies within which each is proven to allow no forced four,
    ``proven``: one of them is proven to hold, ``avoidable``: proven, or one is clear of a four
    for as long as the shortest forced win the mistake allowed) or None when the loser was lost
    before its first move, ``kind``, ``forced_four_in`` (plies of the winner's shortest forced four
    after the mistake, None when none is within the forced-win search's reach), ``win_in``
    (plies of the winning line after the
    mistake: the proof's line when complete), ``line`` (the winning line in course
    coordinates, the winner's move first: the proof's, else the game's own remainder, every
    position of which is proven lost; ``line_source`` says which), ``phase``,
    ``positions`` searched and ``elapsed`` seconds."""
    started = time.perf_counter()
    side, name = loser_of(record) or (None, None)
    if side is None:
        raise ValueError("the game was not lost on the board")
    positions = replay(record)
    first = "a" if record["leg"] == 0 else "b"
    loser_parity = 0 if side == first else 1
    prover = Prover(positions[0].geo, seconds)
    n = len(record["moves"])
    lost_after = n - 1  # before the winner's last move the loser is lost: a four is there
    decisive = None
    searched = 0
    for index in range(n - 1, -1, -1):
        if index % 2 != loser_parity:
            continue
        position = positions[index]
        values, safe_plies = prover.move_values(position)
        searched += 1
        if verdict(values) == LOSS:
            lost_after = max(index - 1, 0)
            continue
        played = position.play_xy(*record["moves"][index]).mask ^ position.mask
        alternatives = [{"move": _xy(position, m), "value": VALUE_NAMES[v],
                         "no_four_within": safe_plies.get(m, 0)}
                        for m, v in sorted(values.items()) if m != played and v != LOSS]
        decisive = {"index": index, "move": list(record["moves"][index]),
                    "alternatives": alternatives,
                    "proven": any(a["value"] != "unsettled" for a in alternatives)}
        lost_after = index + 1
        break
    won = positions[lost_after]
    winner_to_move = lost_after % 2 != loser_parity  # else: lost before the loser's first move
    short = prover.shortest_win(won) if winner_to_move else None
    line = prover.winning_line(won, attacker=winner_to_move, shortest=short)
    if decisive is not None:
        # proven within bounds: the mistake allowed a forced four in `short` plies that some
        # other move was proven clear of for at least as long
        decisive["avoidable"] = decisive["proven"] or (short is not None and any(
            a["no_four_within"] >= plies_of(short) for a in decisive["alternatives"]))
    if line.complete:
        moves, source = [_xy(won, m) for m in line.moves], "proof"
    else:  # every position of the game's own remainder is proven lost for the loser
        moves, source = [list(m) for m in record["moves"][lost_after:]], "game"
    return {
        "loser": name, "loser_moved": "first" if side == first else "second",
        "seconds": seconds,
        "lost_after": lost_after,
        "decisive": decisive,
        "kind": _kind(short, line.ending, line.complete),
        "forced_four_in": None if short is None else plies_of(short),
        "win_in": len(line.moves) if line.complete else None,
        "line": moves,
        "line_source": source,
        "phase": phase_of(decisive["index"], _cells(won)) if decisive else "opening",
        "positions": searched,
        "elapsed": round(time.perf_counter() - started, 3),
    }


def _cells(position: Position) -> int:
    return position.geo.M * position.geo.N - 1


def _kind(short: Optional[int], ending: Optional[str], complete: bool) -> str:
    """How the win after the mistake goes: a missed block (the winner makes four at once), a
    double threat or a zugzwang the winner forces (the proof line's ending), a combination (a
    forced four within SHORT_WIN_PLIES' reach whose line the budget did not finish), or deep
    (proven by the solver, no forced four that short)."""
    if short == 0:
        return MISSED_BLOCK
    if complete and ending in (DOUBLE_THREAT, ZUGZWANG):
        return ending
    return COMBINATION if short is not None else DEEP

