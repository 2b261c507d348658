"""`python -m arena analyse`: game records in, where each loss was decided out.

Exit status: 0 on success, 2 for input it cannot use (no such file, no records, a player that
lost no game); the message is one line, never a traceback. The arena's command line imports
this module for its arguments on every start, so the search (the bot's modules) and the
progress bar are imported only when an analysis runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

from arena.results import ResultsError, read_log

LOG_NAME = "games.jsonl"
DEFAULT_SECONDS = 3.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
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


def _log_path(path: Path) -> Path:
    if path.is_dir():
        log = path / LOG_NAME
        if not log.is_file():
            raise ResultsError(f"{path}: no {LOG_NAME} (the course's <A>_<B>.txt files keep "
                               "no moves, so there is nothing to analyse)")
        return log
    if not path.is_file():
        raise ResultsError(f"{path}: no such file")
    return path


def load(path: Path) -> List[Dict[str, Any]]:
    """The records of a log or results folder as dicts (as written, ``result`` included)."""
    records = [json.loads(r.to_json()) for r in read_log(_log_path(path))]
    if not records:
        raise ResultsError(f"{path}: no game records")
    return records


def wanted(record: Dict[str, Any], lost_by: Optional[str]) -> bool:
    """Whether a record is a loss on the board to analyse (of ``lost_by`` when given)."""
    from analysis.game import loser_of

    loser = loser_of(record)
    return loser is not None and (lost_by is None or loser[1].startswith(lost_by))


def _analyse(job: tuple) -> Dict[str, Any]:
    from analysis.game import analyse_game

    record, seconds = job
    return analyse_game(record, seconds)


def analyse_all(records: List[Dict[str, Any]], seconds: float, lost_by: Optional[str],
                jobs: int = 1, quiet: bool = False) -> List[Dict[str, Any]]:
    """``records`` with an ``analysis`` on each loss analysed (``{"skipped": reason}`` on a
    tie or a fault's game unless ``lost_by`` names a player; games it did not lose get none)."""
    from concurrent.futures import ProcessPoolExecutor

    from tqdm import tqdm

    from analysis.game import skip_reason

    todo = [i for i, r in enumerate(records) if wanted(r, lost_by)]
    if lost_by is not None and not todo:
        names = sorted({r[s] for r in records for s in ("a", "b")})
        raise ResultsError(f"no game lost on the board by a player named {lost_by!r}* "
                           f"(players: {', '.join(names)})")
    out = [dict(r) for r in records]
    if lost_by is None:
        for r in out:
            reason = skip_reason(r)
            if reason:
                r["analysis"] = {"skipped": reason}
    work = [(records[i], seconds) for i in todo]
    with tqdm(total=len(todo), unit="game", desc="analyse", disable=quiet,
              file=sys.stderr) as bar:
        def collect(results: Iterator[Dict[str, Any]]) -> None:
            for i, analysis in zip(todo, results):
                out[i]["analysis"] = analysis
                bar.update()

        jobs = max(1, min(jobs, len(todo) or 1, os.cpu_count() or 1))
        if jobs == 1:
            collect(map(_analyse, work))
        else:
            with ProcessPoolExecutor(jobs) as pool:
                collect(pool.map(_analyse, work))
    return out


def run(args: argparse.Namespace) -> int:
    """The command: analyse (or with --summary only read) and print the split."""
    from analysis.summary import summarise

    if args.seconds <= 0 or args.jobs < 1:
        raise ResultsError("--seconds must be positive and --jobs at least 1")
    records = load(args.records)
    if args.summary:
        if not any(r.get("analysis") for r in records):
            raise ResultsError(f"{args.records}: no analysed record (run analyse with -o first)")
    else:
        records = analyse_all(records, args.seconds, args.lost_by, args.jobs)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as handle:
            for r in records:
                handle.write(json.dumps(r, separators=(",", ":")) + "\n")
    try:
        print("\n".join(summarise(records)))
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    return 0
