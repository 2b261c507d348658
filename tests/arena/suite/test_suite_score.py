"""A suite run's score of valued items: each answer's win chance given away (a fault gives away
the most), the share of best moves, each with a 95% interval that brackets it; the JSON report's
``valued`` object beside the exact items' counts, which stay over the exact items alone."""

import math

import hand_puzzles
import pytest
from test_suite_item_valued import CLEAR, columns, valued

from arena.suite.run import Answer
from arena.suite.score import as_json, markdown, mean_interval, wilson

CLOSE_CALL = columns((0.30, 0.31), (0.80, 0.81), *[(0.5, 0.5)] * 7)


def answer(item, player: str, move, fault=None, seconds=0.1) -> Answer:
    return Answer(item.id, player, {}, None, move, move == item.answer and fault is None,
                  seconds, fault)


def test_the_mean_interval_is_the_normal_approximation_over_positions():
    found = mean_interval([0.0, 0.1, 0.2, 0.3])
    half = 1.96 * math.sqrt(sum((x - 0.15) ** 2 for x in [0.0, 0.1, 0.2, 0.3]) / 3) / 2
    assert found == {"mean": 0.15, "low": round(0.15 - half, 4), "high": round(0.15 + half, 4)}
    assert mean_interval([0.0, 0.0, 0.6])["low"] == 0.0  # kept within 0..1
    assert mean_interval([0.2, 0.2]) == {"mean": 0.2, "low": 0.2, "high": 0.2}
    assert mean_interval([0.3]) == {"mean": 0.3, "low": 0.0, "high": 1.0}
    assert mean_interval([])["mean"] is None


def test_the_best_share_has_wilsons_interval():
    found = wilson(8, 10)  # the textbook case: 0.8, 95% interval 0.490 to 0.943
    assert found["share"] == 0.8
    assert found["low"] == pytest.approx(0.4902, abs=1e-4)
    assert found["high"] == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 5)["low"] == 0.0 and 0 < wilson(0, 5)["high"] < 0.5
    assert wilson(5, 5)["high"] == 1.0 and wilson(0, 0)["share"] is None


def test_a_players_given_away_and_best_share_come_from_the_columns_values(tmp_path):
    exact = hand_puzzles.items()
    one, two = valued(CLEAR), valued(CLOSE_CALL, hand_puzzles.HOLD[:10])
    items = [*exact, one, two]
    second_best = CLEAR[2].move  # 0.51 against the best's 0.62
    answers = {(one.id, "a"): answer(one, "a", one.answer),
               (two.id, "a"): answer(two, "a", CLOSE_CALL[0].move),  # the worst: 0.805 - 0.305
               (one.id, "b"): answer(one, "b", second_best),
               (two.id, "b"): answer(two, "b", two.answer, fault="timeout", seconds=3.0),
               (exact[0].id, "a"): answer(exact[0], "a", exact[0].answer)}
    report = as_json("s", items, ["a", "b"], answers)
    assert report["positions"] == 2 and report["valued_positions"] == 2
    a, b = report["players"]["a"], report["players"]["b"]
    assert (a["solved"], a["answered"]) == (1, 1) and (b["solved"], b["answered"]) == (0, 0)
    away_a, away_b = a["valued"]["given_away"], b["valued"]["given_away"]
    assert set(a["valued"]) >= {"answered", "given_away", "best_share"}
    assert set(away_a) == {"mean", "low", "high"}
    assert set(a["valued"]["best_share"]) == {"share", "low", "high"}
    assert a["valued"]["answered"] == 2 and away_a["mean"] == pytest.approx((0 + 0.5) / 2)
    # a timeout gives away the most there is, whatever move came with it
    assert away_b["mean"] == pytest.approx((0.62 - 0.51 + 0.805 - 0.305) / 2)
    for away in (away_a, away_b):
        assert away["low"] <= away["mean"] <= away["high"]
    assert a["valued"]["best_share"]["share"] == 0.5 and b["valued"]["best_share"]["share"] == 0
    share = b["valued"]["best_share"]
    assert share["low"] <= share["share"] <= share["high"]
    assert b["valued"]["faults"] == {"timeout": 1} and b["valued"]["max_seconds"] == 3.0
    text = "\n".join(markdown("s", items, ["a", "b"], answers))
    assert "## Valued positions (2)" in text and "| a | 2/2 | 0.250 (" in text
    assert "| b | 2/2 | 0.305 (" in text and "timeout 1 |" in text


def test_a_run_of_exact_items_alone_says_nothing_of_valued_ones():
    exact = hand_puzzles.items()
    report = as_json("s", exact, ["a"], {(exact[0].id, "a"): answer(exact[0], "a", None)})
    assert set(report) == {"suite", "positions", "players"}
    assert "valued" not in report["players"]["a"]
    assert "Valued" not in "\n".join(markdown("s", exact, ["a"], {}))
