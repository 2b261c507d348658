"""Where did a player lose? A depth-limited forced-win search over the games it lost.

For each lost game, the player's moves are replayed; after each one the search asks whether
the opponent now forces a win within DEPTH plies. At the first move where it does:
- **blunder**: another move was safe at that depth (the search would have saved the game);
- **lost beyond the horizon**: every move already lost within DEPTH plies, so the decisive
  mistake came earlier and deeper than DEPTH plies can see;
- and if no move is ever proven losing, the game was lost later than the horizon reaches at
  any point (a long zugzwang ending, say).

Used for docs/strength.md: the bot's losses to the native UCT are mostly of the second kind,
which says a shallow tactical filter at the root would not have saved them.

    .venv/bin/python bench/blunders.py docs/results/final.jsonl --player bot --depth 9

The search (bot.search.tactics.ForcedWin) is exact within its depth (a win it reports is a
forced win); it searches only non-losing moves and gives up on a question after --nodes nodes.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from arena.results import GameRecord, ResultsError, read_log  # noqa: E402
from bot.rules import Position, bits  # noqa: E402
from bot.search.tactics import ForcedWin  # noqa: E402


def loses_after(search: ForcedWin, position: Position, move: int, depth: int) -> Optional[bool]:
    """Whether playing ``move`` lets the opponent force a win within ``depth`` plies
    (None: the node budget ran out)."""
    after = position.play_bit(move)
    if after.last_mover_won():
        return False
    return search.settle(after.current, after.mask, depth)


@dataclass
class Verdict:
    """What the search says about one lost game."""

    record: GameRecord
    kind: str  # "blunder", "beyond", "unproven"
    ply: Optional[int] = None  # the ply (0-based) of the player's move it is about
    column: Optional[int] = None
    safe: List[int] = field(default_factory=list)  # columns that were safe at that ply
    unknown: int = 0  # questions the node budget cut short


def analyse(record: GameRecord, side: str, depth: int, max_nodes: int) -> Verdict:
    """Replay a game ``side`` lost and find its first move proven losing within ``depth``."""
    position = Position.new(record.M, record.N, record.no_x, record.no_y)
    search = ForcedWin(position.geo, max_nodes)
    mine = 0 if record.first == side else 1
    unknown = 0
    for ply, (x, y) in enumerate(record.moves):
        if ply % 2 == mine:
            move = position.geo.bit(x, y)
            lost = loses_after(search, position, move, depth)
            unknown += lost is None
            if lost:
                safe = [position.geo.column(m) for m in bits(position.possible() & ~move)
                        if loses_after(search, position, m, depth) is False]
                kind = "blunder" if safe else "beyond"
                return Verdict(record, kind, ply, y, safe, unknown)
        position = position.play_xy(x, y)
    return Verdict(record, "unproven", unknown=unknown)


def lost_games(records: List[GameRecord], player: str) -> List[Tuple[GameRecord, str]]:
    """(record, the player's side) of each game ``player`` lost: not won, not drawn (a
    fault counts as a loss, as in the course's table), with moves to replay."""
    lost = []
    for record in records:
        side = "a" if record.a == player else "b" if record.b == player else ""
        if side and record.result not in (side, "draw") and record.moves:
            lost.append((record, side))
    return lost


def describe(verdict: Verdict, depth: int) -> str:
    r = verdict.record
    head = (f"round {r.round} leg {r.leg} ({r.M}x{r.N}, forbidden ({r.no_x}, {r.no_y}), "
            f"{len(r.moves)} plies)")
    if verdict.kind == "blunder":
        return (f"{head}: BLUNDER at ply {verdict.ply}, column {verdict.column}: the opponent "
                f"forces a win within {depth} plies; safe were columns {verdict.safe}")
    if verdict.kind == "beyond":
        return (f"{head}: at ply {verdict.ply} every move already lost within {depth} plies "
                f"(the mistake was deeper)")
    return f"{head}: no move proven losing within {depth} plies"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path, help="arena results (.jsonl)")
    parser.add_argument("--player", required=True, help="the player whose losses to analyse")
    parser.add_argument("--depth", type=int, default=9, help="plies searched (default 9)")
    parser.add_argument("--nodes", type=int, default=2_000_000,
                        help="node budget of one question (default 2,000,000)")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.nodes < 1:
        parser.error("--depth and --nodes must be positive")
    lost: List[Tuple[GameRecord, str]] = []
    try:
        for path in args.logs:
            if not path.is_file():
                parser.error(f"{path}: no such results file")
            lost += lost_games(read_log(path), args.player)
    except ResultsError as err:
        parser.error(str(err))
    if not lost:
        print(f"{args.player} lost no game in {', '.join(map(str, args.logs))}")
        return 0
    verdicts = [analyse(record, side, args.depth, args.nodes)
                for record, side in tqdm(lost, desc="games", unit="game", file=sys.stderr)]
    for verdict in verdicts:
        print(describe(verdict, args.depth))
    counts = {kind: sum(v.kind == kind for v in verdicts)
              for kind in ("blunder", "beyond", "unproven")}
    print(f"{len(verdicts)} games lost by {args.player}: {counts['blunder']} blunders within "
          f"{args.depth} plies, {counts['beyond']} lost beyond that horizon, "
          f"{counts['unproven']} never proven; "
          f"{sum(v.unknown for v in verdicts)} questions cut by the node budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
