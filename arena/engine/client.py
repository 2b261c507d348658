"""The client of the bot's analysis mode (`python -m bot --analyse`, docs/protocol.md, 4), and
the runner of the loss analysis (`python -m arena analyse`, `analyse_in_child`): the arena never
imports the bot, so each is a process in its own session (arena/children/reaper.py), killed with
whatever it forked once done or at the arena's exit."""

import contextlib
import io
import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Deque, Dict, Iterator, List, Mapping, Optional, Sequence, overload

from arena.children.reaper import Child, kill_tree, spawn
from arena.children.tail import StderrTail
from arena.engine.limit import Limit
from arena.engine.position import Setup
from records.game import GameRecord
from records.log import write_log
from records.move import Move
from records.result import Outcome, Seat, WinChance

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bot` finds the bot
ARGV = (sys.executable, "-m", "bot", "--analyse", "--cores", "1")  # one core an engine
ANALYSIS_SECONDS = 1.0  # the loss analysis's budget a position ("Analyse this game", a review)
ANALYSIS_TIMEOUT_S = 300.0


class EngineError(RuntimeError):
    """The engine refused a request or is gone: the message is one line."""


def _proof(data: Any) -> Optional[Outcome]:
    return None if data is None else Outcome(data["result"])


@dataclass(frozen=True)
class MoveInfo:
    """One move of a line (docs/protocol.md, 4): the play-outs through it, the side to move's
    win chance after it (None: unvisited), its proof for the side to move with the plies to
    the end (None: none, or not known), and its own line from it."""

    move: Move
    visits: int
    chance: Optional[WinChance]
    proof: Optional[Outcome]
    plies: Optional[int]
    pv: List[Move]

    @property
    def value(self) -> Optional[float]:
        """The engine's number: the mover's win chance, 0..1."""
        return None if self.chance is None else self.chance.chance


@dataclass(frozen=True)
class Info:
    """One line of the engine, typed once (python-chess's ``InfoDict``): the side to move, its
    best move, the position's proof and each move; ``raw`` is the line as the engine wrote
    it, which the pages receive unchanged."""

    raw: Mapping[str, Any]
    to_move: Seat
    done: bool
    best: Optional[Move]
    proof: Optional[Outcome]
    moves: List[MoveInfo]

    @classmethod
    def parse(cls, line: Mapping[str, Any], to_move: Seat) -> "Info":
        def info(m: Mapping[str, Any]) -> MoveInfo:
            value, proof = m.get("value"), m.get("proof")
            return MoveInfo(Move.from_list(m["move"]), m.get("visits", 0),
                            None if value is None else WinChance(value, to_move),
                            _proof(proof), (proof or {}).get("plies"),
                            [Move.from_list(p) for p in m.get("pv", ())])

        best = line.get("best")
        return cls(line, to_move, bool(line.get("done")),
                   None if best is None else Move.from_list(best), _proof(line.get("proof")),
                   [info(m) for m in line.get("moves", ())])

    @property
    def chance(self) -> Optional[WinChance]:
        """The position's win chance (``PovScore``): a proof's, else its best move's value;
        None before the search values that move."""
        if self.proof is not None:
            return WinChance.of(self.proof, self.to_move)
        return next((m.chance for m in self.moves if m.move == self.best), None)

    def pov(self, seat: Seat) -> Optional[float]:
        """The position's win chance for ``seat``, to four places (None: not valued)."""
        chance = self.chance
        return None if chance is None else round(chance.pov(seat), 4)

    def proof_pov(self, seat: Seat) -> Optional[Outcome]:
        """The position's proof as ``seat`` sees it (None: not proven)."""
        if self.proof is None or seat is self.to_move:
            return self.proof
        return self.proof.reversed

    def top(self, count: int) -> List[int]:
        """The best ``count`` moves, as indices into ``moves``, best first (UCI's
        ``multipv``): a proven win first, then by visits, a proven loss last; moves neither
        visited nor proven are left out."""
        order = {Outcome.WIN: 0, None: 1, Outcome.DRAW: 1, Outcome.LOSS: 2}
        ranked = sorted((i for i, m in enumerate(self.moves) if m.visits or m.proof),
                        key=lambda i: (order[self.moves[i].proof], -self.moves[i].visits, i))
        return ranked[:count]


class AnalysisStream:
    """The lines of one request, in order: updates, then the final line (``done``), each
    typed for the side to move."""

    def __init__(self, to_move: Seat, on_line: Callable[[], None] = lambda: None) -> None:
        self._lines: queue.Queue[Dict[str, Any]] = queue.Queue()
        self.to_move = to_move
        self.on_line = on_line  # told after each line comes, in the engine's reader thread
        self.done = False  # the final line has been read from here

    def put(self, line: Dict[str, Any]) -> None:
        self._lines.put(line)
        self.on_line()

    def get(self, timeout: Optional[float] = None) -> Optional[Info]:
        """The next line, or None when none came within ``timeout`` seconds or the final line
        was read; EngineError for the engine's refusal or its exit."""
        if self.done:
            return None
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if "error" in line:
            self.done = True
            raise EngineError(str(line["error"]))
        info = Info.parse(line, self.to_move)
        self.done = info.done
        return info

    def __iter__(self) -> Iterator[Info]:
        """Every line up to the final one, waiting as long as the request runs."""
        return iter(self.get, None)


class Engine:
    """One `python -m bot --analyse` process; one request analysed at a time."""

    def __init__(self, argv: Sequence[str] = ARGV) -> None:
        self._child: Optional[Child] = spawn(list(argv), cwd=str(ROOT))
        self._tail = StderrTail(self._child.stderr_fd)
        self._pending: Deque[AnalysisStream] = deque()  # requests sent whose final line is to come
        self._lock = threading.Lock()
        self._closed = False
        self._reader = threading.Thread(target=self._read, args=(self._child.stdout,),
                                        name="engine-reader", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self._child.pid if self._child else -1

    @property
    def alive(self) -> bool:
        return not self._closed and self._child is not None and self._child.proc.poll() is None

    def _read(self, stdout: Any) -> None:
        """Hand each line to the oldest request still open (the engine answers in order)."""
        with contextlib.suppress(OSError, ValueError):  # closed by close() under the read
            for raw in io.BufferedReader(stdout):
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue  # the protocol writes JSON lines only: nothing to hand anyone
                with self._lock:
                    if not self._pending:
                        continue
                    analysis = self._pending[0]
                    if "error" in line or line.get("done"):
                        self._pending.popleft()
                analysis.put(line)
        with self._lock:
            orphans, self._closed = list(self._pending), True
            self._pending.clear()
        why = self._tail.text().strip().splitlines()[-1:] or ["no message"]
        for analysis in orphans:
            analysis.put({"error": f"the engine exited ({why[0][:200]})"})

    def _send(self, request: Dict[str, Any], analysis: Optional[AnalysisStream] = None) -> None:
        with self._lock:
            if self._closed or self._child is None:
                raise EngineError("the engine is closed")
            try:
                self._child.stdin.write((json.dumps(request) + "\n").encode())
            except OSError as exc:
                raise EngineError(f"the engine is gone: {exc}") from None
            if analysis is not None:
                self._pending.append(analysis)

    def analyse(self, setup: Setup, limit: Limit,
                on_line: Callable[[], None] = lambda: None) -> AnalysisStream:
        """Start analysing ``setup`` within ``limit``'s seconds and play-outs, ending the
        analysis in progress; without either it runs until `stop()`, a new request, or the
        engine's own cap of play-outs."""
        b = setup.board
        request: Dict[str, Any] = {"M": b.M, "N": b.N, "no": [b.no_x, b.no_y]}
        if setup.moves is not None:
            request["moves"] = [list(m) for m in setup.moves]
        else:
            request["board"] = setup.rows()
        request.update({k: v for k, v in limit.engine_budget().items() if v is not None})
        analysis = AnalysisStream(setup.seat, on_line)
        self._send(request, analysis)
        return analysis

    def stop(self) -> None:
        """End the analysis in progress (its final line follows); nothing when none runs."""
        self._send({"stop": True})

    def close(self) -> None:
        """Kill the process and whatever it started; idempotent."""
        with self._lock:
            child, self._child, self._closed = self._child, None, True
        if child is not None:
            kill_tree(child)
            self._reader.join(timeout=5)


class PoolClosed(EngineError):
    """The pool is closed (the server stops): no engine is handed out."""


class EnginePool:
    """At most ``cap`` engines at once, handed out in the order they were asked for: a caller
    that waits keeps its place in line (its ``ticket``, any object) across tries, and the
    line says who waits for what (`ahead`). `release` kills an engine and frees its place."""

    def __init__(self, cap: Optional[int] = None, argv: Sequence[str] = ARGV) -> None:
        self.cap = cap or os.cpu_count() or 1
        self.argv = list(argv)
        self._live: List[Engine] = []
        self._line: Dict[object, str] = {}  # who waits, in order, and what it is
        self._cond = threading.Condition()
        self._closed = False

    @overload
    def acquire(self, timeout: None = None, ticket: object = None,
                label: str = "a review") -> Engine: ...

    @overload
    def acquire(self, timeout: Optional[float], ticket: object = None,
                label: str = "a review") -> Optional[Engine]: ...

    def acquire(self, timeout: Optional[float] = None, ticket: object = None,
                label: str = "a review") -> Optional[Engine]:
        """A fresh engine once a place is free and no one asked before ``ticket``; None when
        none came within ``timeout`` seconds (the ticket keeps its place: ask again with it,
        or `leave`); PoolClosed once the pool is closed."""
        anonymous = ticket is None  # no place kept: a caller without a ticket asks anew
        ticket = object() if ticket is None else ticket
        with self._cond:
            self._line.setdefault(ticket, label)

            def turn() -> bool:
                return self._closed or (len(self._live) < self.cap
                                        and next(iter(self._line)) is ticket)

            self._cond.wait_for(turn, timeout)
            if self._closed:
                self._line.pop(ticket, None)
                raise PoolClosed("the server is stopping")
            if not turn():
                if anonymous:
                    del self._line[ticket]
                    self._cond.notify_all()
                return None
            del self._line[ticket]
            engine = Engine(self.argv)
            self._live.append(engine)
            self._cond.notify_all()  # the next in line may have a place too
            return engine

    def leave(self, ticket: object) -> None:
        """Give up ``ticket``'s place in line (nothing when it has none)."""
        with self._cond:
            if self._line.pop(ticket, None) is not None:
                self._cond.notify_all()

    @property
    def waiting(self) -> bool:
        """Whether anyone waits in line."""
        with self._cond:
            return bool(self._line)

    def ahead(self, ticket: object) -> str:
        """Who waits before ``ticket``, in words ("1 review and 1 analysis board"; "" for no
        one)."""
        with self._cond:
            before = list(itertools.takewhile(lambda t: t is not ticket, self._line))
            kinds = Counter(self._line[t] for t in before)
        return " and ".join(f"{n} {what.partition(' ')[2]}{'s' * (n > 1)}"
                            for what, n in kinds.items())

    def release(self, engine: Engine) -> None:
        """Kill ``engine`` and free its place."""
        engine.close()
        with self._cond:
            if engine in self._live:
                self._live.remove(engine)
            self._cond.notify_all()

    @property
    def in_use(self) -> int:
        with self._cond:
            return len(self._live)

    def close(self) -> None:
        """Kill every engine handed out and hand out no more; idempotent."""
        with self._cond:
            self._closed = True
            engines, self._live = list(self._live), []
            self._cond.notify_all()
        for engine in engines:
            engine.close()


def analyse_in_child(record: GameRecord, out: Path,
                     stopped: Callable[[], bool] = lambda: False) -> Optional[str]:
    """Write ``record``'s loss analysis to ``out`` by `python -m arena analyse` in a child
    process (the analysis searches with the bot's solver; a child also leaves the caller's
    threads the interpreter), killed with whatever it started once it ends, after
    ANALYSIS_TIMEOUT_S, or once ``stopped()`` (looked at ten times a second: EngineError).
    None when it succeeded, else why it failed, in one line."""
    given = out.with_suffix(".game.jsonl")
    write_log(given, [record])
    child = spawn([sys.executable, "-m", "arena", "analyse", str(given), "-o", str(out),
                   "--seconds", f"{ANALYSIS_SECONDS:g}", "-q"], cwd=str(ROOT))
    tail = StderrTail(child.stderr_fd)
    deadline = time.monotonic() + ANALYSIS_TIMEOUT_S
    try:
        child.stdin.close()
        while child.proc.poll() is None:
            if time.monotonic() > deadline:
                return f"the analysis took over {ANALYSIS_TIMEOUT_S:g} s"
            if stopped():
                raise EngineError("the analysis was stopped")
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.proc.wait(timeout=0.1)
    finally:
        kill_tree(child)
        given.unlink(missing_ok=True)
    if child.proc.returncode == 0:
        return None
    tail.join(5.0)  # the child's last words: why it failed
    return (tail.text().strip() or "no output").splitlines()[-1]
