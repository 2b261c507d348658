"""A command run with its stderr on a pseudo-terminal, as a user at a shell sees it: the
progress bars are drawn on a terminal only, so the tests that check a bar read it there."""

import fcntl
import os
import pty
import struct
import subprocess
import termios
from pathlib import Path
from typing import List, Tuple


def run_on_a_terminal(argv: List[str], cwd: Path, timeout: float = 120.0,
                      columns: int = 100) -> Tuple[int, str, str]:
    """(exit status, stdout, what the terminal showed on stderr) of `argv`."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed: the command is done with its terminal
            break
        if not chunk:
            break
        shown += chunk
    out, _ = proc.communicate(timeout=timeout)
    os.close(master)
    return proc.returncode, out, shown.decode(errors="replace")
