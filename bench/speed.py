"""Search throughput of the bot on fixed positions, and its move times as a process.

    python bench/speed.py [--seconds S]         play-outs/s (rollouts alone, and MCTS) and
                                                tree nodes/s on three fixed 12x12 positions
    python bench/speed.py --wall [--games 2]    games at once between two `python main.py`
                                                processes, played by the arena's referee on
                                                the boards of --seed; move times as the arena
                                                takes them (request written -> reply read,
                                                the opener's start-up in its first move)
    python bench/speed.py --leaves              MCTS play-outs/s of one search alone, then with
                                                the leaf worker (bot.search.leaves) playing out
                                                leaves of the same tree
    python bench/speed.py --against REV         the rollout of git revision REV against the
                                                working tree's, interleaved, CPU time (so a
                                                loaded machine slows both alike); then its
                                                forced-win search (--plies, 11 by default) and
                                                solver (30,000 nodes) at the analysed losses'
                                                decisive positions, answers and nodes compared
    python bench/speed.py --ponder RECORDS      play-outs of --seconds of pondering with and
                                                without the guard while pondering, at every
                                                16th position of --games recorded games (the
                                                recorded bot's move, searched 1 s, first)

Figures go to stdout; record them with the command in docs/performance.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import subprocess
import sys
import threading
import time
import types
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.core.boards import draw_board  # noqa: E402
from arena.core.players.process import ProcessPlayer  # noqa: E402
from arena.core.referee import play_game  # noqa: E402
from bot.rules import Position  # noqa: E402
from bot.search.clock import Deadline, Limit  # noqa: E402
from bot.search.leaves import LeafParallelMCTS  # noqa: E402
from bot.search.mcts import MCTS  # noqa: E402
from bot.search.rollout import TacticalRollout  # noqa: E402
from records.board import Board  # noqa: E402

FORCED_NODES = 10**8  # a forced-win question's node cap for --against (it always answers)
WALL_LIMIT = 30.0  # seconds a move for --wall: far above any move of the bot's, so each is timed
# (name, M, N, noX, noY, columns played from the empty board)
POSITIONS: List[Tuple[str, int, int, int, int, List[int]]] = [
    ("empty 12x12", 12, 12, 4, 7, []),
    ("middle game 12x12, 40 plies", 12, 12, 4, 7,
     [10, 2, 8, 6, 11, 9, 10, 1, 2, 9, 0, 4, 3, 4, 7, 9, 9, 11, 6, 6, 11, 9, 7, 2, 5, 1, 0, 2, 7,
      7, 5, 8, 10, 10, 6, 9, 6, 10, 5, 5]),
    ("endgame 12x12, 100 plies", 12, 12, 9, 2,
     [8, 0, 2, 0, 6, 10, 9, 7, 6, 3, 3, 7, 2, 7, 7, 0, 0, 3, 1, 6, 2, 10, 6, 5, 6, 0, 4, 5, 3, 6,
      0, 5, 5, 2, 9, 7, 7, 5, 5, 5, 5, 1, 1, 1, 10, 7, 1, 10, 7, 7, 2, 7, 9, 9, 5, 0, 9, 1, 9,
      1, 10, 6, 6, 3, 3, 3, 2, 7, 7, 5, 0, 2, 10, 3, 11, 10, 3, 5, 3, 2, 10, 6, 11, 3, 5, 9, 10,
      10, 10, 9, 0, 1, 1, 9, 9, 1, 1, 10, 6, 3]),
]


def position(M: int, N: int, no_x: int, no_y: int, columns: List[int]) -> Position:
    p = Position.new(M, N, no_x, no_y)
    for c in columns:
        p = p.play(c)
    return p


def throughput(seconds: float) -> None:
    """Print rollouts/s and MCTS play-outs/s and nodes/s for each fixed position."""
    print(f"{'position':32} {'rollouts/s':>11} {'MCTS playouts/s':>16} {'nodes/s':>9}")
    rollout = TacticalRollout()
    for name, M, N, no_x, no_y, cols in POSITIONS:
        p = position(M, N, no_x, no_y, cols)
        rand = random.Random(1).random
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            rollout.evaluate(p.geo, p.current, p.mask, rand)
            n += 1
        rollouts = n / (time.perf_counter() - start)
        result = MCTS(seed=1).search(p, Deadline(Limit(seconds=seconds)))
        print(f"{name:32} {rollouts:11.0f} {result.playouts / result.seconds:16.0f} "
              f"{result.nodes / result.seconds:9.0f}"
              + ("  (root proven)" if result.outcome is not None else ""))


def at_revision(revision: str, path: str, name: str) -> object:
    """The object ``name`` of module file ``path`` as it is at git ``revision`` (the module's
    own imports come from the working tree)."""
    source = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    module = types.ModuleType(f"{path}@{revision}")
    sys.modules[module.__name__] = module  # where its dataclasses look their module up
    exec(compile(source, f"{revision}:{path}", "exec"), module.__dict__)
    return getattr(module, name)


def against(revision: str, seconds: float, plies: Tuple[int, ...], repeats: int = 3) -> None:
    """Rollouts per CPU-second of ``revision``'s TacticalRollout and the working tree's,
    alternating on each fixed position; best of ``repeats`` each, and the mean scores."""
    versions = {revision: at_revision(revision, "bot/search/rollout.py", "TacticalRollout"),
                "working tree": TacticalRollout}
    print(f"{'position':32} " + " ".join(f"{name:>14}" for name in versions) + "   ratio"
          + "   mean scores")
    for name, M, N, no_x, no_y, cols in POSITIONS:
        p = position(M, N, no_x, no_y, cols)
        rates: Dict[str, List[float]] = {v: [] for v in versions}
        scores: Dict[str, List[float]] = {v: [] for v in versions}
        for repeat in range(repeats):
            for version, cls in versions.items():
                rollout, rand = cls(), random.Random(repeat).random
                n, total, start = 0, 0.0, time.process_time()
                while time.process_time() - start < seconds:
                    total += rollout.evaluate(p.geo, p.current, p.mask, rand)
                    n += 1
                rates[version].append(n / (time.process_time() - start))
                scores[version].append(total / n)
        best = [max(rates[v]) for v in versions]
        means = " / ".join(f"{sum(scores[v]) / repeats:.3f}" for v in versions)
        print(f"{name:32} " + " ".join(f"{b:14.0f}" for b in best)
              + f"   x{best[1] / best[0]:.2f}   {means}")
    exact_searches_against(revision, plies)


def exact_searches_against(revision: str, plies: Tuple[int, ...] = (11,),
                           nodes: int = 30_000) -> None:
    """CPU seconds of ``revision``'s forced-win search and solver and the working tree's at
    the analysed losses' decisive positions (a question of each of ``plies`` after the game's
    move; the moves' values within ``nodes`` nodes), whether the answers agree, and the nodes
    each searched (the same when a change only made the nodes faster)."""
    from analysis.game import replay
    from bot.search.solver import Solver
    from bot.search.tactics import Budget, ForcedWin
    from records.analysis import LossAnalysis
    from records.log import read_games
    old_forced = at_revision(revision, "bot/search/tactics.py", "ForcedWin")
    searches = {
        f"forced-win search, {depth} plies": (
            old_forced, ForcedWin, 1, lambda cls, geo: cls(geo),
            lambda search, p, depth=depth: search.settle(p.current, p.mask, depth,
                                                         Budget(FORCED_NODES)))
        for depth in plies}
    searches["solver"] = (at_revision(revision, "bot/search/solver.py", "Solver"), Solver, 0,
                          lambda cls, geo: cls(), lambda search, p: search.solve_moves(p, nodes))
    games = [(replay(r), r.analysis.decisive.index)
             for r in read_games(ROOT / "docs/results/bot-losses-analysed.jsonl")
             if isinstance(r.analysis, LossAnalysis) and r.analysis.decisive]
    print(f"\n{len(games)} decisive positions  {revision:>14} {'working tree':>14}   ratio"
          "   nodes/s (working tree)   same answers   nodes (REV / working tree)")
    for name, (old, new, after, make, ask) in searches.items():
        spent = {old: 0.0, new: 0.0}
        searched = {old: 0, new: 0}
        same = True
        for positions, decisive in games:
            p = positions[decisive + after]
            answers = []
            for cls in (old, new):
                search = make(cls, p.geo)
                start = time.process_time()
                answers.append(ask(search, p))
                spent[cls] += time.process_time() - start
                searched[cls] += search.nodes
            same = same and answers[0] == answers[1]
        print(f"{name:32} {spent[old]:13.2f}s {spent[new]:13.2f}s   x{spent[old] / spent[new]:.2f}"
              f"   {searched[new] / spent[new]:22,.0f}   {'yes' if same else 'NO':>12}"
              f"   {searched[old]:,} / {searched[new]:,}")


def wall_boards(seed: int, games: int) -> List[Board]:
    """The boards of --wall's games: the arena's rounds 0, 1, ... of ``seed``, as a batch
    draws them."""
    return [draw_board(seed, r) for r in range(games)]


def wall_game(board: Board, extra: List[str], times: Dict[str, List[float]]) -> None:
    """Two `python main.py` processes play one game, refereed and timed by the arena; append
    the first two moves' times to ``times["first"]``, the others' to ``times["later"]``."""
    argv = [sys.executable, "main.py", *extra]
    with ProcessPlayer("first", argv, cwd=str(ROOT)) as first, \
            ProcessPlayer("second", argv, cwd=str(ROOT)) as second:
        outcome = play_game(first, second, board, WALL_LIMIT)
    if outcome.faulter:
        print(f"{board}: {outcome.reason}", file=sys.stderr)
    times["first"] += outcome.times[:2]
    times["later"] += outcome.times[2:]


def wall(games: int, rounds: int, extra: List[str], seed: int) -> None:
    """Play ``rounds`` x ``games`` games, ``games`` at a time; print move-time figures."""
    times: Dict[str, List[float]] = {"first": [], "later": []}
    boards = wall_boards(seed, rounds * games)
    for r in range(rounds):
        threads = [threading.Thread(target=wall_game, args=(board, extra, times))
                   for board in boards[r * games:(r + 1) * games]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for kind, ts in times.items():
        ts.sort()
        print(f"{kind:5} moves: {len(ts):4}  median {ts[len(ts) // 2]:.3f} s  "
              f"max {ts[-1]:.3f} s  over 2.8 s: {sum(t > 2.8 for t in ts)}")


def with_leaves(seconds: float, repeats: int = 3) -> None:
    """Print MCTS play-outs/s alone and with the leaf worker, each the median of ``repeats``
    fresh searches of each fixed position (one worker for all)."""
    leafy = LeafParallelMCTS(seed=1)
    print(f"{'position':32} {'alone':>8} {'with worker':>12} {'of them, worker':>16} "
          f"{'ratio':>6}")
    try:
        for name, M, N, no_x, no_y, cols in POSITIONS:
            p = position(M, N, no_x, no_y, cols)
            alone, both, worker = [], [], []
            for _ in range(repeats):
                alone.append(MCTS(seed=1).search(p, Deadline(Limit(seconds))).playouts)
                leafy.tree, sent = None, leafy.sent
                both.append(leafy.search(p, Deadline(Limit(seconds))).playouts)
                worker.append(leafy.sent - sent)
            a, b, w = (sorted(x)[len(x) // 2] / seconds for x in (alone, both, worker))
            print(f"{name:32} {a:8.0f} {b:12.0f} {w:16.0f} {b / a:6.2f}")
    finally:
        leafy.stop_worker()


def pondering(path: Path, seconds: float, games: int, move_seconds: float = 1.0) -> None:
    """Pondering's play-outs with the guard while pondering against without it, summed over
    positions of recorded games (the recorded bot's side moves, then ponders)."""
    from analysis.game import replay
    from bot.choose import safe_decide
    from bot.protocol.platform import PONDER_LIMIT
    from bot.search.settings import DEFAULT
    from records.log import read_games
    totals = {True: 0, False: 0}
    positions = 0
    limit = Limit(move_seconds)
    for record in read_games(path)[:games]:
        played = replay(record)
        for i in range(10 + (record.first != "a"), len(played) - 2, 16):
            if played[i + 1].last_mover_won() or played[i + 1].is_full():
                continue
            for guarded in (True, False):
                settings = DEFAULT if guarded else dataclasses.replace(DEFAULT, ponder_guard=0)
                searcher = MCTS(settings, seed=1)
                safe_decide(played[i], limit, searcher, Deadline(limit))
                end = time.perf_counter() + seconds
                totals[guarded] += searcher.ponder(
                    played[i + 1], lambda end=end: time.perf_counter() > end, PONDER_LIMIT)
            positions += 1
    print(f"{positions} positions, {seconds:g} s of pondering each: "
          f"{totals[True]:,} play-outs with the guard while pondering, {totals[False]:,} without "
          f"(x{totals[True] / max(totals[False], 1):.3f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--wall", action="store_true", help="measure move times as processes")
    parser.add_argument("--games", type=int, default=2, help="games at once (--wall)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of games (--wall)")
    parser.add_argument("--seed", type=int, default=1,
                        help="board seed (--wall): game i plays the board of (seed, i)")
    parser.add_argument("--leaves", action="store_true",
                        help="play-outs/s alone and with the leaf worker")
    parser.add_argument("--against", metavar="REV",
                        help="compare the rollout, forced-win search and solver of git "
                             "revision REV with the working tree's")
    parser.add_argument("--plies", type=int, nargs="+", default=[11],
                        help="the forced-win questions' depths (--against; default 11)")
    parser.add_argument("--ponder", type=Path, metavar="RECORDS",
                        help="pondering's play-outs with and without its guard (--games games)")
    parser.add_argument("bot_args", nargs="*", help="extra flags for main.py (after --)")
    args = parser.parse_args()
    if args.ponder:
        pondering(args.ponder, args.seconds, args.games)
    elif args.leaves:
        with_leaves(args.seconds)
    elif args.against:
        against(args.against, args.seconds, tuple(args.plies))
    elif args.wall:
        wall(args.games, args.rounds, args.bot_args, args.seed)
    else:
        throughput(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
