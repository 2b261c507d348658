"""A second core for our own move: root-parallel search (Chaslot, Winands and van den Herik
2008, "Parallel Monte-Carlo Tree Search").

During our move the opponent waits, so on a machine with two cores one of them is idle. A
forked helper process keeps its own tree (reused between moves like the main one) and searches
the same position with another random stream while the main process searches; at the end the
main process adds the helper's root visits to its own and picks the move from the sum. Proofs
are facts of the game, so a move either tree proved is taken as proven.

The helper never searches while the opponent thinks (that core is the opponent's), and it
switches itself off for the rest of the game when the main process stops getting a whole core
during its searches (a machine with one core, or one busy with other games), where two
searchers would only split the time of one.

Off by default (`python -m bot --helper`): against the full-budget partner it scored 65% where
the single search scored 72.5-75% on the same boards (docs/strength.md).
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import replace
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from bot.rules import Position, geometry
from bot.search.clock import Deadline, Limit
from bot.search.mcts import MCTS, SearchResult
from bot.search.node import RANK

log = logging.getLogger("bot")

MARGIN = 0.03  # seconds: the helper stops this much before the deadline, so its answer waits
WAIT = 0.05  # seconds: the longest the main process waits for that answer after its search
SHORTEST = 0.1  # seconds: a search shorter than this is not worth sending
FULL_CORE = 0.7  # CPU seconds per wall second below which the main process is short of a core
STARVED_MOVES = 2  # consecutive starved searches that switch the helper off

# (move, visits, proven outcome for the side to move after the move) of each root child
ChildStats = List[Tuple[int, int, Optional[int]]]


def spare_cores() -> int:
    """Cores this process may run on, besides its own."""
    try:
        return len(os.sched_getaffinity(0)) - 1
    except AttributeError:  # not Linux
        return (os.cpu_count() or 1) - 1


class CoreShare:
    """Whether the main search keeps a whole core while a second process works beside it:
    ``start()`` and ``stop()`` around a search, then ``starved()``, True once STARVED_MOVES
    searches in a row got less than FULL_CORE CPU seconds a wall second (then the second
    process only splits one core's time)."""

    def __init__(self) -> None:
        self.runs = 0
        self.share = 1.0
        self.cpu = self.wall = 0.0

    def start(self) -> None:
        self.cpu, self.wall = time.process_time(), time.perf_counter()

    def stop(self) -> None:
        elapsed = max(1e-9, time.perf_counter() - self.wall)
        self.share = (time.process_time() - self.cpu) / elapsed

    def starved(self) -> bool:
        self.runs = self.runs + 1 if self.share < FULL_CORE else 0
        return self.runs >= STARVED_MOVES


def root_stats(searcher: MCTS) -> ChildStats:
    """The statistics of the last searched root's children."""
    return [(c.move, c.visits, c.outcome) for c in searcher.tree.children]


def serve_helper(conn, make_searcher: Callable[[], MCTS]) -> None:
    """The helper process: answer each (id, board, current, mask, ply, end) request with (id,
    root children's statistics) until end of input. ``end`` is on the ``time.monotonic``
    clock, which all processes share: a request read late gets a shorter search, or none."""
    searcher = make_searcher()
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        ident, board, current, mask, ply, end = request
        seconds = end - time.monotonic()
        stats: ChildStats = []
        if seconds > 0:
            searcher.search(Position(geometry(*board), current, mask, ply),
                            Deadline(Limit(seconds)))
            stats = root_stats(searcher)
        try:
            conn.send((ident, stats))
        except OSError:  # the main process is gone
            return


def _run_forked(conn, parent_end, serve: Callable, args: tuple) -> None:
    """Entry point of a forked process: let go of the game's pipes and the main process's
    end of our own, so that nothing waits on this process and its input ends with the game."""
    parent_end.close()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    serve(conn, *args)


class Forked:
    """A forked process that serves requests on a pipe (``serve(conn, *args)``) until the
    main process closes its end."""

    def __init__(self, serve: Callable, args: tuple) -> None:
        import multiprocessing  # here: 10 ms of every bot's start-up, which the first move pays

        context = multiprocessing.get_context("fork")  # ValueError where fork is unavailable
        self.conn, child_end = context.Pipe()
        self.process = context.Process(target=_run_forked, daemon=True,
                                       args=(child_end, self.conn, serve, args))
        self.process.start()
        child_end.close()

    def close(self) -> None:
        """End the process (it exits at end of input)."""
        self.conn.close()
        self.process.join(timeout=1.0)
        if self.process.is_alive():
            self.process.kill()


class Helper(Forked):
    """The main process's handle on the helper process."""

    def __init__(self, make_searcher: Callable[[], MCTS]) -> None:
        super().__init__(serve_helper, (make_searcher,))
        self.ident = 0

    def ask(self, position: Position, seconds: float) -> None:
        """Start the helper on ``position`` for ``seconds`` from now."""
        self.ident += 1
        g = position.geo
        self.conn.send((self.ident, (g.M, g.N, g.no_x, g.no_y), position.current, position.mask,
                        position.ply, time.monotonic() + seconds))

    def answer(self, wait: float) -> Optional[ChildStats]:
        """The answer to the last request, waiting at most ``wait`` seconds; None if late
        (a late answer is dropped when it comes)."""
        end = time.perf_counter() + wait
        while self.conn.poll(max(0.0, end - time.perf_counter())):
            ident, stats = self.conn.recv()
            if ident == self.ident:
                return stats
        return None



def merged_move(children: Sequence, helper: ChildStats) -> Tuple[int, int]:
    """The move to play (and its summed visits) from the main root's children and the helper's
    statistics: a move proven in either tree counts as proven, visits are added, and the order
    is the single tree's (bot.search.node.sort_key)."""
    visits: Dict[int, int] = {}
    outcome: Dict[int, Optional[int]] = {}
    for move, n, proven in [(c.move, c.visits, c.outcome) for c in children] + list(helper):
        visits[move] = visits.get(move, 0) + n
        if outcome.get(move) is None:
            outcome[move] = proven
    best = max(visits, key=lambda m: (RANK[outcome[m]], visits[m]))
    return best, visits[best]


class HelpedMCTS(MCTS):
    """MCTS whose own-move searches are joined by a helper process (see the module's doc).

    Pondering and fast paths are unchanged; if the helper fails or answers late, the move is
    the main tree's alone.
    """

    def __init__(self, **options) -> None:
        super().__init__(**options)
        seed = options.get("seed")
        helper_options = dict(options, seed=None if seed is None else seed + 1)
        self.helper: Optional[Helper] = Helper(lambda: MCTS(**helper_options))
        self.core = CoreShare()
        self.helped = 0  # searches the helper's answer joined (for the log and the tests)

    def search(self, position: Position, deadline: Deadline) -> SearchResult:
        seconds = None if deadline.end is None else deadline.end - time.perf_counter() - MARGIN
        if self.helper is None or seconds is None or seconds < SHORTEST:
            return super().search(position, deadline)
        try:
            self.helper.ask(position, seconds)
        except (OSError, ValueError):
            self.stop_helper()
            return super().search(position, deadline)
        self.core.start()
        result = super().search(position, deadline)
        self.core.stop()
        if self.tree.outcome is not None:  # proven early: the helper's answer is dropped
            return result
        try:
            stats = self.helper.answer(WAIT)
        except (EOFError, OSError, ValueError):
            self.stop_helper()
            return result
        if self.core.starved():
            log.info("helper off: the search got %.2f of a core", self.core.share)
            self.stop_helper()
        if not stats:
            return result
        self.helped += 1
        move, visits = merged_move(self.tree.children, stats)
        log.debug("helper: %d visits at the root, %.2f of a core for the main search",
                  sum(n for _, n, _ in stats), self.core.share)
        return replace(result, move=move, visits=visits)

    def stop_helper(self) -> None:
        """Search alone from now on."""
        if self.helper is not None:
            self.helper.close()
            self.helper = None


def searcher_for(helper: bool, leaves: bool = False, **options) -> MCTS:
    """A searcher that uses a second core when one is spare and processes can be forked: a
    HelpedMCTS (a second tree) for ``helper``, else a LeafParallelMCTS (one tree, a second
    evaluator; bot.search.leaves) for ``leaves``; else a plain MCTS."""
    if (helper or leaves) and spare_cores() >= 1:
        try:
            if helper:
                return HelpedMCTS(**options)
            from bot.search.leaves import LeafParallelMCTS  # it builds on this module
            return LeafParallelMCTS(**options)
        except (ValueError, OSError):  # no fork on this platform, or no processes allowed
            pass
    return MCTS(**options)
