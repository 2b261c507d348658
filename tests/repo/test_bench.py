"""bench/ holds the few benchmarks a maintainer runs again: each one starts (its --help works
after every refactoring of what it measures) and docs/performance.md says what it measures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "bench").glob("*.py"))


def test_bench_holds_a_few_benchmarks():
    assert 0 < len(SCRIPTS) <= 9


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_each_benchmark_starts_and_is_documented(script):
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")
    assert f"bench/{script.name}" in (ROOT / "docs" / "performance.md").read_text()
