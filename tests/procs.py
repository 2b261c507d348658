"""Processes as the tests look at them, through psutil on Linux and macOS alike: a process's
children, its CPU time, and every live process whose environment carries a test's mark (which
grandchildren inherit, so the mark finds them whoever their parent is then). One module for
every test folder (tests/ is on each one's path)."""
from typing import List

import psutil


def alive(proc: psutil.Process) -> bool:
    """Whether ``proc`` still runs: neither gone nor a zombie waiting to be reaped."""
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def marked(var: str, value: str) -> List[int]:
    """Live processes whose environment sets ``var`` to ``value`` (one the system will not
    show, as macOS may not another user's, is not found)."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(var) == value and alive(proc):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def children(pid: int) -> List[int]:
    """The child processes of ``pid`` ([] once it is gone)."""
    try:
        return [child.pid for child in psutil.Process(pid).children()]
    except psutil.Error:
        return []


def cpu_seconds(pid: int) -> float:
    """CPU time ``pid`` has used (0 once it is gone): Linux's scheduler figure in nanoseconds
    where /proc has it, else psutil's user and system times (on Linux clock ticks 10 ms apart,
    too coarse for a short search)."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except OSError:
        pass
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system
