#!/usr/bin/env bash
# Create .venv beside the repository root and install requirements.txt into it, once.
# Prints the venv's python path. Re-installs when requirements.txt changes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.requirements.sha"
want="$(sha256sum "$root/requirements.txt" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" >&2
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$root/requirements.txt" >&2
  echo "$want" > "$stamp"
fi
echo "$venv/bin/python"
