"""`python -m arena` and compete.sh as a user runs them."""

import json
import os
import subprocess
import sys
from pathlib import Path

from devtools.terminal import run_on_a_terminal

ROOT = Path(__file__).resolve().parents[3]
GREEDY = "g=opponents.greedy:get_point"
RANDOM = "r=opponents.random_player:get_point"


def arena(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "arena", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_config_error_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rounds: two\nroundrobin: [a]\n")
    done = arena("run", bad)
    assert done.returncode == 2
    assert done.stderr == f"arena: {bad}: rounds: expected int, got 'two'\n"


def test_gauntlet_from_the_command_line_ends_with_the_tables(tmp_path):
    out = tmp_path / "out"
    done = arena("gauntlet", GREEDY, RANDOM, "--rounds", 2, "-j", 1, "--output", out)
    assert done.returncode == 0, done.stderr
    assert "4/4" not in done.stderr  # no progress bar in a redirected log
    status, _, shown = run_on_a_terminal(
        [sys.executable, "-m", "arena", "gauntlet", GREEDY, RANDOM, "--rounds", "2", "-j", "1",
         "--output", str(tmp_path / "again")], ROOT)
    assert status == 0 and "4/4" in shown  # on a terminal, the bar reached the end
    lines = done.stdout.splitlines()
    assert lines[0] == "stat" and lines[2].split()[0] == "g"
    assert (out / "g_r.txt").exists() and (out / "stat.txt").exists()


def test_watched_game_draws_the_board_after_each_move(tmp_path):
    done = arena("game", GREEDY, RANDOM, "--board", 9, 9, 8, 0, "--watch", "--time", 1)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["board"] == [9, 9, 8, 0] and summary["first"] == "a"
    boards = done.stdout.count("\n    0  1  2  3  4  5  6  7  8")
    assert boards == summary["plies"] > 0
    assert " 8  # " in done.stdout  # the forbidden cell, bottom row, first column


def test_compete_sh_runs_a_config_from_another_directory_with_overrides(tmp_path):
    cfg = tmp_path / "mini.yaml"
    out = tmp_path / "res"
    cfg.write_text("batch: mini\nrounds: 9\ntime_limit: 1\nplayers:\n"
                   "  g: {python: 'opponents.greedy:get_point'}\n"
                   "  r: {python: 'opponents.random_player:get_point'}\n"
                   "gauntlet: {a: [g], b: [r]}\n")
    done = subprocess.run(["bash", str(ROOT / "compete.sh"), "mini.yaml", "--rounds", "1",
                           "--output", str(out)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "per opponent" in done.stdout
    assert len((out / "g_r.txt").read_text().split("\n\n")) == 2  # one round, then Stat


def test_compete_sh_with_a_missing_config_prints_the_arenas_line_only(tmp_path):
    done = subprocess.run(["bash", str(ROOT / "compete.sh"), "nofile.yaml"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    missing = ROOT / "nofile.yaml"
    assert done.stderr == f"arena: {missing}: cannot read (No such file or directory)\n"


def test_player_names_the_course_files_cannot_hold_are_refused_with_the_reason(tmp_path):
    done = arena("gauntlet", "my_bot=opponents.greedy:get_point", RANDOM, "--output", tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "'my_bot'" in done.stderr
    assert "<A>_<B>.txt" in done.stderr
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_stat_py_prints_no_library_chatter_on_a_first_run(tmp_path):
    """A fresh matplotlib cache makes matplotlib log that it built its font list; the user
    sees only stat.py's own lines."""
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "games.jsonl").write_text(
        (ROOT / "docs" / "results" / "python-opponents-2.4s.jsonl").read_text())
    env = dict(os.environ, MPLCONFIGDIR=str(tmp_path / "mpl"))
    done = subprocess.run([sys.executable, str(ROOT / "stat.py"), str(folder)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "mpl").is_dir()  # matplotlib did build its cache there
    assert done.stderr == f"plots: {folder / 'score.png'}, {folder / 'times.png'}\n"
    assert "font" not in done.stdout.lower()


def command_parsers():
    """Every command's parser by name: the arena's subcommands, and the one that parses its
    own arguments (analyse)."""
    import argparse

    from analysis.command import build_parser as analyse_parser
    from arena.__main__ import build_parser

    top = build_parser()
    [sub] = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    parsers = {name: p for name, p in sub.choices.items() if name != "analyse"}
    return {"arena": top, **parsers, "analyse": analyse_parser()}


def test_every_option_has_help_with_its_default_and_a_shared_flag_means_one_thing():
    meaning = {}  # option string -> (command, dest, nargs, whether it takes a value)
    for name, parser in command_parsers().items():
        text = parser.format_help()
        for action in parser._actions:
            if not action.option_strings or action.dest in ("help", "version"):
                continue
            assert action.help, f"{name} {action.option_strings}: no help text"
            takes = action.nargs != 0
            shown = action.default not in (None, False, "==SUPPRESS==")
            if shown:  # the default is said, by the formatter or the text itself
                assert "default" in action.help or "(default: " in text, (name, action.dest)
            for flag in action.option_strings:
                seen = meaning.setdefault(flag, (name, action.dest, action.nargs, takes))
                assert seen[1:] == (action.dest, action.nargs, takes), (flag, seen[0], name)
    assert meaning["-o"][1] == "output" and meaning["-j"][1] == "jobs"
    assert {flag for flag in meaning if flag.startswith("--out")} == {"--output"}


def test_version_and_v_and_q_before_or_after_the_command():
    from arena import __version__
    from arena.__main__ import build_parser

    done = arena("--version")
    assert done.returncode == 0 and done.stdout.strip().endswith(__version__)
    parse = build_parser().parse_args
    assert parse(["-v", "gauntlet", "a", "b"]).verbose
    assert parse(["gauntlet", "a", "b", "-v"]).verbose
    assert not parse(["gauntlet", "a", "b"]).verbose
    assert parse(["-q", "run"]).quiet and parse(["run", "-q"]).quiet
    assert parse(["view", "x.jsonl", "-o", "p.html"]).output == Path("p.html")
