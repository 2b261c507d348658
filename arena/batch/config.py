"""Batch configs in YAML (docs/arena.md, "Configs"), checked before anything starts: a mistake
is one line naming the file and the key (`ConfigError`), never a traceback in a batch."""

import glob
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

import yaml

from arena.batch.builtin import LADDER, builtin_player
from arena.children.system import foreign_library
from arena.report.results import NAME_RE
from records.player import PlayerKind, PlayerSpec, SpecError

SCALARS = {"batch": str, "rounds": int, "time_limit": float, "jobs": int, "seed": int,
           "output": str, "cluster": str, "shared_fs": bool}
TOP_KEYS = set(SCALARS) | {"players", "gauntlet", "roundrobin", "sprt"}


class ConfigError(Exception):
    """One line: `<file>: <key>: <problem>`."""


@dataclass
class Config:
    """A checked batch: who plays whom, how often, how fast, and where results go."""

    batch: str = "arena"
    rounds: int = 2
    time_limit: float = 3.0
    jobs: int = 1
    seed: int = 1
    output: str = "results/arena"
    players: Dict[str, PlayerSpec] = field(default_factory=dict)
    pairings: List[Tuple[str, str]] = field(default_factory=list)
    mode: str = "gauntlet"
    source: str = "<config>"
    cluster: Optional[str] = None  # None: local processes; "local:N" or a scheduler address
    shared_fs: bool = False  # workers see the same files at the same paths: ship nothing
    sprt: Optional[Tuple[float, float]] = None  # (elo0, elo1): stop once the SPRT decides

    def __post_init__(self) -> None:
        """Players given in their YAML form are parsed (SpecError naming the bad one)."""
        self.players = {name: PlayerSpec.parse(spec, name) for name, spec in self.players.items()}

    @property
    def output_dir(self) -> Path:
        return Path(self.output)


def _fail(where: str, key: str, problem: str) -> ConfigError:
    return ConfigError(f"{where}: {key}: {problem}")


def check_scalar(where: str, key: str, value: Any) -> Any:
    """The value of a scalar key, type-checked (ints are accepted where a float is wanted)."""
    if key == "sprt":
        return check_sprt(where, value)
    want = SCALARS[key]
    ok = isinstance(value, want) and (want is bool or not isinstance(value, bool))
    if want is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok:
        raise _fail(where, key, f"expected {want.__name__}, got {value!r}")
    if key in ("rounds", "jobs") and value < 1:
        raise _fail(where, key, f"must be at least 1, got {value}")
    if key == "time_limit" and value <= 0:
        raise _fail(where, key, f"must be positive, got {value}")
    if key in ("batch", "output", "cluster") and not value.strip():
        raise _fail(where, key, "must not be empty")
    if key == "cluster" and value.startswith("local:"):
        count = value[len("local:"):]
        if not count.isdigit() or int(count) < 1:
            raise _fail(where, key, f"expected local:N with N workers >= 1, got {value!r}")
    elif key == "cluster" and ":" not in value:
        raise _fail(where, key, f"expected a scheduler address like tcp://host:8786 or local:N, "
                                f"got {value!r}")
    return value


def check_sprt(where: str, value: Any) -> Tuple[float, float]:
    """SPRT bounds: two numbers elo0 < elo1 (H0: A is elo0 stronger, H1: elo1)."""
    ok = (isinstance(value, (list, tuple)) and len(value) == 2
          and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value))
    if not ok or value[0] >= value[1]:
        raise _fail(where, "sprt", f"expected [ELO0, ELO1] with ELO0 < ELO1, got {value!r}")
    return float(value[0]), float(value[1])


