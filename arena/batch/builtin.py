"""The built-in players: our bot and the opponent ladder, known to every command by name.

`arena gauntlet bot random greedy`, a config's `gauntlet:` or `roundrobin:` lists and the web
app's opponents name these without declaring them, from a checkout or an installed arena
alike; a config's own `players:` entry of the same name wins. `python` in a command is the
interpreter that runs the arena (its folder is put first on PATH), and the native UCT's library
is compiled from its shipped source the first time it is named (`opponents.build`).
"""

from typing import Dict, Optional

from records.player import PlayerSpec

LADDER: Dict[str, Dict[str, object]] = {
    "bot": {"process": "python -m bot --time 0.3"},
    "random": {"python": "opponents.random_player:get_point"},
    "greedy": {"python": "opponents.greedy:get_point"},
    "heuristic": {"python": "opponents.heuristic:get_point"},
    "mcts200": {"process": "python -m bot --playouts 200"},
    # a capped search for quick batches: 0.1 s or 3,000 play-outs a move, whichever ends first
    "uct": {"env": {"UCT_TIME": "0.1", "UCT_PLAYOUTS": "3000"}},
}


def builtin_players() -> Dict[str, PlayerSpec]:
    """Every built-in player (the native UCT's library built if stale): the web app's
    opponents."""
    return {name: _ladder_player(name) for name in LADDER}


def builtin_player(name: str) -> Optional[PlayerSpec]:
    """The built-in player `name`, None when there is none; naming `uct` builds its library
    when it is missing or older than its source."""
    return _ladder_player(name) if name in LADDER else None


def _ladder_player(name: str) -> PlayerSpec:
    """LADDER's player `name`."""
    if name == "uct":
        from opponents.build import native_uct

        return PlayerSpec.parse({"so": str(native_uct()), **LADDER[name]}, name)
    return PlayerSpec.parse(LADDER[name], name)
