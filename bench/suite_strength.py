"""Does a suite's score predict match strength? (docs/suites.md, "Does the suite predict
strength?")

Plays a round robin of players of spread strength through `arena run` (a config written into
the output folder), fits each player's Elo to all its games (arena/report/stats.py: a
Bradley-Terry fit, mean 0, one virtual draw against the field; a 95% bootstrap interval over
board pairs), asks the same players at each position of a suite through `arena suite run
--json`, and prints each player's Elo beside the win chance it gives away there, then the
Spearman rank correlation of Elo and minus the win chance given away with a 95% bootstrap
interval (board pairs resampled for the Elo, each player's suite score drawn from a normal law
with the suite's interval). The bot at 0.1 s and at 1 s answers the suite a second time under
another seed, so the output says whether the two budgets are apart by more than a run's noise.

    .venv/bin/python bench/suite_strength.py -j 2              # the whole bench
    .venv/bin/python bench/suite_strength.py --players random,greedy,heuristic --rounds 1

Both resume: the games' log (OUTPUT/games.jsonl) and the suite's answers (OUTPUT/answers.jsonl)
stay, and the same command plays and asks only what is missing.

Cost, estimated from the players' times a move (about 25 moves a player a game): the round
robin's 180 games take about 1,500 s of thinking (the bot at 1 s a move two thirds of it), about
13 minutes at -j 2; the suite costs about 2.7 s of thinking a position (the bots' five runs, 2.5
s, use their whole time in the middle of a game), about 1.4 s a position at -j 2; the bootstrap
takes a few seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.batch.builtin import LADDER  # noqa: E402
from arena.report.stats import (  # noqa: E402
    Z95,
    EloEstimate,
    Game,
    elo_bootstrap,
    elo_intervals,
    elo_ratings,
    percentile_interval,
    spearman,
)
from records.game import GameRecord  # noqa: E402
from records.log import read_games  # noqa: E402
from records.result import Side  # noqa: E402

UCT_PLAYOUTS = {"uct-300": 300, "uct-3k": 3000, "uct-30k": 30000}
UCT_SECONDS = 2.0  # the native UCT's cap a move, under the 3 s rule; the play-outs end it first
BOT_SECONDS = {"bot-0.1": 0.1, "bot-0.3": 0.3, "bot-1": 1.0}
PLAYERS = ["random", "greedy", "heuristic", "mcts200", *UCT_PLAYOUTS, *BOT_SECONDS]
RERUNS = {"bot-0.1": "bot-0.1-rerun", "bot-1": "bot-1-rerun"}  # the suite's second runs
BATCH = "suite-strength"


def spec(name: str, getpoint: bool, seed: Optional[int] = None) -> Dict[str, Any]:
    """A player's spec: in games on the platform protocol, on the suite on the getpoint one
    (a suite asks about positions, which only that protocol can tell a process)."""
    if name in ("random", "greedy", "heuristic"):
        return dict(LADDER[name])
    if name in UCT_PLAYOUTS:
        from opponents.build import native_uct  # built if stale

        return {"so": str(native_uct()),
                "env": {"UCT_TIME": str(UCT_SECONDS), "UCT_PLAYOUTS": str(UCT_PLAYOUTS[name])}}
    budget = "--playouts 200" if name == "mcts200" else f"--time {BOT_SECONDS[name]:g}"
    protocol = "--protocol getpoint " if getpoint else ""
    again = f" --seed {seed}" if seed is not None else ""
    return {"process": f"python -m bot {protocol}{budget}{again}"}


def suite_specs(names: Sequence[str]) -> Dict[str, Dict[str, Any]]:
    """The suite's players: each named one, and a second run of the bot at 0.1 s and 1 s
    under another seed (the first under seed 1), to show a run's noise."""
    specs = {}
    for name in names:
        rerun = RERUNS.get(name)
        specs[name] = spec(name, getpoint=True, seed=1 if rerun else None)
        if rerun:
            specs[rerun] = spec(name, getpoint=True, seed=2)
    return specs


