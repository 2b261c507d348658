"""The course's result files, `compete_result/<A>_<B>.txt` (docs/arena.md, "Results"): written
from the games' log (`records.log`, the source of truth), so they can always be rewritten."""

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

from records.game import GameKey, GameRecord
from records.log import ResultsError, write_atomic
from records.result import Fault, Result, Side
from records.tally import by_pairing, pairs, wdl

NAME_RE = re.compile(r"^[A-Za-z0-9.+-]+$")


@dataclass(frozen=True)
class CourseGame:
    """What the course's text file keeps of a game: its key (a file has no batch or seed: ""
    and 0), the code and whole seconds per side."""

    key: GameKey
    code: int
    seconds_a: int
    seconds_b: int

    @property
    def result(self) -> Result:
        return Result.of_code(self.code)

    @property
    def fault(self) -> Optional[Fault]:
        return Fault.of_code(self.code)


def course_game(record: GameRecord) -> CourseGame:
    """A record reduced to the course's line (total thinking time per side, rounded)."""
    return CourseGame(record.key, record.code, round(sum(record.side_times(Side.A))),
                      round(sum(record.side_times(Side.B))))


def format_course_text(games: Iterable[CourseGame]) -> str:
    """The course's text for one pairing of a batch: rounds with both legs, then a Stat block."""
    out: List[str] = []
    played: List[CourseGame] = []
    for pair in pairs(games):
        out.append(f"{pair[0].key.round}:")
        out += [f"{g.code}\t{g.seconds_a}\t{g.seconds_b}" for g in pair] + [""]
        played += pair
    total, count = len(played), wdl(played)
    out.append("Stat:")
    for label, n in (("A win", count.wins), ("B win", count.losses), ("tie", count.draws)):
        out.append(f"{label}: {n}/{total} = {n / total if total else 0.0:.3f}")
    return "\n".join(out) + "\n"


def write_course_files(records: Iterable[GameRecord], folder: Path) -> List[Path]:
    """(Re)write one course text file per pairing found in `records`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for (a, b), games in by_pairing(course_game(r) for r in records).items():
        written.append(folder / f"{a}_{b}.txt")
        write_atomic(written[-1], format_course_text(games))
    return written


_ROUND_RE = re.compile(r"^(\d+):$")
_LINE_RE = re.compile(r"^(-?\d+)\s+(-?\d+)\s+(-?\d+)$")


def parse_course_text(text: str, a: str, b: str, where: str) -> List[CourseGame]:
    """Games of one course text file; raises ResultsError naming the line on anything else."""
    games: List[CourseGame] = []
    lines = [line.strip() for line in text.splitlines()]
    i = 0
    while i < len(lines) and lines[i] != "Stat:":
        if not lines[i]:
            i += 1
            continue
        head = _ROUND_RE.match(lines[i])
        if not head:
            raise ResultsError(f"{where}:{i + 1}: expected a round header like '0:', "
                               f"found {lines[i][:40]!r}")
        for leg in (0, 1):
            number = i + 2 + leg
            body = _LINE_RE.match(lines[number - 1]) if number <= len(lines) else None
            if not body:
                raise ResultsError(f"{where}:{number}: round {head.group(1)} lacks its "
                                   f"'code<TAB>timeA<TAB>timeB' line for leg {leg} "
                                   "(file cut short?)")
            code, sec_a, sec_b = (int(v) for v in body.groups())
            try:
                Result.of_code(code)
            except ValueError:
                raise ResultsError(f"{where}:{number}: unknown result code {code}") from None
            games.append(CourseGame(GameKey("", a, b, 0, int(head.group(1)), leg), code,
                                    sec_a, sec_b))
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
