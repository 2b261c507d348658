"""The type check test.sh runs (mypy, configured in pyproject.toml) is strict enough to matter:
a dict handed where one of the domain's nouns (records: GameRecord, Board, PlayerSpec) is
expected is an error, in an annotated function and in an unannotated one alike."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Each line marked `# error: CODE` must be reported with that error code, and nothing else.
SNIPPET = '''\
from analysis.game import replay
from arena.core.worker import GameWorker
from arena.engine.position import from_moves
from records.board import Board
from records.game import GameRecord
from records.player import PlayerSpec


def typed(record: GameRecord, board: Board, spec: PlayerSpec) -> None:
    replay(record)
    from_moves(board, [])
    GameWorker({"a": spec})
    replay({"M": 9, "N": 9, "moves": []})  # error: arg-type
    from_moves({"M": 9, "N": 9, "no_x": 0, "no_y": 0}, [])  # error: arg-type
    GameWorker({"a": {"python": "opponents.greedy:get_point"}})  # error: dict-item


def untyped(record):
    replay(record)
    replay({"M": 9, "N": 9, "moves": []})  # error: arg-type
'''


def test_a_dict_for_a_noun_is_an_error(tmp_path: Path) -> None:
    source = tmp_path / "dict_for_noun.py"
    source.write_text(SNIPPET, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), str(source)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    errors = re.findall(r"^[^:\n]*dict_for_noun\.py:(\d+): error: .*\[([a-z-]+)\]$",
                        done.stdout, re.MULTILINE)
    marked = [(i, line.rpartition("# error: ")[2])
              for i, line in enumerate(SNIPPET.splitlines(), 1) if "# error: " in line]
    assert done.returncode == 1, done.stdout + done.stderr
    assert sorted((int(line), code) for line, code in errors) == marked, done.stdout
