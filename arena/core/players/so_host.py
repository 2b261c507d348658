"""Host process for the course's ``.so`` strategies, a child forked a game (docs/arena.md,
"Hosting the course's libraries": why). Protocol, lines on stdin and a duplicate of stdout:
  -> ``game PATH``   <- ``child PID``, then from the child ``ready`` | ``load T`` | ``noentry T``
  -> ``move M N noX noY lastX lastY top... board...``   <- ``point X Y`` | ``null``
  -> ``end``          (the child exits)
  <- ``over exit N`` | ``over signal N`` once the child is gone, after ``OVER_TOKEN`` on stderr
"""
from __future__ import annotations  # annotations stay text: no typing import at start-up

import ctypes
import os
import select
import signal
import sys
from collections.abc import Iterator

OVER_TOKEN = b"\x00arena-so-host-game-over\x00"


class _Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


def _lines(fd: int) -> Iterator[str]:
    """The lines read from a raw fd, until end of file (the parent waits for each reply, so a
    read never takes what the next request sends: a forked child goes on with the rest)."""
    buf = b""
    while True:
        while b"\n" not in buf:
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            buf += chunk
        line, buf = buf.split(b"\n", 1)
        yield line.decode()


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split())[:300]


def _serve_game(path: str, lines: Iterator[str], out: int) -> None:
    """The child's life: load, answer moves, exit. Never returns."""
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        _say(out, "load " + _one_line(e))
        os._exit(0)
    try:
        get_point, clear_point = lib.getPoint, lib.clearPoint
    except AttributeError as e:
        _say(out, "noentry " + _one_line(e))
        os._exit(0)
    c_int, p_int = ctypes.c_int, ctypes.POINTER(ctypes.c_int)
    get_point.restype = ctypes.POINTER(_Point)
    get_point.argtypes = [c_int, c_int, p_int, p_int, c_int, c_int, c_int, c_int]
    clear_point.restype = None
    clear_point.argtypes = [ctypes.POINTER(_Point)]
    _say(out, "ready")
    while True:
        line = next(lines, None)
        if line is None or not line.startswith("move "):
            os._exit(0)
        v = [int(t) for t in line.split()[1:]]
        m, n, no_x, no_y, last_x, last_y = v[:6]
        top = (c_int * n)(*v[6:6 + n])
        board = (c_int * (m * n))(*v[6 + n:6 + n + m * n])
        p = get_point(m, n, top, board, last_x, last_y, no_x, no_y)
        if not p:
            _say(out, "null")
            continue
        x, y = p.contents.x, p.contents.y
        clear_point(p)
        _say(out, f"point {x} {y}")


def _say(fd: int, text: str) -> None:
    data = (text + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


def _wait_child(pid: int, parent: int) -> int:
    """Wait for the game's child; kill it and leave if the arena went away meanwhile."""
    pidfd: int | None
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    while True:
        if pidfd is None:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            select.select([], [], [], 0.005)
        elif select.select([pidfd], [], [], 1.0)[0]:
            os.close(pidfd)
            return os.waitpid(pid, 0)[1]
        if os.getppid() != parent:
            os.killpg(pid, signal.SIGKILL)
            os._exit(1)


def _fork_game(path: str, lines: Iterator[str], out: int, parent: int) -> None:
    gate_r, gate_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        os.close(gate_w)
        os.read(gate_r, 1)  # wait until the host announced us, so our replies come after
        os.close(gate_r)
        try:
            _serve_game(path, lines, out)
        finally:
            os._exit(70)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass
    os.close(gate_r)
    _say(out, f"child {pid}")
    os.close(gate_w)
    status = _wait_child(pid, parent)
    os.write(2, OVER_TOKEN)
    if os.WIFSIGNALED(status):
        _say(out, f"over signal {os.WTERMSIG(status)}")
    else:
        _say(out, f"over exit {os.WEXITSTATUS(status)}")


def main() -> None:
    parent = os.getppid()
    lines, out = _lines(os.dup(0)), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    try:
        ctypes.CDLL("libstdc++.so.6", mode=ctypes.RTLD_GLOBAL)
    except OSError as e:
        sys.stderr.write(f"so_host: libstdc++.so.6 not loaded: {e}\n")
    for line in lines:  # until end of file: the arena is gone
        if line.startswith("game "):
            _fork_game(line[5:], lines, out, parent)


if __name__ == "__main__":
    main()
