"""bench/suite_strength.py: a tiny round robin through the arena and a hand-made suite report
make the table; the suite's figures, the rank agreement and the noise line on known inputs."""

import json

import pytest
from bench_scripts import load_script

strength = load_script("suite_strength")


def valued(given, low, high, best=0.5):
    return {"answered": 10, "given_away": {"mean": given, "low": low, "high": high},
            "best_share": {"share": best, "low": best - 0.1, "high": best + 0.1}}


def report(figures):
    return {"suite": "hand.jsonl", "positions": 10,
            "players": {name: {"solved": 0, "valued": v} for name, v in figures.items()}}


def test_a_tiny_round_robin_and_a_suite_report_make_the_table(monkeypatch, capsys, tmp_path):
    real = strength.arena
    asked = []

    def arena(*args, capture=False):
        if args[0] == "run":
            return real(*args, capture=capture)
        asked.append(args)
        return json.dumps(report({"random": valued(0.4, 0.3, 0.5),
                                  "greedy": valued(0.2, 0.15, 0.25),
                                  "heuristic": valued(0.05, 0.0, 0.1)}))

    monkeypatch.setattr(strength, "arena", arena)
    argv = ["--players", "random,greedy,heuristic", "--rounds", "1", "-j", "1", "--draws", "50",
            "-o", str(tmp_path)]
    strength.main(argv)
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    assert sorted(r.split(" | ")[0][2:] for r in rows[1:]) == ["greedy", "heuristic", "random"]
    assert all(r.split(" | ")[1] == "4" for r in rows[1:])  # 2 opponents x 1 board x 2 colours
    assert "Spearman (Elo, minus win chance given away) over 3 players" in out
    assert "--json" in asked[0] and str(tmp_path / "answers.jsonl") in asked[0]

    strength.main(argv)  # a second run resumes: no game is played again
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 6


def test_the_suite_report_is_read_per_player():
    figures = strength.valued_scores(report({"bot-1": valued(0.02, 0.01, 0.03, best=0.9)}))
    v = figures["bot-1"]
    assert (v.answered, v.given, v.given_low, v.given_high, v.best) == (10, 0.02, 0.01, 0.03, 0.9)
    assert v.spread == pytest.approx(0.01 / 1.959964)


def test_a_suite_without_valued_positions_stops_the_bench():
    with pytest.raises(SystemExit, match="no valued positions"):
        strength.valued_scores({"suite": "s", "players": {"random": {"solved": 3}}})


def test_players_ranked_alike_agree_fully():
    elo = {"a": 300.0, "b": 0.0, "c": -300.0}
    samples = [{"a": 310.0, "b": 5.0, "c": -290.0}, {"a": 250.0, "b": -20.0, "c": -350.0}]
    suite = strength.valued_scores(report({"a": valued(0.01, 0.0099, 0.0101),
                                           "b": valued(0.1, 0.0999, 0.1001),
                                           "c": valued(0.3, 0.2999, 0.3001)}))
    assert strength.rank_agreement(elo, samples, suite, seed=1) == pytest.approx((1, 1, 1))
    reversed_suite = {"a": suite["c"], "b": suite["b"], "c": suite["a"]}
    assert strength.rank_agreement(elo, samples, reversed_suite, seed=1)[0] == -1


def test_the_noise_line_weighs_budgets_against_runs():
    def figures(fast, fast_again, slow, slow_again):
        return strength.valued_scores(report({
            "bot-0.1": valued(fast, 0, 1), "bot-0.1-rerun": valued(fast_again, 0, 1),
            "bot-1": valued(slow, 0, 1), "bot-1-rerun": valued(slow_again, 0, 1)}))

    assert "more than a run's noise" in strength.noise_line(figures(0.10, 0.11, 0.05, 0.05))
    assert "not more than" in strength.noise_line(figures(0.10, 0.04, 0.08, 0.08))
    assert strength.noise_line(figures(0.1, 0.1, 0.1, 0.1)) is not None
    assert strength.noise_line({}) is None


def test_the_bots_speak_getpoint_on_the_suite_and_run_twice():
    specs = strength.suite_specs(["greedy", "mcts200", "bot-0.1", "bot-0.3"])
    assert list(specs) == ["greedy", "mcts200", "bot-0.1", "bot-0.1-rerun", "bot-0.3"]
    assert specs["mcts200"] == {"process": "python -m bot --protocol getpoint --playouts 200"}
    assert specs["bot-0.1"]["process"].endswith("--protocol getpoint --time 0.1 --seed 1")
    assert specs["bot-0.1-rerun"]["process"].endswith("--time 0.1 --seed 2")
    assert strength.spec("bot-1", getpoint=False) == {"process": "python -m bot --time 1"}


def test_unknown_players_are_refused():
    with pytest.raises(SystemExit):
        strength.parse_args(["--players", "random,nobody"])
    assert strength.parse_args([]).players == strength.PLAYERS  # ten players by default
    assert len(strength.PLAYERS) == 10
