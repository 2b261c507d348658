"""Start player processes in their own session and kill everything they left (docs/arena.md,
"The three kinds": the ``/proc`` scan); every live child is registered, so an exiting arena
kills what it started."""
import atexit
import contextlib
import os
import signal
import subprocess
import threading
from dataclasses import dataclass
from typing import IO, Dict, List, Mapping, Optional, Sequence, Set


@dataclass
class Child:
    """A started player process: its Popen, the arena's ends of its pipes (the stderr fd is its
    reader's to close), and their inodes (to find whoever still holds them)."""

    proc: "subprocess.Popen[bytes]"
    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr_fd: int
    pipe_inodes: Set[int]

    @property
    def pid(self) -> int:
        return self.proc.pid


_live: Dict[int, Child] = {}
_live_lock = threading.Lock()


def spawn(argv: Sequence[str], cwd: Optional[str] = None,
          env: Optional[Mapping[str, str]] = None) -> Child:
    """Start ``argv`` with three pipes in a new session; ``env`` adds to the arena's own."""
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, env={**os.environ, **(env or {})},
                            bufsize=0, close_fds=True, start_new_session=True)
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin and stdout and stderr  # all three are pipes
    child = Child(proc, stdin, stdout, os.dup(stderr.fileno()),
                  {os.fstat(p.fileno()).st_ino for p in (stdin, stdout, stderr)})
    stderr.close()
    with _live_lock:
        _live[proc.pid] = child
    return child


def _holds_pipe(pid: int, inodes: Set[int]) -> bool:
    names = {f"pipe:[{ino}]" for ino in inodes}
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") in names
                   for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def leftovers(session: int, inodes: Set[int]) -> List[int]:
    """Live processes in ``session`` or holding one of ``inodes`` outside the arena's session."""
    me, my_session = os.getpid(), os.getsid(0)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        pid = int(entry)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                data = f.read()
            fields = data[data.rindex(b")") + 2:].decode().split()  # [0] state, [3] session
        except (OSError, ValueError):
            continue
        if fields[0] == "Z":
            continue
        sid = int(fields[3])
        if sid == session or (sid != my_session and inodes and _holds_pipe(pid, inodes)):
            found.append(pid)
    return found


def kill_group(pgid: int) -> None:
    """SIGKILL a whole process group, quietly if it is gone already."""
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)


def kill_tree(child: Child) -> None:
    """Kill ``child``'s session and pipe holders, reap it, close the arena's stdin/stdout ends.
    The stderr fd stays open: its reader sees end of file once every holder is dead."""
    kill_group(child.pid)
    for _ in range(3):  # a fork racing the kill can leave one more behind
        rest = leftovers(child.pid, child.pipe_inodes)
        if not rest:
            break
        for pid in rest:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
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
