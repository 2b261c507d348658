"""The opponent ladder's members, parsed from their names and played as the arena's players.

Members: random, greedy, heuristic (the Python opponents); native UCTs named
uct-<playouts>[-c<C>] (uct-10k: 10,000 play-outs a move, UCT_TIME far away) or uct-t<seconds>
(uncapped, UCT_TIME seconds), hosted by the arena's `.so` player; our bot called in-process
(bot.protocol.function) as bot-<playouts> or bot-t<seconds>. A bot VARIANT sets fields of its
bot.search.settings.Settings after colons, e.g. bot:c=0.4:follow=0-3000 (numbers, 0/1 for
keep_threats, deep_probes=0 for none, guard_depths=0 for none or plies joined by +, as 11+13),
and cores=2 has a forked worker play out leaves too (bot.search.leaves; needs -j 1, the worker
takes the second core).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Sequence, Tuple

from arena.batch.builtin import LADDER
from arena.core.players.base import Player
from arena.core.players.python import PythonPlayer, resolve
from arena.core.players.shared_lib import SharedLibPlayer
from opponents.build import native_uct

# the arena's built-in Python players (random, greedy, heuristic): their getPoint functions
PYTHON_MEMBERS = {name: resolve(str(spec["python"])) for name, spec in LADDER.items()
                  if "python" in spec}
NO_LIMIT = float("inf")  # seconds a move: the ladder measures members' times, it does not cap them

Knobs = Tuple[Tuple[str, str], ...]


@dataclass(frozen=True)
class Member:
    """A ladder member: its kind (a PYTHON_MEMBERS name, "uct" or "bot"), the environment of
    the native UCT (it reads its budget there) and the bot's play-out or time limit."""

    name: str
    kind: str
    env: Tuple[Tuple[str, str], ...] = ()
    playouts: Optional[int] = None
    seconds: Optional[float] = None
    knobs: Knobs = ()

    def player(self) -> Player:
        """The member as an arena player (close it after its games)."""
        if self.kind == "uct":
            return SharedLibPlayer(self.name, str(native_uct()), env=dict(self.env))
        return PythonPlayer(self.name, self.strategy())

    def strategy(self) -> Callable:
        """A Python member's or the bot's getPoint function."""
        if self.kind != "bot":
            return PYTHON_MEMBERS[self.kind]
        from bot.protocol.function import get_point
        from bot.search.clock import Limit
        limit = Limit(self.seconds, self.playouts)
        if self.knobs:
            return functools.partial(_variant_move, knobs=self.knobs, limit=limit)
        return functools.partial(get_point, limit=limit)


def one_move(player: Player, M: int, N: int, top: Sequence[int], board: Sequence[int],
             last_x: int, last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
    """``player``'s move in one position (getPoint's arguments), as a game of its own with no
    time limit; RuntimeError with the fault's detail if it faults."""
    problem = player.start_game(M, N, no_x, no_y)
    try:
        result = problem or player.move(list(top), list(board), last_x, last_y, NO_LIMIT)
    finally:
        player.end_game()
    if result.fault is not None:
        raise RuntimeError(f"{player.name}: {result.fault.value}: {result.detail}")
    return result.point


def _variant_move(*position: int, knobs: Knobs, limit: object) -> Tuple[int, int]:
    """The bot variant's move with a fresh searcher (a fresh tree every move, as get_point)."""
    from bot.choose import choose_move
    return choose_move(*position, limit=limit, searcher=variant(knobs))


_leaf_searchers: Dict[Knobs, object] = {}


def variant(knobs: Knobs):
    """A fresh searcher with the named settings; with cores=2, one forked worker per member
    and process, not per move."""
    from bot.search.leaves import make_searcher
    from bot.search.settings import Settings
    options = dict(knobs)
    cores = int(options.pop("cores", "1"))
    fields = {f.name for f in dataclasses.fields(Settings)}
    unknown = set(options) - fields
    if unknown:
        raise SystemExit(f"unknown bot settings {sorted(unknown)}; known: {sorted(fields)}")
    values = {}
    for name, text in options.items():
        kind = type(getattr(Settings(), name))
        if kind is tuple:  # deep_probes=0 (none); guard_depths=0 (none) or plies as 11+13
            if text != "0" and name == "deep_probes":
                raise SystemExit("deep_probes takes only 0 (none) on the command line")
            values[name] = () if text == "0" else tuple(int(t) for t in text.split("+"))
        else:
            values[name] = bool(int(text)) if kind is bool else kind(text)
    if cores == 2:
        if knobs not in _leaf_searchers:
            _leaf_searchers[knobs] = make_searcher(2, settings=Settings(**values))
        searcher = _leaf_searchers[knobs]
        searcher.tree = None
        return searcher
    return make_searcher(1, settings=Settings(**values))


def _count(text: str) -> int:
    """'10k' -> 10000, '200' -> 200."""
    return int(float(text[:-1]) * 1000) if text.endswith("k") else int(text)


def parse_member(name: str) -> Member:
    """A member from its name (see the module docstring)."""
    if name in PYTHON_MEMBERS:
        return Member(name, name)
    head, *parts = name.split("-")
    kind, *knobs = head.split(":")
    if kind not in ("uct", "bot") or not parts or (knobs and kind != "bot"):
        raise SystemExit(f"unknown member {name!r}")
    seconds, playouts, c = None, None, "0.7"
    for part in parts:
        if part.startswith("t"):
            seconds = float(part[1:])
        elif part.startswith("c") and kind == "uct":
            c = part[1:]
        else:
            playouts = _count(part)
    if kind == "bot":
        pairs = tuple(tuple(k.split("=", 1)) for k in knobs)
        if any(len(p) != 2 for p in pairs):
            raise SystemExit(f"bot knobs are key=value: {name!r}")
        return Member(name, kind, playouts=playouts, seconds=seconds, knobs=pairs)
    env = {"UCT_TIME": str(seconds or 1000), "UCT_PLAYOUTS": str(playouts or 0), "UCT_C": c}
    return Member(name, kind, tuple(sorted(env.items())))