def write_config(path: Path, specs: Mapping[str, Dict[str, Any]], **scalars: Any) -> Path:
    """A batch config naming these players in a round robin (the suite's config only names
    them: `arena suite run --config` reads its players)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump({**scalars, "players": dict(specs),
                                    "roundrobin": list(specs)}, sort_keys=False))
    return path


def arena(*args: str, capture: bool = False) -> str:
    """`python -m arena ARGS` from the repository root (its progress on stderr); its stdout
    when captured; exits with the arena's status when it fails (130 on Ctrl-C)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run([sys.executable, "-m", "arena", *args], cwd=ROOT, env=env, text=True,
                          stdout=subprocess.PIPE if capture else None)
    if done.returncode != 0:
        sys.exit(done.returncode)
    return done.stdout or ""


def board_pairs(records: Sequence[GameRecord]) -> List[List[Game]]:
    """The games grouped by board: both colours of one (pairing, seed, round), the bootstrap's
    unit (a board whose second game is missing is a group of one)."""
    groups: Dict[Tuple[str, str, str, int, int], List[Game]] = {}
    for r in records:
        k = r.key
        groups.setdefault((k.a, k.b, k.batch, k.seed, k.round), []).append(
            (k.a, k.b, r.result.outcome(Side.A).score))
    return [groups[key] for key in sorted(groups)]


@dataclass(frozen=True)
class Valued:
    """One player's score on a suite's valued positions: the win chance it gives away on
    average (0: always the best move) and the share of best moves, each with its interval."""

    answered: int
    given: float
    given_low: float
    given_high: float
    best: float
    best_low: float
    best_high: float

    @property
    def spread(self) -> float:
        """The standard deviation of the mean given away that its 95% interval implies."""
        return (self.given_high - self.given_low) / (2 * Z95)


def valued_scores(report: Mapping[str, Any]) -> Dict[str, Valued]:
    """Each player's ``valued`` figures from `arena suite run --json`'s report; SystemExit
    when the suite has none (it holds no valued positions)."""
    out = {}
    for name, figures in report["players"].items():
        valued = figures.get("valued")
        if not valued or not valued.get("answered"):
            raise SystemExit(f"{report['suite']}: no valued positions answered by {name}; "
                             "this bench needs a suite of valued positions (--suite)")
        given, best = valued["given_away"], valued["best_share"]
        out[name] = Valued(int(valued["answered"]), float(given["mean"]), float(given["low"]),
                           float(given["high"]), float(best["share"]), float(best["low"]),
                           float(best["high"]))
    return out


def rank_agreement(elo: Mapping[str, float], samples: Sequence[Mapping[str, float]],
                   suite: Mapping[str, Valued], seed: int) -> Tuple[float, float, float]:
    """Spearman's correlation of Elo and minus the win chance given away over the players
    with both, and its 95% bootstrap interval: each Elo sample with each player's suite
    score drawn from a normal law of its own spread."""
    names = [n for n in elo if n in suite]
    rho = spearman([elo[n] for n in names], [-suite[n].given for n in names])
    rng = random.Random(seed)
    draws = [spearman([s.get(n, math.nan) for n in names],
                      [-rng.gauss(suite[n].given, suite[n].spread) for n in names])
             for s in samples if all(n in s for n in names)]
    return (rho, *percentile_interval(draws))


def noise_line(suite: Mapping[str, Valued]) -> Optional[str]:
    """Whether the bot at 0.1 s and at 1 s give away chances further apart than each one's
    two runs do (None when either's two runs are missing)."""
    if not all(n in suite for pair in RERUNS.items() for n in pair):
        return None
    spreads = {n: abs(suite[n].given - suite[again].given) for n, again in RERUNS.items()}
    apart = abs(suite["bot-0.1"].given - suite["bot-1"].given)
    verdict = "more" if apart > max(spreads.values()) else "not more"
    runs = "; ".join(f"{n} {suite[n].given:.4f} and {suite[again].given:.4f} "
                     f"(runs {spreads[n]:.4f} apart)" for n, again in RERUNS.items())
    return (f"bot at 0.1 s against 1 s: {apart:.4f} apart in win chance given away, "
            f"{verdict} than a run's noise ({runs})")


