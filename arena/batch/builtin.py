"""The built-in players, our bot and the opponent ladder (docs/arena.md, "Configs"): every
command knows them by name; a config's own `players:` entry of the same name wins."""

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
    """Every built-in player (the native UCT's built if stale): the web app's opponents."""
    return {name: spec for name in LADDER if (spec := builtin_player(name)) is not None}


def builtin_player(name: str) -> Optional[PlayerSpec]:
    """The built-in player `name`, None when there is none; naming `uct` builds its library
    from its shipped source when it is missing or older (`opponents.build`)."""
    if name not in LADDER:
        return None
    if name == "uct":
        from opponents.build import native_uct

        return PlayerSpec.parse({"so": str(native_uct()), **LADDER[name]}, name)
    return PlayerSpec.parse(LADDER[name], name)
