"""Round robin between the opponent ladder's members, every member called in-process.

The arena (python -m arena roundrobin) runs members as configs name them; this script is the
ladder's self-check and runs variants a config cannot name: the Python members and our bot are
called in-process, the native UCT through ctypes (opponents.native), each as the arena's
in-process player, with no time limit. The games are the arena's: its boards (the same seed
draws the same boards as a batch), each played twice with colours swapped, by its referee.
Prints each member's score against each other member and its time a move.

Members: random, greedy, heuristic; native UCTs named uct-<playouts>[-c<C>] (uct-10k: 10,000
play-outs a move, UCT_TIME far away) or uct-t<seconds> (uncapped, UCT_TIME seconds); our bot
called in-process (bot.protocol.function) as bot-<playouts> or bot-t<seconds>. A bot VARIANT
sets fields of its bot.search.settings.Settings after colons, e.g. bot:c=0.4:follow=0-3000
(numbers, 0/1 for keep_threats, deep_probes=0 for none, guard_depths=0 for none or
plies joined by +, as 11+13), and cores=2 has a forked worker play
out leaves too (bot.search.leaves; needs -j 1, the worker takes the second core).

    .venv/bin/python bench/ladder.py --rounds 10 -j 2 \
        --members random,greedy,heuristic,uct-1k,uct-10k

With --decisive ANNOTATED.jsonl (records from `python -m arena analyse`), no games are played:
each member moves in the position of every analysed loss's decisive mistake, and the forced-win
search (up to 15 plies, --proof-seconds each), then the exact solver (as long again), say
whether its move is proven lost. It shows whether a change of the search avoids the mistakes
that lost the games, in minutes (--kinds deep,zugzwang: the long games' positions alone):

    .venv/bin/python bench/ladder.py --decisive docs/results/bot-losses-analysed.jsonl \
        --members bot-t2.4,bot:guard_depths=0-t2.4

With --ponder SECONDS the bot members reach each position as the process does: they search
the move before it, ponder SECONDS at the opponent's move, and move with the tree that leaves.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import itertools
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.config import Config  # noqa: E402
from arena.players.python import PythonPlayer  # noqa: E402
from arena.stats import WDL, elo_estimate, pentanomial, sprt  # noqa: E402
from arena.tasks import Task, plan, play_task  # noqa: E402
from bot.rules import Position  # noqa: E402
from opponents import greedy, heuristic, random_player  # noqa: E402
from opponents.native import DEFAULT_LIBRARY, NativeStrategy, build  # noqa: E402
from records.analysis import LossAnalysis  # noqa: E402
from records.game import GameRecord  # noqa: E402

PYTHON_MEMBERS = {"random": random_player.get_point, "greedy": greedy.get_point,
                  "heuristic": heuristic.get_point}
NO_LIMIT = float("inf")  # seconds a move: the ladder measures members' times, it does not cap them


@dataclass(frozen=True)
class Member:
    """A ladder member: its kind (a PYTHON_MEMBERS name, "uct" or "bot"), the environment its
    calls need (the native UCT reads its budget there) and the bot's play-out or time limit."""

    name: str
    kind: str
    env: Tuple[Tuple[str, str], ...] = ()
    playouts: Optional[int] = None
    seconds: Optional[float] = None
    knobs: Tuple[Tuple[str, str], ...] = ()

    def player(self) -> Callable:
        if self.kind == "uct":
            return _native()
        if self.kind == "bot":
            from bot.protocol.function import get_point
            from bot.search.clock import Limit
            limit = Limit(self.seconds, self.playouts)
            if self.knobs:
                from bot.engine import choose_move
                return functools.partial(choose_move, limit=limit, searcher=_variant(self.knobs))
            return functools.partial(get_point, limit=limit)
        return PYTHON_MEMBERS[self.kind]

    def move(self, M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
             last_y: int, no_x: int, no_y: int) -> Any:
        """The member's move (getPoint's arguments), with the environment its calls read."""
        os.environ.update(self.env)
        return self.player()(M, N, top, board, last_x, last_y, no_x, no_y)


def _variant(knobs: Tuple[Tuple[str, str], ...]):
    """A fresh searcher with the named settings (a fresh tree every move, as get_point has)."""
    from bot.search.leaves import make_searcher
    from bot.search.settings import Settings
    options = dict(knobs)
    cores = int(options.pop("cores", "1"))
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    unknown = set(options) - set(fields)
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
    if cores == 2:  # one forked worker per member and process, not per move
        if knobs not in _leaf_searchers:
            _leaf_searchers[knobs] = make_searcher(2, settings=Settings(**values))
        searcher = _leaf_searchers[knobs]
        searcher.tree = None
        return searcher
    return make_searcher(1, settings=Settings(**values))


_loaded: Dict[str, NativeStrategy] = {}
_leaf_searchers: Dict[Tuple[Tuple[str, str], ...], object] = {}


def _native() -> NativeStrategy:
    """The native UCT, loaded once per process (it is stateless between calls)."""
    if "uct" not in _loaded:
        _loaded["uct"] = NativeStrategy(DEFAULT_LIBRARY)
    return _loaded["uct"]


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


def schedule(members: List[Member], rounds: int, seed: int) -> List[Tuple[Task, Member, Member]]:
    """Every game of the round robin with its two members: the arena's plan of a batch."""
    config = Config(batch="ladder", rounds=rounds, seed=seed, time_limit=NO_LIMIT,
                    pairings=[(a.name, b.name) for a, b in itertools.combinations(members, 2)])
    by_name = {m.name: m for m in members}
    return [(t, by_name[t.key.a], by_name[t.key.b]) for t in plan(config)]


