"""Arena throughput with two fast course-ABI libraries, against the course's Compete.

The course's Compete plays 200 games of 2.so against 4.so in about 6 s (30 ms a game), both
libraries in its own process. Ours hosts each library in a child process of its own and plays
`-j` games at once. This script compiles two small strategies (random, greedy: win now, else
block, else the most central column), plays them against each other, and prints games per
second, milliseconds per game, and the arena's overhead per move (request written -> reply read,
for strategies that think for microseconds) and per game (what is left outside the moves).

    .venv/bin/python bench/arena_speed.py [--games 200] [-j 2]

With --cluster it measures the Dask executor instead (docs/cluster.md): the same games locally
(-j 1) and on a LocalCluster of 1 and 2 single-threaded workers, the cluster path's overhead per
game; then players that sleep 50 ms a move instead of thinking, 16 games per worker on 1, 2, 4
and 8 workers, against linear scaling (sleeping players use no CPU, so this scales past the
machine's cores and measures the arena alone). Cluster start-up is timed apart from the games.

    .venv/bin/python bench/arena_speed.py --cluster [--games 200]

With --reaper it measures what a process player's start and end cost, outside any game: spawn
(a session, three pipes, the mark in its environment) and kill_tree (what it left looked for,
killed with its group, looked for again, the child reaped), medians over --games children
that wait on stdin, with the /proc pipe-holder scan on and off (off: as on macOS), and the
number of processes on the machine, which every look reads.

    .venv/bin/python bench/arena_speed.py --reaper [--games 40]
"""

import argparse
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psutil  # noqa: E402

from arena.batch.config import Config  # noqa: E402
from arena.batch.scheduler import run_batch  # noqa: E402
from arena.children import reaper, system  # noqa: E402
from opponents.build import compile_library  # noqa: E402
from records.game import GameRecord  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SLEEP_WORKERS = (1, 2, 4, 8)
SLEEP_GAMES_PER_WORKER = 16
SLEEPER = {"python": "opponents.sleeper:get_point", "args": {"delay": 0.05}}

HEADER = r"""
#include <cstdlib>
struct Point { int x; int y; Point(int a, int b) : x(a), y(b) {} };
extern "C" void clearPoint(Point* p) { delete p; }
"""

SOURCES: Dict[str, str] = {
    "random": HEADER + r"""
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    int legal[16], n = 0;
    for (int y = 0; y < N; y++) if (top[y] > 0) legal[n++] = y;
    int y = legal[rand() % n];
    return new Point(top[y] - 1, y);
}
""",
    "greedy": HEADER + r"""
static int run(const int* b, int M, int N, int x, int y, int dx, int dy, int v) {
    int k = 0;
    for (x += dx, y += dy; x >= 0 && x < M && y >= 0 && y < N && b[x * N + y] == v;
         x += dx, y += dy) k++;
    return k;
}
static bool wins(const int* b, int M, int N, int x, int y, int v) {
    const int d[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int i = 0; i < 4; i++)
        if (1 + run(b, M, N, x, y, d[i][0], d[i][1], v)
              + run(b, M, N, x, y, -d[i][0], -d[i][1], v) >= 4) return true;
    return false;
}
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    for (int v = 2; v >= 1; v--)  // win now (2: own), else block (1: opponent)
        for (int y = 0; y < N; y++)
            if (top[y] > 0 && wins(board, M, N, top[y] - 1, y, v)) return new Point(top[y] - 1, y);
    int best = -1;
    for (int y = 0; y < N; y++)
        if (top[y] > 0 && (best < 0 || abs(2 * y - N + 1) < abs(2 * best - N + 1))) best = y;
    return new Point(top[best] - 1, best);
}
""",
}


def build_libraries(folder: Path) -> Dict[str, Path]:
    """Compile every strategy of SOURCES into folder/<name>.so with the course's flags."""
    out = {}
    for name, source in SOURCES.items():
        cpp = folder / f"{name}.cpp"
        cpp.write_text(source)
        out[name] = compile_library([cpp], folder / f"{name}.so")
    return out


def timed_batch(folder: Path, players: Dict[str, Dict[str, Any]], games: int, jobs: int = 1,
                cluster: Optional[str] = None) -> Tuple[float, List[GameRecord]]:
    """Wall seconds and records of one batch of the first two players, both colours a board."""
    a, b = list(players)[:2]
    config = Config(batch="speed", rounds=games // 2, time_limit=3.0, jobs=jobs, seed=1,
                    output=str(folder), pairings=[(a, b)], players=players, cluster=cluster)
    start = time.perf_counter()
    records = run_batch(config, quiet=True)
    return time.perf_counter() - start, records


def outside_moves(wall: float, workers: int, records: List[GameRecord]) -> float:
    """Seconds a game spends outside its players' moves, per worker (start, ship, record)."""
    return (wall * workers - sum(sum(r.times) for r in records)) / len(records)


