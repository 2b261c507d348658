#!/usr/bin/env bash
# Build what the batches need, as the course's compile.sh does and more:
#   Sourcecode/<id>/*.cpp  -> so/<id>.so            (the course's flags; one library per id)
#   (both through opponents/build.py, the one place that names the compiler and its flags)
#   opponents/uct.cpp      -> build/opponents/uct.so (the native ladder opponent)
#   the bot                -> dist/bot.zip           (scripts/package_bot.py)
#   bash compile.sh                      all three, Sourcecode/ and so/ beside this script
#   bash compile.sh --opponents-only     just the native opponents
#   bash compile.sh --course DIR         just DIR/Sourcecode/<id>/ -> DIR/so/<id>.so (a course
#                                        folder kept elsewhere; tests/scripts/test_compile.py)
# A source that does not build is named on stderr, its old so/<id>.so is removed, the others
# still build, and the exit status is 1. Works from any directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build=(python3 "$root/opponents/build.py")
course="$root"
what=all
case "${1:-}" in
  "") ;;
  --opponents-only) what=opponents ;;
  --course)
    course="$(cd "${2:?compile.sh: --course needs a folder}" && pwd)"
    what=course ;;
  *) echo "usage: bash compile.sh [--opponents-only | --course DIR]" >&2; exit 2 ;;
esac
failed=0
if [ "$what" != opponents ] && [ -d "$course/Sourcecode" ]; then
  cd "$course"
  mkdir -p so
  shopt -s nullglob
  for dir in Sourcecode/*/; do
    id="$(basename "$dir")"
    sources=("$dir"*.cpp)
    if [ "${#sources[@]}" -eq 0 ]; then
      echo "compile.sh: $dir has no .cpp file, skipped" >&2
      continue
    fi
    if ! "${build[@]}" "so/$id.so" "${sources[@]}"; then
      rm -f "so/$id.so"  # never let a batch play the library of an older source
      echo "compile.sh: $id failed to build" >&2
      failed=1
    fi
  done
  shopt -u nullglob
fi
cd "$root"
if [ "$what" != course ]; then
  "${build[@]}" build/opponents/uct.so opponents/uct.cpp
fi
if [ "$what" = all ]; then
  py="$(bash "$root/scripts/bootstrap.sh")"
  "$py" scripts/package_bot.py
fi
exit "$failed"
