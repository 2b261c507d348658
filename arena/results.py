"""The course's result files, `compete_result/<A>_<B>.txt`, derived from the games' log.

The JSON Lines log (`records.log`) is the source of truth; these files are written from it, so
they can always be rewritten. Course text format, one file per pairing (A = the file name's
first id, B = the second):

    0:
    1\t2\t0          <- leg 0, A moved first: code, A's seconds, B's seconds
    2\t1\t1          <- leg 1, B moved first
    <empty line>
    1:
    ...
    Stat:            <- ratios for humans; readers stop here

Codes are from A's view (RULES.md): 0 tie, 1 A won, 2 B won, 3/4/7 A crashed / played an
illegal move / timed out, 5/6/8 the same for B, -1/-3 A not loadable / no entry points, -2/-4 B.
"""

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Tuple

from records.game import GameRecord, winner_of_code
from records.log import ResultsError

NAME_RE = re.compile(r"^[A-Za-z0-9.+-]+$")


@dataclass(frozen=True)
class CourseGame:
    """What the course's text file keeps of a game: the code and whole seconds per side."""

    a: str
    b: str
    round: int
    leg: int
    code: int
    seconds_a: int
    seconds_b: int
    batch: str = ""  # the records' batch and seed; the course's text files have none


def course_game(record: GameRecord) -> CourseGame:
    """A record reduced to the course's line (total thinking time per side, rounded)."""
    return CourseGame(record.a, record.b, record.round, record.leg, record.code,
                      round(sum(record.side_times("a"))), round(sum(record.side_times("b"))),
                      f"{record.batch}/{record.seed}")


def format_course_text(games: Iterable[CourseGame]) -> str:
    """The course's text for one pairing: rounds with both legs, in order, then a Stat block."""
    by_round: Dict[int, Dict[int, CourseGame]] = {}
    for game in games:
        by_round.setdefault(game.round, {})[game.leg] = game
    out: List[str] = []
    played: List[CourseGame] = []
    for number in sorted(by_round):
        legs = by_round[number]
        if set(legs) != {0, 1}:
            continue
        out.append(f"{number}:")
        for leg in (0, 1):
            g = legs[leg]
            out.append(f"{g.code}\t{g.seconds_a}\t{g.seconds_b}")
            played.append(g)
        out.append("")
    total = len(played)
    counts = {"a": 0, "b": 0, "draw": 0}
    for g in played:
        counts[winner_of_code(g.code)] += 1
    out.append("Stat:")
    for label, side in (("A win", "a"), ("B win", "b"), ("tie", "draw")):
        ratio = counts[side] / total if total else 0.0
        out.append(f"{label}: {counts[side]}/{total} = {ratio:.3f}")
    return "\n".join(out) + "\n"


def course_file_name(a: str, b: str) -> str:
    return f"{a}_{b}.txt"


def write_course_files(records: Iterable[GameRecord], folder: Path) -> List[Path]:
    """(Re)write one course text file per pairing found in `records`."""
    pairings: Dict[Tuple[str, str], List[CourseGame]] = {}
    for record in records:
        pairings.setdefault((record.a, record.b), []).append(course_game(record))
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for (a, b), games in sorted(pairings.items()):
        path = folder / course_file_name(a, b)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(format_course_text(games), encoding="utf-8")
        os.replace(tmp, path)
        written.append(path)
    return written


_ROUND_RE = re.compile(r"^(\d+):$")
_LINE_RE = re.compile(r"^(-?\d+)\s+(-?\d+)\s+(-?\d+)$")


def parse_course_text(text: str, a: str, b: str, where: str) -> List[CourseGame]:
    """Games of one course text file; raises ResultsError naming the line on anything else."""
    games: List[CourseGame] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line == "Stat:":
            break
        if not line:
            i += 1
            continue
        head = _ROUND_RE.match(line)
        if not head:
            raise ResultsError(f"{where}:{i + 1}: expected a round header like '0:', "
                               f"found {line[:40]!r}")
        for leg in (0, 1):
            number = i + 2 + leg
            body = _LINE_RE.match(lines[number - 1].strip()) if number <= len(lines) else None
            if not body:
                raise ResultsError(f"{where}:{number}: round {head.group(1)} lacks its "
                                   f"'code<TAB>timeA<TAB>timeB' line for leg {leg} "
                                   "(file cut short?)")
            code, sec_a, sec_b = (int(v) for v in body.groups())
            try:
                winner_of_code(code)
            except ValueError:
                raise ResultsError(f"{where}:{number}: unknown result code {code}") from None
            games.append(CourseGame(a, b, int(head.group(1)), leg, code, sec_a, sec_b))
        i += 3
    return games


def split_course_name(path: Path) -> Tuple[str, str]:
    """`<A>_<B>.txt` -> (A, B); player names never contain '_' (config.py enforces it)."""
    parts = path.stem.split("_")
    if len(parts) != 2 or not all(NAME_RE.match(p) for p in parts):
        raise ResultsError(f"{path}: not a result file name of the form <A>_<B>.txt")
    return parts[0], parts[1]


def read_course_folder(folder: Path) -> List[CourseGame]:
    """Every game of every `<A>_<B>.txt` in a folder (other files are ignored)."""
    games: List[CourseGame] = []
    for path in sorted(folder.glob("*.txt")):
        if path.name == "stat.txt":
            continue
        a, b = split_course_name(path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ResultsError(f"{path}: not a text file") from None
        games.extend(parse_course_text(text, a, b, str(path)))
    return games


def iter_pairs(games: Iterable[CourseGame]) -> Iterator[Tuple[CourseGame, CourseGame]]:
    """Both legs of each (pairing, batch, round): the sample unit of the SPRT. Records of two
    batches pooled in one log keep their own pairs, even on the same seed's boards."""
    legs: Dict[Tuple[str, str, str, int], Dict[int, CourseGame]] = {}
    for game in games:
        legs.setdefault((game.a, game.b, game.batch, game.round), {})[game.leg] = game
    for key in sorted(legs):
        pair = legs[key]
        if 0 in pair and 1 in pair:
            yield pair[0], pair[1]


def pair_scores(games: Iterable[CourseGame]) -> List[float]:
    """A's score over each board's two games (both colours): the SPRT's samples."""
    points = {"a": 1.0, "draw": 0.5, "b": 0.0}
    return [(points[winner_of_code(g0.code)] + points[winner_of_code(g1.code)]) / 2
            for g0, g1 in iter_pairs(games)]
