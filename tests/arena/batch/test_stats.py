"""Statistics against figures worked out by hand (see the comments for the arithmetic)."""

import math

import pytest

from arena.report.stats import WDL, elo_estimate, elo_from_score, pentanomial, score_from_elo, sprt


def test_points_are_two_for_a_win_one_for_a_draw():
    assert WDL(3, 2, 5).points == 8
    assert WDL(3, 2, 5).score == pytest.approx(0.4)


def test_elo_of_a_76_percent_score_is_about_200():
    # 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.316228) = 0.759747
    assert score_from_elo(200) == pytest.approx(0.759747, abs=1e-6)
    assert elo_from_score(0.759747) == pytest.approx(200, abs=0.01)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_elo_interval_matches_hand_computation():
    # 6 wins, 2 draws, 2 losses: s = 0.7, elo = -400 log10(1/0.7 - 1) = 147.19.
    # per-game variance = (6*0.3^2 + 2*0.2^2 + 2*0.7^2) / 10 = 0.16; se = sqrt(0.016) = 0.126491
    # s +- 1.96 se = 0.452077 .. 0.947923 -> -33.40 .. 504.03 Elo
    est = elo_estimate(WDL(6, 2, 2))
    assert est.elo == pytest.approx(147.19, abs=0.01)
    assert est.low == pytest.approx(-33.40, abs=0.01)
    assert est.high == pytest.approx(504.03, abs=0.01)
    assert elo_estimate(WDL()) is None


def test_elo_interval_is_unknown_when_every_game_ended_alike():
    est = elo_estimate(WDL(5, 0, 0))
    assert est.elo == math.inf and math.isnan(est.low) and math.isnan(est.high)
    assert elo_estimate(WDL(0, 4, 0)).elo == 0.0


def test_pentanomial_counts_pair_scores():
    assert pentanomial([0.5, 1.0, 0.75, 0.5]) == (0, 0, 2, 1, 1)
    with pytest.raises(ValueError):
        pentanomial([0.3])


def test_sprt_llr_matches_hand_computation():
    # pairs (0, 0, 2, 6, 2): mean 0.75, variance (2*0.0625 + 2*0.0625) / 10 = 0.025
    # s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514386
    # LLR = 10 * 0.014386 * (1.5 - 1.014386) / (2 * 0.025) = 1.3972
    res = sprt((0, 0, 2, 6, 2), 0, 10)
    assert res.llr == pytest.approx(1.3972, abs=1e-3)
    assert res.upper == pytest.approx(math.log(0.95 / 0.05))
    assert res.lower == pytest.approx(math.log(0.05 / 0.95))
    assert res.verdict == "continue"


def test_sprt_accepts_h1_after_enough_pairs_and_h0_when_losing():
    # three times the pairs: three times the LLR, 4.19 > 2.944
    assert sprt((0, 0, 6, 18, 6), 0, 10).verdict == "accept"
    # mean 0.25: LLR = 10 * 0.014386 * (0.5 - 1.014386) / 0.05 = -1.480 per 10 pairs
    assert sprt((2, 6, 2, 0, 0), 0, 10).llr == pytest.approx(-1.480, abs=1e-3)
    assert sprt((4, 12, 4, 0, 0), 0, 10).verdict == "reject"
    assert sprt((0, 0, 0, 0, 0), 0, 10).verdict == "continue"
