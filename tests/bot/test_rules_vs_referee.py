"""Two implementations of RULES.md checked against each other: the referee's plain lists
(arena/core/rules.py) and the bot's bitboards (bot/rules.py) must agree, ply by ply over 10,000
random games of random shapes, on which cells are legal (every column's landing cell, the cells
around one of them, one just off the board, the forbidden cell), on ``top`` and a full board, on
the first four, and at the end on where every piece is. Each game goes on to a full board (the
board's rules do not stop at a four); half of them avoid completing fours where they can, and a
tenth follow a planned tie. A disagreement fails with the game's seed, moves and board."""

from __future__ import annotations

import random
from typing import List, Optional, Tuple

from arena.core.rules import Grid
from bot.rules import InvalidPosition, Position, bits

GAMES = 10_000


def bot_legal(position: Position, x: int, y: int) -> bool:
    try:
        position.play_xy(x, y)
    except InvalidPosition:
        return False
    return True


def probes(board: Grid, rng: random.Random) -> List[Tuple[int, int]]:
    """Cells whose legality is asked at one ply: around one column's landing cell, one cell
    just off the board, and the forbidden cell."""
    M, N, y = board.M, board.N, rng.randrange(board.N)
    off = rng.choice([(-1, y), (M, y), (rng.randrange(M), -1), (rng.randrange(M), N)])
    return [(board.top[y] - 2, y), (board.top[y] - 1, y), (board.top[y], y), off,
            (board.no_x, board.no_y)]


def disagreement(board: Grid, position: Position, rng: random.Random) -> Optional[str]:
    """What the two rule sets say differently about legal moves and ``top``, else None."""
    if position.top() != board.top:
        return f"top: referee {board.top}, bot {position.top()}"
    landing = [position.xy(b) for b in bits(position.possible())]
    if landing != [(board.top[y] - 1, y) for y in range(board.N) if board.top[y] > 0]:
        return f"the bot's legal moves are {landing}"
    if position.is_full() != board.is_full():
        return f"full: referee {board.is_full()}, bot {position.is_full()}"
    for x, y in probes(board, rng):
        if bot_legal(position, x, y) != board.is_legal(x, y):
            return f"legality of ({x}, {y}): referee {board.is_legal(x, y)}"
    return None


def choices(position: Position, avoid_fours: bool) -> int:
    """The cells to draw a random move from: any legal one, or (``avoid_fours``) one that
    does not complete a four for the side to move where there is one (later, fuller fours)."""
    cells = position.possible()
    return cells & ~position.winning_cells() or cells if avoid_fours else cells


def tie_moves(rng: random.Random, M: int, N: int, no_x: int,
              no_y: int) -> Optional[List[Tuple[int, int]]]:
    """The moves of a game that fills the board without a four, or None where none is found.

    The final board is a pattern with no four in a row: the first player owns (x, y) when
    x + (y + s) // 2 + flip is even. The moves take the columns' free cells bottom up, picking
    at random among the columns whose next cell has the colour of the side to move.
    """
    variants = [(s, flip) for s in range(4) for flip in (0, 1)]
    rng.shuffle(variants)
    stacks = [[x for x in range(M - 1, -1, -1) if (x, y) != (no_x, no_y)] for y in range(N)]
    for s, flip in variants:
        heights, moves = [0] * N, []
        while True:
            turn = len(moves) % 2
            ready = [y for y in range(N) if heights[y] < len(stacks[y])
                     and (stacks[y][heights[y]] + (y + s) // 2 + flip) % 2 == turn]
            if not ready:
                break
            y = rng.choice(ready)
            moves.append((stacks[y][heights[y]], y))
            heights[y] += 1
        if len(moves) == M * N - 1:
            return moves
    return None


def report(seed: int, board: Grid, position: Position, moves: list, found: str) -> str:
    rows = ["".join("#" if (x, y) == (board.no_x, board.no_y) else ".XO"[board.at(x, y)]
                    for y in range(board.N)) for x in range(board.M)]
    return (f"seed {seed}: {board.M}x{board.N}, forbidden cell ({board.no_x}, {board.no_y}), "
            f"moves {moves}: {found}\nreferee's board (X first player):\n" + "\n".join(rows)
            + f"\nbot's {position!r}")


def play_and_compare(seed: int) -> bool:
    """One random game, played on to a full board; whether it was a tie. Fails with the game
    at the first disagreement."""
    rng = random.Random(seed)
    M, N = rng.randint(9, 12), rng.randint(9, 12)
    board = Grid(M, N, rng.randrange(M), rng.randrange(N))
    position = Position.new(M, N, board.no_x, board.no_y)
    planned = tie_moves(rng, M, N, board.no_x, board.no_y) if rng.random() < 0.1 else None
    avoid_fours = rng.random() < 0.5
    moves: List[Tuple[int, int]] = []
    piece, four = 1, False
    while True:
        found = disagreement(board, position, rng)
        if found is not None:
            raise AssertionError(report(seed, board, position, moves, found))
        if board.is_full():
            break
        x, y = (planned[len(moves)] if planned else
                position.xy(rng.choice(list(bits(choices(position, avoid_fours))))))
        board.play(x, y, piece)
        position = position.play_xy(x, y)
        moves.append((x, y))
        if not four:  # the game ends at its first four; the board's rules go on to full
            four = bool(board.four_through(x, y))
            if four != position.last_mover_won():
                raise AssertionError(report(seed, board, position, moves,
                                            f"four: referee {four}"))
        piece = 3 - piece
    if position.board() != board.view(piece):  # every piece where the referee has it
        raise AssertionError(report(seed, board, position, moves, "the final board"))
    return not four


def test_bot_and_referee_rules_agree_over_random_games() -> None:
    ties = sum(play_and_compare(seed) for seed in range(GAMES))
    assert ties >= GAMES // 20  # a tenth of the games are planned ties
