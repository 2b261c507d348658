"""The terminal: a person as an arena player (python -m arena play human BOT), and a game watched
(python -m arena game --watch). A person's typo or full column is asked again, so it never loses
the game; only closing the input (Ctrl-D) gives up, recorded as the human's crash. Thinking time
is recorded, never limited."""

import sys
import time
from typing import List, Optional, Sequence, TextIO, Tuple

from arena.core.players.base import MoveResult, Player, fault
from arena.core.players.observed import Observer
from arena.core.rules import Grid
from records.board import Board
from records.codes import FaultKind
from records.result import Seat

FORBIDDEN = "#"


def render(M: int, N: int, no_x: int, no_y: int, view: Sequence[int],
           last: Optional[Tuple[int, int]] = None, own: str = "O", other: str = "X") -> str:
    """The one terminal board (the human player's, `arena game --watch`'s), column numbers
    underneath: ``view``'s own pieces (2) as ``own``, the other's as ``other``, `last` boxed."""
    marks = {0: ".", 1: other, 2: own}

    def cell(x: int, y: int) -> str:
        mark = FORBIDDEN if (x, y) == (no_x, no_y) else marks[view[x * N + y]]
        return f"[{mark}]" if (x, y) == last else f" {mark} "

    lines = [f"{x:2d} " + "".join(cell(x, y) for y in range(N)) for x in range(M)]
    return "\n".join(lines + ["   " + "".join(f"{y:^3d}" for y in range(N))])


def terminal_board(board: Board, name: str, seat: Seat, out: TextIO,
                   delay: float = 0.0) -> Observer:
    """A watched game's observer (arena.core.players.observed) of the side `name` in `seat`:
    after each of its moves it prints the board to `out` (X moved first, O second) and waits
    `delay` seconds."""
    M, N, no_x, no_y = board.to_list()

    def show(res: MoveResult, view: List[int]) -> None:
        after = list(view)
        if res.point is not None and 0 <= res.point[0] < M and 0 <= res.point[1] < N:
            after[res.point[0] * N + res.point[1]] = 2
        what = f"plays {res.point}" if res.fault is None else f"faults: {res.fault.value}"
        out.write(f"\n{seat.symbol} {name} {what} ({res.elapsed * 1000:.0f} ms)\n")
        out.write(render(M, N, no_x, no_y, after, res.point, seat.symbol, seat.other.symbol)
                  + "\n")
        out.flush()
        time.sleep(delay)

    return show


class HumanPlayer(Player):
    """Reads a column number per move from `stdin`, draws the board on `stdout`."""

    timed = False  # the referee does not apply the per-move time limit to a person

    def __init__(self, name: str = "human", stdin: Optional[TextIO] = None,
                 stdout: Optional[TextIO] = None) -> None:
        self.name = name
        self._in = stdin or sys.stdin
        self._out = stdout or sys.stdout
        self._shape = (0, 0, -1, -1)

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    def start_game(self, M: int, N: int, no_x: int, no_y: int) -> Optional[MoveResult]:
        self._shape = (M, N, no_x, no_y)
        self._say(f"New game: {M} rows x {N} columns, forbidden cell {FORBIDDEN} at row {no_x}, "
                  f"column {no_y}. You are O, your opponent X.")
        return None

    def move(self, top: List[int], board: List[int], last_x: int, last_y: int,
             time_limit: float) -> MoveResult:
        M, N, no_x, no_y = self._shape
        start = time.monotonic()
        last = None if last_x < 0 else (last_x, last_y)
        self._say(render(M, N, no_x, no_y, board, last))
        self._say("You open the game." if last is None else
                  f"Opponent played row {last_x}, column {last_y}.")
        while True:
            self._out.write(f"Your move, column 0..{N - 1}: ")
            self._out.flush()
            line = self._in.readline()
            if not line:
                self._say("")
                return fault(FaultKind.CRASH, "the human closed the input (resigned)",
                             time.monotonic() - start)
            problem, y = self._parse(line, top)
            if problem:
                self._say(problem)
                continue
            x = top[y] - 1
            after = list(board)
            after[x * N + y] = 2
            self._say(render(M, N, no_x, no_y, after, (x, y)))
            return MoveResult((x, y), time.monotonic() - start, None)

    def _parse(self, line: str, top: List[int]) -> Tuple[str, int]:
        """("", column) for a playable column, else (what is wrong, -1)."""
        text, N = line.strip(), len(top)
        if not text.lstrip("-").isdigit():
            return f"'{text}' is not a column number; type one of 0..{N - 1}.", -1
        y = int(text)
        if not 0 <= y < N:
            return f"There is no column {y}; type one of 0..{N - 1}.", -1
        if top[y] == 0:
            return f"Column {y} is full; choose another.", -1
        return "", y

    def show_final(self, moves: Sequence[Sequence[int]], seat: Seat, summary: str) -> None:
        """Say how the game ended, drawing the last position if the person has not seen it
        (the opponent moved last: its winning move, or the game ended before the person's)."""
        M, N, no_x, no_y = self._shape
        human_moved_last = bool(moves) and Seat.of_ply(len(moves) - 1) is seat
        if not human_moved_last:
            board = Grid(M, N, no_x, no_y)
            for ply, (x, y) in enumerate(moves):
                board.play(x, y, Seat.of_ply(ply).stone)
            last = (moves[-1][0], moves[-1][1]) if moves else None
            self._say(render(M, N, no_x, no_y, board.view(seat.stone), last))
        self._say(summary)

    def end_game(self) -> None:
        """Nothing to stop, nor to close: the person stays at the terminal."""