def local_speed(libs: Dict[str, Path], folder: Path, games: int, jobs: int) -> None:
    wall, records = timed_batch(folder, {n: {"so": str(p)} for n, p in libs.items()}, games, jobs)
    games = len(records)
    moves = sum(len(r.times) for r in records)
    move_time = sum(sum(r.times) for r in records)
    faults = sum(1 for r in records if r.fault)
    print(f"{games} games (random vs greedy .so, each in its own host), -j {jobs}, "
          f"{moves} moves, {faults} faults")
    print(f"wall {wall:.2f} s: {games / wall:.1f} games/s, {1000 * wall / games:.1f} ms a game "
          f"(course Compete: 30 ms a game, one at a time)")
    print(f"per move, request written -> reply read: {1e6 * move_time / moves:.0f} us")
    print(f"per game outside the moves (start, fork, end, record; per worker): "
          f"{1000 * outside_moves(wall, jobs, records):.1f} ms")


def cluster_speed(libs: Dict[str, Path], folder: Path, games: int) -> None:
    from distributed import LocalCluster

    os.chdir(ROOT)  # the batch's files are shipped from the project folder
    # 8 sleepers on 2 cores is the point here, not an unfair clock: no fair-clock warning.
    logging.getLogger("arena.cluster").setLevel(logging.ERROR)
    players = {n: {"so": str(p)} for n, p in libs.items()}
    wall, records = timed_batch(folder / "local", players, games)
    base = outside_moves(wall, 1, records)
    print(f"{len(records)} games, random vs greedy .so (instant players)")
    print(f"local -j 1:        {len(records) / wall:6.1f} games/s, outside the moves "
          f"{1000 * base:.1f} ms a game")
    wall, records = timed_batch(folder / "local2", players, games, jobs=2)
    print(f"local -j 2:        {len(records) / wall:6.1f} games/s")
    for workers in (1, 2):
        start = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster:
            up = time.perf_counter() - start
            wall, records = timed_batch(folder / f"c{workers}", players, games,
                                        cluster=cluster.scheduler_address)
        extra = outside_moves(wall, workers, records) - base
        print(f"cluster {workers} worker{'s' if workers > 1 else ' '}: {len(records) / wall:6.1f} "
              f"games/s, overhead over local {1000 * extra:+.1f} ms a game "
              f"(cluster start {up:.1f} s, not counted)")
    print(f"players sleeping {SLEEPER['args']['delay'] * 1000:.0f} ms a move, "
          f"{SLEEP_GAMES_PER_WORKER} games per worker")
    sleepers = {"sleep1": SLEEPER, "sleep2": SLEEPER}
    rate1 = 0.0
    for workers in SLEEP_WORKERS:
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster:
            wall, records = timed_batch(folder / f"s{workers}", sleepers,
                                        SLEEP_GAMES_PER_WORKER * workers,
                                        cluster=cluster.scheduler_address)
        rate = sum(len(r.times) for r in records) / wall
        rate1 = rate1 or rate
        print(f"{workers} worker{'s' if workers > 1 else ' '}: {len(records) / wall:5.2f} games/s, "
              f"{rate:6.1f} moves/s, {rate / (workers * rate1):6.1%} of linear")


def reaper_cost(children: int) -> None:
    """Median spawn and kill_tree of ``children`` children, /proc scan on (where there is
    one) and off."""
    print(f"{len(psutil.pids())} processes on the machine; {children} children a row")
    print(f"{'/proc scan':<12}{'spawn ms':>10}{'kill_tree ms':>14}")
    for scan in ([True, False] if system.PROC_SCAN else [False]):
        system.PROC_SCAN = scan
        spawns, kills = [], []
        for _ in range(children):
            start = time.perf_counter()
            child = reaper.spawn(["/bin/sh", "-c", "read line"])
            started = time.perf_counter()
            reaper.kill_tree(child)
            spawns.append(started - start)
            kills.append(time.perf_counter() - started)
            os.close(child.stderr_fd)
        print(f"{'on' if scan else 'off':<12}{statistics.median(spawns) * 1e3:>10.2f}"
              f"{statistics.median(kills) * 1e3:>14.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games (even: both colours)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--cluster", action="store_true",
                        help="measure the Dask executor (needs pip install '.[cluster]')")
    parser.add_argument("--reaper", action="store_true",
                        help="measure a process player's spawn and kill_tree, --games of each")
    args = parser.parse_args()
    if args.reaper:
        reaper_cost(args.games)
        return
    folder = Path(tempfile.mkdtemp(prefix="arena_speed_"))
    try:
        libs = build_libraries(folder)
        if args.cluster:
            cluster_speed(libs, folder, args.games)
        else:
            local_speed(libs, folder, args.games, args.jobs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
