"""Hypothesis strategies for the property tests: boards of every shape with the forbidden cell
where bugs hide (bottom row, top row, an edge column, or anywhere with the play piling into its
column, so that it ends up just above a piece), and positions reached from them by legal play
that stop before anyone has four or the board is full."""

from __future__ import annotations

from typing import Callable, Optional, Tuple

from hypothesis import strategies as st
from plain_referee import PlainGame

PLACES = ("bottom row", "top row", "left column", "right column", "anywhere")

Draw = Callable[[st.SearchStrategy], object]


@st.composite
def boards(draw: Draw, shape: Optional[Tuple[int, int]] = None) -> PlainGame:
    """An empty M x N board (9..12 each, or ``shape``) with its forbidden cell at a drawn kind
    of place."""
    M, N = shape or (draw(st.integers(9, 12)), draw(st.integers(9, 12)))
    place = draw(st.sampled_from(PLACES))
    no_x = M - 1 if place == "bottom row" else 0 if place == "top row" else None
    no_y = 0 if place == "left column" else N - 1 if place == "right column" else None
    if no_x is None:
        no_x = draw(st.integers(0, M - 1))
    if no_y is None:
        no_y = draw(st.integers(0, N - 1))
    return PlainGame(M, N, no_x, no_y)


def quiet_move(draw: Draw, game: PlainGame) -> Optional[Tuple[int, int]]:
    """A legal move that neither makes four nor fills the board, else None; half the time the
    forbidden cell's column when it is open, so its stack often passes the cell."""
    if game.board.count(0) <= 2:  # the forbidden cell and one last free cell
        return None
    moves = [m for m in game.legal_moves() if not game.wins(*m)]
    if not moves:
        return None
    favoured = [m for m in moves if m[1] == game.no_y]
    if favoured and draw(st.booleans()):
        return favoured[0]
    return draw(st.sampled_from(moves))


@st.composite
def positions(draw: Draw) -> PlainGame:
    """A position reached by legal play, anything from the empty board to a nearly full one,
    with no four on it and at least one legal move."""
    game = draw(boards())
    for _ in range(draw(st.integers(0, game.M * game.N))):
        move = quiet_move(draw, game)
        if move is None:
            break
        game.play(*move)
    return game
