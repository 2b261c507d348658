"""Self-play games of the native UCT on boards drawn as a batch draws them, for training.

Game i of seed S is played on the arena's board of round i (arena.tasks.draw_board), so the
data covers all 16 shapes and every forbidden cell. Games are written in shards of
``SHARD_GAMES`` lines (knowledge/selfplay.cpp gives the line format), each shard a gzip file
that appears only once complete: a run cut short resumes where it stopped, and ``-j`` shards
are played at once, one native process each.

    python -m knowledge.generate --games 20000 -j 2 --out data/selfplay
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Optional

from arena.boards import draw_board

SOURCE = Path(__file__).with_name("selfplay.cpp")
BINARY = Path(__file__).resolve().parents[1] / "build" / "knowledge" / "selfplay"
SHARD_GAMES = 50
COMPILE = ("g++", "-std=c++11", "-O2")


def build(binary: Path = BINARY) -> Path:
    """Compile the generator (again whenever its source or the UCT's is newer)."""
    sources = (SOURCE, SOURCE.parent.parent / "opponents" / "uct.cpp")
    if not binary.exists() or any(s.stat().st_mtime > binary.stat().st_mtime for s in sources):
        binary.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([*COMPILE, "-o", str(binary), str(SOURCE)], check=True)
    return binary


def shard_path(out: Path, seed: int, index: int) -> Path:
    """Where shard ``index`` of ``seed`` lives; its games are ``index * SHARD_GAMES`` on."""
    return out / f"seed{seed}-{index:05d}.txt.gz"


def play_shard(binary: Path, out: Path, seed: int, index: int, playouts: int,
               random_plies: int) -> int:
    """Play one shard's games and write it atomically; returns the games played."""
    first = index * SHARD_GAMES
    boards = []
    for game in range(first, first + SHARD_GAMES):
        b = draw_board(seed, game)
        boards.append(f"{b.M} {b.N} {b.no_x} {b.no_y} {seed * 1_000_003 + game}\n")
    done = subprocess.run([str(binary), str(playouts), str(random_plies)], input="".join(boards),
                          capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    if len(lines) != SHARD_GAMES:
        raise RuntimeError(f"shard {index}: {len(lines)} games of {SHARD_GAMES}: {done.stderr}")
    path = shard_path(out, seed, index)
    partial = path.with_suffix(".partial")
    with gzip.open(partial, "wt") as f:
        f.write(done.stdout)
    os.replace(partial, path)
    return len(lines)


def generate(out: Path, games: int, seed: int, jobs: int, playouts: int, random_plies: int,
             progress: bool = True) -> int:
    """Play the shards of ``games`` games not yet on disk; returns the games played now."""
    out.mkdir(parents=True, exist_ok=True)
    binary = build()
    todo = [i for i in range(-(-games // SHARD_GAMES)) if not shard_path(out, seed, i).exists()]
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(todo) * SHARD_GAMES, unit="game", desc="self-play")
    played = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_shard, binary, out, seed, i, playouts, random_plies)
                   for i in todo]
        for future in futures:
            n = future.result()
            played += n
            if bar is not None:
                bar.update(n)
    if bar is not None:
        bar.close()
    return played


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m knowledge.generate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("data/selfplay"),
                        help="folder of the shards (default data/selfplay)")
    parser.add_argument("--games", type=int, default=2000,
                        help="games wanted in all, counting those already on disk")
    parser.add_argument("--seed", type=int, default=1, help="board seed (default 1)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--playouts", type=int, default=4000,
                        help="the UCT's play-outs a searched move (default 4000)")
    parser.add_argument("--random-plies", type=int, default=2,
                        help="opening plies drawn at random among safe moves (default 2)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.playouts < 1 or args.random_plies < 0:
        parser.error("--games, -j and --playouts must be positive, --random-plies >= 0")
    try:
        played = generate(args.out, args.games, args.seed, args.jobs, args.playouts,
                          args.random_plies)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as e:
        print(f"knowledge.generate: {e}", file=sys.stderr)
        return 1
    print(f"{played} games played into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
