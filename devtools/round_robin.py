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

from arena.config import Config
from arena.stats import WDL, elo_estimate, pentanomial, sprt
from arena.tasks import Task, plan, play_task
from devtools.members import NO_LIMIT, Member
from records.game import GameRecord


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
        print(f"{record.name(record.fault['side'])} lost by a fault on board "
              f"{task.board}: {record.fault['detail']}", file=sys.stderr)
    return record


def score_of(record: GameRecord, side: str) -> float:
    """One side's score in a game: 1 a win, 1/2 a draw, 0 a loss."""
    return 1.0 if record.result == side else 0.5 if record.result == "draw" else 0.0


def _wdl(scores: List[float]) -> WDL:
    return WDL(scores.count(1.0), scores.count(0.5), scores.count(0.0))


def print_pair(a: str, b: str, outcomes: Dict[int, List[float]],
               seats: Tuple[List[float], List[float]]) -> None:
    """A's W/D/L, Elo with its 95% interval and SPRT(0, 50) over board pairs against B, and
    A's W-D-L moving first and second (``seats``: A's scores in each seat), since most of
    the bot's losses come in one seat."""
    wdl = _wdl([s for scores in outcomes.values() for s in scores])
    est = elo_estimate(wdl)
    pairs = [sum(scores) / 2 for scores in outcomes.values() if len(scores) == 2]
    test = sprt(pentanomial(pairs), 0.0, 50.0)
    first, second = (_wdl(scores) for scores in seats)
    print(f"{a} vs {b}: +{wdl.wins} ={wdl.draws} -{wdl.losses}, score {100 * wdl.score:.0f}%, "
          f"Elo {est.elo:+.0f} [{est.low:+.0f}, {est.high:+.0f}], "
          f"SPRT(0, 50) {test.verdict} (LLR {test.llr:.2f}, {test.pairs} pairs), "
          f"as 1st {first.wins}-{first.draws}-{first.losses}, "
          f"as 2nd {second.wins}-{second.draws}-{second.losses}")


def round_robin(members: List[Member], rounds: int, seed: int, jobs: int) -> None:
    """Play every game of the round robin, ``jobs`` at once, and print the tables."""
    games_to_play = schedule(members, rounds, seed)
    points: Dict[Tuple[str, str], float] = {}
    games: Dict[Tuple[str, str], int] = {}
    move_times: Dict[str, List[float]] = {m.name: [] for m in members}
    by_round: Dict[Tuple[str, str], Dict[int, List[float]]] = {}
    seats: Dict[Tuple[str, str], Tuple[List[float], List[float]]] = {}
    first_wins = ties = 0
    started = time.perf_counter()
    # One job runs in this process: a pool's daemonic workers may not fork the worker of a
    # leaf-parallel member (cores=2), which needs the second core anyway.
    with contextlib.ExitStack() as stack:
        results = map(play_game, games_to_play) if jobs == 1 else \
            stack.enter_context(multiprocessing.Pool(jobs)).imap_unordered(play_game,
                                                                           games_to_play)
        for done, record in enumerate(results, 1):
            first_wins += record.result == record.first
            ties += record.result == "draw"
            for side, other in (("a", "b"), ("b", "a")):
                pair = (record.name(side), record.name(other))
                points[pair] = points.get(pair, 0.0) + score_of(record, side)
                games[pair] = games.get(pair, 0) + 1
                move_times[pair[0]] += record.side_times(side)
            pair, score = (record.a, record.b), score_of(record, "a")  # A: first in member order
            by_round.setdefault(pair, {}).setdefault(record.round, []).append(score)
            seats.setdefault(pair, ([], []))[0 if record.first == "a" else 1].append(score)
            print(f"\r{done}/{len(games_to_play)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    names = [m.name for m in members]
    width = max(len(n) for n in names) + 2
    print(f"score of the row against the column, % ({2 * rounds} games a pair, "
          f"seed {seed}, {time.perf_counter() - started:.0f} s)")
    print("".ljust(width) + "".join(n.rjust(width) for n in names) + "total".rjust(width)
          + "s/move".rjust(width))
    for me in names:
        cells = [(f"{100 * points[me, o] / games[me, o]:.0f}" if me != o else "-").rjust(width)
                 for o in names]
        total = sum(points[me, o] for o in names if o != me)
        played = sum(games[me, o] for o in names if o != me)
        mean_time = sum(move_times[me]) / max(1, len(move_times[me]))
        print(me.ljust(width) + "".join(cells) + f"{100 * total / played:.0f}".rjust(width)
              + f"{mean_time:.3f}".rjust(width))
    print(f"first mover won {first_wins} of {len(games_to_play)} games, {ties} ties")
    for (a, b), outcomes in by_round.items():
        print_pair(a, b, outcomes, seats[a, b])
