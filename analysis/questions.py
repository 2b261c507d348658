"""The exact questions in the arena's terms, about the positions of one game: what each move is
worth for the side to move, the shortest win, the reply that holds out longest and the winner's
line to its four, asked and answered with records' moves, Outcomes and Proofs, never a
bitboard. A suite's build asks them of each position it walks back to (arena/suite/prove.py), a
puzzle of its position after each move (arena/suite/puzzle.py); each imports this module only
when it runs, so the rest of the arena never loads the bot. The searches are
analysis.proof.Prover's; what its budget cannot settle is None, never guessed."""

from __future__ import annotations

from itertools import accumulate
from typing import Dict, Optional, Sequence, Tuple

from analysis.proof import OUTCOMES, Prover, kind_of, plies_of
from bot.rules import Position
from records.analysis import Kind, Proof
from records.board import Board
from records.move import Move
from records.result import Outcome

Values = Dict[Move, Optional[Outcome]]  # each move's exact value; None: unsettled


class Questions:
    """The positions of ``moves`` on ``board`` (legal: the referee checked them) and one
    Prover for them all, with ``seconds`` and ``nodes`` as Prover takes them; ``nodes`` is
    also what each position's `values` may spend."""

    def __init__(self, board: Board, moves: Sequence[Move], seconds: Optional[float] = None,
                 nodes: Optional[int] = None) -> None:
        start = Position.new(board.M, board.N, board.no_x, board.no_y)
        self.positions = list(accumulate(moves, lambda p, m: p.play_xy(m.x, m.y),
                                         initial=start))
        self.prover = Prover(start.geo, seconds, nodes)
        self.nodes = nodes
        self._depths: Dict[Tuple[int, Optional[Move]], Optional[int]] = {}

    @property
    def spent(self) -> int:
        """The nodes spent since the last `values` (or since the start)."""
        return (self.nodes or 0) - max(self.prover.left or 0, 0)

    def _cell(self, ply: int, move: Move) -> int:
        return self.positions[ply].geo.bit(move.x, move.y)

    def _after(self, ply: int, move: Optional[Move]) -> Position:
        """The position after ``ply`` moves and ``move``."""
        position = self.positions[ply]
        return position if move is None else position.play_bit(self._cell(ply, move))

    def value(self, ply: int, move: Move, search: bool = True) -> Optional[Outcome]:
        """The exact value of ``move`` after ``ply`` moves for the side to move, a search
        (``search``) paid from the nodes left (Prover.value)."""
        found = self.prover.value(self.positions[ply], self._cell(ply, move), search)
        return None if found is None else OUTCOMES[found]

    def values(self, ply: int, moves: Sequence[Move]) -> Values:
        """The value of each of ``moves`` after ``ply`` moves, from ``nodes`` afresh (the
        solver keeps its table, so a walk back from the end reuses the later positions' work):
        those settled without a search first, then the solver's in order, until two moves
        win (a position with two winning moves asks nothing more)."""
        self.prover.left = self.nodes
        found = {move: self.value(ply, move, search=False) for move in moves}
        for move in [m for m, v in found.items() if v is None]:
            if list(found.values()).count(Outcome.WIN) < 2:
                found[move] = self.value(ply, move)
        return found

    def _depth(self, ply: int, move: Optional[Move]) -> Optional[int]:
        """The forced-win search's shortest win of the side to move after ``ply`` moves and
        ``move`` (its depth), asked once."""
        key = (ply, move)
        if key not in self._depths:
            self._depths[key] = self.prover.shortest_win(self._after(ply, move))
        return self._depths[key]

    def proofs(self, ply: int, values: Values) -> Tuple[Proof, ...]:
        """The proofs of settled ``values`` after ``ply`` moves, with the plies the forced-win
        search finds: a winning move's to its four (the side to move's shortest win, through
        its one winner), a losing move's to the opponent's."""
        out = []
        for move, result in values.items():
            assert result is not None  # only settled positions are proven
            depth = None if result is Outcome.DRAW else self._depth(
                ply, None if result is Outcome.WIN else move)
            plies = None if depth is None else plies_of(depth) + (result is Outcome.LOSS)
            out.append(Proof(move, result, plies))
        return tuple(out)

    def theme(self, ply: int, move: Optional[Move]) -> Kind:
        """How the win of the side to move after ``ply`` moves and ``move`` goes, named as the
        loss analysis names the win a mistake allowed (proof.kind_of)."""
        depth = self._depth(ply, move)
        line = self.prover.winning_line(self._after(ply, move), shortest=depth)
        return kind_of(depth, line)

    def line(self, ply: int, move: Move) -> Tuple[Tuple[Move, ...], bool]:
        """The winning line of the side to move after ``ply`` moves and ``move`` (the winner's
        moves as Prover.attack plays them, the loser's as its defence), and whether it reaches
        the winner's four within the budget."""
        position = self._after(ply, move)
        line = self.prover.winning_line(position)
        return tuple(Move(*position.xy(m)) for m in line.moves), line.complete

    def defence(self, ply: int, move: Move) -> Move:
        """The reply that holds out longest after ``ply`` moves and ``move``, a proven win."""
        position = self._after(ply, move)
        return Move(*position.xy(self.prover.defence(position)[0]))
