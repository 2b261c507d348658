"""Arena players: one class per kind behind ``base.Player``, built from config specs.

A spec is a dict with exactly one of ``process`` (a command line, string or list), ``so`` (a
course library's path) or ``python`` (``"module:callable"``), plus ``cwd`` and ``env`` (process),
``env`` and ``load_timeout`` (so), ``args`` (python).
"""
import shlex
from typing import Any, Mapping

from arena.players.base import MoveResult, Player
from arena.players.process import ProcessPlayer
from arena.players.python import PythonPlayer
from arena.players.shared_lib import SharedLibPlayer

__all__ = ["MoveResult", "Player", "make_player"]

_KINDS = ("process", "so", "python")
_OPTIONS = {"process": {"cwd", "env"}, "so": {"env", "load_timeout"}, "python": {"args"}}


def _str_map(value: Any, what: str) -> dict:
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must be a mapping")
    return {str(k): str(v) for k, v in value.items()}


def make_player(name: str, spec: Mapping[str, Any]) -> Player:
    """Build the player a config spec describes; ValueError naming the bad key otherwise."""
    kinds = [k for k in _KINDS if k in spec]
    if len(kinds) != 1:
        raise ValueError(f"player {name!r}: give exactly one of {', '.join(_KINDS)}")
    kind = kinds[0]
    unknown = set(spec) - {kind} - _OPTIONS[kind]
    if unknown:
        raise ValueError(f"player {name!r}: unknown key(s) {', '.join(sorted(unknown))} "
                         f"for a {kind} player")
    value = spec[kind]
    env = _str_map(spec["env"], f"player {name!r}: env") if "env" in spec else None
    if kind == "process":
        argv = shlex.split(value) if isinstance(value, str) else [str(a) for a in value]
        if not argv:
            raise ValueError(f"player {name!r}: empty process command")
        return ProcessPlayer(name, argv, cwd=spec.get("cwd"), env=env)
    if kind == "so":
        return SharedLibPlayer(name, str(value), env=env,
                               load_timeout=float(spec.get("load_timeout", 30.0)))
    args = spec.get("args") or {}
    if not isinstance(args, Mapping):
        raise ValueError(f"player {name!r}: args must be a mapping")
    return PythonPlayer(name, str(value), args)
