"""The guard of the move played (bot.search.guard): each way it ends, on a hand-checked position
whose most visited move lets the opponent open a three at both ends."""

from __future__ import annotations

from typing import Tuple

from bot.rules import LOSS, WIN, Position, parse_board
from bot.search.clock import Deadline, Limit
from bot.search.guard import GuardOutcome, guard_move
from bot.search.node import Node
from bot.search.settings import Settings
from bot.search.tactics import ForcedWin
from bot.search.turn import Turn

# X to move; O holds (8, 2) and (8, 3). Column 8 lets O open both ends of the bottom row (a win
# within 1 ply of O's); column 4 touches the line and holds (tests/bot/test_tactics.py).
OPEN_ENDS = ["........#"] + ["........."] * 7 + ["X.OO...X."]


def tree(p: Position, visits: dict) -> Node:
    """``p``'s root with the moves of the columns in ``visits`` expanded, each with its visits."""
    root = Node(p.geo, 0, p.current, p.mask)
    for column, n in visits.items():
        child = root.expand(p.geo, p.move_bit(column))
        child.visits, child.value = n, n / 2
        root.visits += n
    return root


def guarded(root: Node, p: Position, seconds: float = 30.0,
            **settings) -> Tuple[GuardOutcome, Turn]:
    """How a 1-ply guard of ``root`` within ``seconds`` ends, and its turn."""
    turn = Turn(root, p.geo, Deadline(Limit(seconds=seconds)))
    settings = {"guard_depths": (1,), **settings}
    return guard_move(turn, ForcedWin(p.geo), Settings(**settings)), turn


def test_a_move_proven_lost_is_marked_and_the_next_is_cleared():
    p = parse_board(OPEN_ENDS)
    root = tree(p, {8: 100, 4: 50})
    outcome, turn = guarded(root, p)
    lost, held = root.children
    assert outcome is GuardOutcome.CLEARED and turn.cleared is held
    assert lost.outcome == WIN and held.outcome is None and root.outcome is None


def test_nothing_to_guard_without_depths_moves_or_an_open_move():
    p = parse_board(OPEN_ENDS)
    nothing = GuardOutcome.NOTHING_TO_GUARD
    assert guarded(tree(p, {8: 100}), p, guard_depths=())[0] is nothing
    assert guarded(tree(p, {}), p)[0] is nothing
    only = tree(p, {8: 100})
    only.untried = 0  # as if every other move were proven lost: column 8 decides the root
    outcome, turn = guarded(only, p)
    assert outcome is nothing and turn.cleared is None and only.outcome == LOSS


def test_out_of_time_before_a_question_and_unsettled_within_one():
    p = parse_board(OPEN_ENDS)
    outcome, late = guarded(tree(p, {8: 100, 4: 50}), p, seconds=0.0)
    assert outcome is GuardOutcome.OUT_OF_TIME and late.cleared is None
    outcome, starved = guarded(tree(p, {8: 100, 4: 50}), p, guard_nodes=1)
    assert outcome is GuardOutcome.UNSETTLED and starved.cleared is None
    assert starved.root.children[0].outcome is None  # nothing marked without an answer