def check_name(where: str, key: str, name: Any) -> str:
    """Player names become file names `<A>_<B>.txt`, so they may not contain '_' or '/'."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise _fail(where, key, f"player name {name!r} must use only letters, digits and '.+-': "
                                "the course's result files are named <A>_<B>.txt")
    return name


def check_library(where: str, key: str, spec: PlayerSpec) -> PlayerSpec:
    """``spec``, unless it is a course library built for another system (a macOS one on
    Linux): refused before anything starts, in one line, rather than lost game after game."""
    problem = foreign_library(spec.target) if spec.kind is PlayerKind.SO else None
    if problem is not None:
        raise _fail(where, key, problem)
    return spec


def _expand(where: str, key: str, items: Any, players: Dict[str, PlayerSpec]) -> List[str]:
    """A list of player names and `{glob: pattern}` items -> names (glob files become players)."""
    if not isinstance(items, list) or not items:
        raise _fail(where, key, "expected a non-empty list of player names or {glob: pattern}")
    names: List[str] = []
    for i, item in enumerate(items):
        ikey = f"{key}[{i}]"
        if isinstance(item, Mapping):
            if set(item) != {"glob"} or not isinstance(item["glob"], str):
                raise _fail(where, ikey, "expected {glob: pattern}")
            files = sorted(glob.glob(item["glob"]))
            if not files:
                raise _fail(where, ikey, f"no file matches {item['glob']!r}")
            for path in files:
                name = check_name(where, ikey, Path(path).stem)
                spec = check_library(where, ikey, PlayerSpec(PlayerKind.SO, path))
                if players.setdefault(name, spec) != spec:
                    raise _fail(where, ikey, f"{path} would be named {name!r}, already taken")
                names.append(name)
        else:
            name = check_name(where, ikey, item)
            if name not in players:
                builtin = builtin_player(name)
                if builtin is None:
                    raise _fail(where, ikey, f"no player named {name!r} under players (nor a "
                                             f"built-in one: {', '.join(LADDER)})")
                players[name] = builtin
            names.append(name)
    return names


def parse_config(data: Any, where: str) -> Config:
    """A Config from parsed YAML; `where` (the file name) starts every error message."""
    if not isinstance(data, Mapping):
        raise _fail(where, "(top)", "expected a mapping of keys")
    for key in data:
        if key not in TOP_KEYS:
            raise _fail(where, str(key), "unknown key (known: " + ", ".join(sorted(TOP_KEYS)) + ")")
    values = {k: check_scalar(where, k, data[k]) for k in [*SCALARS, "sprt"] if k in data}
    raw_players = data.get("players", {}) or {}
    if not isinstance(raw_players, Mapping):
        raise _fail(where, "players", "expected a mapping of names to player specs")
    try:
        players = {check_name(where, f"players.{n}", n):
                   check_library(where, f"players.{n}", PlayerSpec.parse(s, f"players.{n}"))
                   for n, s in raw_players.items()}
    except SpecError as exc:
        raise _fail(where, exc.key, exc.problem) from None
    if ("gauntlet" in data) == ("roundrobin" in data):
        raise _fail(where, "gauntlet", "give exactly one of gauntlet and roundrobin")
    if "gauntlet" in data:
        g = data["gauntlet"]
        if not isinstance(g, Mapping) or set(g) != {"a", "b"}:
            raise _fail(where, "gauntlet", "expected a mapping with keys a and b")
        side_a = _expand(where, "gauntlet.a", g["a"], players)
        side_b = _expand(where, "gauntlet.b", g["b"], players)
        pairings = [(a, b) for a in side_a for b in side_b if a != b]
        mode = "gauntlet"
    else:
        names = _expand(where, "roundrobin", data["roundrobin"], players)
        pairings = [(a, b) for a, b in combinations(names, 2) if a != b]
        mode = "roundrobin"
    if not pairings:
        raise _fail(where, mode, "no pairing of two different players")
    # Every declared player is kept (players start lazily), so names a config declares but does
    # not pair can still be named on the command line (`gauntlet --config FILE NAME ...`).
    return Config(players=players, pairings=pairings, mode=mode, source=where, **values)


def load_config(path: Path) -> Config:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f"line {mark.line + 1}" if mark is not None else "(parse)"
        raise ConfigError(f"{path}: {line}: not valid YAML") from None
    return parse_config(data, str(path))


def with_overrides(config: Config, overrides: Mapping[str, Optional[Any]]) -> Config:
    """Command-line values replace config keys (None leaves a key alone); same checks apply."""
    values = {k: check_scalar("command line", k, v) for k, v in overrides.items() if v is not None}
    return replace(config, **values)


def player_from_arg(arg: str, known: Mapping[str, PlayerSpec]) -> Tuple[str, PlayerSpec]:
    """`NAME` (a player of the --config file) or `NAME=SPEC` (PlayerSpec.from_text)."""
    name, sep, text = arg.partition("=")
    check_name("command line", "player", name)
    if sep:
        try:
            given = PlayerSpec.from_text(text, name)
        except SpecError as exc:
            raise _fail("command line", exc.key, exc.problem) from None
        return name, check_library("command line", name, given)
    spec = known[name] if name in known else builtin_player(name)
    if spec is None:
        raise ConfigError(f"command line: {name}: neither a player of the config nor a "
                          f"built-in one ({', '.join(LADDER)}); write NAME=SPEC (a library, "
                          "x.so or x.dylib; module:function; or a command)")
    return name, spec


def adhoc_config(mode: str, players: Dict[str, PlayerSpec], batch: str) -> Config:
    """A Config for `python -m arena gauntlet|roundrobin NAME...` (first name vs the rest)."""
    names = list(players)
    pairings = ([(names[0], b) for b in names[1:]] if mode == "gauntlet"
                else list(combinations(names, 2)))
    if not pairings:
        raise ConfigError(f"command line: players: {mode} needs at least two players")
    return Config(batch=batch, players=players, pairings=pairings, mode=mode,
                  output=f"results/{batch}", source="command line")
