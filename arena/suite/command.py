"""`arena suite build`, `arena suite value` and `arena suite run`: their options and what each
prints. Bad input is a ResultsError or ConfigError, one line and exit status 2 from the command
line; Ctrl-C ends each with exit status 130 and one line saying what the files keep."""

import argparse
import json
import sys
from pathlib import Path
from typing import Callable, Dict, List

from arena.batch.config import ConfigError, load_config, player_from_arg
from arena.engine.limit import Limit
from arena.suite.build import EVERY, PLAYOUTS, RUNS, SEED, build, build_valued, ledger_path
from arena.suite.item import Valuation, read_items
from arena.suite.run import Answer, Key, run_suite, timed
from arena.suite.score import as_json, markdown
from records.log import whole_lines

NODES = 100_000  # the solver's nodes a position: about a second on these boards
SECONDS = 0.25  # each forced-win question's (a position's plies and theme)
TIME_LIMIT = 3.0  # the course's seconds a move: a reply later than this is a timeout


def add_build_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("records", nargs="+", type=Path, metavar="LOG_OR_FOLDER",
                   help="JSON Lines logs of games, or results folders holding games.jsonl")
    p.add_argument("-o", "--output", type=Path, default=Path("results/suite.jsonl"),
                   help="the suite: each position appended as it is proven, the games walked "
                        "in SUITE.games beside it; a build again walks only the rest")
    p.add_argument("--lost-by", metavar="NAME", default="bot",
                   help="the games this player lost (a name, or its start) are walked first")
    p.add_argument("--nodes", type=int, default=NODES,
                   help="the exact solver's node budget of one position; a position it "
                        "cannot settle is left out")
    p.add_argument("--seconds", type=float, default=SECONDS,
                   help="time budget of each forced-win question (the plies and the theme)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="games walked at once (a core each)")


def add_value_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("records", nargs="+", type=Path, metavar="LOG_OR_FOLDER",
                   help="JSON Lines logs of games, or results folders holding games.jsonl")
    p.add_argument("-o", "--output", type=Path, default=Path("results/middle.jsonl"),
                   help="the suite: each position appended as it is valued, the games walked "
                        "in SUITE.games beside it; a build again walks only the rest")
    p.add_argument("--playouts", type=int, default=PLAYOUTS,
                   help="the engine's play-outs a run on each position (a cap, so with the "
                        "seeds a build repeats)")
    p.add_argument("--seed", type=int, default=SEED,
                   help="the first run's engine seed; the second run's is the next")
    p.add_argument("--every", type=int, default=EVERY, metavar="K",
                   help="every K-th ply of a game's middle (plies 8 to 45) is looked at")
    p.add_argument("-j", "--jobs", type=int, default=1,
                   help="games valued at once (an engine each, a core each)")


def add_run_arguments(p: argparse.ArgumentParser, default_config: Path) -> None:
    p.add_argument("suite", type=Path, metavar="SUITE",
                   help="a suite file, or a folder of them (every *.jsonl)")
    p.add_argument("players", nargs="+", metavar="PLAYER",
                   help="NAME or NAME=SPEC: a .so, module:function, or a command on the "
                        "getpoint protocol (\"python -m bot --protocol getpoint\")")
    p.add_argument("--config", type=Path, default=default_config,
                   help="where player NAMEs are looked up before the built-in ones "
                        "(default: configs/arena.yaml where it exists)")
    p.add_argument("--time-limit", "--time", dest="time_limit", type=float,
                   help="seconds a position: each process is run with --time this long (a .so "
                        "and a function keep their own), and a reply later than this or "
                        f"{TIME_LIMIT:g} s, the longer, is a timeout (default: each player's "
                        "own time)")
    p.add_argument("-j", "--jobs", type=int, default=1,
                   help="positions asked at once, each with its own players")
    p.add_argument("-o", "--output", type=Path,
                   help="answers, one JSON line each, appended as they come; a run again asks "
                        "only what is missing (default: none kept)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object "
                                                       "instead of markdown")


def build_command(args: argparse.Namespace, prog: str) -> int:
    """Builds and prints what the build says; 130 on Ctrl-C."""
    if args.nodes < 1 or args.seconds <= 0 or args.jobs < 1:
        raise ConfigError("command line: --nodes and --jobs must be at least 1, --seconds "
                          "positive")
    return _built(args, prog, lambda: build(args.records, args.output,
                                            Limit(args.seconds, nodes=args.nodes),
                                            args.lost_by, args.jobs, args.quiet))


def value_command(args: argparse.Namespace, prog: str) -> int:
    """Builds the valued suite and prints what the build says; 130 on Ctrl-C."""
    if args.playouts < 1 or args.every < 1 or args.jobs < 1:
        raise ConfigError("command line: --playouts, --every and --jobs must be at least 1")
    valuation = Valuation(args.playouts, tuple(range(args.seed, args.seed + RUNS)))
    return _built(args, prog, lambda: build_valued(args.records, args.output, valuation,
                                                   args.every, args.jobs, args.quiet))


def _built(args: argparse.Namespace, prog: str, build: Callable[[], List[str]]) -> int:
    """Runs a build and prints what it says; on Ctrl-C one line on what the suite keeps, 130."""
    try:
        lines = build()
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; {len(whole_lines(args.output))} positions are kept in "
              f"{args.output} (the games walked in {ledger_path(args.output)}), and the same "
              "command builds the rest", file=sys.stderr)
        return 130
    print("\n".join(lines))
    return 0


def run_command(args: argparse.Namespace, prog: str) -> int:
    """Asks the players, prints the report; 130 on Ctrl-C, with the report of what was
    answered."""
    if args.jobs < 1 or (args.time_limit is not None and args.time_limit <= 0):
        raise ConfigError("command line: --jobs must be at least 1 and --time positive")
    items = read_items(args.suite)
    known = load_config(args.config).players if args.config.exists() else {}
    players = {}
    for arg in args.players:
        name, spec = player_from_arg(arg, known)
        if name in players:
            raise ConfigError(f"command line: {name}: named twice")
        players[name] = timed(spec, args.time_limit)
    limit = max(TIME_LIMIT, args.time_limit or 0.0)
    answers: Dict[Key, Answer] = {}
    status = 0
    try:
        run_suite(items, players, args.time_limit, limit, answers, args.jobs, args.quiet,
                  args.output)
    except KeyboardInterrupt:
        status = 130
        kept = f"; the answers are kept in {args.output}, and the same command asks the " \
               "rest" if args.output else " (with -o FILE each answer is kept as it comes)"
        print(f"{prog}: interrupted{kept}", file=sys.stderr)
    label = str(args.suite)
    report = (json.dumps(as_json(label, items, list(players), answers), indent=1) if args.json
              else "\n".join(markdown(label, items, list(players), answers)))
    try:
        print(report)
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    return status
