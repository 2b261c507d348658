"""What a search knows about its root, read from the tree: the seam an analysis uses.

An analysis (bot.protocol.analyse) runs the search that plays (MCTS.search, with a watch) and
reads its state only through ``report``: every legal move with its visits, its mean value and
the proof the tree holds for it, the principal variation, and the search's effort. A proof
comes from the tree's solver and its forced-win probes and guard (bot.search.mcts,
bot.search.guard); its distance in plies is given where the tree shows it exactly (a win now,
a move that loses at once, a move after which every reply loses at once, a move that fills
the board), and None elsewhere: a probe proves a win, not its length.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from bot.rules import DRAW, LOSS, WIN, Geometry, Position, bits
from bot.search.node import Node, sort_key
from bot.search.turn import Turn


@dataclass(frozen=True)
class MoveReport:
    """One legal move of the root.

    - ``move``: its single-bit cell; ``visits``: play-outs through it (earlier searches'
      included); ``value``: their mean score for the side to move at the root (1 win, 0.5
      draw, 0 loss), None when unvisited.
    - ``outcome``: WIN, DRAW or LOSS proven for the side to move at the root when it plays
      this move, else None; ``plies``: the plies to the game's end from the root with best
      play, when the tree shows it exactly (module doc), else None.
    - ``line``: the move, then the most preferred reply at each ply below it (as ``pv``):
      each move's own principal variation, as UCI's ``multipv`` gives the best N.
    """

    move: int
    visits: int
    value: Optional[float]
    outcome: Optional[int]
    plies: Optional[int]
    line: Tuple[int, ...]


@dataclass(frozen=True)
class Report:
    """The root of one search as it stands.

    - ``moves``: every legal move, left column first.
    - ``best``: the move to play now (the caller's, else the search's choice, Turn.choice),
      None when there is none yet; ``pv``: the principal variation from it, the most
      preferred reply at each ply (sort_key), ending in a win now where the tree shows one.
    - ``outcome``, ``plies``: the root's proof for its side to move and, for a win, the
      plies of the quickest win known.
    - ``playouts``, ``nodes``, ``depth``, ``reused``: the search's play-outs and nodes
      created so far, its deepest selected path in plies, and the root's visits from earlier
      searches.
    """

    moves: Tuple[MoveReport, ...]
    best: Optional[int]
    pv: Tuple[int, ...]
    outcome: Optional[int]
    plies: Optional[int]
    playouts: int
    nodes: int
    depth: int
    reused: int


# a child decided on creation: its parent's plies to the end
PLIES: Dict[Optional[int], int] = {LOSS: 3, DRAW: 1}


def _position(node: Node, geo: Geometry) -> Position:
    """The board of ``node`` as a Position, for its move sets."""
    return Position(geo, node.current, node.mask, bin(node.mask & ~geo.forbidden).count("1"))


def report(turn: Turn, best: int = 0) -> Report:
    """The root of ``turn`` read from its tree; ``best`` (a single-bit cell, 0: none) is the
    move the caller plays there regardless of the tree (the engine's rules), else the search's
    choice is."""
    root, board = turn.root, _position(turn.root, turn.geo)
    wins, safe = board.winning_moves(), board.non_losing_moves()
    children: Dict[int, Node] = {child.move: child for child in root.children}
    moves = []
    for move in bits(board.possible()):  # lowest bit first: left column first
        child = children.get(move)
        if move & wins:
            outcome, plies = WIN, 1
        elif not move & safe:
            outcome, plies = LOSS, 2
        elif child is None:
            outcome, plies = None, None
        else:
            outcome = None if child.outcome is None else -child.outcome  # the parent's view
            plies = _plies(child)
        visits = child.visits if child is not None else 0
        value = child.value / visits if child is not None and visits else None
        line = tuple(principal_variation(root, turn.geo, move))
        moves.append(MoveReport(move, visits, value, outcome, plies, line))
    if not best:
        chosen = turn.choice()
        best = chosen.move if chosen is not None else 0
    outcome = root.outcome
    known = [m.plies for m in moves if m.outcome == outcome and m.plies is not None]
    plies = min(known) if outcome == WIN and known else None
    return Report(tuple(moves), best or None, tuple(principal_variation(root, turn.geo, best)),
                  outcome, plies, turn.playouts, turn.nodes, turn.depth, turn.reused)


def _plies(child: Node) -> Optional[int]:
    """Plies from the parent to the end when the child was decided on creation (no moves
    left to it: no children and nothing untried), else None."""
    if child.children or child.untried:
        return None
    return PLIES.get(child.outcome)


def principal_variation(root: Node, geo: Geometry, first: int) -> List[int]:
    """``first``, then the most preferred child (sort_key) at each ply below it, then a win
    now of the last position's side to move if it has one."""
    if not first:
        return []
    line = [first]
    node = next((child for child in root.children if child.move == first), None)
    while node is not None and node.children:
        node = max(node.children, key=sort_key)
        line.append(node.move)
    if node is not None and node.outcome == WIN:
        wins = _position(node, geo).winning_moves()
        if wins:
            line.append(wins & -wins)
    return line
