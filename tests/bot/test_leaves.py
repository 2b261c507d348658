"""Leaf parallelism: the worker's play-outs land in the same tree exactly once, and a worker
that dies, answers late or starves the main process leaves a search that plays alone."""

from __future__ import annotations

import time

import pytest
from botio import WAIT

from bot.rules import Position
from bot.search import fork
from bot.search import leaves as leaves_module
from bot.search.clock import Deadline, Limit
from bot.search.evaluator import Evaluator
from bot.search.leaves import LeafParallelMCTS, make_searcher
from bot.search.mcts import MCTS
from bot.search.settings import Settings


class Even(Evaluator):
    """Every play-out a draw, after ``delay`` seconds: then every unproven node's summed
    value is exactly half its visits, so a visit counted without its score shows."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay

    def evaluate(self, geo, current, mask, rand) -> float:
        if self.delay:
            time.sleep(self.delay)
        return 0.5


def unproven(node) -> bool:
    """Whether no proof lies in ``node``'s subtree (a proof scores 0 or 1, not a draw)."""
    return node.outcome is None and all(unproven(c) for c in node.children)


def assert_every_playout_counted_once(root, playouts: int) -> None:
    assert root.visits == playouts
    assert unproven(root)  # else the values below could not be checked exactly
    stack = [root]
    while stack:
        node = stack.pop()
        assert node.value == 0.5 * node.visits
        if node.children:
            assert node.visits - sum(c.visits for c in node.children) in (0, 1)
        stack.extend(node.children)


@pytest.fixture
def searcher(request):
    # No probes: their proofs would score 0 or 1 (the solver's own tests cover them).
    # A play-out takes 0.2 ms, as a real one does: the tree stays within 4 plies, where no
    # position is decided yet (the first proof, an open three on the bottom row, is at 5).
    s = LeafParallelMCTS(Settings(probe_depth=0, deep_probes=()), seed=3,
                         evaluator=Even(getattr(request, "param", 0.0002)))
    yield s
    s.stop_worker()


def test_the_worker_plays_leaves_of_the_same_tree(searcher, monkeypatch):
    # the search waits for the answers still out at its end, however late a loaded machine
    # runs the worker: they all count here, not as play-outs of its own
    monkeypatch.setattr(leaves_module, "DRAIN", WAIT)
    p = Position.new(12, 12, 1, 4)  # a broad tree: no four within its few plies, no proofs
    result = searcher.search(p, Deadline(Limit(0.15)))
    assert searcher.sent > 0
    assert result.move & p.possible()
    assert_every_playout_counted_once(searcher.tree, result.playouts)


@pytest.mark.parametrize("searcher", [0.002], indirect=True)
def test_answers_still_out_at_the_deadline_are_played_out_here(searcher, monkeypatch):
    monkeypatch.setattr(leaves_module, "DRAIN", 0.0)
    monkeypatch.setattr(fork, "FULL_CORE", 0.0)  # these play-outs sleep, not compute
    p = Position.new(12, 12, 11, 0)
    result = searcher.search(p, Deadline(Limit(0.1)))
    # the answers out are played here (2 ms each), not waited for; and a loaded machine's slack
    assert result.seconds < 0.1 + leaves_module.BATCH * leaves_module.IN_FLIGHT * 0.002 + 1.0
    assert_every_playout_counted_once(searcher.tree, result.playouts)
    assert searcher.worker is not None  # late is not dead
    # the late answers reach the next search, which drops them
    searcher.tree = None
    result = searcher.search(p.play(3), Deadline(Limit(0.1)))
    assert_every_playout_counted_once(searcher.tree, result.playouts)
    assert searcher.worker is not None


def test_a_dead_worker_leaves_the_search_alone(searcher):
    searcher.worker.process.kill()
    searcher.worker.process.join()
    p = Position.new(12, 11, 5, 5)
    result = searcher.search(p, Deadline(Limit(0.15)))
    assert result.move & p.possible()
    assert searcher.worker is None and searcher.sent == 0
    assert_every_playout_counted_once(searcher.tree, result.playouts)


def test_a_starved_main_process_switches_the_worker_off(searcher, monkeypatch):
    monkeypatch.setattr(fork, "FULL_CORE", 2.0)  # no process gets two cores' time
    p = Position.new(9, 9, 0, 0)
    searcher.search(p, Deadline(Limit(0.1)))
    assert searcher.worker is not None
    searcher.search(p, Deadline(Limit(0.1)))
    assert searcher.worker is None


def test_pondering_and_playout_limits_stay_on_one_core(searcher):
    p = Position.new(10, 10, 3, 3)
    assert searcher.search(p, Deadline(Limit(playouts=300))).playouts == 300
    assert searcher.sent == 0
    searcher.ponder(p.play(4), stop=lambda: False, limit=Limit(playouts=200))
    assert searcher.sent == 0


def test_make_searcher_uses_the_worker_only_with_two_cores_and_one_spare(monkeypatch):
    monkeypatch.setattr(fork, "spare_cores", lambda: 0)
    assert type(make_searcher(2, seed=1)) is MCTS
    monkeypatch.setattr(fork, "spare_cores", lambda: 1)
    assert type(make_searcher(1, seed=1)) is MCTS
    s = make_searcher(2, seed=1)
    try:
        assert type(s) is LeafParallelMCTS
    finally:
        s.stop_worker()


def test_the_process_searcher_uses_the_worker_unless_told_not_to(monkeypatch):
    from bot.__main__ import build_searcher, parse_args
    monkeypatch.setattr(fork, "spare_cores", lambda: 1)
    default = build_searcher(parse_args([]))
    try:
        assert type(default) is LeafParallelMCTS
    finally:
        default.stop_worker()
    assert type(build_searcher(parse_args(["--cores", "1"]))) is MCTS
    assert type(build_searcher(parse_args(["--playouts", "100"]))) is MCTS
    with pytest.raises(SystemExit):
        parse_args(["--cores", "3"])
