"""`stat.py` / `python -m arena stat`: read a results folder, print and write the tables. Exit
status 2 when the folder holds nothing readable, with a message naming the file and line."""

import argparse
import logging
import sys
from pathlib import Path
from typing import List, Optional

from arena.report import summary
from arena.report.render import FORMATS, Table, plain, render
from arena.report.results import CourseGame, course_game, read_course_folder
from records.game import GameRecord
from records.log import LOG_NAME, ResultsError, read_log

LOG = logging.getLogger("arena.stat")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", nargs="?", default="compete_result", type=Path,
                        help="folder of <A>_<B>.txt files (default: compete_result)")
    parser.add_argument("--records", type=Path, default=None,
                        help=f"JSON Lines log for move times (default: FOLDER/{LOG_NAME} "
                             "where present)")
    parser.add_argument("--format", choices=FORMATS, default="table",
                        help="how to print the tables (default: table)")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                        help="add an SPRT verdict of H1 (A is ELO1 stronger) against H0 (ELO0)")
    parser.add_argument("--no-plots", action="store_true",
                        help="skip the PNG plots (written to FOLDER by default)")


def build_tables(args: argparse.Namespace) -> List[Table]:
    """Read the folder (and log) and compute every table; ResultsError on unreadable input."""
    folder: Path = args.folder
    if not folder.is_dir():
        raise ResultsError(f"{folder}: no such folder")
    records_path = args.records or folder / LOG_NAME
    if args.records and not args.records.is_file():
        raise ResultsError(f"{args.records}: no such records file")
    games = read_course_folder(folder)
    if not games and records_path.is_file():
        # A batch still running (or cut short) has its log but not yet its text files.
        games = [course_game(r) for r in read_log(records_path)]
    if not games:
        raise ResultsError(f"{folder}: no games found (no <A>_<B>.txt result file with a "
                           f"finished round, no {LOG_NAME} record)")
    pairings = {(g.key.a, g.key.b) for g in games}
    records = [r for r in read_log(records_path) if (r.a, r.b) in pairings]
    tables = [summary.course_table(games), summary.per_opponent_table(games),
              summary.overall_table(games), summary.colour_table(games),
              summary.fault_table(games)]
    if records:
        tables += [summary.height_table(records), summary.time_table(records)]
    if len({r.host for r in records}) > 1:
        tables.append(summary.host_table(records))
    if args.sprt:
        tables.append(summary.sprt_table(games, *args.sprt))
    if not args.no_plots:
        write_plots(folder, games, records)
    return tables


def write_plots(folder: Path, games: List[CourseGame], records: List[GameRecord]) -> None:
    """score.png and, with a log, times.png; only a warning where matplotlib is missing."""
    try:
        from arena.report import plots
    except ImportError:
        LOG.warning("stat: matplotlib is not installed, no plots")
        return
    written = [plots.score_plot(games, folder / "score.png")]
    if records:
        written.append(plots.time_plot(summary.move_times(records), folder / "times.png"))
    LOG.info("plots: %s", ", ".join(str(p) for p in written))


def run(args: argparse.Namespace) -> int:
    """Print the tables and write the course's table to FOLDER/stat.txt."""
    try:
        tables = build_tables(args)
    except ResultsError as exc:
        print(f"stat: {exc}", file=sys.stderr)
        return 2
    (args.folder / "stat.txt").write_text(plain(tables[0]), encoding="utf-8")
    sys.stdout.write(render(tables, args.format))
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="stat.py", description="The course's result table and ours (points, Elo, "
        "colours, faults, move times, SPRT) from a compete_result/ folder.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    return run(args)
