"""The exact questions a suite's build asks of a position: every legal column's value, the plies
to the four, how the win goes. They are the loss analysis's (analysis/proof.py: the bot's
solver and forced-win search), imported only when a build runs, as the command line imports
the analysis; nothing here imports the bot, and nothing is guessed: a column the node budget
cannot settle stays None."""

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from arena.suite.item import Goal, Proof
from records.analysis import Kind
from records.game import GameRecord
from records.move import Move
from records.result import Outcome

Values = Dict[Move, Optional[Outcome]]  # each legal column's exact value; None: unsettled
# why a position the search settles (or cannot) is no test
SEVERAL_WIN, UNSETTLED = "several columns win", "unsettled within the budget"
ALL_LOSE, SEVERAL_HOLD = "every column loses", "several columns hold"


@dataclass(frozen=True)
class Budget:
    """What one position may spend: the solver's nodes (its values, so a build is the same on
    any machine), and the seconds of each forced-win question (the plies and the theme)."""

    nodes: int
    seconds: float


class GameProofs:
    """Proves positions of one game; the solver keeps its table from one to the next, so a
    walk back from the end reuses the later positions' work (as the loss analysis does)."""

    def __init__(self, record: GameRecord, budget: Budget) -> None:
        from analysis.game import replay
        from analysis.proof import Prover

        self.positions = replay(record)
        self.prover = Prover(self.positions[0].geo, budget.seconds)
        self.nodes = budget.nodes
        self._short: Dict[Tuple[int, Optional[Move]], Optional[int]] = {}

    def values(self, ply: int, legal: List[Move]) -> Values:
        """The exact value of each of ``legal`` (the moves after ``ply`` moves, left to right)
        for the side to move. A four now wins and a move the opponent answers with a four
        loses without a search; the solver settles the rest while the budget lasts, and stops
        once two columns win (the position is no test then)."""
        from analysis.game import VALUES

        position = self.positions[ply]
        solver = self.prover.solver
        wins_now = position.winning_moves()
        found: Values = {}
        open_moves = []
        for move in legal:
            cell = position.geo.bit(move.x, move.y)
            if cell & wins_now:
                found[move] = Outcome.WIN
            elif position.play_bit(cell).can_win_now():
                found[move] = Outcome.LOSS
            else:
                found[move] = None
                open_moves.append((move, cell))
        left = self.nodes
        for move, cell in open_moves:
            if left <= 0 or list(found.values()).count(Outcome.WIN) >= 2:
                break
            value = solver.solve_moves(position, max_nodes=left, moves=cell).get(cell)
            left -= solver.nodes
            if value is not None:
                found[move] = Outcome(VALUES[value].value)
        return found

    def proofs(self, ply: int, values: Values) -> Tuple[Proof, ...]:
        """The proofs of settled ``values``, with the plies the forced-win search finds within
        its time: the winning column's to its four, a losing column's to the opponent's."""
        from analysis.proof import plies_of

        out = []
        for move, result in values.items():
            assert result is not None  # only settled positions become items
            plies = None
            if result is Outcome.WIN:  # the side to move's shortest win: through its one winner
                depth = self._shortest(ply, None)
                plies = None if depth is None else plies_of(depth)
            elif result is Outcome.LOSS:
                depth = self._shortest(ply, move)
                plies = None if depth is None else 1 + plies_of(depth)
            out.append(Proof(move, result, plies))
        return tuple(out)

    def theme(self, ply: int, goal: Goal, proofs: Tuple[Proof, ...]) -> Kind:
        """How the win goes, named as the loss analysis names the win a mistake allowed (a
        missed block, a double threat, a zugzwang, a combination, deep): for a win, the
        answer's; for a hold, the one the slowest of the losses to avoid allows (deep where
        one is deeper than the forced-win search)."""
        if goal is Goal.WIN:
            return self._kind(ply, None)
        losses = [p for p in proofs if p.result is Outcome.LOSS]
        if any(p.plies is None for p in losses):
            return Kind.DEEP
        return self._kind(ply, max(losses, key=lambda p: p.plies or 0).move)

    def _position(self, ply: int, move: Optional[Move]) -> Any:
        """The position after ``ply`` moves and ``move`` (the bot's Position, which the arena
        leaves the analysis to name)."""
        position = self.positions[ply]
        return position if move is None else position.play_bit(position.geo.bit(move.x, move.y))

    def _shortest(self, ply: int, move: Optional[Move]) -> Optional[int]:
        """The forced-win search's shortest win of the side to move there, asked once."""
        key = (ply, move)
        if key not in self._short:
            self._short[key] = self.prover.shortest_win(self._position(ply, move))
        return self._short[key]

    def _kind(self, ply: int, move: Optional[Move]) -> Kind:
        """The kind of the win of the side to move after ``ply`` moves (and ``move``), as
        analysis.game names it: a four now is a missed block, a proof line ending in a double
        threat or a zugzwang is that, else a combination (a short forced four) or deep."""
        position = self._position(ply, move)
        short = self._shortest(ply, move)
        if short == 0:
            return Kind.MISSED_BLOCK
        line = self.prover.winning_line(position, attacker=True, shortest=short)
        if line.complete and line.ending in (Kind.DOUBLE_THREAT, Kind.ZUGZWANG):
            return line.ending
        return Kind.COMBINATION if short is not None else Kind.DEEP


def goal_of(values: Values) -> Tuple[Optional[Goal], str]:
    """The goal a position's values make it a test of; else None and why it is none."""
    results = list(values.values())
    wins, holds = results.count(Outcome.WIN), results.count(Outcome.DRAW)
    if wins >= 2:
        return None, SEVERAL_WIN
    if None in results:
        return None, UNSETTLED
    if wins == 1:
        return Goal.WIN, ""
    if holds == 1:
        return Goal.HOLD, ""
    return None, ALL_LOSE if holds == 0 else SEVERAL_HOLD
