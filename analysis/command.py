"""`python -m arena analyse`: game records in, where each loss was decided out.

Exit status: 0 on success, 2 for input it cannot use (no such file, no records, a player that
lost no game); the message is one line, never a traceback. The arena's command line imports
this module only when an analysis runs, and this module imports the search (the bot's
modules) and the progress bar only when a search runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

from records.analysis import LossAnalysis, Skipped
from records.game import GameRecord
from records.log import LOG_NAME, ResultsError, losses, read_games, write_log

DEFAULT_SECONDS = 3.0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m arena analyse",
                                     description="Where each lost game was decided, proven by "
                                                 "an exact search (docs/analyse.md).")
    parser.add_argument("records", type=Path,
                        help=f"a JSON Lines log of games, or a results folder holding {LOG_NAME}")
    parser.add_argument("-o", "--out", type=Path,
                        help="write every record again, each analysed loss with an "
                             "'analysis' object (arena view shows it)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help="time budget of each searched position, in seconds (default "
                             f"{DEFAULT_SECONDS}); more settles earlier positions")
    parser.add_argument("--lost-by", metavar="NAME",
                        help="only the games this player lost (a name, or its start)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="games analysed at once (one core each; default 1)")
    parser.add_argument("--summary", action="store_true",
                        help="print the split of the analyses already in RECORDS; search nothing")
    return parser


def skip_reason(record: GameRecord) -> Optional[str]:
    """Why a record has nothing to analyse ("tie", "fault: timeout by uct"), else None."""
    if record.fault:
        return f"fault: {record.fault.kind.value} by {record.name(record.fault.side)}"
    return "tie" if record.loser is None else None


def _analyse(job: Tuple[GameRecord, float]) -> LossAnalysis:
    from analysis.game import analyse_game

    record, seconds = job
    return analyse_game(record, seconds)


def analyse_all(records: List[GameRecord], seconds: float, lost_by: Optional[str],
                jobs: int = 1, quiet: bool = False) -> List[GameRecord]:
    """``records`` with an analysis on each loss analysed (a ``Skipped`` on a tie or a fault's
    game unless ``lost_by`` names a player; games it did not lose get none)."""
    from concurrent.futures import ProcessPoolExecutor

    from tqdm import tqdm

    todo = losses(records, lost_by)
    out = list(records)
    if lost_by is None:
        for i, r in enumerate(out):
            reason = skip_reason(r)
            if reason:
                out[i] = dataclasses.replace(r, analysis=Skipped(reason))
    work = [(records[i], seconds) for i in todo]
    with tqdm(total=len(todo), unit="game", desc="analyse", disable=quiet,
              file=sys.stderr) as bar:
        def collect(results: Iterator[LossAnalysis]) -> None:
            for i, analysis in zip(todo, results):
                out[i] = dataclasses.replace(out[i], analysis=analysis)
                bar.update()

        jobs = max(1, min(jobs, len(todo) or 1, os.cpu_count() or 1))
        if jobs == 1:
            collect(map(_analyse, work))
        else:
            with ProcessPoolExecutor(jobs) as pool:
                collect(pool.map(_analyse, work))
    return out


def main(argv: List[str]) -> int:
    """The command: analyse (or with --summary only read) and print the split. Raises
    ResultsError for input it cannot use."""
    from analysis.summary import summarise

    args = build_parser().parse_args(argv)
    if args.seconds <= 0 or args.jobs < 1:
        raise ResultsError("--seconds must be positive and --jobs at least 1")
    records = read_games(args.records)
    if args.summary:
        if not any(r.analysis for r in records):
            raise ResultsError(f"{args.records}: no analysed record (run analyse with -o first)")
    else:
        records = analyse_all(records, args.seconds, args.lost_by, args.jobs)
    if args.out:
        write_log(args.out, records)
    try:
        print("\n".join(summarise(records)))
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    return 0
