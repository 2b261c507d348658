"""The soak: a batch of fast players with -j 2 in which a seeded chaos player (hostile/proto_bot.py
``chaos``) crashes, hangs, floods, exits or sends bad frames at random moments, against a random
in-process player and a course library. Every game is recorded exactly once with the code its
chaos plan calls for, no process the batch started outlives it, and the arena's memory stays
flat: the RSS of the arena and its workers while the last game is played is within 10% of
their RSS after 200 games (after half the games in a batch under 400).

The chaos player is a warm one (core_warm_proto.py): a launcher that starts in a millisecond
and a bot forked from a process that imported proto_bot once. Python's start-up, hundreds of
milliseconds on a busy machine, is then not on the clock of the bot's first move, so no game
is lost on time before its planned misbehaviour, however busy the machine.

SOAK_GAMES sets the size (a multiple of 4): 300 by default, as CI runs it; the documented soak
(docs/arena.md) is
    SOAK_GAMES=2000 .venv/bin/python -m pytest tests/arena/core/test_core_soak.py -s
and prints its figures."""
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

import psutil
from core_warm_proto import WarmProto
from procs import children
from waits import nothing, wait_until

from arena.batch.config import load_config
from arena.batch.scheduler import plan
from hostile.build import build_libraries
from hostile.proto_bot import CHAOS, chaos_plan
from records.codes import FaultKind, fault_code
from records.game import GameRecord
from records.log import read_log

ROOT = Path(__file__).resolve().parents[3]
GAMES = int(os.environ.get("SOAK_GAMES", "300"))
SEED = "7"  # the chaos player's
TIME_LIMIT = 0.5  # seconds a move: a hang costs little; the chaos player starts warm
GROWTH = 1.10  # the most the arena's RSS may grow from the reference point to the end


@dataclass
class Sample:
    """The arena's processes' resident memory (KiB by pid) when ``games`` were logged."""

    games: int
    rss: Dict[int, int] = field(default_factory=dict)


def rss_kib(pid: int) -> Optional[int]:
    """The resident memory of ``pid`` in KiB; None once it is gone."""
    try:
        return psutil.Process(pid).memory_info().rss // 1024
    except psutil.Error:
        return None


def soak_config(tmp: Path, chaos: dict, mark_env: Dict[str, str]) -> Path:
    so = build_libraries(tmp, ["GOOD"])["good"]
    config = {
        "batch": "soak", "rounds": GAMES // 4, "time_limit": TIME_LIMIT, "jobs": 2, "seed": 3,
        "output": str(tmp / "out"),
        "players": {"chaos": chaos,
                    "random": {"python": "opponents.random_player:get_point"},
                    "left": {"so": so, "env": mark_env}},
        "gauntlet": {"a": ["chaos"], "b": ["random", "left"]}}
    path = tmp / "soak.yaml"
    path.write_text(json.dumps(config))  # JSON is YAML
    return path


def run_soak(config: Path, mark_env: Dict[str, str]) -> List[Sample]:
    """Run the batch as a user does, sampling the memory of the arena and its workers."""
    log = load_config(config).output_dir / "games.jsonl"
    with open(config.parent / "arena.err", "wb") as err:
        arena = subprocess.Popen([sys.executable, "-m", "arena", "run", str(config), "-q"],
                                 cwd=ROOT, stderr=err,
                                 env=dict(os.environ, PYTHONPATH=str(ROOT), **mark_env))
        samples = []
        while arena.poll() is None:
            games = log.read_bytes().count(b"\n") if log.exists() else 0
            sample = Sample(games)
            for pid in [arena.pid] + children(arena.pid):  # workers (players are theirs)
                rss = rss_kib(pid)
                if rss is not None:
                    sample.rss[pid] = rss
            samples.append(sample)
            time.sleep(0.1)
    assert arena.returncode == 0, (config.parent / "arena.err").read_text()
    return samples


def planned_mode(record: GameRecord) -> str:
    """The chaos player's misbehaviour in this game (chaos is A)."""
    return chaos_plan(SEED, record.M, record.N, record.no_x, record.no_y, record.leg == 0)[0]


def unexpected(record: GameRecord) -> Optional[str]:
    """What in a game differs from the chaos player's plan for it (chaos is A), else None."""
    opens = record.leg == 0
    mode, start, _ = chaos_plan(SEED, record.M, record.N, record.no_x, record.no_y, opens)
    kind, at = CHAOS[mode], start + (mode == "trailing_bytes")
    played = len(record.moves[0 if opens else 1::2])
    if record.fault is None:
        return None if kind is None or played < at else f"{mode} at move {at}: no fault"
    got = (record.fault.side.value, record.fault.kind.value, played, record.code)
    if kind is not None and got == ("a", kind, at - 1, fault_code(FaultKind(kind), True)):
        return None
    return f"{mode} at move {at}: {got} {record.fault.detail}"


def test_soak_records_every_game_once_with_its_code_and_leaves_nothing(
        tmp_path, mark_env, mark, find_marked):
    with WarmProto(tmp_path, mark_env, "chaos", SEED) as chaos:
        config = soak_config(tmp_path, chaos.spec, mark_env)
        start = time.monotonic()
        samples = run_soak(config, mark_env)
        wall = time.monotonic() - start
    records = read_log(load_config(config).output_dir / "games.jsonl")
    left = wait_until(lambda: find_marked(mark), nothing)  # what was killed has time to go
    reference = next(s for s in samples if s.games >= min(200, GAMES // 2))
    last: Dict[int, int] = {}  # each process's RSS while the last game was played
    for s in samples:
        if s.games < GAMES:  # then the log is sorted and read back: after the batch
            last.update(s.rss)
    begin = sorted(reference.rss.values())
    end = sorted(last[pid] for pid in reference.rss)
    faults = Counter(r.fault.kind.value for r in records if r.fault)
    faulted = Counter(planned_mode(r) for r in records if r.fault)
    print(f"\nsoak: {len(records)} games in {wall:.1f} s (-j 2, {TIME_LIMIT} s a move); codes "
          f"{dict(sorted(Counter(r.code for r in records).items()))}; faults {dict(faults)}"
          f"\nRSS of the arena and its workers (KiB): after {reference.games} games {begin}, "
          f"while the last was played {end}; processes left: {len(left)}"
          f"\ngames lost by each misbehaviour: {dict(sorted(faulted.items()))}")

    keys = [r.key for r in records]
    assert len(keys) == len(set(keys)) == GAMES
    assert set(keys) == {t.key for t in plan(load_config(config))}
    wrong = [f"{r.key}: {unexpected(r)}" for r in records if unexpected(r)]
    assert wrong == [], "\n".join(wrong[:20])
    if GAMES >= 200:  # every misbehaviour has had its chance
        assert set(faulted) == {mode for mode, kind in CHAOS.items() if kind}
    assert left == []
    assert sum(end) <= GROWTH * sum(begin)
