#!/usr/bin/env bash
# Create .venv beside the repository root with the locked versions (requirements.txt, generated
# from pyproject.toml by scripts/lock.sh) and the project itself installed in editable mode, so
# that .venv/bin/arena runs this checkout. Prints the venv's python path. Installs again when the
# lock or pyproject.toml changes. ARENA_PYTHON names the interpreter (default python3; it must be
# 3.11 or later: CI sets the lowest the arena declares).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
python="${ARENA_PYTHON:-python3}"
stamp="$venv/.installed.sha"
if [ -x "$venv/bin/python" ] && [ -n "${ARENA_PYTHON:-}" ] \
   && [ "$("$venv/bin/python" -c 'import sys; print(sys.version_info[:2])')" \
        != "$("$python" -c 'import sys; print(sys.version_info[:2])')" ]; then
  rm -rf "$venv"  # another interpreter asked for: a venv of its own
fi
if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "bootstrap.sh: $python is not Python 3.11 or later (the arena's bound); set ARENA_PYTHON" >&2
    exit 2
  fi
  "$python" -m venv "$venv" >&2
fi
# The digest of the lock and pyproject.toml, by Python's hashlib: the bootstrap needs python3 and
# the POSIX tools only, never GNU's coreutils (a Mac has none)
want="$("$venv/bin/python" -c 'import hashlib, sys
print(hashlib.sha256(b"".join(open(p, "rb").read() for p in sys.argv[1:])).hexdigest())' \
  "$root/requirements.txt" "$root/pyproject.toml")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$root/requirements.txt" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps -e "$root" >&2
  echo "$want" > "$stamp"
fi
echo "$venv/bin/python"
