#!/usr/bin/env bash
# Build what the batches need, as the course's compile.sh does and more:
#   Sourcecode/<id>/*.cpp  -> so/<id>.so            (the course's flags; one library per id)
#   opponents/uct.cpp      -> build/opponents/uct.so (the native ladder opponent)
#   the bot                -> dist/bot.zip           (scripts/package_bot.py)
# `--opponents-only` builds just the native opponents. Works from any directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$root"
flags=(-std=c++11 -O2 -fpic -shared)
failed=0
if [ "${1:-}" != "--opponents-only" ] && [ -d Sourcecode ]; then
  mkdir -p so
  for dir in Sourcecode/*/; do
    id="$(basename "$dir")"
    sources=("$dir"*.cpp)
    if [ ! -e "${sources[0]}" ]; then
      echo "compile.sh: $dir has no .cpp file, skipped" >&2
      continue
    fi
    if g++ "${flags[@]}" -I"$dir" "${sources[@]}" -o "so/$id.so"; then
      echo "so/$id.so"
    else
      echo "compile.sh: $id failed to build" >&2
      failed=1
    fi
  done
fi
mkdir -p build/opponents
g++ "${flags[@]}" opponents/uct.cpp -o build/opponents/uct.so
echo "build/opponents/uct.so"
if [ "${1:-}" != "--opponents-only" ]; then
  py="$(bash "$root/scripts/bootstrap.sh")"
  "$py" scripts/package_bot.py
fi
exit "$failed"
