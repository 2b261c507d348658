"""How to start a player (docs/arena.md, "The three kinds"): a config's entries, the command
line's ``NAME=SPEC`` and the web app's choices all parse into one checked ``PlayerSpec``."""

import shlex
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Dict, List, Mapping, Optional

LOAD_TIMEOUT_S = 30.0  # seconds a course library may take to load before it loses (code -1/-2)
# A course library's names on Linux, macOS and Windows (the course ships its framework for each)
LIBRARY_SUFFIXES = (".so", ".dylib", ".dll")


class SpecError(ValueError):
    """A spec that cannot start a player (one line); ``key`` names the wrong part (``bot.env``)."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key, self.problem = key, problem


class PlayerKind(str, Enum):
    """How a player runs: a process on the platform protocol, a course `.so` or a function."""

    PROCESS = "process"
    SO = "so"
    PYTHON = "python"


OPTIONS = {PlayerKind.PROCESS: {"cwd", "env"}, PlayerKind.SO: {"env", "load_timeout"},
           PlayerKind.PYTHON: {"args"}}


@dataclass(frozen=True)
class PlayerSpec:
    """One player's recipe. ``target`` is the command's argv (process), the library's path
    (so) or ``"module:attribute"`` (python); the options apply to the kinds ``OPTIONS`` says."""

    kind: PlayerKind
    target: Any  # List[str] for a process, str otherwise
    cwd: Optional[str] = None
    env: Dict[str, str] = field(default_factory=dict)
    load_timeout: float = LOAD_TIMEOUT_S
    args: Dict[str, Any] = field(default_factory=dict)

    @property
    def argv(self) -> List[str]:
        return list(self.target)

    @property
    def takes_time(self) -> bool:
        """Whether the player's time a move can be chosen (a process with ``--time S``)."""
        return self.kind is PlayerKind.PROCESS and "--time" in self.argv[:-1]

    def with_time(self, seconds: float) -> "PlayerSpec":
        """The same process player with ``--time`` set to ``seconds``."""
        argv = self.argv
        argv[argv.index("--time") + 1] = f"{seconds:g}"
        return replace(self, target=argv)

    def to_dict(self) -> Dict[str, Any]:
        """The spec in its YAML form (options left at their defaults are left out)."""
        target = shlex.join(self.argv) if self.kind is PlayerKind.PROCESS else self.target
        timeout = self.load_timeout if self.kind is PlayerKind.SO else LOAD_TIMEOUT_S
        options = {"cwd": self.cwd, "env": dict(self.env) or None,
                   "load_timeout": None if timeout == LOAD_TIMEOUT_S else timeout,
                   "args": dict(self.args) or None}
        return {self.kind.value: target, **{k: v for k, v in options.items() if v is not None}}

    @classmethod
    def parse(cls, value: Any, key: str) -> "PlayerSpec":
        """A spec from its YAML form; SpecError naming ``key`` (and the option) otherwise."""
        if isinstance(value, PlayerSpec):
            return value
        if not isinstance(value, Mapping):
            raise SpecError(key, f"expected a mapping like {{process: ...}}, got {value!r}")
        kinds = [k for k in PlayerKind if k.value in value]
        if len(kinds) != 1:
            raise SpecError(key, "needs exactly one of " + ", ".join(k.value for k in PlayerKind))
        kind = kinds[0]
        for option in value:
            if option != kind.value and option not in OPTIONS[kind]:
                raise SpecError(f"{key}.{option}", f"unknown key for a {kind.value} player")
        return cls(kind, _target(kind, value[kind.value], f"{key}.{kind.value}"),
                   cwd=_cwd(value.get("cwd"), f"{key}.cwd"),
                   env=_env(value.get("env", {}), f"{key}.env"),
                   load_timeout=_seconds(value.get("load_timeout", LOAD_TIMEOUT_S),
                                         f"{key}.load_timeout"),
                   args=_args(value.get("args", {}), f"{key}.args"))

    @classmethod
    def from_text(cls, text: str, key: str = "player") -> "PlayerSpec":
        """The command line's shorthand: ``x.so`` (``.dylib``, ``.dll``) a library,
        ``module:function`` a function, anything else a command."""
        if text.endswith(LIBRARY_SUFFIXES):
            return cls.parse({"so": text}, key)
        if ":" in text and " " not in text and "/" not in text:
            return cls.parse({"python": text}, key)
        return cls.parse({"process": text}, key)


def _target(kind: PlayerKind, value: Any, key: str) -> Any:
    if kind is PlayerKind.PROCESS:
        if isinstance(value, str) and value.strip():
            return shlex.split(value)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return list(value)
        raise SpecError(key, "expected a command string or list of strings")
    if not isinstance(value, str) or not value or (kind is PlayerKind.PYTHON and ":" not in value):
        form = "'module:attribute'" if kind is PlayerKind.PYTHON else "a path"
        raise SpecError(key, f"expected {form}, got {value!r}")
    return value


def _cwd(value: Any, key: str) -> Optional[str]:
    if value is not None and not isinstance(value, str):
        raise SpecError(key, f"expected a path, got {value!r}")
    return value


def _env(value: Any, key: str) -> Dict[str, str]:
    if not isinstance(value, Mapping) or not all(
            isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value.values()):
        raise SpecError(key, "expected a mapping of names to strings or numbers")
    return {str(k): str(v) for k, v in value.items()}


def _seconds(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise SpecError(key, f"expected seconds > 0, got {value!r}")
    return float(value)


def _args(value: Any, key: str) -> Dict[str, Any]:
    if not isinstance(value, Mapping):
        raise SpecError(key, f"expected a mapping, got {value!r}")
    return dict(value)
