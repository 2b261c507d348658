"""A second core for our own move: one tree, two evaluators (leaf parallelism with virtual
visits).

During our move the opponent waits, so on a two-core machine one core is idle. Here it grows
the same tree: the main process selects a few leaves, counts a visit along each path at once
(a virtual loss, which steers the next selections elsewhere), and sends them to a forked
worker that plays them out; the scores come back while the main process runs play-outs of its
own (the search's loop runs beside LeafBatches, which does the sending and the adding), and
are added along the same paths. The worker always has the next batch queued, so it
never waits on the main process. What it adds in play-outs a move and in strength is in
docs/performance.md and docs/strength.md, with the commands.

The worker never runs while the opponent thinks (pondering stays single-core: that core is the
opponent's), and the main process stops using it for the game when it gets less than a core
during its searches (bot.search.fork.FULL_CORE), as on a one-core machine.
"""

from __future__ import annotations

import logging
import random
import time
from typing import TYPE_CHECKING, Dict, List, Optional

from bot.rules import Geometry, geometry
from bot.search import fork
from bot.search.evaluator import Evaluator
from bot.search.mcts import MCTS
from bot.search.node import Node
from bot.search.settings import DEFAULT, Settings
from bot.search.turn import ALONE, Beside, Turn

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

log = logging.getLogger("bot")

# Leaves a request: about 1 ms of play-outs (0.3 ms in the endgame) against a pipe round trip
# of about 50 us, so the round trip costs little; more leaves a request would steer the
# selections by more virtual losses at once.
BATCH = 8
IN_FLIGHT = 2  # requests outstanding, so the worker has the next one queued
DRAIN = 0.02  # seconds the main process waits for the answers in flight after its search
WORKER_GONE = (EOFError, OSError, ValueError)  # the pipe broke or was closed


def serve_leaves(conn: Connection, evaluator: Evaluator, seed: Optional[int]) -> None:
    """The worker: answer each (id, board, [(current, mask), ...]) with (id, scores)."""
    rand = random.Random(seed).random
    while True:
        try:
            ident, board, leaves = conn.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        geo = geometry(*board)
        scores = [evaluator.evaluate(geo, current, mask, rand) for current, mask in leaves]
        try:
            conn.send((ident, scores))
        except OSError:
            return


class LeafBatches(Beside):
    """The leaf worker beside one search's loop: ``start`` sends IN_FLIGHT batches, ``step``
    backs up each answer that has come and sends the next batch, ``finish`` waits DRAIN
    seconds for the answers still out and plays out here the leaves still unanswered, so
    every visit counted gets its score. A worker that fails is stopped, and the search goes
    on alone."""

    def __init__(self, searcher: LeafParallelMCTS, worker: fork.Forked, geo: Geometry) -> None:
        self.searcher, self.conn, self.geo = searcher, worker.conn, geo
        self.board = (geo.M, geo.N, geo.no_x, geo.no_y)
        self.pending: Dict[int, List[List[Node]]] = {}  # request id -> the paths it holds
        self.alive = True

    def start(self, turn: Turn) -> None:
        self.searcher.core.start()
        try:
            for _ in range(IN_FLIGHT):
                self.send(turn)
        except WORKER_GONE:
            self.gone()

    def step(self, turn: Turn) -> bool:
        if self.alive:
            try:
                while self.conn.poll(0):
                    self.receive(turn)
                    if turn.root.outcome is None:
                        self.send(turn)
            except WORKER_GONE:
                self.gone()
        return turn.root.outcome is not None  # proven by a leaf of a batch

    def finish(self, turn: Turn) -> None:
        if self.alive:
            end = time.perf_counter() + DRAIN
            try:
                while self.pending and self.conn.poll(max(0.0, end - time.perf_counter())):
                    self.receive(turn)
            except WORKER_GONE:
                self.gone()
        searcher = self.searcher
        for paths in self.pending.values():  # late or lost: play them out here (a few ms)
            for path in paths:
                node = path[-1]
                score = searcher.evaluator.evaluate(self.geo, node.current, node.mask,
                                                    searcher.rand)
                searcher.back_up(path, score, visits=0)
                turn.playouts += 1
        searcher.core.stop()
        if self.alive and searcher.core.starved():
            log.info("leaf worker off: the search got %.2f of a core", searcher.core.share)
            searcher.stop_worker()

    def send(self, turn: Turn) -> None:
        """Select up to BATCH leaves, count their visits now, and send them to the worker; a
        proven leaf is backed up at once instead."""
        searcher = self.searcher
        paths, leaves = [], []
        for _ in range(BATCH):
            if turn.root.outcome is not None:
                break
            path = searcher.descend(turn)
            node = path[-1]
            if node.outcome is not None:
                searcher.back_up(path, searcher.proven(path))
                turn.playouts += 1
                continue
            for n in path:
                n.visits += 1
            paths.append(path)
            leaves.append((node.current, node.mask))
        if paths:
            searcher.ident += 1
            self.pending[searcher.ident] = paths
            self.conn.send((searcher.ident, self.board, leaves))

    def receive(self, turn: Turn) -> None:
        """Back up one answer of the worker."""
        ident, scores = self.conn.recv()
        paths = self.pending.pop(ident, None)
        if paths is None:  # late for an earlier search, which played these leaves out itself
            return
        for path, score in zip(paths, scores):
            self.searcher.back_up(path, score, visits=0)
        self.searcher.sent += len(paths)
        turn.playouts += len(paths)

    def gone(self) -> None:
        log.info("leaf worker gone; searching alone")
        self.alive = False
        self.searcher.stop_worker()


class LeafParallelMCTS(MCTS):
    """MCTS whose own-move searches also play leaves out in a forked worker (the module doc):
    its loop runs beside LeafBatches."""

    def __init__(self, settings: Settings = DEFAULT, seed: Optional[int] = None,
                 evaluator: Optional[Evaluator] = None) -> None:
        super().__init__(settings, seed, evaluator)
        self.worker: Optional[fork.Forked] = fork.Forked(
            serve_leaves, (self.evaluator, None if seed is None else seed + 1))
        self.ident = 0  # the last request's id: answers late for an earlier search are told
        self.core = fork.CoreShare()
        self.sent = 0  # leaves the worker has played out (for the log and the tests)

    def beside(self, turn: Turn) -> Beside:
        """The worker's batches, for a search bounded by the clock alone (a play-out cap stays
        repeatable, pondering stays on one core: that core is the opponent's)."""
        if self.worker is None or not turn.deadline.clock_only():
            return ALONE
        return LeafBatches(self, self.worker, turn.geo)

    def stop_worker(self) -> None:
        """Search alone from now on."""
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def make_searcher(cores: int = 2, seed: Optional[int] = None,
                  settings: Settings = DEFAULT) -> MCTS:
    """The searcher for one game: leaf-parallel when ``cores`` is 2, a core is spare and
    processes can be forked, else single-core (the same play at a play-out cap either way)."""
    if cores >= 2 and fork.spare_cores() >= 1:
        try:
            return LeafParallelMCTS(settings, seed)
        except (ValueError, OSError):  # no fork on this platform, or no processes allowed
            pass
    return MCTS(settings, seed)
