"""How far a game review's values move between two runs at one budget: the noise a fall mark
must clear to mean something (docs/web.md, "Game review").

Two engines with different seeds review the same stretches of real games, position after
position as a review does (each position a child of the last, so the tree carries over), at
one budget. For each position it compares the first player's win chance of the two runs
(`arena.engine.review.position_of`, on -1..1: 2 * |p1 - p2|), and for each move between two
positions the fall a review would mark (the mover's chances on -1..1 before minus after): how
much a move's fall differs between the runs. Positions proven in both runs are left out (a
proof does not move).

    python -m devtools.review_noise --seconds 0.5
    python -m devtools.review_noise --playouts 2000

The stretches: POSITIONS (--positions) positions from a third of the way into each game the
bot lost in docs/results/partner-2.4s-seed2039.jsonl (5 games; 30 positions, or 60 with
--positions 12, as docs/web.md's figures).
"""

from __future__ import annotations

import statistics
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Sequence, Tuple

from arena.engine.client import ARGV, Engine
from arena.engine.limit import Limit
from arena.engine.position import game_positions
from arena.engine.review import Position, position_of
from devtools.review_marks import lost_games, lost_games_parser
from records.game import GameRecord
from records.result import Seat

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "docs" / "results" / "partner-2.4s-seed2039.jsonl"  # its 5 losses
POSITIONS = 6  # a game's stretch


def stretches(records: Sequence[GameRecord]) -> List[Tuple[GameRecord, int]]:
    """Each game and the ply its stretch starts at."""
    return [(r, len(r.moves) // 3) for r in records]


def run(records: Sequence[Tuple[GameRecord, int]], seed: int, budget: Limit,
        size: int = POSITIONS) -> List[List[Position]]:
    """One engine's positions of every stretch, in order."""
    engine = Engine(list(ARGV) + ["--seed", str(seed)])
    try:
        out = []
        for record, start in records:
            setups = game_positions(record.board, record.moves)[start:start + size]
            out.append([position_of(deque(engine.analyse(setup, budget), maxlen=1)[0])
                        for setup in setups])
        return out
    finally:
        engine.close()


def fall(before: Position, after: Position, ply: int) -> float:
    mover = Seat.of_ply(ply)
    return 2 * (before.win_chance.pov(mover) - after.win_chance.pov(mover))


def quantile(values: List[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = lost_games_parser(__doc__, [RECORD])
    parser.add_argument("--seeds", type=int, nargs=2, default=(1, 2))
    parser.add_argument("--positions", type=int, default=POSITIONS, help="a game's stretch")
    args = parser.parse_args()
    chosen = stretches(lost_games(args))
    budget = Limit(args.seconds, args.playouts)
    with ThreadPoolExecutor(2) as pool:  # the two runs at once, one core each
        one, two = pool.map(lambda seed: run(chosen, seed, budget, args.positions), args.seeds)
    values, falls = [], []
    for (_, start), a, b in zip(chosen, one, two):
        for i, (p, q) in enumerate(zip(a, b)):
            if not (p.proof and q.proof):
                values.append(2 * abs(p.chance - q.chance))
            if i + 1 < len(a):
                falls.append(abs(fall(p, a[i + 1], start + i) - fall(q, b[i + 1], start + i)))
    print(f"{args.records.name}: {len(chosen)} games lost by {args.lost_by}, "
          f"{sum(len(a) for a in one)} positions at {budget}, seeds {args.seeds}")
    for name, got in (("value (-1..1)", values), ("a move's fall", falls)):
        print(f"{name}: {len(got)} compared, two runs differ by median "
              f"{statistics.median(got):.3f}, 90th percentile {quantile(got, 0.9):.3f}, "
              f"largest {max(got):.3f}")


if __name__ == "__main__":
    main()
