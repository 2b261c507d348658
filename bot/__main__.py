"""python -m bot: the bot as a process (platform protocol by default, or getpoint), or, with
--analyse, the engine that analyses positions (bot.protocol.analyse).

Exit status: 0 at end of input, 2 on bad input to a playing protocol (one line on stderr; the
analysis answers it on stdout and serves on), 1 on an internal error.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import time
from typing import List, Optional

from bot.choose import DEFAULT_SECONDS
from bot.protocol import getpoint, platform
from bot.protocol.lines import FdLines
from bot.rules import InvalidPosition
from bot.search.clock import Limit, process_age
from bot.search.leaves import make_searcher
from bot.search.mcts import MCTS

log = logging.getLogger("bot")


def parse_args(argv: Optional[List[str]]) -> argparse.Namespace:
    env_time = os.environ.get("BOT_TIME")
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Connect-Four bot (MCTS-solver). Replies on stdout only; logs on stderr.")
    parser.add_argument("--protocol", choices=("platform", "getpoint"), default="platform",
                        help="platform: framed replies, one game per process (default); "
                             "getpoint: stateless line requests (docs/protocol.md)")
    parser.add_argument("--analyse", action="store_true",
                        help="analyse positions instead of playing: JSON lines in and out, "
                             "a few a second (docs/protocol.md); --protocol, --time and "
                             "--playouts do not apply, each request has its own budget")
    parser.add_argument("--time", type=float, default=None, metavar="SECONDS",
                        help=f"search time per move (default: $BOT_TIME, else "
                             f"{DEFAULT_SECONDS}); the first move's clock includes start-up")
    parser.add_argument("--playouts", type=int, default=None, metavar="N",
                        help="also stop after N play-outs per move, and do not ponder (for "
                             "fast, repeatable runs)")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the search")
    parser.add_argument("--cores", type=int, choices=(1, 2), default=2,
                        help="2: a forked worker plays out leaves of the tree during our own "
                             "moves where a second core is spare, about 1.7 times the "
                             "play-outs (the default); 1: one process")
    parser.add_argument("--no-ponder", dest="ponder", action="store_false",
                        help="platform protocol: do not search while the opponent thinks "
                             "(pondering is on by default, off with --playouts)")
    parser.add_argument("--log-level", default="WARNING",
                        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="stderr logging level (DEBUG prints per-move search figures)")
    args = parser.parse_args(argv)
    if args.time is None:
        try:
            args.time = float(env_time) if env_time else DEFAULT_SECONDS
        except ValueError:
            parser.error(f"BOT_TIME={env_time!r} is not a number of seconds")
    if args.time <= 0 or (args.playouts is not None and args.playouts <= 0):
        parser.error("--time and --playouts must be positive")
    return args


def build_searcher(args: argparse.Namespace) -> MCTS:
    """The searcher the options ask for (one per process: its tree and tables persist). A
    play-out cap searches on one core, so that its moves repeat exactly."""
    cores = 1 if args.playouts is not None else args.cores
    return make_searcher(cores, args.seed)


def main(argv: Optional[List[str]] = None, started: Optional[float] = None) -> int:
    """Run the chosen protocol on stdin/stdout; ``started``: perf_counter at process start."""
    args = parse_args(argv)
    # The search tree holds no reference cycles (refcounting frees it), and a full cyclic
    # collection of a pondered tree (100k+ nodes) pauses for 0.1-0.2 s at a random moment,
    # possibly at the end of a move: one game per process needs no cycle collector.
    gc.disable()
    logging.basicConfig(stream=sys.stderr, level=args.log_level,
                        format="%(name)s: %(levelname)s: %(message)s")
    if started is None:
        age = process_age()
        started = time.perf_counter() - age if age is not None else None
    limit = Limit(seconds=args.time, playouts=args.playouts)
    searcher = build_searcher(args)
    lines = FdLines(0)
    try:
        if args.analyse:
            # Imported here: a playing process never loads it (json and the report: about
            # 8 ms of start-up, which counts against the first move's clock).
            from bot.protocol import analyse
            analyse.serve(lines, sys.stdout, searcher)
        elif args.protocol == "platform":
            ponder = args.ponder and args.playouts is None  # a play-out cap stays repeatable
            platform.serve(lines, sys.stdout.buffer, limit, searcher, started,
                           lines.ready if ponder else None)
        else:
            getpoint.serve(lines, sys.stdout, limit, searcher)
    except InvalidPosition as exc:
        print(f"bot: bad input: {exc}", file=sys.stderr, flush=True)
        return 2
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    except Exception as exc:  # one clear line, then the details for whoever debugs it
        print(f"bot: internal error: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        log.debug("traceback", exc_info=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
