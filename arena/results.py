"""Where finished games go: a JSON Lines log (one record per game) and the course's text files.

The log is the source of truth. A record is appended and flushed the moment its game ends, so a
batch killed at any instant loses at most the games still being played; a last line cut short
by the kill is detected (it does not parse) and cut off before the batch resumes. The course's
`compete_result/<A>_<B>.txt` files are derived from the log, so they can always be rewritten.

Course text format, one file per pairing (A = the file name's first id, B = the second):

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

import json
import logging
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from arena.codes import Code, FaultKind, fault_code, winner_of

LOG = logging.getLogger("arena.results")
RECORD_VERSION = 1
NAME_RE = re.compile(r"^[A-Za-z0-9.+-]+$")


class ResultsError(Exception):
    """A results file that cannot be read: the message names the file and line."""


_FAULTS = {int(fault_code(kind, side == "a")): (side, kind.value)
           for kind in FaultKind for side in ("a", "b")}


def winner_of_code(code: int) -> str:
    """Who gets the points for a course code: "a", "b" or "draw" (a fault loses the game).
    Raises ValueError for a number that is not a course code."""
    return winner_of(Code(code)) or "draw"


def fault_of_code(code: int) -> Optional[Tuple[str, str]]:
    """(side, kind) of the fault a course code records, e.g. 7 -> ("a", "timeout"); else None."""
    return _FAULTS.get(code)


@dataclass(frozen=True)
class GameKey:
    """Identifies one game of a batch; resuming skips the keys already in the log."""

    batch: str
    a: str
    b: str
    seed: int
    round: int
    leg: int


@dataclass
class GameRecord:
    """One finished game, as written to the JSON Lines log (see docs/design.md)."""

    batch: str
    seed: int
    round: int
    leg: int
    a: str
    b: str
    M: int
    N: int
    no_x: int
    no_y: int
    time_limit: float
    code: int
    reason: str
    moves: List[List[int]] = field(default_factory=list)
    times: List[float] = field(default_factory=list)
    fault: Optional[Dict[str, str]] = None
    win_line: Optional[List[List[int]]] = None
    stderr: Dict[str, str] = field(default_factory=dict)
    finished: str = ""
    host: Optional[str] = None  # the machine that played the game (None in older logs)
    # where the game was decided, added by `python -m arena analyse` (docs/analyse.md)
    analysis: Optional[Dict[str, Any]] = None
    v: int = RECORD_VERSION

    @property
    def first(self) -> str:
        """Side that moved first: "a" in leg 0, "b" in leg 1."""
        return "a" if self.leg == 0 else "b"

    @property
    def result(self) -> str:
        return winner_of_code(self.code)

    @property
    def key(self) -> GameKey:
        return GameKey(self.batch, self.a, self.b, self.seed, self.round, self.leg)

    def side_times(self, side: str) -> List[float]:
        """Move times (seconds) of one side: moves alternate, starting with the first mover."""
        start = 0 if side == self.first else 1
        return self.times[start::2]

    def to_json(self) -> str:
        data = asdict(self)
        if data["analysis"] is None:
            del data["analysis"]  # a batch's records carry none
        data["first"] = self.first
        data["result"] = self.result
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "GameRecord":
        names = cls.__dataclass_fields__.keys()
        return cls(**{k: v for k, v in data.items() if k in names})


def _parse_record(line: str, where: str) -> GameRecord:
    try:
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return GameRecord.from_dict(data)
    except (ValueError, TypeError) as exc:
        raise ResultsError(f"{where}: not a game record ({exc})") from None


def read_log(path: Path, repair: bool = False) -> List[GameRecord]:
    """All records of a log. A torn last line (no newline, or not JSON) is dropped and, with
    `repair`, cut from the file; without `repair` it is an error, as is any bad line before it."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    tail = lines.pop()  # bytes after the last newline: empty unless the last write was cut
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise ResultsError(f"{path}:{number}: not UTF-8 text") from None
        try:
            records.append(_parse_record(text, f"{path}:{number}"))
        except ResultsError:
            if number == len(lines) and not tail and repair:
                tail = line + b"\n"  # a complete-looking but garbled last line: torn too
                break
            raise
    if tail:
        if not repair:
            raise ResultsError(f"{path}: the last record is torn (the batch was cut off); "
                               "run the batch again to resume and repair it")
        with open(path, "r+b") as handle:
            handle.truncate(len(raw) - len(tail))
        LOG.warning("%s: dropped a torn last record (%d bytes) left by a batch cut short",
                    path, len(tail))
    return records


class ResultLog:
    """Append-only writer of records; each record is flushed as soon as it is written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = open(path, "a", encoding="utf-8")

    def append(self, record: GameRecord) -> None:
        self._handle.write(record.to_json() + "\n")
        self._handle.flush()  # in the kernel now: a SIGKILL of the arena cannot lose it

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> "ResultLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sort_log(path: Path) -> List[GameRecord]:
    """Rewrite a log in game order (batch, seed, round, a, b, leg), whatever order games ended in,
    so the same batch leaves the same file locally and on a cluster; returns its records in that
    order. Atomic: the old file stays whole until the new one replaces it."""
    records = read_log(path)
    if not records:
        return records
    records.sort(key=lambda r: (r.batch, r.seed, r.round, r.a, r.b, r.leg))
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(r.to_json() + "\n" for r in records), encoding="utf-8")
    os.replace(tmp, path)
    return records


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
