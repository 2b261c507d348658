#!/usr/bin/env bash
# The test command: installs what it needs into .venv, checks style, types (mypy: pyproject.toml)
# and the submitted modules' Python 3.8 compatibility, then runs the whole test suite, listing
# each skip with its reason (tests/skips.py names the allowed ones; ARENA_NO_SKIPS=1 allows none).
# Extra arguments go to pytest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$root"
py="$(bash scripts/bootstrap.sh)"
"$py" -m ruff check .
"$py" -m mypy
"$(dirname "$py")/vermin" -q --no-tips --violations --eval-annotations -t=3.8- bot main.py
"$py" -m pytest -q -rs "$@"
