"""The hand-checked games of tests/analysis/games.py (a 9x9 board, forbidden cell (0, 4)) as a
suite's tests use them, and the arena's command line run as a user runs it."""

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import List

from arena.engine.limit import Limit
from arena.suite.build import walk
from arena.suite.item import Item

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("suite_hand_games",
                                               ROOT / "tests" / "analysis" / "games.py")
assert _spec is not None and _spec.loader is not None
games = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(games)

# Nodes, not seconds, settle what the tests assert; the seconds bound only the forced-win
# questions (plies, theme), which these positions answer in milliseconds: a deadline.
BUDGET = Limit(seconds=60.0, nodes=200_000)


def hand_items() -> List[Item]:
    """The items of the missed-block and the zugzwang games as the build walks them, each
    position once (the two games share their first 66 moves)."""
    found = {item.id: item for moves in (games.MISSED_BLOCK, games.ZUGZWANG)
             for item in walk(("hand", games.record(moves), BUDGET)).items}
    return list(found.values())


def write_suite(path: Path, items: List[Item]) -> Path:
    path.write_text("".join(i.to_json() + "\n" for i in items), encoding="utf-8")
    return path


def arena(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
