"""Round robin between the opponent ladder's members, every member called in-process.

The arena (python -m arena roundrobin) runs members as configs name them; this script is the
ladder's self-check and runs variants a config cannot name: the Python members and our bot are
called in-process, the native UCT hosted as the arena hosts any `.so`, each as the arena's
player, with no time limit (devtools/round_robin.py). Prints each member's score against each
other member and its time a move. Members and bot variants: devtools/members.py, e.g.
random, uct-10k, bot-t2.4, bot:c=0.4:follow=0-3000.

    .venv/bin/python bench/ladder.py --rounds 10 -j 2 \
        --members random,greedy,heuristic,uct-1k,uct-10k

With --decisive ANNOTATED.jsonl (records from `python -m arena analyse`), no games are played:
each member moves in the position of every analysed loss's decisive mistake, and the forced-win
search (up to 15 plies, --proof-seconds each), then the exact solver (as long again), say
whether its move is proven lost (devtools/decisive.py; --kinds deep,zugzwang: the long games'
positions alone):

    .venv/bin/python bench/ladder.py --decisive docs/results/bot-losses-analysed.jsonl \
        --members bot-t2.4,bot:guard_depths=0-t2.4

With --ponder SECONDS the bot members reach each position as the process does: they search
the move before it, ponder SECONDS at the opponent's move, and move with the tree that leaves.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from devtools.decisive import decisive  # noqa: E402
from devtools.members import parse_member  # noqa: E402
from devtools.round_robin import round_robin  # noqa: E402
from opponents.build import native_uct  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", default="random,greedy,heuristic,uct-1k,uct-10k")
    parser.add_argument("--rounds", type=int, default=10, help="boards; each pair plays 2 a board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=1, help="games at once")
    parser.add_argument("--decisive", type=Path, metavar="ANNOTATED",
                        help="move at the decisive positions of these analysed losses instead")
    parser.add_argument("--proof-seconds", type=float, default=4.0,
                        help="the forced-win search's time for each move's verdict, and then "
                             "the solver's")
    parser.add_argument("--kinds", help="with --decisive: only the losses of these kinds "
                                        "(comma-separated: double threat, zugzwang, deep, ...)")
    parser.add_argument("--ponder", type=float, metavar="SECONDS",
                        help="with --decisive: bot members search the move before, ponder "
                             "this long, then move, as the process does")
    args = parser.parse_args()

    members = [parse_member(n) for n in args.members.split(",")]
    if any(m.kind == "uct" for m in members):
        native_uct()  # built once here, not by each worker at once
    if args.decisive is not None:
        decisive(args.decisive, members, args.proof_seconds, args.ponder,
                 args.kinds.split(",") if args.kinds else None)
        return
    round_robin(members, args.rounds, args.seed, args.jobs)


if __name__ == "__main__":
    main()
