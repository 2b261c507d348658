"""The client of the bot's analysis mode (`python -m bot --analyse`, docs/protocol.md, 4): the
arena never imports the bot, so an `Engine` is a process in its own session
(arena/children/reaper.py), killed with whatever it forked by `close()` or the arena's exit."""

import io
import itertools
import json
import os
import queue
import sys
import threading
from collections import Counter, deque
from pathlib import Path
from typing import Any, Deque, Dict, Iterator, List, Optional, Sequence, overload

from arena.children.reaper import Child, kill_tree, spawn
from arena.children.tail import StderrTail
from arena.engine.position import Setup

ROOT = Path(__file__).resolve().parents[2]  # where `python -m bot` finds the bot
ARGV = (sys.executable, "-m", "bot", "--analyse", "--cores", "1")  # one core an engine


class EngineError(RuntimeError):
    """The engine refused a request or is gone: the message is one line."""


class AnalysisStream:
    """The lines of one request, in order: updates, then the final line (``done``)."""

    def __init__(self) -> None:
        self._lines: queue.Queue[Dict[str, Any]] = queue.Queue()
        self.done = False  # the final line has been read from here

    def put(self, line: Dict[str, Any]) -> None:
        self._lines.put(line)

    def get(self, timeout: Optional[float] = None) -> Optional[Dict[str, Any]]:
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
        self.done = bool(line.get("done"))
        return line

    def __iter__(self) -> Iterator[Dict[str, Any]]:
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
        lines = io.BufferedReader(stdout)
        while True:
            try:
                raw = lines.readline()
            except (OSError, ValueError):  # closed by close() under the read
                raw = b""
            if not raw:
                break
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

    def analyse(self, setup: Setup, seconds: Optional[float] = None,
                playouts: Optional[int] = None) -> AnalysisStream:
        """Start analysing ``setup``, ending the analysis in progress; without a budget it runs
        until `stop()`, a new request, or the engine's own cap of play-outs."""
        b = setup.board
        request: Dict[str, Any] = {"M": b.M, "N": b.N, "no": [b.no_x, b.no_y]}
        if setup.moves is not None:
            request["moves"] = [list(m) for m in setup.moves]
        else:
            request["board"] = setup.rows()
        budget = {"seconds": seconds, "playouts": playouts}
        request.update({k: v for k, v in budget.items() if v is not None})
        analysis = AnalysisStream()
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
