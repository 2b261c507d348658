"""The human player: bad input is asked again, closing the input resigns, and a whole game
played through a pseudo-terminal is drawn on the screen and recorded like any other."""

import io
import os
import pty
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from arena.core.boards import draw_board
from arena.core.players.human import HumanPlayer, render
from records.codes import FaultKind
from records.log import read_log

ROOT = Path(__file__).resolve().parents[3]


def test_render_marks_forbidden_cell_pieces_and_last_move():
    board = [0] * 9
    board[2 * 3 + 0], board[2 * 3 + 2] = 2, 1  # bottom row: own piece left, opponent's right
    assert render(3, 3, 2, 1, board, last=(2, 2)).splitlines() == [
        " 0  .  .  . ",
        " 1  .  .  . ",
        " 2  O  # [X]",
        "    0  1  2 ",
    ]
    # a watched game draws the mover's pieces with the mover's mark
    assert render(3, 3, 2, 1, board, own="X", other="O").splitlines()[2] == " 2  X  #  O "


def test_typos_and_full_columns_are_asked_again():
    out = io.StringIO()
    human = HumanPlayer(stdin=io.StringIO("\nfour\n-1\n12\n3\n 4 \n"), stdout=out)
    human.start_game(9, 5, 0, 0)
    top = [9, 9, 9, 0, 5]  # column 3 full, column 4 has its next free cell on row 4
    res = human.move(top, [0] * 45, 8, 1, 3.0)
    assert (res.point, res.fault) == ((4, 4), None)
    text = out.getvalue()
    for complaint in ("'four' is not a column number", "There is no column -1",
                      "There is no column 12", "Column 3 is full"):
        assert complaint in text
    assert "Opponent played row 8, column 1." in text
    assert text.count("Your move") == 6


def test_closing_the_input_resigns_as_a_fault():
    human = HumanPlayer(stdin=io.StringIO("x\n"), stdout=io.StringIO())
    human.start_game(9, 9, 4, 4)
    res = human.move([9] * 9, [0] * 81, -1, -1, 3.0)
    assert (res.point, res.fault) == (None, FaultKind.CRASH)
    assert "resigned" in res.detail


LEFTMOST_BOT = textwrap.dedent("""
    def leftmost(M, N, top, board, last_x, last_y, no_x, no_y):
        y = next(c for c in range(N) if top[c] > 0)
        return top[y] - 1, y
""")


def play_command(tmp_path: Path, seed: int, *flags: str) -> list:
    """`python -m arena play human BOT` against a bot that always plays the leftmost column."""
    (tmp_path / "leftbot.py").write_text(LEFTMOST_BOT)
    return [sys.executable, "-m", "arena", "play", "human", "leftmost=leftbot:leftmost",
            "--seed", str(seed), "-o", str(tmp_path / "games.jsonl"), *flags]


class Terminal:
    """A child process whose stdin, stdout and stderr are one pseudo-terminal."""

    def __init__(self, argv: list, path: Path) -> None:
        self.master, slave = pty.openpty()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(path)]))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT,
                                     env=env, close_fds=True)
        os.close(slave)
        self.screen = ""

    def expect(self, text: str, timeout: float = 20.0) -> None:
        """Read until `text` has appeared on the screen since the last expect()."""
        deadline = time.monotonic() + timeout
        start = len(self.screen)
        while text not in self.screen[start:]:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never shown; screen:\n{self.screen[-2000:]}"
            if select.select([self.master], [], [], left)[0]:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"{text!r} never shown; screen:\n{self.screen[-2000:]}"
                self.screen += chunk.decode(errors="replace").replace("\r\n", "\n")

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=20)
        os.close(self.master)
        return code


def test_a_game_through_a_terminal_survives_typos_and_slowness_and_is_recorded(tmp_path):
    seed = 3
    board = draw_board(seed, 0)
    column = next(y for y in range(1, board.N) if y != board.no_y)
    # The bot, called in the arena's process, answers far inside its limit; the person, whose
    # clock starts before the prompt, thinks longer than that limit.
    term = Terminal(play_command(tmp_path, seed, "--time-limit", "1"), tmp_path)
    term.expect("Your move")
    time.sleep(1.2)  # the slow person under test: at least 1.2 s
    term.type("seven\n")
    term.expect("is not a column number")
    term.type(f"{board.N}\n")
    term.expect(f"There is no column {board.N}")
    for turn in range(4):  # the leftmost bot stacks column 0, we stack ours and win first
        term.type(f"{column}\n")
        if turn < 3:
            term.expect("Opponent played")
    term.expect("You won")
    assert term.close() == 0
    (record,) = read_log(tmp_path / "games.jsonl")
    assert (record.a, record.b, record.first, record.result, record.code) == (
        "human", "leftmost", "a", "a", 1)
    assert [y for _, y in record.moves] == [column, 0] * 3 + [column]
    assert len(record.times) == 7 and len(record.win_line) == 4
    assert record.times[0] > record.time_limit == 1.0
    assert " O " in term.screen and " X " in term.screen and "#" in term.screen


def test_ctrl_d_at_the_prompt_resigns_and_is_recorded_as_a_fault(tmp_path):
    term = Terminal(play_command(tmp_path, 5, "--second"), tmp_path)
    term.expect("Opponent played")
    term.type("\x04")  # end of input on a terminal in canonical mode
    term.expect("You lost")
    assert term.close() == 0
    (record,) = read_log(tmp_path / "games.jsonl")
    assert (record.first, record.result, record.code) == ("b", "b", 3)
    assert record.fault.kind.value == "crash" and record.fault.side.value == "a"
