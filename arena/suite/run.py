"""`arena suite run` (docs/suites.md, "Running a suite"): each player asked at each position,
every answer judged by the item's proofs; with an output file each is appended as it comes (one
JSON line), so Ctrl-C loses nothing and the same command asks only what is missing."""

import json
import queue
import sys
import threading
from contextlib import nullcontext
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from arena.core.players.base import MoveResult, Player
from arena.suite.ask import ask, asker
from arena.suite.item import SuiteError, SuiteItem
from records.codes import FaultKind
from records.log import whole_lines
from records.move import Move
from records.player import PlayerKind, PlayerSpec


@dataclass(frozen=True)
class Answer:
    """One player's answer at one position, as the results file keeps it."""

    id: str
    player: str
    spec: Dict[str, Any]  # the player's spec as run (PlayerSpec.to_dict)
    time: Optional[float]  # the thinking time set by --time, None: the player's own
    move: Optional[Move]
    solved: bool
    seconds: float
    fault: Optional[str] = None  # a FaultKind's value
    detail: str = ""

    def to_json(self) -> str:
        return json.dumps({**asdict(self), "move": self.move.to_list() if self.move else None,
                           "seconds": round(self.seconds, 4)})

    @classmethod
    def from_dict(cls, data: Any) -> "Answer":
        move = data["move"]
        return cls(str(data["id"]), str(data["player"]), dict(data["spec"]), data["time"],
                   Move.from_list(move) if move is not None else None, bool(data["solved"]),
                   float(data["seconds"]), data["fault"], str(data["detail"]))


def judged(item: SuiteItem, player: str, spec: PlayerSpec, think: Optional[float],
           reply: MoveResult) -> Answer:
    """The answer a reply makes: solved when its move is proven to meet the goal (a valued
    item's: when it is the best column); a move that is not legal there is a fault."""
    move = Move(*reply.point) if reply.point is not None else None
    solved = move is not None and item.solves(move)
    kind = reply.fault.value if reply.fault else None
    if reply.fault is None and move is not None and not item.legal(move):
        kind, solved = FaultKind.ILLEGAL.value, False
    return Answer(item.id, player, spec.to_dict(), think, move, solved, reply.elapsed, kind,
                  reply.detail)


Key = Tuple[str, str]  # (position id, player)


def kept_answers(path: Optional[Path], players: Dict[str, PlayerSpec],
                 think: Optional[float]) -> Dict[Key, Answer]:
    """The answers a results file keeps, by position and player (a torn last line, a write
    cut off, is cut from it); SuiteError for a line that is not an answer, or when one of
    these players answered there under another spec or time (not this run's answers)."""
    kept: Dict[Key, Answer] = {}
    for number, line in whole_lines(path) if path else []:
        try:
            answer = Answer.from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            raise SuiteError(f"{path}:{number}: not a suite answer ({exc})") from None
        spec = players.get(answer.player)
        if spec is not None and (answer.spec, answer.time) != (spec.to_dict(), think):
            raise SuiteError(f"{path}: {answer.player} answered there with another spec or "
                             "--time; name another --output for this run")
        kept[(answer.id, answer.player)] = answer
    return kept


def timed(spec: PlayerSpec, think: Optional[float]) -> PlayerSpec:
    """The spec a run uses: with ``think`` given, a process thinks that long (its ``--time``
    set, or added: a process on the getpoint protocol is the bot's, which takes it)."""
    if think is None or spec.kind is not PlayerKind.PROCESS:
        return spec
    if spec.takes_time:
        return spec.with_time(think)
    return replace(spec, target=spec.argv + ["--time", f"{think:g}"])


def run_suite(items: Sequence[SuiteItem], players: Dict[str, PlayerSpec],
              think: Optional[float], time_limit: float, answers: Dict[Key, Answer], jobs: int = 1,
              quiet: bool = False, output: Optional[Path] = None) -> None:
    """Every player's answer at every item into ``answers``: those ``output`` keeps, then the
    rest asked, ``jobs`` positions at once, each appended to ``output`` as it comes; ``players``
    are the specs as run (``timed``). Ctrl-C: KeyboardInterrupt once the players are closed."""
    from tqdm import tqdm

    answers.update(kept_answers(output, players, think))
    todo = [(item, [n for n in players if (item.id, n) not in answers]) for item in items]
    todo = [(item, names) for item, names in todo if names]
    own = [{n: asker(n, s) for n, s in players.items()}  # each worker's players
           for _ in range(max(1, min(jobs, len(todo))))]
    work: queue.Queue[Optional[Tuple[SuiteItem, List[str]]]] = queue.Queue()
    for job in [*todo, *[None] * len(own)]:  # each worker's end mark after the positions
        work.put(job)
    done: queue.Queue[List[Answer]] = queue.Queue()
    stopped = threading.Event()

    def worker(mine: Dict[str, Player]) -> None:
        """Asks its own players about the positions it takes from ``work``."""
        for item, names in iter(work.get, None):
            answered = []
            for name in names:
                if stopped.is_set():  # Ctrl-C: the players are closed, start nothing again
                    return
                reply = ask(mine[name], item, time_limit)
                answered.append(judged(item, name, players[name], think, reply))
            done.put(answered)

    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
    # line-buffered: each position's answers reach the file whole before the next
    with open(output, "a", buffering=1, encoding="utf-8") if output else nullcontext() as out:
        try:
            with tqdm(total=len(items), initial=len(items) - len(todo), unit="position",
                      desc="suite", disable=True if quiet else None, file=sys.stderr) as bar:
                for mine in own:
                    threading.Thread(target=worker, args=(mine,), name="suite-worker",
                                     daemon=True).start()
                for _ in todo:
                    answered = done.get()
                    if out is not None:
                        out.write("".join(a.to_json() + "\n" for a in answered))
                    answers.update(((a.id, a.player), a) for a in answered)
                    bar.update()
        finally:
            stopped.set()
            for mine in own:
                for player in mine.values():
                    player.close()  # its process killed: a request in flight ends with it

