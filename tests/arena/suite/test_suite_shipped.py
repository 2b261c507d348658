"""The shipped suites (suites/, scripts/build_suites.py, `arena suite value`): every line is an
item a game reaches, checked by the referee's rules, each position once across the suites; a
sample of each exact suite's answers is proven again apart from the build
(tests/arena/suite/suite_reprove.py): a fresh solver a column, the short wins and losses by a
plain search on the referee's lists; the middle-game suite is of the middle game, every shape."""

import random
from pathlib import Path

import pytest
from suite_hand import ROOT
from suite_reprove import plain_plies, solved_values

from arena.suite.item import ValuedItem, read_items, read_suite

EXACT = ("public.jsonl", "selfplay.jsonl")
SUITES = [ROOT / "suites" / name for name in EXACT]
MIDDLE = ROOT / "suites" / "middle.jsonl"
SAMPLE = 40  # items a suite (all 511 take about 20 s)
NODES = 5_000_000  # a column's fresh solve; the build proved each within 100,000 (with a table)


def test_the_shipped_suites_hold_distinct_positions_of_every_shape():
    assert sorted(p.name for p in (ROOT / "suites").glob("*.jsonl")) == sorted(
        [*EXACT, MIDDLE.name])
    items = [item for path in SUITES for item in read_suite(path)]
    assert len({i.id for i in items}) == len(items)
    # the folder read whole: each position once across the exact and the valued suites
    assert len(read_items(ROOT / "suites")) == len(items) + len(read_items(MIDDLE))
    shapes = {(i.board.M, i.board.N) for i in read_suite(ROOT / "suites" / "selfplay.jsonl")}
    assert shapes == {(M, N) for M in range(9, 13) for N in range(9, 13)}


@pytest.mark.parametrize("path", SUITES, ids=lambda p: p.name)
def test_a_sample_of_each_shipped_suite_is_proven_again(path: Path):
    items = read_suite(path)
    sample = random.Random(path.name).sample(items, min(SAMPLE, len(items)))
    checked = 0
    for item in sample:
        assert solved_values(item, NODES) == {p.move: p.result for p in item.proofs}, item.id
        checked += plain_plies(item)
    assert checked >= SAMPLE  # each item has a short win or loss at least


def test_the_middle_suite_is_of_the_middle_game_on_every_shape():
    items = read_items(MIDDLE)
    assert len(items) >= 300 and all(isinstance(i, ValuedItem) for i in items)
    # plies 8 to 45; before the last third of the board's cells (levels L1 and L2)
    assert all(8 <= len(i.moves) <= 45 for i in items)
    early = sum(i.level[:2] in ("L1", "L2") for i in items)
    assert early >= 0.7 * len(items)
    assert {(i.board.M, i.board.N) for i in items} == {
        (M, N) for M in range(9, 13) for N in range(9, 13)}
