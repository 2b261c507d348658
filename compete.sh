#!/usr/bin/env bash
# Run a batch config (configs/arena.yaml by default) and print the tables at the end.
#   bash compete.sh                                  # our bot against the built-in ladder
#   bash compete.sh configs/course.yaml              # so/* against TestCases/* at 3 s
#   bash compete.sh [CONFIG] --rounds 10 -j 2 --time-limit 1 --seed 7 --output DIR
#   bash compete.sh [CONFIG] --cluster tcp://lab1:8786 --sprt 0 10   # Dask workers, docs/cluster.md
# Running the same command again resumes a batch that was cut short. Works from any directory;
# relative paths inside configs are relative to the repository root.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
config="$root/configs/arena.yaml"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  if [ -f "$1" ]; then  # relative to the caller's directory, else to the repository
    config="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  else
    config="$root/$1"
  fi
  shift
fi
py="$(bash "$root/scripts/bootstrap.sh")"
cd "$root"
export PATH="$root/.venv/bin:$PATH"  # `python` in player commands is the venv's
if [ ! -f build/opponents/uct.so ] && [ -f "$config" ] && grep -q "build/opponents/uct.so" "$config"; then
  bash "$root/compile.sh" --opponents-only
fi
exec "$py" -m arena run "$config" "$@"
