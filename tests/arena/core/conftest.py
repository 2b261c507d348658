"""Fixtures for the arena core tests: hostile players built at test time, and a check that no
process a test started outlives it (every player's environment carries a unique mark, which
grandchildren inherit, so psutil finds them even after they left the session)."""
import sys
import uuid
from typing import Dict, List

import pytest
from procs import marked
from waits import nothing, wait_until

from hostile.build import HERE as HOSTILE
from hostile.build import build_libraries

MARK_VAR = "ARENA_CORE_TEST_MARK"

C_MODES = ["GOOD", "SEGV", "DOUBLE_FREE", "ABORT", "LOOP", "SLEEP", "EXIT0", "NULL", "OFFBOARD",
           "FORBIDDEN", "FULLCOL", "STATEFUL", "STDOUT_FLOOD", "UNDEFINED_SYMBOL", "NO_CLEAR",
           "STDERR_NOTE", "INIT_SEGV", "INIT_LOOP", "FORK_SLEEPER"]


def marked_pids(mark: str) -> List[int]:
    """Live (non-zombie) processes whose environment carries ``mark``."""
    return marked(MARK_VAR, mark)


@pytest.fixture
def find_marked():
    """``marked_pids`` for tests that watch processes themselves."""
    return marked_pids


@pytest.fixture
def mark() -> str:
    """A mark for this test's players; at teardown no process carrying it may be alive (what
    was killed is given waits.PATIENCE to go)."""
    value = uuid.uuid4().hex
    yield value
    assert wait_until(lambda: marked_pids(value), nothing) == [], \
        "a player process outlived its test"


@pytest.fixture
def mark_env(mark: str) -> Dict[str, str]:
    """The environment entry that marks this test's processes: for every player's spec (and
    for a whole arena run as a process, whose workers and players inherit it)."""
    return {MARK_VAR: mark}


@pytest.fixture
def proto(mark_env: Dict[str, str]):
    """Spec of the hostile platform-protocol bot in a given mode (and its extra arguments)."""
    def spec(mode: str, *args: str) -> dict:
        # PYTHONUNBUFFERED (set in some shells) would make the never-flushing bot flush.
        return {"process": [sys.executable, str(HOSTILE / "proto_bot.py"), mode, *args],
                "env": dict(mark_env, PYTHONUNBUFFERED="")}
    return spec


@pytest.fixture(scope="session")
def libs(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, str]:
    """Every hostile library, built once: C modes, the C++ one without libstdc++, a non-ELF."""
    return build_libraries(tmp_path_factory.mktemp("so"), C_MODES)


def leftmost(M, N, top, board, last_x, last_y, no_x, no_y):
    """The simplest legal strategy: the leftmost column that is not full."""
    y = next(c for c in range(N) if top[c] > 0)
    return top[y] - 1, y


@pytest.fixture
def leftmost_player():
    """An in-process player that always plays the leftmost legal column."""
    from arena.core.players.python import PythonPlayer
    return PythonPlayer("leftmost", leftmost)
