"""`python -m arena`: play one game, run a batch (config, gauntlet, round robin), tabulate, view.

    python -m arena run configs/arena.yaml -j 2 --rounds 4     # a config; flags override keys
    python -m arena run configs/arena.yaml --cluster local:4   # on Dask workers (docs/cluster.md)
    python -m arena gauntlet new=... old=... --sprt 0 10       # stop once the SPRT decides
    python -m arena gauntlet bot random greedy                 # first player vs the others
    python -m arena roundrobin random greedy heuristic
    python -m arena game bot greedy --watch                    # one game, board after each move
    python -m arena stat results/arena --sprt 0 10             # same as stat.py
    python -m arena view results/arena/games.jsonl -o page.html
    python -m arena compare new/games.jsonl old/games.jsonl --player bot   # game by game
    python -m arena analyse results/arena --lost-by bot -o lost.jsonl  # where losses were decided
    python -m arena review results/arena -j 2                 # each move's value, mistakes marked
    python -m arena play human bot                            # you against a bot, at the terminal
    python -m arena serve results/arena                       # play and watch in the browser
    python -m arena suite build results/arena -o suite.jsonl  # positions with one proven answer
    python -m arena suite run suites "bot=python -m bot --protocol getpoint" --time 0.1

Players on the command line are names from --config (default configs/arena.yaml where it
exists), the built-in players (bot, random, greedy, heuristic, mcts200, uct: arena/batch/builtin.py)
or NAME=SPEC, where SPEC is a course library (x.so; x.dylib on macOS), module:function, or a
command on the platform protocol.
Installed (`pip install .`), the same commands run as `arena ...` from any folder.
"""

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from arena.batch.config import Config, ConfigError, load_config, player_from_arg
from arena.children import system
from arena.core.boards import draw_board
from arena.core.tasks import Task, play_task
from arena.engine.client import ANALYSIS_SECONDS, EngineError
from arena.engine.limit import Limit
from arena.engine.position import PositionError
from arena.engine.review import (
    CHECK_SECONDS,
    DEFAULT_SECONDS,
    REVIEWS_DIR,
    load_review,
    review_all,
    summary,
)
from arena.report import command as stat_command
from arena.suite import command as suite_command
from records.board import Board
from records.game import GameKey
from records.log import LOG_NAME, ResultLog, ResultsError, log_path, losses, read_games
from records.result import Seat, Side

DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "arena.yaml"
LOG = logging.getLogger("arena")


def prog_name() -> str:
    """How the user started the command line, for usage lines: installed or from a checkout."""
    return "arena" if Path(sys.argv[0]).name == "arena" else "python -m arena"


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions as written; each option's help ends with its default, unless the text
    already names it or there is none to name."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if ("default" in text or action.default in (None, False, argparse.SUPPRESS)
                or not action.option_strings):
            return text
        return f"{text} (default: %(default)s)"


def _common(p: argparse.ArgumentParser, top: bool = False,
            quiet: str = "no progress bar and no table") -> None:
    """-v and -q, taken before the command or after it alike (a subcommand's copy leaves the
    value alone when not given, so `-v` before the command is kept)."""
    keep: Dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging", **keep)
    p.add_argument("-q", "--quiet", action="store_true",
                   help=f"{quiet} (a progress bar is drawn only on a terminal anyway)", **keep)


def _add_overrides(p: argparse.ArgumentParser) -> None:
    """The batch's keys, each overriding the config's (or, with no config, Config's default)."""
    for flags, kind, text in (
            (["--rounds"], int, "boards to play (each twice, colours swapped)"),
            (["--time-limit", "--time"], float, "seconds per move"),
            (["-j", "--jobs"], int, "games in parallel (about one core each)"),
            (["--seed"], int, "board seed: round r's board comes from (seed, r)"),
            (["-o", "--output"], str, f"folder for <A>_<B>.txt files and {LOG_NAME}")):
        option = p.add_argument(*flags, type=kind)
        option.help = f"{text} (default: the config's, else {getattr(Config(), option.dest)})"
    p.add_argument("--batch", help="batch name kept in records, which resume matches on "
                                   "(default: the config's, else the command's name)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play on Dask workers: a scheduler's address (tcp://host:8786) or "
                        "local:N for N worker processes here; needs pip install '.[cluster]' "
                        "(default: the config's, else local processes)")
    p.add_argument("--shared-fs", dest="shared_fs", action="store_true", default=None,
                   help="with --cluster: workers see this folder at the same path, ship nothing")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="stop once the SPRT of H1 (A is ELO1 stronger) against H0 (ELO0) "
                        "decides; a batch of one pairing (default: the config's, else none)")


