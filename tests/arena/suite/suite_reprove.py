"""A suite item's answer proven again, apart from the build: each column's value by a fresh
exact solver (bot.search.solver, its table empty, a node budget), and the short wins and losses
by a plain search on the referee's lists (tests/bot/plain_referee.py: no bitboards)."""

import importlib.util
from pathlib import Path
from typing import Dict, Optional

from arena.suite.item import Item
from bot.rules import DRAW, LOSS, WIN, Position
from bot.search.solver import Solver
from records.move import Move
from records.result import Outcome

PLAIN = Path(__file__).resolve().parents[2] / "bot" / "plain_referee.py"
_spec = importlib.util.spec_from_file_location("suite_plain_referee", PLAIN)
assert _spec is not None and _spec.loader is not None
plain = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(plain)

OUTCOME = {WIN: Outcome.WIN, DRAW: Outcome.DRAW, LOSS: Outcome.LOSS}
PLAIN_PLIES = 5  # the plain search checks wins and losses this short


def position(item: Item) -> Position:
    p = Position.new(item.board.M, item.board.N, item.board.no_x, item.board.no_y)
    for m in item.moves:
        p = p.play_xy(m.x, m.y)
    return p


def solved_values(item: Item, nodes: int) -> Dict[Move, Optional[Outcome]]:
    """Each legal column's value for the side to move, by a fresh solver a column (None where
    ``nodes`` ran out)."""
    p = position(item)
    out: Dict[Move, Optional[Outcome]] = {}
    for proof in item.proofs:
        move = proof.move
        child = p.play_xy(move.x, move.y)
        if child.last_mover_won():
            out[move] = Outcome.WIN
        elif child.can_win_now():
            out[move] = Outcome.LOSS
        elif child.is_full():
            out[move] = Outcome.DRAW
        elif not child.non_losing_moves():  # every reply hands the mover a four
            out[move] = Outcome.WIN
        else:
            answer = Solver().wins(child, end=None, max_nodes=nodes)
            if answer is None:
                out[move] = None
            elif answer:
                out[move] = Outcome.LOSS
            else:  # the opponent does not win: a draw unless the mover wins
                mine = Solver().solve_moves(p, max_nodes=nodes, moves=p.geo.bit(move.x, move.y))
                value = mine.get(p.geo.bit(move.x, move.y))
                out[move] = None if value is None else OUTCOME[value]
    return out


def game_of(item: Item):
    """The plain referee's game at the item's position."""
    game = plain.PlainGame(item.board.M, item.board.N, item.board.no_x, item.board.no_y)
    for m in item.moves:
        assert not game.play(m.x, m.y)
    return game


def after(game, move: Move):
    """The plain game after ``move``, and whether it made four (``game`` is left as it was)."""
    copy = plain.PlainGame(game.M, game.N, game.no_x, game.no_y)
    copy.board, copy.top, copy.turn = list(game.board), list(game.top), game.turn
    copy.moves = list(game.moves)
    return copy, copy.play(move.x, move.y)


def move_wins_within(game, move: Move, plies: int) -> bool:
    """Whether ``move`` makes four within ``plies`` plies (itself included) whatever the
    opponent replies."""
    child, four = after(game, move)
    if four:
        return plies >= 1
    if plies < 3:
        return False
    replies = child.legal_moves()
    return bool(replies) and not any(child.wins(*r) for r in replies) and all(
        wins_within(after(child, Move(*r))[0], plies - 2) for r in replies)


def wins_within(game, plies: int) -> bool:
    """Whether the side to move makes four within ``plies`` plies whatever the other does."""
    return plies >= 1 and any(move_wins_within(game, Move(*m), plies)
                              for m in game.legal_moves())


def plain_plies(item: Item) -> int:
    """Checks each proof of ``PLAIN_PLIES`` plies or fewer with the plain search: a winning
    move makes four in exactly that many plies (the side's shortest win), a losing one lets the
    opponent do so; returns how many proofs it checked."""
    game = game_of(item)
    checked = 0
    for proof in item.proofs:
        if proof.plies is None or proof.plies > PLAIN_PLIES:
            continue
        if proof.result is Outcome.WIN:
            assert move_wins_within(game, proof.move, proof.plies), (item.id, proof)
            assert not wins_within(game, proof.plies - 2), (item.id, proof)
        else:
            child, four = after(game, proof.move)
            assert not four and wins_within(child, proof.plies - 1), (item.id, proof)
            assert not wins_within(child, proof.plies - 3), (item.id, proof)
        checked += 1
    return checked
