"""An independent referee on plain lists (no bitboards), to check the bot against."""

from __future__ import annotations

from typing import List, Tuple


class PlainGame:
    """The course's board and top arrays, updated exactly as RULES.md words it."""

    def __init__(self, M: int, N: int, no_x: int, no_y: int) -> None:
        self.M, self.N, self.no_x, self.no_y = M, N, no_x, no_y
        self.board = [0] * (M * N)  # 1 first player, 2 second player
        self.top = [M] * N
        if no_x == M - 1:
            self.top[no_y] = M - 1
        self.turn = 1
        self.moves: List[Tuple[int, int]] = []

    def legal(self, x: int, y: int) -> bool:
        return (0 <= x < self.M and 0 <= y < self.N and self.top[y] == x + 1
                and (x, y) != (self.no_x, self.no_y))

    def legal_moves(self) -> List[Tuple[int, int]]:
        return [(self.top[y] - 1, y) for y in range(self.N) if self.top[y] > 0]

    def play(self, x: int, y: int) -> bool:
        """Play (x, y) for the side to move; True when it made four."""
        assert self.legal(x, y), (x, y)
        self.board[x * self.N + y] = self.turn
        self.top[y] -= 1
        if x == self.no_x + 1 and y == self.no_y:
            self.top[y] -= 1
        self.moves.append((x, y))
        won = naive_winner(self.board, self.M, self.N, x, y)
        self.turn = 3 - self.turn
        return won

    def wins(self, x: int, y: int) -> bool:
        """Would the side to move make four by playing (x, y)? (The board is left as it was.)"""
        self.board[x * self.N + y] = self.turn
        won = naive_winner(self.board, self.M, self.N, x, y)
        self.board[x * self.N + y] = 0
        return won

    def view(self) -> List[int]:
        """The board from the side to move's view: 2 own, 1 opponent."""
        return [0 if v == 0 else 2 if v == self.turn else 1 for v in self.board]

    def last(self) -> Tuple[int, int]:
        return self.moves[-1] if self.moves else (-1, -1)

    def __str__(self) -> str:
        """The game for a failure message: shape, forbidden cell (#), moves, and the board with
        X for the first player's pieces and O for the second's."""
        rows = ["".join("#" if (x, y) == (self.no_x, self.no_y)
                        else ".XO"[self.board[x * self.N + y]] for y in range(self.N))
                for x in range(self.M)]
        return (f"{self.M}x{self.N}, forbidden cell ({self.no_x}, {self.no_y}), "
                f"moves {self.moves}\n" + "\n".join(rows))


def naive_winner(board: List[int], M: int, N: int, x: int, y: int) -> bool:
    """Does the stone at (x, y) make four (plain loops)?"""
    v = board[x * N + y]
    for dx, dy in ((0, 1), (1, 0), (1, 1), (1, -1)):
        n = 1
        for sgn in (1, -1):
            i, j = x + sgn * dx, y + sgn * dy
            while 0 <= i < M and 0 <= j < N and board[i * N + j] == v:
                n += 1
                i, j = i + sgn * dx, j + sgn * dy
        if n >= 4:
            return True
    return False

