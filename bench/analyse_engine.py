"""The analysis engine's responsiveness and a game review's cost (`python -m bot --analyse`).

One engine process reviews a recorded game: every position before a move, from the empty
board on, analysed at a fixed budget, one request after another (each position a child of the
last, so the tree searched carries over). It prints the time from a request to its first
update (median and largest; the first request's apart, as it waits for the process to
start), the seconds a position (a position proven early ends early), and, from one analysis
without a budget of the game's position after four moves, stopped after --watch seconds,
the updates a second and the largest gap between two updates.

    python bench/analyse_engine.py [RECORDS.jsonl] [--game K] [--seconds 0.5] [--cores 1]

The game is the K-th shortest of the file (default: the shortest; the file defaults to
docs/results/partner-2.4s-seed2039.jsonl).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "docs" / "results" / "partner-2.4s-seed2039.jsonl"
WATCH_PLY = 4  # the position watched: early enough that no proof ends its analysis


class Engine:
    """One `python -m bot --analyse` process, read line by line."""

    def __init__(self, cores: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "--analyse", "--cores", str(cores)], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, request: dict) -> float:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def line(self) -> Tuple[float, dict]:
        text = self.proc.stdout.readline()
        if not text:
            raise SystemExit("the engine ended early")
        return time.perf_counter(), json.loads(text)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def review(engine: Engine, game: dict, seconds: float) -> Tuple[List[float], float, int]:
    """Each position of ``game`` at ``seconds``: the times to first update, the wall time,
    the positions."""
    board = {"M": game["M"], "N": game["N"], "no": [game["no_x"], game["no_y"]]}
    firsts = []
    started = time.perf_counter()
    for ply in range(len(game["moves"])):
        sent = engine.send(dict(board, moves=game["moves"][:ply], seconds=seconds))
        arrived, line = engine.line()
        firsts.append(arrived - sent)
        while not line["done"]:
            line = engine.line()[1]
    return firsts, time.perf_counter() - started, len(game["moves"])


def watch(engine: Engine, game: dict, seconds: float) -> Tuple[float, float]:
    """An analysis without a budget of the game's position after WATCH_PLY moves, stopped
    after ``seconds``: updates a second and the largest gap between two, in seconds."""
    sent = engine.send({"M": game["M"], "N": game["N"], "no": [game["no_x"], game["no_y"]],
                        "moves": game["moves"][:WATCH_PLY]})
    updates: List[float] = []
    stopped = False
    while True:
        arrived, line = engine.line()
        if line["done"]:
            break
        updates.append(arrived)
        if not stopped and arrived - sent >= seconds:
            engine.send({"stop": True})
            stopped = True
    gaps = [b - a for a, b in zip(updates, updates[1:])]
    return len(gaps) / (updates[-1] - updates[0]), max(gaps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="?", type=Path, default=RECORDS)
    parser.add_argument("--game", type=int, default=0, help="the K-th shortest game (0)")
    parser.add_argument("--seconds", type=float, default=0.5, help="budget a position")
    parser.add_argument("--watch", type=float, default=5.0,
                        help="seconds of the analysis without a budget")
    parser.add_argument("--cores", type=int, choices=(1, 2), default=1)
    args = parser.parse_args()
    games = sorted((json.loads(line) for line in args.records.read_text().splitlines()
                    if line.strip()), key=lambda g: len(g["moves"]))
    game = games[args.game]
    engine = Engine(args.cores)
    try:
        firsts, wall, positions = review(engine, game, args.seconds)
        rate, gap = watch(engine, game, args.watch)
    finally:
        engine.close()
    print(f"game: {args.records.name}, {game['M']}x{game['N']}, {positions} moves; "
          f"--cores {args.cores}")
    print(f"first update after a request: median {statistics.median(firsts[1:]) * 1000:.1f} "
          f"ms, largest {max(firsts[1:]) * 1000:.1f} ms; the first request's (the process's "
          f"start-up included) {firsts[0] * 1000:.1f} ms")
    print(f"review at {args.seconds} s a position: {wall:.1f} s, {wall / positions:.3f} s "
          f"a position")
    print(f"analysis after {WATCH_PLY} moves for {args.watch} s: {rate:.2f} updates a second, "
          f"largest gap {gap:.3f} s")


if __name__ == "__main__":
    main()
