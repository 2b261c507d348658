"""The opponent ladder's round robin: every pair of members on the arena's boards (the same
seed draws the same boards as a batch), each board played twice with colours swapped by the
arena's referee, with no time limit; then each member's score against each other member, its
time a move, and each pair's Elo, SPRT and W-D-L by seat."""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import sys
import time
from typing import Dict, List, Tuple

from arena.batch.config import Config
from arena.batch.scheduler import plan
from arena.core.tasks import Task, play_task
from arena.report.stats import elo_estimate, pentanomial, sprt
from devtools.members import NO_LIMIT, Member
from records.game import GameRecord
from records.result import Side
from records.tally import by_colour, by_pairing, pair_scores, wdl, wdl_of


def schedule(members: List[Member], rounds: int, seed: int) -> List[Tuple[Task, Member, Member]]:
    """Every game of the round robin with its two members: the arena's plan of a batch."""
    config = Config(batch="ladder", rounds=rounds, seed=seed, time_limit=NO_LIMIT,
                    pairings=[(a.name, b.name) for a, b in itertools.combinations(members, 2)])
    by_name = {m.name: m for m in members}
    return [(t, by_name[t.key.a], by_name[t.key.b]) for t in plan(config)]


def play_game(job: Tuple[Task, Member, Member]) -> GameRecord:
    """One game, played by the arena's referee between the members' players; a fault (an
    illegal move, a crash) loses it and is reported on stderr."""
    task, a, b = job
    with a.player() as pa, b.player() as pb:
        record = play_task({a.name: pa, b.name: pb}, task)
    if record.fault:
        print(f"{record.name(record.fault.side)} lost by a fault on board "
              f"{task.board}: {record.fault.detail}", file=sys.stderr)
    return record


def print_pair(a: str, b: str, games: List[GameRecord]) -> None:
    """A's W/D/L, Elo with its 95% interval and SPRT(0, 50) over board pairs against B, and
    A's W-D-L moving first and second, since most of the bot's losses come in one seat."""
    count = wdl(games)
    est = elo_estimate(count)
    test = sprt(pentanomial(pair_scores(games)), 0.0, 50.0)
    first, second = by_colour(games)
    print(f"{a} vs {b}: +{count.wins} ={count.draws} -{count.losses}, "
          f"score {100 * count.score:.0f}%, Elo {est.elo:+.0f} [{est.low:+.0f}, {est.high:+.0f}], "
          f"SPRT(0, 50) {test.verdict} (LLR {test.llr:.2f}, {test.pairs} pairs), "
          f"as 1st {first}, as 2nd {second}")


def round_robin(members: List[Member], rounds: int, seed: int, jobs: int) -> None:
    """Play every game of the round robin, ``jobs`` at once, and print the tables."""
    games_to_play = schedule(members, rounds, seed)
    records: List[GameRecord] = []
    started = time.perf_counter()
    # One job runs in this process: a pool's daemonic workers may not fork the worker of a
    # leaf-parallel member (cores=2), which needs the second core anyway.
    with contextlib.ExitStack() as stack:
        results = map(play_game, games_to_play) if jobs == 1 else \
            stack.enter_context(multiprocessing.Pool(jobs)).imap_unordered(play_game,
                                                                           games_to_play)
        for done, record in enumerate(results, 1):
            records.append(record)
            print(f"\r{done}/{len(games_to_play)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    names = [m.name for m in members]
    move_times: Dict[str, List[float]] = {name: [] for name in names}
    for r in records:
        for side in Side:
            move_times[r.name(side)] += r.side_times(side)
    width = max(len(n) for n in names) + 2
    print(f"score of the row against the column, % ({2 * rounds} games a pair, "
          f"seed {seed}, {time.perf_counter() - started:.0f} s)")
    print("".ljust(width) + "".join(n.rjust(width) for n in names) + "total".rjust(width)
          + "s/move".rjust(width))
    for me in names:
        against = {o: [r for r in records if {r.a, r.b} == {me, o}] for o in names if o != me}
        cells = [(f"{100 * wdl_of(against[o], me).score:.0f}" if me != o else "-").rjust(width)
                 for o in names]
        total = wdl_of(records, me).score
        mean_time = sum(move_times[me]) / max(1, len(move_times[me]))
        print(me.ljust(width) + "".join(cells) + f"{100 * total:.0f}".rjust(width)
              + f"{mean_time:.3f}".rjust(width))
    first_wins = sum(r.result.winner is r.first for r in records)
    print(f"first mover won {first_wins} of {len(records)} games, {wdl(records).draws} ties")
    for (a, b), games in by_pairing(records).items():
        print_pair(a, b, games)
