#!/usr/bin/env bash
# Run a command on whatever CPU a timed batch leaves idle, e.g. a fixed-play-out ladder beside
# a full-budget gauntlet:  bash scripts/background.sh .venv/bin/python bench/ladder.py ...
#
# `nice` alone is not enough on Linux with autogroup scheduling (sched_autogroup_enabled=1):
# CPU is shared fairly between sessions first, and a nice value only ranks processes inside
# one session. The arena starts every player in a session of its own, so a niced job started
# elsewhere still takes a fair share from the players (measured: two niced ladder processes
# held 28% of a core each against two bots at 69%). This starts the command in a new session
# and sets that session's autogroup to nice 19 (the bots then got 98.5% each).
#
# It covers the command and the processes it starts in its session. A process that starts a
# session of its own gets a new autogroup at nice 0 and competes with the bots as an equal: the
# arena starts every player that way, so an arena batch or the test suite (its arena tests and
# the soak start players) is not background work; run those when no timed batch runs.
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/background.sh COMMAND [ARG...]" >&2
  exit 2
fi
if ! command -v setsid > /dev/null; then  # not Linux: no autogroups either
  exec nice -n 19 "$@"
fi
exec setsid --wait bash -c '
  if [ -w /proc/self/autogroup ]; then echo 19 > /proc/self/autogroup; fi
  exec nice -n 19 "$@"' background "$@"