def _config_arg(p: argparse.ArgumentParser,
                what: str = "where player NAMEs are looked up before the built-in ones") -> None:
    p.add_argument("--config", type=Path, default=DEFAULT_CONFIG,
                   help=f"{what} (default: configs/arena.yaml where it exists)")


def _known_players(path: Path) -> dict:
    return load_config(path).players if path.exists() else {}


def build_parser() -> argparse.ArgumentParser:
    from arena import __version__

    parser = argparse.ArgumentParser(prog=prog_name(), description=__doc__,
                                     formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _common(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, quiet: str = "no progress bar and no table",
                **kw: Any) -> argparse.ArgumentParser:
        p = sub.add_parser(name, formatter_class=HelpFormatter, **kw)
        if kw.get("add_help", True):
            _common(p, quiet=quiet)
        return p

    run = command("run", help="run a batch config (resumes a batch cut short)")
    run.add_argument("config", type=Path, nargs="?", default=DEFAULT_CONFIG,
                     help="the batch's YAML file (default: configs/arena.yaml)")
    _add_overrides(run)
    for mode, text in (("gauntlet", "the first player against each of the others"),
                       ("roundrobin", "every pair of players")):
        p = command(mode, help=text)
        p.add_argument("players", nargs="+", metavar="PLAYER", help="NAME or NAME=SPEC")
        _config_arg(p)
        _add_overrides(p)
    game = command("game", help="one game; A moves first unless --swap")
    game.add_argument("players", nargs="+", metavar="PLAYER", help="NAME or NAME=SPEC")
    _config_arg(game)
    game.add_argument("--seed", type=int, default=1,
                      help="board seed: round r's board comes from (seed, r)")
    game.add_argument("--round", type=int, default=0, help="which board of the seed")
    game.add_argument("--board", type=int, nargs=4, metavar=("M", "N", "NOX", "NOY"),
                      help="play this board instead of the seed's")
    game.add_argument("--time-limit", "--time", dest="time_limit", type=float, default=3.0,
                      help="seconds per move")
    game.add_argument("--swap", action="store_true", help="B moves first (leg 1)")
    game.add_argument("--watch", action="store_true", help="draw the board after each move")
    game.add_argument("--delay", type=float, default=0.0, help="pause after each drawn move")
    stat = command("stat", help="tables from a results folder (as stat.py)")
    stat_command.add_arguments(stat)
    view = command("view", help="HTML replay page of a JSON Lines log")
    view.add_argument("records", type=Path, help="a JSON Lines log, or its results folder")
    view.add_argument("-o", "--output", type=Path, default=Path("results/view.html"),
                      help="the page's file")
    compare = command("compare", help="two batches on the same boards: the games that "
                                      "changed hands")
    compare.add_argument("new", type=Path, help="records (.jsonl, or its folder) of one version")
    compare.add_argument("old", type=Path, help="records (.jsonl, or its folder) of the other")
    compare.add_argument("--compared", metavar="NAME", default="bot",
                         help="the compared player's name, or its start")
    # The analysis (and with it the bot's search) is imported only when it runs: its arguments
    # go on untouched to analysis.command, with its own parser.
    command("analyse", add_help=False, prefix_chars="\0",
            help="where each lost game was decided, proven by an exact search (docs/analyse.md; "
                 "analyse --help for its options)").add_argument("arguments", nargs="*")
    review = command(
        "review", quiet="no progress bar", help="each position of each game evaluated by the "
        "engine, the mistakes marked (docs/web.md)",
        description="Review every game of a log (docs/web.md, 'Game review'): each position\n"
                    "evaluated by the engine, the inaccuracies, mistakes and blunders marked,\n"
                    "each mark kept only where a deeper look confirms it (at least "
                    f"{CHECK_SECONDS:g} s a\nposition, the course's limit a move), and the loss "
                    "analysis's decisive move of\neach game lost on the board, at "
                    f"{ANALYSIS_SECONDS:g} s a position; the reviews are kept in\n"
                    f"{REVIEWS_DIR}/ beside the log.")
    review.add_argument("records", type=Path,
                        help=f"a JSON Lines log of games, or a results folder holding {LOG_NAME}")
    review.add_argument("-j", "--jobs", type=int, default=1,
                        help="games reviewed at once, one engine each (about a core each; "
                             "default 1)")
    review.add_argument("--seconds", type=float,
                        help=f"the engine's seconds a position (default {DEFAULT_SECONDS:g}, "
                             "or none with --playouts)")
    review.add_argument("--playouts", type=int, help="the engine's play-outs a position (a cap; "
                                                     "with --seed, repeatable)")
    review.add_argument("--seed", type=int, help="the engines' random seed (default: none)")
    review.add_argument("--lost-by", metavar="NAME",
                        help="only the games this player lost on the board (a name, or its "
                             "start)")
    play = command("play", help="play a bot yourself at the terminal: play human BOT")
    play.add_argument("human", choices=["human"], help="you")
    play.add_argument("bot", metavar="BOT", help="NAME or NAME=SPEC")
    _config_arg(play)
    play.add_argument("--seed", type=int, help="board seed (default: a new board each time)")
    play.add_argument("--second", action="store_true", help="the bot moves first")
    play.add_argument("--time-limit", "--time", dest="time_limit", type=float, default=3.0,
                      help="seconds per move for the bot")
    play.add_argument("-o", "--output", type=Path, default=Path("results/play") / LOG_NAME,
                      help="the log the game is appended to")
    serve = command("serve", help="play the bots and watch a batch in the browser (docs/web.md)")
    serve.add_argument("folder", type=Path, nargs="?", default=Path("results/arena"),
                       help=f"the results folder: its {LOG_NAME} gets the games played, its "
                            "batch is watched and replayed (default: results/arena)")
    _config_arg(serve, "players one can play beside the built-in ones")
    serve.add_argument("--player", action="append", default=[], metavar="NAME=SPEC",
                       help="one more player to play, as for `game` (repeatable)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="0: any free port")
    serve.add_argument("--time-limit", "--time", dest="time_limit", type=float, default=3.0,
                       help="seconds per move for the opponents (never for the person)")
    serve.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                       default=(0.0, 10.0), help="the watch page's SPRT bounds (default 0 10; "
                                                 "a batch's early_stop.json wins)")
    suite = command("suite", help="test suites: positions from games whose one right column is "
                                  "proven, or whose every column the engine values "
                                  "(docs/suites.md)")
    suites = suite.add_subparsers(dest="suite_command", required=True, metavar="SUITE_COMMAND")
    for name, text, add in (("build", "the positions of played games where exactly one column "
                                      "wins, or holds, proven by an exact search",
                             suite_command.add_build_arguments),
                            ("value", "middle-game positions of played games where one column "
                                      "stands clear of the rest in two engine runs, every "
                                      "column's win chance kept",
                             suite_command.add_value_arguments),
                            ("run", "each player's move at each position of a suite, scored",
                             lambda p: suite_command.add_run_arguments(p, DEFAULT_CONFIG))):
        p = suites.add_parser(name, formatter_class=HelpFormatter, help=text, description=text)
        _common(p)
        add(p)
    return parser


def cmd_batch(args: argparse.Namespace) -> int:
    from arena.batch.config import SCALARS, adhoc_config, with_overrides
    from arena.batch.scheduler import executor_for, run_batch
    from arena.core.tasks import BatchError

    if args.command == "run":
        config = load_config(args.config)
    else:
        known = _known_players(args.config)
        players = dict(player_from_arg(a, known) for a in args.players)
        config = adhoc_config(args.command, players, args.batch or args.command)
    config = with_overrides(config, {k: getattr(args, k) for k in [*SCALARS, "sprt"]})
    executor = executor_for(config)
    LOG.info("%s: %d pairings x %d rounds x 2 colours, %.3g s a move, %s -> %s",
             config.batch, len(config.pairings), config.rounds, config.time_limit,
             executor.describe(), config.output_dir)
    try:
        records = run_batch(config, quiet=args.quiet, executor=executor)
    except KeyboardInterrupt:
        print("arena: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    except BatchError as exc:
        print(f"arena: batch stopped: {exc}", file=sys.stderr)
        return getattr(exc, "exit_status", 1)  # 2: workers that cannot play, nothing played
    if records.stop:
        print(f"arena: stopped early: {records.stop.reason()}", file=sys.stderr)
    if args.quiet:
        return 0
    sprt = ["--sprt", *(str(e) for e in config.sprt)] if config.sprt else []
    stat_args = build_parser().parse_args(["stat", str(config.output_dir), *sprt])
    return stat_command.run(stat_args)


def cmd_game(args: argparse.Namespace) -> int:
    from arena.core.players import make_player
    from arena.core.players.human import terminal_board
    from arena.core.players.observed import Observed

    if len(args.players) != 2:
        raise ConfigError("command line: players: a game takes exactly two players")
    known = _known_players(args.config)
    (a, spec_a), (b, spec_b) = (player_from_arg(p, known) for p in args.players)
    board = Board(*args.board) if args.board else draw_board(args.seed, args.round)
    task = Task(GameKey("game", a, b, args.seed, args.round, int(args.swap)), board,
                args.time_limit)
    with make_player(a, spec_a) as player_a, make_player(b, spec_b) as player_b:
        players = {a: player_a, b: player_b}
        if args.watch:
            first = task.key.name(task.key.first)
            players = {n: Observed(p, terminal_board(board, n, Seat.FIRST if n == first
                                                     else Seat.SECOND, sys.stdout, args.delay))
                       for n, p in players.items()}
        record = play_task(players, task)
    print(json.dumps({"a": a, "b": b, "first": record.first.value, "board": board.to_list(),
                      "code": record.code, "result": record.result.value,
                      "reason": record.reason, "plies": len(record.moves)}))
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    from arena.web.replay import write_report

    print(write_report(args.records, args.output))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from arena.report.compare import compare

    print("\n".join(compare(args.new, args.old, args.compared)))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A person (A) against a bot (B) on the board of a seed, the game appended to a log."""
    import random

    from arena.core.players import make_player
    from arena.core.players.human import HumanPlayer

    name, spec = player_from_arg(args.bot, _known_players(args.config))
    seed = random.randrange(10**6) if args.seed is None else args.seed
    human = HumanPlayer()
    task = Task(GameKey("play", human.name, name, seed, 0, int(args.second)),
                draw_board(seed, 0), args.time_limit)
    with make_player(name, spec) as bot:
        record = play_task({human.name: human, name: bot}, task)
    ResultLog(args.output).append(record)
    verdict = record.result.outcome(Side.A).verdict
    human.show_final(record.moves, record.seat(Side.A), f"{verdict}: {record.reason} (course code "
                     f"{record.code}); recorded in {args.output}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import errno
    import signal

    from arena.batch.builtin import builtin_players
    from arena.batch.pool import terminate
    from arena.web.server import make_server, run

    players = {**builtin_players(), **_known_players(args.config)}
    players.update(player_from_arg(p, players) for p in args.player)
    try:
        server = make_server(args.folder, players, args.host, args.port, args.time_limit,
                             tuple(args.sprt))
    except OSError as exc:
        why = (f"port {args.port} is busy on {args.host} (another server listens there; "
               "--port 0 takes a free one)" if exc.errno == errno.EADDRINUSE else
               f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
        print(f"arena serve: {why}", file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"arena serve: WARNING: listening on {args.host}: anyone who reaches this "
              "machine can start players and read the folder's games", file=sys.stderr)
    shown = f"[{host}]" if ":" in host else host  # an IPv6 address, as a URL writes it
    print(f"arena serve: http://{shown}:{port}/ serving {args.folder} (Ctrl-C stops)",
          file=sys.stderr, flush=True)
    # a SIGTERM stops the server as Ctrl-C does: the games running are recorded as abandoned
    signal.signal(signal.SIGTERM, terminate)
    try:
        run(server)
    except KeyboardInterrupt:
        print("arena serve: stopped; the games running are recorded as abandoned",
              file=sys.stderr)
        return 130
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """Review a log's games and print the marks by player; on Ctrl-C (exit status 130) the
    reviews finished so far are kept."""
    if args.jobs < 1:
        raise ResultsError("--jobs must be at least 1")
    if any(v is not None and v <= 0 for v in (args.seconds, args.playouts)):
        raise ResultsError("--seconds and --playouts must be positive")
    seconds = DEFAULT_SECONDS if args.seconds is None and args.playouts is None else args.seconds
    budget = Limit(seconds, args.playouts)
    records = read_games(args.records)
    if args.lost_by is not None:
        records = [records[i] for i in losses(records, args.lost_by)]
    folder = log_path(args.records).parent
    try:
        reviews, made = review_all(records, folder, budget, args.jobs, args.quiet, args.seed)
    except KeyboardInterrupt:
        held = sum(load_review(folder, r.key, budget) is not None for r in records)
        print(f"{prog_name()} review: interrupted; {held} of {len(records)} games are reviewed "
              f"and kept in {folder / REVIEWS_DIR}, and the same command reviews the rest",
              file=sys.stderr)
        return 130
    except (EngineError, PositionError) as exc:  # a game no referee played, a failed engine
        raise ResultsError(f"review: {exc}") from None
    print(f"{len(reviews)} games reviewed at {budget} ({made} now, {len(reviews) - made} "
          f"kept from before) in {folder / REVIEWS_DIR}")
    looks = ", ".join(sorted({f"{r.check} and confirmed at {r.confirm}" for r in reviews
                              if r.candidates})) or "-"
    analyses = ", ".join(sorted({f"{r.analysis_seconds:g} s" for r in reviews
                                 if r.analysis_seconds})) or "-"
    unchecked = sum(r.unchecked for r in reviews)
    print(f"each mark checked at {looks}: {sum(len(r.marks) for r in reviews)} of the first "
          f"pass's {sum(len(r.candidates) for r in reviews)} kept"
          + (f" ({unchecked} not looked at: the review's seconds spent)" if unchecked else "")
          + f", {sum(r.check_elapsed for r in reviews) / max(len(reviews), 1):.1f} s a game; "
          f"decisive moves by the loss analysis at {analyses} a position")
    print("\n".join(summary(records, reviews)))
    return 0


def cmd_suite(args: argparse.Namespace) -> int:
    run = {"build": suite_command.build_command, "value": suite_command.value_command,
           "run": suite_command.run_command}
    return run[args.suite_command](args, f"{prog_name()} suite {args.suite_command}")


def main(argv: Optional[List[str]] = None) -> int:
    if system.NATIVE_WINDOWS:  # its processes, sessions and libraries are POSIX's
        print(f"arena: {system.WINDOWS_REFUSAL}", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(message)s", stream=sys.stderr)
    commands = {"stat": stat_command.run, "game": cmd_game, "view": cmd_view, "play": cmd_play,
                "compare": cmd_compare, "serve": cmd_serve, "suite": cmd_suite,
                "review": cmd_review}
    try:
        if args.command == "analyse":
            # its own parser takes the rest; -v and -q given before the command go along
            from analysis.command import main as analyse

            forwarded = [flag for flag, on in (("-v", args.verbose), ("-q", args.quiet)) if on]
            return analyse(forwarded + args.arguments, f"{prog_name()} analyse")
        return commands.get(args.command, cmd_batch)(args)
    except (ConfigError, ResultsError) as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the commands that keep work say what they kept themselves
        print("arena: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