def play_game(job: Tuple[Task, Member, Member]) -> GameRecord:
    """One game, played by the arena's referee; a fault (an illegal move, a crash) loses it
    and is reported on stderr."""
    task, a, b = job
    record = play_task({m.name: PythonPlayer(m.name, m.move) for m in (a, b)}, task)
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


def verdict(position: Position, move: Tuple[int, int], seconds: float) -> str:
    """'lost in N' (the opponent forces a four within N plies after ``move``), else, from the
    exact solver in ``seconds`` more, 'lost deep' (the opponent wins all the same) or 'holds'
    (it does not: a draw at least), else 'clear N' (no forced four within N plies, N up to
    15) or 'unsettled', by the loss analysis's searches."""
    from analysis.proof import Prover, plies_of
    prover = Prover(position.geo, seconds)
    after = position.play_xy(*move)
    found, clear = prover.forced_search(after)
    if found is not None:
        return f"lost in {plies_of(found)}"
    wins = prover.solver.wins(after, time.perf_counter() + seconds)
    if wins is not None:
        return "lost deep" if wins else "holds"
    return f"clear {plies_of(clear)}" if clear > 0 else "unsettled"


def pondered_move(member: Member, positions: List[Position], index: int,
                  ponder: float) -> Tuple[int, int]:
    """The move of a bot member at ``positions[index]`` as the process reaches it: it searches
    the move before (``index - 2``), ponders ``ponder`` seconds while the opponent thinks,
    then searches this one with the tree that leaves."""
    from bot.engine import safe_decide
    from bot.protocol.platform import PONDER_LIMIT
    from bot.search.clock import Deadline, Limit
    from bot.search.leaves import make_searcher
    searcher = _variant(member.knobs) if member.knobs else make_searcher(1)
    limit = Limit(member.seconds, member.playouts)
    safe_decide(positions[index - 2], limit, searcher, Deadline(limit))
    end = time.perf_counter() + ponder
    searcher.ponder(positions[index - 1], lambda: time.perf_counter() > end, PONDER_LIMIT)
    return positions[index].xy(safe_decide(positions[index], limit, searcher, Deadline(limit)))


def decisive(path: Path, members: List[Member], seconds: float,
             ponder: Optional[float] = None, kinds: Optional[List[str]] = None) -> None:
    """Each member's move at each analysed loss's decisive mistake (of ``kinds``, default
    all), and its verdict(). With ``ponder``, bot members reach the position as the process
    does (pondered_move)."""
    from analysis.command import load
    from analysis.game import replay
    cases = [(r, r.analysis) for r in load(path) if isinstance(r.analysis, LossAnalysis)
             and r.analysis.decisive and (kinds is None or r.analysis.kind.value in kinds)]
    if not cases:
        raise SystemExit(f"{path}: no analysed loss with a decisive mistake of those kinds")
    lost = {m.name: 0 for m in members}
    deep = {m.name: 0 for m in members}
    for record, analysis in cases:
        index = analysis.decisive.index
        positions = replay(record)
        pos = positions[index]
        last = tuple(record.moves[index - 1]) if index else (-1, -1)
        game = tuple(record.moves[index])
        row = [f"ply {index + 1:>2} {record.M}x{record.N}",
               f"game {game}: {verdict(pos, game, seconds)}"]
        for member in members:
            if ponder is not None and member.kind == "bot" and index >= 2:
                move = pondered_move(member, positions, index, ponder)
            else:
                move = tuple(member.move(record.M, record.N, pos.top(), pos.board(), last[0],
                                         last[1], record.no_x, record.no_y))
            said = verdict(pos, move, seconds)
            lost[member.name] += said.startswith("lost in")
            deep[member.name] += said == "lost deep"
            row.append(f"{member.name} {move}: {said}")
        print(" | ".join(row), flush=True)
    print(f"{len(cases)} decisive positions; moves proven lost to a forced four, and by the "
          "solver: " + ", ".join(f"{name} {lost[name]} and {deep[name]}" for name in lost))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", default="random,greedy,heuristic,uct-1k,uct-10k")
    parser.add_argument("--rounds", type=int, default=10, help="boards; each pair plays 2 a board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=1, help="games at once")
    parser.add_argument("--decisive", type=Path, metavar="ANNOTATED",
                        help="move at the decisive positions of these analysed losses instead")
    parser.add_argument("--proof-seconds", type=float, default=4.0,
                        help="the forced-win search's time for each move's verdict, and then "
                             "the solver's")
    parser.add_argument("--kinds", help="with --decisive: only the losses of these kinds "
                                        "(comma-separated: double threat, zugzwang, deep, ...)")
    parser.add_argument("--ponder", type=float, metavar="SECONDS",
                        help="with --decisive: bot members search the move before, ponder "
                             "this long, then move, as the process does")
    args = parser.parse_args()

    members = [parse_member(n) for n in args.members.split(",")]
    if any(m.kind == "uct" for m in members):
        build(DEFAULT_LIBRARY)
    if args.decisive is not None:
        decisive(args.decisive, members, args.proof_seconds, args.ponder,
                 args.kinds.split(",") if args.kinds else None)
        return
    jobs = schedule(members, args.rounds, args.seed)
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
        results = map(play_game, jobs) if args.jobs == 1 else \
            stack.enter_context(multiprocessing.Pool(args.jobs)).imap_unordered(play_game, jobs)
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
            print(f"\r{done}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    names = [m.name for m in members]
    width = max(len(n) for n in names) + 2
    print(f"score of the row against the column, % ({2 * args.rounds} games a pair, "
          f"seed {args.seed}, {time.perf_counter() - started:.0f} s)")
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
    print(f"first mover won {first_wins} of {len(jobs)} games, {ties} ties")
    for (a, b), outcomes in by_round.items():
        print_pair(a, b, outcomes, seats[a, b])


if __name__ == "__main__":
    main()
