"""`python -m arena analyse` (docs/analyse.md): exit status 0, 2 for input it cannot use (one
line), 130 on Ctrl-C; with `-o FILE` each game is written as it is analysed, so a run again
analyses only the rest. The search and the progress bar are imported only when a search runs."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import signal
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from records.analysis import LossAnalysis, Skipped
from records.game import GameKey, GameRecord
from records.log import LOG_NAME, ResultLog, ResultsError, losses, read_games, read_log, write_log

DEFAULT_SECONDS = 3.0


def build_parser(prog: str = "python -m arena analyse") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog,
                                     description="Where each lost game was decided, proven by "
                                                 "an exact search (docs/analyse.md).")
    parser.add_argument("records", type=Path,
                        help=f"a JSON Lines log of games, or a results folder holding {LOG_NAME}")
    parser.add_argument("-o", "--output", type=Path,
                        help="write every record again, each analysed loss with an "
                             "'analysis' object (arena view shows it); each game is written as "
                             "it is analysed, and a run again keeps those already there")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help="time budget of each searched position, in seconds (default "
                             f"{DEFAULT_SECONDS}); more settles earlier positions")
    parser.add_argument("--lost-by", metavar="NAME",
                        help="only the games this player lost (a name, or its start)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="games analysed at once (one core each; default 1)")
    parser.add_argument("--summary", action="store_true",
                        help="print the split of the analyses already in RECORDS; search nothing")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar (one is drawn only on a terminal anyway)")
    return parser


def skip_reason(record: GameRecord) -> Optional[str]:
    """Why a record has nothing to analyse ("tie", "fault: timeout by uct"), else None."""
    if record.fault:
        return f"fault: {record.fault.kind.value} by {record.name(record.fault.side)}"
    return "tie" if record.loser is None else None


def _analyse(job: Tuple[int, GameRecord, float]) -> Tuple[int, LossAnalysis]:
    from analysis.game import analyse_game

    index, record, seconds = job
    return index, analyse_game(record, seconds)


def analyse_all(records: List[GameRecord], seconds: float, lost_by: Optional[str], jobs: int,
                quiet: bool, kept: Dict[GameKey, GameRecord],
                done: Optional[Callable[[GameRecord], None]]) -> List[GameRecord]:
    """``records`` with each loss analysed (and without ``lost_by`` a ``Skipped`` on a tie or a
    fault's game); a game in ``kept`` is not searched again; ``done`` gets each as analysed."""
    from multiprocessing import Pool

    from tqdm import tqdm

    out = [kept.get(r.key, r) for r in records]
    if lost_by is None:
        out = [dataclasses.replace(r, analysis=Skipped(reason))
               if r.analysis is None and (reason := skip_reason(r)) else r for r in out]
    todo = [i for i in losses(records, lost_by) if out[i].analysis is None]
    work = [(i, records[i], seconds) for i in todo]
    jobs = max(1, min(jobs, len(todo) or 1, os.cpu_count() or 1))
    # a pool's worker leaves Ctrl-C to the command, whose pool ends it (no traceback of its own)
    pool = Pool(jobs, signal.signal, (signal.SIGINT, signal.SIG_IGN)) if jobs > 1 else None
    with pool or nullcontext(), tqdm(total=len(todo), unit="game", desc="analyse",
                                     disable=True if quiet else None, file=sys.stderr) as bar:
        for i, analysis in pool.imap_unordered(_analyse, work) if pool else map(_analyse, work):
            out[i] = dataclasses.replace(out[i], analysis=analysis)
            if done is not None:
                done(out[i])
            bar.update()
    return out


def main(argv: List[str], prog: str = "python -m arena analyse") -> int:
    """The command: analyse (or with --summary only read) and print the split. Raises
    ResultsError for input it cannot use."""
    from analysis.summary import summarise

    args = build_parser(prog).parse_args(argv)
    if args.verbose:
        logging.getLogger().setLevel(logging.DEBUG)
    if args.seconds <= 0 or args.jobs < 1:
        raise ResultsError("--seconds must be positive and --jobs at least 1")
    records = read_games(args.records)
    if args.summary:
        if not any(r.analysis for r in records):
            raise ResultsError(f"{args.records}: no analysed record (run analyse with -o first)")
    else:
        kept: Dict[GameKey, GameRecord] = {}
        if args.output:
            # what an earlier run left analysed (a torn last line, cut off by a kill, is dropped)
            old = {r.key: r for r in read_log(args.output, repair=True) if r.analysis is not None}
            kept = {r.key: old[r.key] for r in records if r.key in old}
            write_log(args.output, kept.values())  # what an interrupted run leaves: analysed games
        try:
            records = analyse_all(records, args.seconds, args.lost_by, args.jobs, args.quiet, kept,
                                  ResultLog(args.output).append if args.output else None)
        except KeyboardInterrupt:
            held = (f"{len(read_log(args.output))} games analysed are kept in {args.output}, and "
                    "the same command analyses the rest" if args.output else
                    "nothing kept (with -o FILE each game is kept as it is analysed)")
            print(f"{prog}: interrupted; {held}", file=sys.stderr)
            return 130
        if args.output:
            write_log(args.output, records)  # every record, in the log's order
            print(f"{prog}: {len(kept)} games kept from {args.output}, the others analysed now",
                  file=sys.stderr)
    try:
        print("\n".join(summarise(records)))
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    return 0
