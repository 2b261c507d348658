"""Start player processes in their own session and kill everything they left (docs/arena.md,
"The three kinds"); every live child is registered, so an exiting arena kills what it started.

What a child left is found through psutil, on Linux and macOS alike: its session, its
descendants (looked for before the kill, while every parent lives), and a mark in its
environment that its descendants inherit wherever they go (a new session, a dead parent).
Where /proc exists (Linux) the look also finds whoever still holds one of its pipes, a process
that cleared its environment included (system.PROC_SCAN)."""
import atexit
import contextlib
import os
import signal
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass
from typing import IO, Dict, List, Mapping, Optional, Sequence, Set

import psutil

from arena.children import system

MARK_VAR = "ARENA_MARKS"  # the marks of every arena child a process descends from, by spaces
# Seconds before the child's start that a process may have started and still be looked at:
# psutil's start times on Linux count from a boot time in whole seconds
BORN_SLACK = 2.0


@dataclass
class Child:
    """A started player process: its Popen, the arena's ends of its pipes (the stderr fd is its
    reader's to close), their inodes (to find whoever still holds them), the mark in its
    environment and when it was started (seconds since the epoch)."""

    proc: "subprocess.Popen[bytes]"
    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr_fd: int
    pipe_inodes: Set[int]
    mark: str
    born: float

    @property
    def pid(self) -> int:
        return self.proc.pid


_live: Dict[int, Child] = {}
_live_lock = threading.Lock()


def spawn(argv: Sequence[str], cwd: Optional[str] = None,
          env: Optional[Mapping[str, str]] = None) -> Child:
    """Start ``argv`` with three pipes in a new session; ``env`` adds to the arena's own."""
    mark, born = uuid.uuid4().hex, time.time()
    marks = f"{os.environ.get(MARK_VAR, '')} {mark}".strip()  # an arena's child's children too
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd,
                            env={**os.environ, **(env or {}), MARK_VAR: marks},
                            bufsize=0, close_fds=True, start_new_session=True)
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin and stdout and stderr  # all three are pipes
    child = Child(proc, stdin, stdout, os.dup(stderr.fileno()),
                  {os.fstat(p.fileno()).st_ino for p in (stdin, stdout, stderr)}, mark, born)
    stderr.close()
    with _live_lock:
        _live[proc.pid] = child
    return child


def _holds_pipe(pid: int, inodes: Set[int]) -> bool:
    """Whether ``pid`` holds one of the pipes ``inodes`` (Linux: only asked when PROC_SCAN)."""
    names = {f"pipe:[{ino}]" for ino in inodes}
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") in names
                   for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def _marked(proc: psutil.Process, mark: str) -> bool:
    """Whether ``mark`` is in ``proc``'s environment (False where the system will not say)."""
    try:
        return mark in proc.environ().get(MARK_VAR, "").split()
    except psutil.Error:
        return False


def _alive(proc: psutil.Process) -> bool:
    """Whether ``proc`` still runs: neither gone nor a zombie waiting to be reaped."""
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _descendants(parents: Mapping[int, int], root: int) -> Set[int]:
    """The processes whose line of parents in ``parents`` (a pid's parent) reaches ``root``."""
    found = set()
    for pid in parents:
        line = [pid]
        while line[-1] in parents and line[-1] != root and len(line) <= len(parents):
            line.append(parents[line[-1]])
        if line[-1] == root:
            found.update(line[:-1])
    return found


def leftovers(child: Child) -> List[int]:
    """Live processes ``child`` left, itself included: in its session, descended from it,
    carrying its mark, or (where PROC_SCAN) holding one of its pipes. Only processes started
    since the child are looked at, and none of the arena's own session, which no player's
    process can join."""
    my_session = os.getsid(0)
    looked: Dict[int, psutil.Process] = {}
    parents: Dict[int, int] = {}
    found: Set[int] = set()
    # process_iter keeps each Process between calls, its start time read once: a cached one is
    # stale only if the pid numbers wrapped round between two looks
    for proc in psutil.process_iter():
        pid = proc.pid
        try:
            sid = os.getsid(pid)
            if sid == my_session or proc.create_time() < child.born - BORN_SLACK:
                continue
            looked[pid], parents[pid] = proc, proc.ppid()
            if sid == child.pid or _marked(proc, child.mark) or (
                    system.PROC_SCAN and _holds_pipe(pid, child.pipe_inodes)):
                found.add(pid)
        except (OSError, psutil.Error):
            continue
    found |= _descendants(parents, child.pid)
    return [pid for pid in sorted(found) if _alive(looked[pid])]


def in_session(session: int) -> List[int]:
    """Live processes of ``session`` (a child's pid is its session's id): none once the child
    is killed, which the tests of everything that starts one check."""
    alive = []
    for proc in psutil.process_iter():
        with contextlib.suppress(OSError):
            if os.getsid(proc.pid) == session and _alive(proc):
                alive.append(proc.pid)
    return alive


def kill_group(pgid: int) -> None:
    """SIGKILL a whole process group, quietly if it is gone already."""
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)


def kill_tree(child: Child) -> None:
    """Kill ``child`` and all it left, reap it, close the arena's stdin/stdout ends. The first
    look comes before the kill, while every parent lives (one that dies unties its children
    from the child); each kill is followed by another look, for what forked meanwhile or was
    handed a pipe through a socket, until one finds nothing new. The stderr fd stays open: its
    reader sees end of file once every holder is dead."""
    killed: Set[int] = set()  # SIGKILLed already: dying, if not yet gone
    try:
        for _ in range(3):
            rest = [pid for pid in leftovers(child) if pid not in killed]
            kill_group(child.pid)
            for pid in rest:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if not rest:
                break
            killed.update(rest)
    finally:  # interrupted while it looks (a worker's SIGTERM), the group dies all the same
        kill_group(child.pid)
    # unkillable (uninterruptible sleep): leave it to init
    with contextlib.suppress(subprocess.TimeoutExpired):
        child.proc.wait(timeout=5)
    for pipe in (child.stdin, child.stdout):
        with contextlib.suppress(OSError):
            pipe.close()
    with _live_lock:
        _live.pop(child.pid, None)


@atexit.register
def kill_all() -> None:
    """Kill every player process still registered (the arena is exiting)."""
    with _live_lock:
        procs = list(_live.values())
    for child in procs:
        kill_tree(child)
