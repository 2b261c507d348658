"""The exact questions a puzzle asks after each move (the arena's puzzle page, through
arena/suite/puzzle.py), under one node budget and never a clock, so that a question gets the
same answer on any machine however busy: what a column is worth for the side to move (the
solver, bot.search.solver), the reply that holds out longest against a proven win, and the
winner's line to its four (the forced-win search, bot.search.tactics, then the solver). What
the budget cannot settle is None, never guessed."""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from analysis.proof import LINE_PLIES, SHORT_WIN_PLIES, holding_out
from bot.rules import DRAW, LOSS, WIN, Position, bits
from bot.search.solver import Solver
from bot.search.tactics import Budget, ForcedWin
from records.result import Outcome

OUTCOMES = {WIN: Outcome.WIN, DRAW: Outcome.DRAW, LOSS: Outcome.LOSS}


class Questions:
    """Questions about the positions of one board, all paid from ``nodes`` (the solver's and
    the forced-win search's nodes together): each takes what is left, and once it is spent
    every answer is None. A fresh solver and table each time, so an answer depends on the
    question and the budget alone."""

    def __init__(self, board: Sequence[int], moves: Sequence[Sequence[int]],
                 nodes: int) -> None:
        M, N, no_x, no_y = board
        position = Position.new(M, N, no_x, no_y)
        for x, y in moves:
            position = position.play_xy(x, y)  # InvalidPosition: the caller checked them
        self.position = position
        self.left = nodes
        self.solver = Solver()
        self.forced = ForcedWin(position.geo)

    def value(self, position: Position, cell: int) -> Optional[Outcome]:
        """The exact value of playing ``cell`` for the side to move: a four now wins and a
        move the opponent answers with a four loses without a search; the solver settles the
        rest while the budget lasts."""
        if cell & position.winning_moves():
            return Outcome.WIN
        if position.play_bit(cell).can_win_now():
            return Outcome.LOSS
        if self.left <= 0:
            return None
        proven = self.solver.solve_moves(position, max_nodes=self.left, moves=cell)
        self.left -= self.solver.nodes
        found = proven.get(cell)
        return None if found is None else OUTCOMES[found]

    def shortest_win(self, position: Position) -> Optional[int]:
        """The side to move's smallest forced-win depth (bot.search.tactics' count: 0 is a
        four now) up to SHORT_WIN_PLIES; None when there is none that short or the budget
        ends first."""
        # each root's deepening starts afresh, as analysis.proof.Prover.forced_search says why
        self.forced.table.clear()
        for depth in range(SHORT_WIN_PLIES + 1):
            if self.left <= 0:
                return None
            found = self.forced.settle(position.current, position.mask, depth,
                                       Budget(self.left))
            self.left -= self.forced.nodes
            if found is None:
                return None
            if found:
                return depth
        return None

    def defence(self, position: Position) -> Tuple[int, Optional[int]]:
        """The lost side's reply that holds out longest, and the winner's shortest forced-win
        depth after it (None: none found within reach or budget, which counts as longest and
        ends the search there). With no safe reply (two threats, or a block that opens
        another), a block; else the most central reply among the longest."""
        safe = list(bits(position.non_losing_moves())) if not position.can_win_now() else []
        if not safe:
            blocks = position.possible() & position.opponent_winning_cells()
            move = blocks or position.possible()
            return move & -move, 0
        return holding_out(position, safe, self.shortest_win)

    def attack(self, position: Position) -> int:
        """The winner's move in a position it wins: a four now, else one that forces a win at
        its shortest depth, else the solver's winning move; 0 when the budget ends first."""
        wins = position.winning_moves()
        if wins:
            return wins & -wins
        depth = self.shortest_win(position)
        if depth is not None and self.left > 0:
            move = self.forced.winning_move(position.current, position.mask, depth,
                                            Budget(self.left))
            self.left -= self.forced.nodes
            if move:
                return move
        if self.left <= 0:
            return 0
        proven = self.solver.solve_moves(position, max_nodes=self.left)
        self.left -= self.solver.nodes
        return next((m for m, v in proven.items() if v == WIN), 0)

    def winning_line(self, position: Position) -> Tuple[List[Tuple[int, int]], bool]:
        """The line from a position the side to move wins: the winner's moves as `attack`
        plays them, the loser's as `defence` does, until the winner's four (True) or the
        budget's end (False); course cells, the winner's first. Any reply of the loser's
        keeps the line a proof (it is lost whatever it plays): the budget's end only makes
        its defence shorter."""
        line: List[Tuple[int, int]] = []
        attacker = True
        while len(line) < LINE_PLIES:
            move = self.attack(position) if attacker else self.defence(position)[0]
            if not move:
                return line, False
            line.append(position.xy(move))
            if attacker and move & position.winning_moves():
                return line, True
            position = position.play_bit(move)
            attacker = not attacker
        return line, False
