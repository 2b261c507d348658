"""The second core: the helper process's answers join the main tree's, proofs from either tree
are kept, and a helper that dies, answers late or starves leaves a search that still plays a
legal move alone."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from botio import ROOT, read_frames

from bot.rules import LOSS, WIN, Position, bits
from bot.search import helper as helper_module
from bot.search.clock import Deadline, Limit
from bot.search.helper import HelpedMCTS, Helper, merged_move, searcher_for
from bot.search.mcts import MCTS


class Child:
    """A stand-in for a root child of the main tree."""

    def __init__(self, move: int, visits: int, outcome=None) -> None:
        self.move, self.visits, self.outcome = move, visits, outcome


def test_merged_move_adds_the_visits_of_both_trees():
    main = [Child(1, 50), Child(2, 40), Child(4, 10)]
    assert merged_move(main, [(1, 10, None), (2, 30, None), (8, 5, None)]) == (2, 70)
    assert merged_move(main, []) == (1, 50)
    assert merged_move([], [(8, 5, None), (4, 7, None)]) == (4, 7)  # only the helper expanded


def test_a_proof_in_either_tree_decides_the_move():
    main = [Child(1, 500), Child(2, 3)]
    assert merged_move(main, [(2, 1, LOSS)]) == (2, 4)  # the helper proved a win with 2
    assert merged_move(main, [(1, 10, WIN), (2, 20, None)]) == (2, 23)  # and 1 loses
    assert merged_move([Child(1, 500, WIN), Child(2, 3)], [(1, 900, None)]) == (2, 3)


@pytest.fixture
def helped():
    searcher = HelpedMCTS(seed=5)
    yield searcher
    searcher.stop_helper()


def test_a_helped_search_counts_the_helpers_visits(helped, monkeypatch):
    # On a busy machine the helper may answer after the usual wait; lateness has its own test.
    monkeypatch.setattr(helper_module, "WAIT", 5.0)
    p = Position.new(10, 11, 2, 6).play(5).play(5)
    result = helped.search(p, Deadline(Limit(0.4)))
    assert helped.helped == 1
    own = {c.move: c.visits for c in helped.tree.children}
    assert result.move & p.possible()
    assert result.visits > own.get(result.move, 0)  # the helper's visits were added
    # the next move starts from the helper's reused tree, and is joined again (fixed moves,
    # not the move played: a starved search may play one after which the root is proven)
    p = p.play(4).play(6)
    assert helped.search(p, Deadline(Limit(0.4))).move & p.possible()
    assert helped.helped == 2


def test_a_dead_helper_leaves_the_search_alone(helped):
    helped.helper.process.kill()
    helped.helper.process.join()
    p = Position.new(9, 9, 8, 0)
    result = helped.search(p, Deadline(Limit(0.3)))
    assert result.move & p.possible()
    assert helped.helper is None and helped.helped == 0
    assert helped.search(p, Deadline(Limit(0.2))).move & p.possible()  # alone from now on


def test_late_and_stale_answers():
    h = Helper(lambda: MCTS(seed=1))
    p = Position.new(9, 9, 4, 4)
    try:
        h.ask(p, -1.0)
        assert h.answer(5.0) == []  # read after its deadline: answered without a search
        h.ask(p, 0.2)
        assert h.answer(0.0) is None  # still searching: late
        assert h.answer(5.0)  # the same request's answer, once it comes
        h.ask(p, 0.3)
        h.ask(p.play(4), 0.6)  # read when the first ends, 0.3 s before its own deadline
        stats = h.answer(5.0)  # the first answer is stale and dropped
        assert stats and h.answer(0.5) is None
        assert {move for move, _, _ in stats} <= set(bits(p.play(4).possible()))
    finally:
        h.close()
    assert not h.process.is_alive()


def test_a_starved_main_process_switches_the_helper_off(helped, monkeypatch):
    monkeypatch.setattr(helper_module, "FULL_CORE", 2.0)  # no process gets two cores' time
    p = Position.new(9, 9, 0, 0)
    helped.search(p, Deadline(Limit(0.2)))
    assert helped.helper is not None
    helped.search(p, Deadline(Limit(0.2)))
    assert helped.helper is None


def test_searcher_for_uses_a_helper_only_when_asked_and_a_core_is_spare(monkeypatch):
    assert type(searcher_for(False, seed=1)) is MCTS
    monkeypatch.setattr(helper_module, "spare_cores", lambda: 0)
    assert type(searcher_for(True, seed=1)) is MCTS
    monkeypatch.setattr(helper_module, "spare_cores", lambda: 1)
    s = searcher_for(True, seed=1)
    try:
        assert type(s) is HelpedMCTS
    finally:
        s.stop_helper()


@pytest.mark.parametrize("flag", ["--helper", "--leaves"])
def test_the_bot_process_plays_and_exits_promptly(flag):
    """With its helper, or its leaf worker (bot.search.leaves), where a core is spare: neither
    may hold the game's pipes."""
    game = b"9 9 8 4\n-1 -1\n"
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "bot", "--time", "0.3", "--no-ponder", flag],
                          input=game, capture_output=True, cwd=ROOT, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert len(read_frames(proc.stdout)) == 1
    assert time.perf_counter() - started < 10  # nothing kept the pipes open after the game
