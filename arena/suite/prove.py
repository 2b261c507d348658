"""The exact questions a suite's build asks of a position: every legal column's value, the plies
to the four, how the win goes. They are the analysis's (analysis/proof.py), imported only
when a build runs, as the command line imports the analysis; nothing here imports the bot, and
nothing is guessed: a column the node budget cannot settle stays None."""

from typing import TYPE_CHECKING, Optional, Tuple

from arena.engine.limit import Limit
from arena.suite.item import Goal
from records.analysis import Kind, Proof
from records.game import GameRecord
from records.move import Move
from records.result import Outcome

if TYPE_CHECKING:
    from analysis.proof import Questions, Values

# why a position the search settles (or cannot) is no test
SEVERAL_WIN, UNSETTLED = "several columns win", "unsettled within the budget"
ALL_LOSE, SEVERAL_HOLD = "every column loses", "several columns hold"


def game_questions(record: GameRecord, limit: Limit) -> "Questions":
    """The questions about one game's positions: each position's values within ``limit``'s
    nodes (the solver's, so a build is the same on any machine, its table kept from one
    position to the next), each forced-win question (the plies, the theme) within its
    seconds."""
    from analysis.proof import Questions

    return Questions(record.board, [Move(*m) for m in record.moves], limit.seconds, limit.nodes)


def theme(questions: "Questions", ply: int, goal: Goal, proofs: Tuple[Proof, ...]) -> Kind:
    """How the win goes, named as the loss analysis names the win a mistake allowed (a
    missed block, a double threat, a zugzwang, a combination, deep): for a win, the
    answer's; for a hold, the one the slowest of the losses to avoid allows (deep where
    one is deeper than the forced-win search)."""
    if goal is Goal.WIN:
        return questions.theme(ply, None)
    losses = [p for p in proofs if p.result is Outcome.LOSS]
    if any(p.plies is None for p in losses):
        return Kind.DEEP
    return questions.theme(ply, max(losses, key=lambda p: p.plies or 0).move)


def goal_of(values: "Values") -> Tuple[Optional[Goal], str]:
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
