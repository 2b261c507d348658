"""Ratings of a pool of players, their bootstrap intervals and Spearman's rank correlation,
against results whose answer is known by hand (see the comments for the arithmetic)."""

import math
import random

import pytest

from arena.report.stats import (
    average_ranks,
    elo_bootstrap,
    elo_intervals,
    elo_ratings,
    percentile_interval,
    spearman,
)


def test_three_wins_in_four_are_about_191_elo():
    # score 3/4: 400 log10(0.75 / 0.25) = 400 log10(3) = 190.85; anchored at mean 0
    ratings = elo_ratings([("A", "B", 1.0)] * 3 + [("A", "B", 0.0)], prior=0.0)
    assert ratings["A"] - ratings["B"] == pytest.approx(190.85, abs=0.01)
    assert ratings["A"] + ratings["B"] == pytest.approx(0.0, abs=1e-9)


def test_a_draw_counts_half_a_win():
    # 2 wins and 2 draws score 3/4, as 3 wins and a loss do
    ratings = elo_ratings([("A", "B", 1.0)] * 2 + [("A", "B", 0.5)] * 2, prior=0.0)
    assert ratings["A"] - ratings["B"] == pytest.approx(190.85, abs=0.01)


def test_the_game_is_read_from_either_side():
    ratings = elo_ratings([("A", "B", 1.0)] * 3 + [("B", "A", 1.0)], prior=0.0)
    assert ratings["A"] - ratings["B"] == pytest.approx(190.85, abs=0.01)


def test_a_consistent_chain_is_fitted_exactly():
    # A-B and B-C at 3/4 (190.85 apart each), A-C at 9/10: 400 log10(9) = 381.70 = 2 x 190.85
    games = ([("A", "B", 1.0)] * 3 + [("A", "B", 0.0)] + [("B", "C", 1.0)] * 3
             + [("B", "C", 0.0)] + [("A", "C", 1.0)] * 9 + [("A", "C", 0.0)])
    ratings = elo_ratings(games, prior=0.0)
    assert ratings["A"] == pytest.approx(190.85, abs=0.01)
    assert ratings["B"] == pytest.approx(0.0, abs=0.01)
    assert ratings["C"] == pytest.approx(-190.85, abs=0.01)


def test_symmetric_results_rate_everyone_zero():
    games = [("A", "B", 1.0), ("B", "A", 1.0), ("B", "C", 0.5), ("C", "A", 1.0),
             ("A", "C", 1.0)]
    assert all(r == pytest.approx(0.0, abs=1e-9) for r in elo_ratings(games).values())


def test_the_prior_keeps_a_player_that_loses_everything_finite_and_last():
    # 4 losses and one virtual draw against the field (at 0): finite, and below the rest
    games = [("A", "B", 1.0)] * 4 + [("B", "C", 1.0)] * 3 + [("B", "C", 0.0)]
    ratings = elo_ratings(games, prior=1.0)
    assert all(math.isfinite(r) for r in ratings.values())
    assert ratings["A"] > ratings["B"] > ratings["C"]


def test_the_prior_pulls_towards_the_field():
    games = [("A", "B", 1.0)] * 3 + [("A", "B", 0.0)]
    assert 0 < elo_ratings(games, prior=1.0)["A"] < elo_ratings(games, prior=0.0)["A"]


def test_ratings_keep_the_order_of_true_strengths():
    rng = random.Random(5)
    truth = {"p0": 0, "p1": 300, "p2": 600, "p3": 900}
    games = []
    for a in truth:
        for b in truth:
            if a < b:
                p = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))  # a's expected score
                games += [(a, b, float(rng.random() < p)) for _ in range(200)]
    ratings = elo_ratings(games)
    assert sorted(ratings, key=ratings.get) == list(truth)


def test_bootstrap_intervals_hold_the_fit_and_repeat_with_the_seed():
    groups = [[("A", "B", 1.0), ("A", "B", 0.5)], [("A", "B", 1.0), ("A", "B", 0.0)],
              [("B", "C", 1.0), ("B", "C", 1.0)], [("A", "C", 1.0), ("A", "C", 0.5)]]
    fitted = elo_ratings([g for group in groups for g in group])
    samples = elo_bootstrap(groups, draws=200, seed=3)
    assert samples == elo_bootstrap(groups, draws=200, seed=3)
    intervals = elo_intervals(fitted, samples)
    for name, est in intervals.items():
        assert est.elo == fitted[name]
        assert est.low <= est.elo <= est.high
    assert intervals["A"].high > intervals["A"].low


def test_a_player_missing_from_a_sample_is_left_out_of_its_interval():
    intervals = elo_intervals({"A": 10.0, "B": -10.0}, [{"A": 5.0}, {"A": 15.0, "B": -15.0}])
    assert (intervals["A"].low, intervals["A"].high) == pytest.approx((5.25, 14.75))
    assert intervals["B"].low == intervals["B"].high == -15.0


def test_percentile_interval_interpolates():
    # 101 values 0..100: the 2.5% and 97.5% quantiles are 2.5 and 97.5
    assert percentile_interval([float(v) for v in range(101)]) == pytest.approx((2.5, 97.5))
    assert all(math.isnan(v) for v in percentile_interval([math.nan]))


def test_spearman_is_one_for_the_same_order_and_minus_one_reversed():
    assert spearman([1, 2, 3, 4], [10, 20, 35, 100]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [9, 7, 3, -1]) == pytest.approx(-1.0)


def test_ties_share_their_average_rank():
    assert average_ranks([3.0, 1.0, 3.0, 2.0]) == [3.5, 1.0, 3.5, 2.0]
    # ranks x (1, 2.5, 2.5, 4), y (1, 2, 3, 4): cov 4.5, var 4.5 and 5 -> 4.5 / sqrt(22.5)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(math.sqrt(0.9))


def test_spearman_is_unknown_when_one_side_is_all_tied():
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ValueError):
        spearman([1, 2], [1])
