"""Two batches on the same boards, game by game: which games changed hands between versions. A
change that swaps many games while the total stays put says how much of a result is chance."""

from pathlib import Path
from typing import Dict, List, NamedTuple, Tuple

from records.game import GameRecord
from records.log import ResultsError, log_path, read_log
from records.result import Outcome, Seat, Side
from records.tally import WDL

Game = Tuple[int, int, Tuple[int, int, int, int]]  # round, leg, board (M, N, no_x, no_y)


class Played(NamedTuple):
    """How one game went for the player: its outcome, its seat and the game's plies."""

    outcome: Outcome
    seat: Seat
    plies: int


def outcomes(records: List[GameRecord], prefix: str) -> Dict[Game, Played]:
    """(round, leg, board) -> the outcome for the player whose name starts with ``prefix``;
    the board is in the key, so batches of other seeds share no game."""
    found = {}
    for r in records:
        side = Side.A if r.a.startswith(prefix) else Side.B if r.b.startswith(prefix) else None
        if side:
            found[(r.round, r.leg, (r.M, r.N, r.no_x, r.no_y))] = Played(
                r.result.outcome(side), r.seat(side), len(r.moves))
    return found


def compare(new_path: Path, old_path: Path, player: str) -> List[str]:
    """The report's lines: each game that changed hands, then the tally. Raises ResultsError
    when a file cannot be read or the two share no game of ``player``."""
    new, old = (outcomes(read_log(log_path(p)), player) for p in (new_path, old_path))
    common = sorted(set(new) & set(old))
    if not common:
        raise ResultsError(f"no game of {player!r} on the same round, leg and board in both "
                           "files (batches of other seeds play other boards)")
    changed = [k for k in common if new[k].outcome is not old[k].outcome]
    lines = [f"round {k[0]} leg {k[1]} ({new[k].seat.value}): {new[k].outcome.letter} in "
             f"{new[k].plies} plies, was {old[k].outcome.letter} in {old[k].plies}"
             for k in changed]
    gained = WDL.of(new[k].outcome for k in changed).wins
    lost = WDL.of(old[k].outcome for k in changed).wins
    wins = [WDL.of(side[k].outcome for k in common).wins for side in (new, old)]
    lines.append(f"{len(common)} games on the same boards: {len(changed)} changed hands, "
                 f"{gained} won only by the first file, {lost} only by the second; "
                 f"wins {wins[0]} against {wins[1]}")
    return lines
