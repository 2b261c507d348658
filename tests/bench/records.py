"""Helpers for the bench scripts' tests: loading a script as a module, hand-made records."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from arena.codes import Code
from arena.results import GameRecord


def load_script(name: str) -> ModuleType:
    """bench/NAME.py as a module (bench/ is scripts, not a package)."""
    path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def record(moves, code: Code) -> GameRecord:
    """A leg-0 game ("a" moves first) on an empty 9x9 board, forbidden top-right."""
    return GameRecord(batch="t", seed=1, round=0, leg=0, a="x", b="y", M=9, N=9, no_x=0,
                      no_y=8, time_limit=3.0, code=int(code), reason="four in a row",
                      moves=[[8 - sum(1 for _, c in moves[:i] if c == col), col]
                             for i, (_, col) in enumerate(moves)])
