"""The exact questions about a position (docs/analyse.md, "How it works"): each move's value, the
shortest forced win, the reply that holds out longest, a winning line and how it ends. The loss
analysis asks them of the bot's positions (Prover); a suite's build and a puzzle in the arena's
terms (Questions: moves, Outcomes and Proofs), importing this module only when they run."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from bot.rules import DRAW, LOSS, WIN, Geometry, Position, bits
from bot.search.solver import Solver
from bot.search.tactics import Budget, ForcedWin
from records.analysis import Kind, Proof
from records.board import Board
from records.move import Move
from records.result import Outcome

FORCED_NODES = 2_000_000  # node cap of one timed forced-win question (its clock ends it first)
SHORT_WIN_PLIES = 15  # the deepest forced-win question; a longer win is "deep"
QUICK_SHARE = 0.3  # of a position's budget: the forced-win search's try at each move first
LINE_PLIES = 80  # a winning line stops here (longer than any game's remainder on 12x12)
OUTCOMES = {WIN: Outcome.WIN, DRAW: Outcome.DRAW, LOSS: Outcome.LOSS}  # a proven value's word


@dataclass
class WinningLine:
    """Moves (single-bit cells) from a won position, the winner's first, and how it ends (a
    ``Kind``; None when the budget ran out before the end)."""

    moves: List[int] = field(default_factory=list)
    ending: Optional[Kind] = None
    complete: bool = False  # the line reaches the winner's four


class Prover:
    """Answers questions about the positions of one board, each timed (``seconds`` a question:
    the loss analysis) or paid from ``left``, the nodes not yet spent (a puzzle's step: the
    same answers on any machine however busy; once they are spent, every answer is None).
    With both, Questions.value is paid from the nodes and the other questions are timed (a
    suite's build)."""

    def __init__(self, geo: Geometry, seconds: Optional[float] = None,
                 nodes: Optional[int] = None) -> None:
        self.seconds = seconds
        self.left = nodes
        self.solver = Solver()
        self.forced = ForcedWin(geo)

    def move_values(self, position: Position) -> Tuple[Dict[int, Optional[int]], Dict[int, int]]:
        """Every legal move's proven value for the side to move (WIN, DRAW, LOSS; None where
        the budget ran out), and for the moves not proven lost, the plies within which the
        opponent is proven to have no forced four (0: not even that); timed."""
        possible = position.possible()
        wins = position.winning_moves()
        if wins:
            return {b: (WIN if b & wins else None) for b in bits(possible)}, {}
        assert self.seconds is not None  # the loss analysis's question
        start = time.perf_counter()
        values: Dict[int, Optional[int]] = {b: LOSS for b in bits(possible)}
        safe_plies: Dict[int, int] = {}
        # a short forced win of the opponent's proves a move lost far sooner than the solver,
        # which also searches every long line of the opponent's other moves
        until = start + self.seconds * QUICK_SHARE
        for b in bits(position.non_losing_moves()):
            found, clear = self.forced_search(position.play_bit(b), until=until)
            if found is None:
                safe_plies[b] = plies_of(clear) if clear >= 0 else 0
        if safe_plies:
            left = max(start + self.seconds - time.perf_counter(), 0.0)
            proven = self.solver.solve_moves(position, seconds=left, moves=sum(safe_plies))
            values.update({b: proven.get(b) for b in safe_plies})
        return values, {b: n for b, n in safe_plies.items() if values[b] != LOSS}

    def solve(self, position: Position, moves: Optional[int] = None,
              timed: bool = True) -> Dict[int, int]:
        """The solver's proven ``moves`` (default: the safe ones), in a question's seconds
        where it is ``timed`` and they are given, else paid from the nodes left."""
        if timed and self.seconds is not None:
            return self.solver.solve_moves(position, seconds=self.seconds, moves=moves)
        if self.left is not None and self.left <= 0:
            return {}
        proven = self.solver.solve_moves(position, max_nodes=self.left, moves=moves)
        if self.left is not None:
            self.left -= self.solver.nodes
        return proven

    def _forced(self, question: Callable[[int, int, int, Budget], Optional[Any]],
                position: Position, depth: int, until: Optional[float]) -> Optional[Any]:
        """A forced-win ``question`` (ForcedWin.settle or winning_move) at ``depth``: until
        ``until`` (a perf_counter() instant) and FORCED_NODES at most where the questions are
        timed, else paid from the nodes left (None once they are spent)."""
        if self.seconds is not None:
            return question(position.current, position.mask, depth, Budget(FORCED_NODES, until))
        if self.left is None or self.left <= 0:
            return None
        found = question(position.current, position.mask, depth, Budget(self.left))
        self.left -= self.forced.nodes
        return found

    def _until(self) -> Optional[float]:
        """When a timed question asked now ends (None: untimed)."""
        return None if self.seconds is None else time.perf_counter() + self.seconds

    def shortest_win(self, position: Position) -> Optional[int]:
        """The smallest forced-win depth (bot.search.tactics' plies: 0 is a win now) of the
        side to move, up to SHORT_WIN_PLIES; None when there is none or the budget ends."""
        return self.forced_search(position)[0]

    def forced_search(self, position: Position,
                      until: Optional[float] = None) -> Tuple[Optional[int], int]:
        """(shortest_win's answer, the deepest depth searched completely without a forced win:
        -1 when none was)."""
        until = until if until is not None else self._until()
        # The table's "a forced win" carries no depth, so a win proven deeper for another root
        # would answer a shallower question here: each root's deepening starts afresh (within
        # one deepening a position's remaining depth only grows, so its entries stay true).
        self.forced.table.clear()
        clear = -1
        for depth in range(SHORT_WIN_PLIES + 1):
            found = self._forced(self.forced.settle, position, depth, until)
            if found is None:
                break
            if found:
                return depth, clear
            clear = depth
        return None, clear

    def winning_line(self, position: Position, attacker: bool = True,
                     shortest: Optional[int] = None) -> WinningLine:
        """A proof's line, within one question's budget, from a position the winner wins
        (``attacker``: it is to move): the winner's shortest forced win, the loser's longest
        defence. ``shortest``: the caller's shortest_win() of ``position``, when known. Any
        reply of the loser's keeps the line a proof: the budget's end only makes it shorter."""
        line = WinningLine()
        until = self._until()
        depth = shortest if attacker and shortest is not None else -1
        while len(line.moves) < LINE_PLIES and (until is None or time.perf_counter() < until):
            move = self.attack(position, depth) if attacker else self._defend(position, line)
            depth = -1
            if not move:
                return line
            line.moves.append(move)
            if attacker and move & position.winning_moves():
                line.complete = True
                line.ending = line.ending or Kind.MISSED_BLOCK
                return line
            position = position.play_bit(move)
            attacker = not attacker
        return line

    def attack(self, position: Position, depth: Optional[int] = -1) -> int:
        """The winner's move in a position it wins: a four now, else one forcing a four within
        ``depth`` (its shortest win; -1: not asked yet), else the solver's winning move; 0
        when the budget ends first."""
        wins = position.winning_moves()
        if wins:
            return wins & -wins
        if depth == -1:
            depth = self.shortest_win(position)
        if depth is not None:
            move = self._forced(self.forced.winning_move, position, depth, self._until())
            if move:
                return move
        return next((m for m, v in self.solve(position).items() if v == WIN), 0)

    def _defend(self, position: Position, line: WinningLine) -> int:
        """The loser's reply in a line (`defence`), and the line's ending where it has no safe
        one: two threats, or a block opening another; else a zugzwang."""
        if position.can_win_now():
            return 0  # not a won position after all: no line
        if not position.non_losing_moves():
            blocks = position.possible() & position.opponent_winning_cells()
            line.ending = line.ending or (Kind.DOUBLE_THREAT if blocks else Kind.ZUGZWANG)
        return self.defence(position)

    def defence(self, position: Position) -> int:
        """The lost side's safe reply after which the winner's shortest win is longest, the
        most central among equals, one with no short win after it at once; with no safe
        reply, a block, else any move."""
        safe = list(bits(position.non_losing_moves()))
        if not safe:
            move = (position.possible() & position.opponent_winning_cells()) or position.possible()
            return move & -move
        centre = (position.geo.N - 1) / 2
        safe.sort(key=lambda b: abs(position.geo.column(b) - centre))
        best, longest = safe[0], -1
        for move in safe:
            depth = self.shortest_win(position.play_bit(move))
            if depth is None:
                return move
            if depth > longest:
                best, longest = move, depth
        return best


def plies_of(depth: int) -> int:
    """The plies to the four that a forced win of ``depth`` (bot.search.tactics' count) covers:
    0 is 1 ply, 1 is 3; an even depth adds nothing (the loser's safe replies allow no four)."""
    return depth + 1 + depth % 2


def kind_of(short: Optional[int], line: WinningLine) -> Kind:
    """How a win goes: a missed block (a four now), the proof line's double threat or
    zugzwang, a combination (a short forced four, its line unfinished), or deep (no short one)."""
    if short == 0:
        return Kind.MISSED_BLOCK
    if line.complete and line.ending in (Kind.DOUBLE_THREAT, Kind.ZUGZWANG):
        return line.ending
    return Kind.COMBINATION if short is not None else Kind.DEEP


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
        """The exact value of ``move`` after ``ply`` moves for the side to move: a four now
        wins and a move the opponent answers with a four loses without a search; the solver
        settles the rest (``search``) while the nodes last."""
        position, cell = self.positions[ply], self._cell(ply, move)
        if cell & position.winning_moves():
            return Outcome.WIN
        if position.play_bit(cell).can_win_now():
            return Outcome.LOSS
        found = self.prover.solve(position, cell, timed=False).get(cell) if search else None
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
        if (ply, move) not in self._depths:
            self._depths[ply, move] = self.prover.shortest_win(self._after(ply, move))
        return self._depths[ply, move]

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
        return Move(*position.xy(self.prover.defence(position)))