def table(games: Mapping[str, int], ratings: Mapping[str, EloEstimate],
          suite: Mapping[str, Valued]) -> List[str]:
    """The markdown table: one row a player, strongest first by Elo; the suite's reruns last."""
    lines = ["| player | games | Elo [95%] | given away [95%] | best move [95%] |",
             "|---|---|---|---|---|"]
    order = sorted(ratings, key=lambda n: -ratings[n].elo) + [n for n in suite
                                                              if n not in ratings]
    for name in order:
        est = ratings.get(name)
        elo = f"{est.elo:+.0f} [{est.low:+.0f}, {est.high:+.0f}]" if est else "-"
        v = suite.get(name)
        given = f"{v.given:.4f} [{v.given_low:.4f}, {v.given_high:.4f}]" if v else "-"
        best = f"{100 * v.best:.1f}% [{100 * v.best_low:.1f}, {100 * v.best_high:.1f}]" \
            if v else "-"
        lines.append(f"| {name} | {games.get(name, 0)} | {elo} | {given} | {best} |")
    return lines


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--players", default=",".join(PLAYERS),
                   help="comma-separated, from the defaults (at least two)")
    p.add_argument("--suite", type=Path, default=Path("suites/middle.jsonl"),
                   help="a suite of valued positions (a file or a folder)")
    p.add_argument("--rounds", type=int, default=2,
                   help="boards a pair plays, each twice with colours swapped")
    p.add_argument("--time-limit", type=float, default=3.0, help="seconds a move in the games")
    p.add_argument("-j", "--jobs", type=int, default=2, help="games and positions at once")
    p.add_argument("--seed", type=int, default=1, help="the boards' seed and the bootstrap's")
    p.add_argument("--draws", type=int, default=1000, help="bootstrap samples")
    p.add_argument("-o", "--output", type=Path, default=Path("results/suite-strength"),
                   help="the games, the suite's answers and the configs (kept: a run resumes)")
    args = p.parse_args(argv)
    args.players = [n for n in args.players.split(",") if n]
    unknown = sorted(set(args.players) - set(PLAYERS))
    if unknown or len(args.players) < 2:
        p.error(f"--players: at least two of {', '.join(PLAYERS)} (unknown: {unknown})")
    return args


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_args(argv)
    out = (ROOT / args.output).resolve()
    games_config = write_config(out / "games.yaml",
                                {n: spec(n, getpoint=False) for n in args.players},
                                batch=BATCH, rounds=args.rounds, time_limit=args.time_limit,
                                jobs=args.jobs, seed=args.seed, output=str(out))
    arena("run", str(games_config))
    specs = suite_specs(args.players)
    suite_config = write_config(out / "suite.yaml", specs)
    report = json.loads(arena("suite", "run", str(args.suite), *specs, "--config",
                              str(suite_config), "--json", "-o", str(out / "answers.jsonl"),
                              "-j", str(args.jobs), capture=True))
    (out / "suite.json").write_text(json.dumps(report, indent=1))

    records = [r for r in read_games(out) if r.batch == BATCH and {r.a, r.b} <= set(args.players)]
    groups = board_pairs(records)
    fitted = elo_ratings([g for group in groups for g in group])
    samples = elo_bootstrap(groups, args.draws, args.seed)
    ratings = elo_intervals(fitted, samples)
    suite = valued_scores(report)
    games = {n: sum(n in (r.a, r.b) for r in records) for n in fitted}
    print(f"\n{len(records)} games (seed {args.seed}, {args.rounds} boards a pair, "
          f"{args.time_limit:g} s a move); Elo anchored at mean 0; suite {args.suite}, "
          f"{report.get('valued_positions', 0)} valued positions\n")
    print("\n".join(table(games, ratings, suite)))
    rho, low, high = rank_agreement(fitted, samples, suite, args.seed)
    print(f"\nSpearman (Elo, minus win chance given away) over {len(fitted)} players: "
          f"{rho:+.3f} [{low:+.3f}, {high:+.3f}] (bootstrap: board pairs for Elo, each "
          "player's suite score drawn from its interval)")
    noise = noise_line(suite)
    if noise:
        print(noise)


if __name__ == "__main__":
    main()
