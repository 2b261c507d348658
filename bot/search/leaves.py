"""A second core for our own move: one tree, two evaluators (leaf parallelism with virtual
visits).

During our move the opponent waits, so on a two-core machine one core is idle. Here it grows
the same tree: the main process selects a few leaves, counts a visit along each path at once
(a virtual loss, which steers the next selections elsewhere), and sends them to a forked
worker that plays them out; the scores come back while the main process runs play-outs of its
own, and are added along the same paths. The worker always has the next batch queued, so it
never waits on the main process. It adds about 1.7 times the play-outs a move
(`python bench/speed.py --leaves`, docs/performance.md); twice the play-outs are worth about
10 points against the native UCT (docs/strength.md).

The worker never runs while the opponent thinks (pondering stays single-core: that core is the
opponent's), and the main process stops using it for the game when it gets less than a core
during its searches (bot.search.fork.FULL_CORE), as on a one-core machine.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Dict, List, Optional, Tuple

from bot.rules import geometry
from bot.search import fork
from bot.search.clock import Deadline
from bot.search.mcts import MCTS
from bot.search.node import Node
from bot.search.settings import DEFAULT, Settings

log = logging.getLogger("bot")

# Leaves a request: about 1 ms of play-outs (0.3 ms in the endgame) against a pipe round trip
# of about 50 us. 4, 8 and 16 gave the same play-outs a second but in the endgame (x1.2, 1.3, 1.5).
BATCH = 8
IN_FLIGHT = 2  # requests outstanding, so the worker has the next one queued
DRAIN = 0.02  # seconds the main process waits for the answers in flight after its search


def serve_leaves(conn, evaluator, seed: Optional[int]) -> None:
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


class LeafParallelMCTS(MCTS):
    """MCTS whose own-move searches also play leaves out in a forked worker (the module doc)."""

    def __init__(self, settings: Settings = DEFAULT, seed: Optional[int] = None,
                 evaluator=None) -> None:
        super().__init__(settings, seed, evaluator)
        self.worker: Optional[fork.Forked] = fork.Forked(
            serve_leaves, (self.evaluator, None if seed is None else seed + 1))
        self.ident = 0
        self.core = fork.CoreShare()
        self.sent = 0  # leaves the worker has played out (for the log and the tests)

    def run(self, root: Node, geo, deadline: Deadline) -> Tuple[int, int]:
        if self.worker is None or deadline.end is None or deadline.max_playouts is not None:
            return super().run(root, geo, deadline)  # a play-out cap stays repeatable
        self.core.start()
        pending: Dict[int, List[List[Node]]] = {}
        board = (geo.M, geo.N, geo.no_x, geo.no_y)
        playouts = nodes = 0
        try:
            for _ in range(IN_FLIGHT):
                created, proven = self.send(root, geo, board, pending)
                nodes, playouts = nodes + created, playouts + proven
            conn = self.worker.conn
            while root.outcome is None and not deadline.expired(playouts):
                nodes += self.iterate(root, geo)
                playouts += 1
                while conn.poll(0):
                    playouts += self.receive(pending)
                    if root.outcome is None:
                        created, proven = self.send(root, geo, board, pending)
                        nodes, playouts = nodes + created, playouts + proven
            end = time.perf_counter() + DRAIN
            while pending and conn.poll(max(0.0, end - time.perf_counter())):
                playouts += self.receive(pending)
        except (EOFError, OSError, ValueError):
            log.info("leaf worker gone; searching alone")
            self.stop_worker()
        for paths in pending.values():  # late or lost: play them out here (a few ms at most)
            for path in paths:
                node = path[-1]
                score = self.evaluator.evaluate(geo, node.current, node.mask, self.rand)
                self.back_up(path, score, visits=0)
                playouts += 1
        self.core.stop()
        if self.core.starved():
            log.info("leaf worker off: the search got %.2f of a core", self.core.share)
            self.stop_worker()
        return playouts, nodes

    def send(self, root: Node, geo, board,
             pending: Dict[int, List[List[Node]]]) -> Tuple[int, int]:
        """Select up to BATCH leaves, count their visits now, and send them to the worker;
        a proven leaf is backed up at once instead. Returns (nodes created, proven leaves)."""
        paths, leaves, created, proven = [], [], 0, 0
        for _ in range(BATCH):
            if root.outcome is not None:
                break
            path, new = self.descend(root, geo)
            created += new
            node = path[-1]
            if node.outcome is not None:
                self.back_up(path, self.proven(path))
                proven += 1
                continue
            for n in path:
                n.visits += 1
            paths.append(path)
            leaves.append((node.current, node.mask))
        if paths:
            self.ident += 1
            pending[self.ident] = paths
            self.worker.conn.send((self.ident, board, leaves))
        return created, proven

    def receive(self, pending: Dict[int, List[List[Node]]]) -> int:
        """Back up one answer of the worker; returns the play-outs it held."""
        ident, scores = self.worker.conn.recv()
        paths = pending.pop(ident, None)
        if paths is None:  # late for an earlier search, which played these leaves out itself
            return 0
        for path, score in zip(paths, scores):
            self.back_up(path, score, visits=0)
        self.sent += len(paths)
        return len(paths)

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
