"""Builds the shipped suites (suites/, docs/suites.md) from the project's own records: the public
batches of docs/results/ and self-play on all 16 board shapes, every answer proven by
`arena suite build`. Each step resumes: a run again plays and proves only what is missing.

    .venv/bin/python scripts/build_suites.py              # about 15 minutes on two cores
    .venv/bin/python scripts/build_suites.py --boards 10  # more self-play: more positions

Self-play is the bot against itself at a fixed number of play-outs, seeded, so the same games
come out on every machine: on --boards boards of each shape (the forbidden cell drawn from a
seed), each played twice with the colours swapped, appended to
docs/results/selfplay-16-shapes.jsonl. Then suites/public.jsonl is built from the other
records of docs/results/ and suites/selfplay.jsonl from the self-play.
"""

import argparse
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.core.players import make_player  # noqa: E402
from arena.core.tasks import Task, play_task  # noqa: E402
from records.board import Board  # noqa: E402
from records.game import GameKey  # noqa: E402
from records.log import ResultLog, read_log  # noqa: E402

RESULTS = Path("docs/results")
SELFPLAY = RESULTS / "selfplay-16-shapes.jsonl"
PUBLIC = sorted(p for p in (ROOT / RESULTS).glob("*.jsonl") if p.name != SELFPLAY.name)
SIZES = range(9, 13)


def selfplay_tasks(boards: int) -> List[Task]:
    """Each shape's first ``boards`` boards, each with both colours: the same for every run."""
    tasks = []
    for M in SIZES:
        for N in SIZES:
            for k in range(boards):
                rng = random.Random(f"suite/{M}x{N}/{k}")
                board = Board(M, N, rng.randrange(M), rng.randrange(N))
                tasks += [Task(GameKey("selfplay", "bot", "twin", 100 * M + N, k, leg), board, 3.0)
                          for leg in (0, 1)]
    return tasks


def play(tasks: List[Task], playouts: int, jobs: int) -> None:
    """Plays the tasks the self-play log lacks, ``jobs`` at once, each appended as it ends."""
    log = ROOT / SELFPLAY
    done = {r.key for r in read_log(log)}
    todo = [t for t in tasks if t.key not in done]
    print(f"self-play: {len(tasks) - len(todo)} of {len(tasks)} games already in {SELFPLAY}",
          file=sys.stderr)
    lock = threading.Lock()

    def worker() -> None:
        argv = ["python", "-m", "bot", "--playouts", str(playouts)]
        players = {"bot": make_player("bot", {"process": [*argv, "--seed", "1"]}),
                   "twin": make_player("twin", {"process": [*argv, "--seed", "2"]})}
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    task = todo.pop(0)
                record = play_task(players, task)
                with lock, ResultLog(log) as out:
                    out.append(record)
        finally:
            for player in players.values():
                player.close()

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def build(logs: List[Path], suite: str, args: argparse.Namespace) -> None:
    """`arena suite build` of ``logs`` into ``suite``; exits as it does when it fails."""
    argv = [sys.executable, "-m", "arena", "suite", "build", *map(str, logs), "-o", suite,
            "--nodes", str(args.nodes), "--seconds", str(args.seconds), "-j", str(args.jobs)]
    print("$ " + " ".join(argv[1:]), file=sys.stderr)
    done = subprocess.run(argv, cwd=ROOT)
    if done.returncode:
        sys.exit(done.returncode)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=5,
                        help="self-play boards of each shape, each played twice (default 5)")
    parser.add_argument("--playouts", type=int, default=400,
                        help="the self-playing bot's play-outs a move (default 400)")
    parser.add_argument("--nodes", type=int, default=100_000,
                        help="the solver's node budget of a position (default 100000)")
    parser.add_argument("--seconds", type=float, default=0.25,
                        help="each forced-win question's seconds (default 0.25)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="at once (default 2)")
    args = parser.parse_args()
    play(selfplay_tasks(args.boards), args.playouts, args.jobs)
    build([p.relative_to(ROOT) for p in PUBLIC], "suites/public.jsonl", args)
    build([SELFPLAY], "suites/selfplay.jsonl", args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
