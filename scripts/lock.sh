#!/usr/bin/env bash
# Regenerate requirements.txt, the lock, from pyproject.toml (its dependencies and the extras
# dev, plots and cluster) with uv, for every Python from the arena's lowest (3.11) on and every
# platform (--universal: markers where a package is needed on some only). Run it after changing
# a dependency in pyproject.toml, then run the tests; bootstrap.sh and CI install the lock.
# uv comes from PyPI into a throwaway environment, so nothing is installed beside the project.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools/venv"
"$tools/venv/bin/python" -m pip install -q --disable-pip-version-check uv
cd "$root"
"$tools/venv/bin/uv" pip compile pyproject.toml --universal --python-version 3.11 \
  --extra dev --extra plots --extra cluster --no-emit-package connect4-arena \
  --custom-compile-command "bash scripts/lock.sh" -q -o requirements.txt
