"""Arena players: one class per kind behind ``base.Player``, built from a ``PlayerSpec``."""
from typing import Any, Mapping, Union

from arena.core.players.base import MoveResult, Player
from arena.core.players.process import ProcessPlayer
from arena.core.players.python import PythonPlayer
from arena.core.players.shared_lib import SharedLibPlayer
from records.player import PlayerKind, PlayerSpec

__all__ = ["MoveResult", "Player", "make_player"]


def make_player(name: str, spec: Union[PlayerSpec, Mapping[str, Any]]) -> Player:
    """The player a spec describes, named `name` (its processes start lazily); SpecError for a
    spec that cannot make one."""
    spec = PlayerSpec.parse(spec, name)
    if spec.kind is PlayerKind.PROCESS:
        return ProcessPlayer(name, spec.argv, cwd=spec.cwd, env=spec.env or None)
    if spec.kind is PlayerKind.SO:
        return SharedLibPlayer(name, spec.target, env=spec.env or None,
                               load_timeout=spec.load_timeout)
    return PythonPlayer(name, spec.target, spec.args)
