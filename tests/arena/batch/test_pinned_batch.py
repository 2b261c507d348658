"""A batch with a given seed writes the same records, whatever the code that plays it.

data/pinned_batch.jsonl holds the records of the batch below (its times, finishing times and
host left out, its players' stderr reduced to whether there was any): 40 games between
repeatable players, 10 of them lost by the faults of a misbehaving bot (crashes, timeouts, a
closed output). Any change to the referee, the players, the workers, the records or their JSON
form that alters one byte of a game's record fails here.
"""

import json
from pathlib import Path
from typing import Any, Dict, List

from arena.batch.config import parse_config
from arena.batch.scheduler import run_batch
from records.log import LOG_NAME

PINNED = Path(__file__).with_name("data") / "pinned_batch.jsonl"
CONFIG = {
    "batch": "pinned", "rounds": 2, "time_limit": 1.0, "jobs": 2, "seed": 5,
    "players": {
        "random": {"python": "opponents.random_player:get_point"},
        "greedy": {"python": "opponents.greedy:get_point"},
        "heuristic": {"python": "opponents.heuristic:get_point"},
        "mcts": {"process": "python -m bot --playouts 40 --seed 2"},
        "chaos": {"process": "python -m hostile.proto_bot chaos 3"},
    },
    "roundrobin": ["random", "greedy", "heuristic", "mcts", "chaos"],
}


def comparable(line: str) -> Dict[str, Any]:
    """A log line less what differs from run to run (times, when, where, stderr's text)."""
    data = json.loads(line)
    for key in ("times", "finished", "host"):
        data.pop(key)
    data["stderr"] = {side: bool(text) for side, text in data["stderr"].items()}
    return data


def read(path: Path) -> List[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_a_seeded_batch_writes_the_pinned_records(tmp_path):
    config = parse_config(dict(CONFIG, output=str(tmp_path)), "pinned batch")
    run_batch(config, quiet=True)
    played = [comparable(line) for line in read(tmp_path / LOG_NAME)]
    pinned = [json.loads(line) for line in read(PINNED)]
    assert len(played) == len(pinned) == 40
    for got, want in zip(played, pinned):
        assert got == want, f"round {want['round']} leg {want['leg']}: {want['a']} vs {want['b']}"
