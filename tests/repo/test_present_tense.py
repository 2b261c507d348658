"""The repository speaks in the present tense: no commit hashes, numbered sessions or batch
nicknames in what users read (help texts, docs, code). History belongs in git log and
CHANGELOG.md; the game records in docs/results/ keep the batch names they were played under."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from skips import skip

ROOT = Path(__file__).resolve().parents[2]
HEX = re.compile(r"\b[0-9a-f]{7,40}\b")
HISTORY = re.compile(
    r"\b(?:(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh"
    r"|twelfth|thirteenth|\d+(?:st|nd|rd|th)) session|session \d+|final\d+(?:-1s)?"
    r"|the play of|previously|no longer|used to|(?:the )?default since)\b", re.IGNORECASE)
EXEMPT = ("CHANGELOG.md", "docs/results/", "tests/bot/data/")
HELP_COMMANDS = [
    ["-m", "bot", "--help"],
    ["-m", "arena", "--help"],
    *(["-m", "arena", sub, "--help"]
      for sub in ("run", "gauntlet", "roundrobin", "game", "stat", "view", "play", "compare")),
    ["stat.py", "--help"],
]


def looks_like_a_hash(token: str) -> bool:
    """Hex with both digits and letters: a decimal number or a plain word is not a hash."""
    return bool(re.search(r"\d", token)) and bool(re.search(r"[a-f]", token))


def history_in(text: str) -> List[str]:
    return [m.group(0) for m in HISTORY.finditer(text)] + [
        t for t in HEX.findall(text) if looks_like_a_hash(t)]


def test_the_check_catches_what_it_is_for():
    assert history_in("the play of abc1234 (final8, the sixth session)") == [
        "the play of", "final8", "sixth session", "abc1234"]
    assert history_in("seed 2026, 1000 play-outs, 0.5 s, a deadbeef cafe") == []


@pytest.mark.parametrize("args", HELP_COMMANDS, ids=" ".join)
def test_help_texts_tell_no_history(args):
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert history_in(done.stdout) == []


def tracked_files() -> List[Path]:
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                               check=True, timeout=60).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        skip("not a git checkout")
    return [ROOT / n for n in names if not n.startswith(EXEMPT)
            and n.endswith((".py", ".md", ".yaml", ".sh", ".js", ".html", ".cpp", ".c", ".toml"))]


def test_no_commit_of_this_repository_is_quoted_outside_the_changelog_and_records():
    commits = subprocess.run(["git", "rev-list", "--all"], cwd=ROOT, capture_output=True,
                             text=True, timeout=60).stdout.split()
    quoted = []
    for path in tracked_files():
        for token in HEX.findall(path.read_text(errors="replace")):
            if looks_like_a_hash(token) and any(c.startswith(token) for c in commits):
                quoted.append(f"{path.relative_to(ROOT)}: {token}")
    assert quoted == []


def test_no_numbered_sessions_or_batch_nicknames_in_the_tree():
    found = []
    for path in tracked_files():
        if path == Path(__file__).resolve():
            continue
        for line_no, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            hits = [m.group(0) for m in HISTORY.finditer(line)]
            if hits:
                found.append(f"{path.relative_to(ROOT)}:{line_no}: {hits}")
    assert found == []
