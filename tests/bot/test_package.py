"""The submission zip runs alone: unzipped into an empty folder, the project not importable,
``python main.py`` plays a whole game on the platform protocol."""

from __future__ import annotations

import glob
import os
import random
import shutil
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from plain_referee import PlainGame
from skips import skip_if

ROOT = Path(__file__).resolve().parents[2]


def build_zip(tmp_path: Path) -> Path:
    out = tmp_path / "dist" / "bot.zip"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "package_bot.py"), "--out", str(out)],
                   check=True, capture_output=True)
    return out


def test_zip_holds_main_and_only_the_modules_the_bot_runs(tmp_path):
    names = zipfile.ZipFile(build_zip(tmp_path)).namelist()
    assert "main.py" in names and "bot/__init__.py" in names and "bot/rules.py" in names
    assert "bot/search/mcts.py" in names and "bot/protocol/platform.py" in names
    assert "bot/search/__init__.py" in names and "bot/search/tactics.py" in names
    assert "bot/search/solver.py" not in names  # only the loss analysis uses it
    # imported only inside main's --analyse branch, and shipped all the same
    assert "bot/protocol/analyse.py" in names and "bot/search/report.py" in names
    assert not [n for n in names if "pycache" in n or n.startswith("tests") or
                not n.endswith(".py")]


def read_frame(stream) -> tuple:
    (n,) = struct.unpack(">I", stream.read(4))
    x, y = stream.read(n).decode("ascii").split(" ")
    return int(x), int(y)


def python38() -> str:
    """A Python 3.8 interpreter if this machine has one (the oldest the platform may run)."""
    for cand in [shutil.which("python3.8"), *glob.glob(os.path.expanduser(
            "~/.pyenv/versions/3.8*/bin/python3.8"))]:
        if cand and subprocess.run([cand, "-c", "import sys; assert sys.version_info[:2] == "
                                    "(3, 8)"], capture_output=True).returncode == 0:
            return cand
    return ""


PY38 = python38()
INTERPRETERS = [pytest.param(sys.executable, id="venv"),
                pytest.param(PY38, id="python3.8", marks=skip_if(not PY38, "no Python 3.8"))]


@pytest.mark.parametrize("python", INTERPRETERS)
def test_unzipped_main_plays_a_whole_game_without_the_project(tmp_path, python):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    zipfile.ZipFile(build_zip(tmp_path)).extractall(run_dir)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["BOT_TIME"] = "0.05"
    probe = subprocess.run([python, "-c", "import bot; print(bot.__file__)"],
                           cwd=run_dir, env=env, capture_output=True, text=True, check=True)
    assert Path(probe.stdout.strip()).parent == run_dir / "bot"  # not the project's copy

    rng = random.Random(4)
    game = PlainGame(10, 12, 9, 6)
    proc = subprocess.Popen([python, "main.py"], cwd=run_dir, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"10 12 9 6\n")
        last = (-1, -1)
        replies = []  # seconds from each request to its reply
        while True:
            started = time.perf_counter()
            proc.stdin.write(f"{last[0]} {last[1]}\n".encode())
            proc.stdin.flush()
            x, y = read_frame(proc.stdout)
            replies.append(time.perf_counter() - started)
            assert game.legal(x, y), (game.moves, (x, y))
            if game.play(x, y) or not game.legal_moves():
                break
            last = rng.choice(game.legal_moves())
            if game.play(*last) or not game.legal_moves():
                break
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        assert proc.stdout.read() == b""  # nothing but replies on stdout
        assert proc.stderr.read() == b""
    finally:
        proc.kill()
        proc.wait()
    assert len(game.moves) >= 7
    # A generous fault limit, not a benchmark. The first reply also waits for the interpreter
    # to start, however long a loaded machine takes (the bot charges that to its own clock:
    # test_protocols.py's test_bot_time_environment_sets_the_budget_and_is_checked).
    assert max(replies[1:]) < 2.8, replies
