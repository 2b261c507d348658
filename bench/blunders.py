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
from typing import Iterator, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from arena.results import GameRecord, ResultsError, read_log  # noqa: E402
from bot.rules import LOSS, WIN, Position, bits, geometry  # noqa: E402
from bot.search.solver import Solver  # noqa: E402
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
    kind: str  # "blunder", "beyond", "unproven"; analyse_exact() also "unsettled"
    ply: Optional[int] = None  # the ply (0-based) of the player's move it is about
    column: Optional[int] = None
    safe: List[int] = field(default_factory=list)  # columns that were safe at that ply
    unknown: int = 0  # questions the node budget cut short


def side_moves(record: GameRecord, side: str) -> Iterator[Tuple[int, Position, int]]:
    """(ply, position before it, move) for each of ``side``'s moves in the record."""
    position = Position.new(record.M, record.N, record.no_x, record.no_y)
    mine = 0 if record.first == side else 1
    for ply, (x, y) in enumerate(record.moves):
        if ply % 2 == mine:
            yield ply, position, position.geo.bit(x, y)
        position = position.play_xy(x, y)


def analyse(record: GameRecord, side: str, depth: int, max_nodes: int) -> Verdict:
    """Replay a game ``side`` lost and find its first move proven losing within ``depth``."""
    search = ForcedWin(geometry(record.M, record.N, record.no_x, record.no_y), max_nodes)
    unknown = 0
    for ply, position, move in side_moves(record, side):
        lost = loses_after(search, position, move, depth)
        unknown += lost is None
        if lost:
            safe = [position.geo.column(m) for m in bits(position.possible() & ~move)
                    if loses_after(search, position, m, depth) is False]
            kind = "blunder" if safe else "beyond"
            return Verdict(record, kind, ply, position.geo.column(move), safe, unknown)
    return Verdict(record, "unproven", unknown=unknown)


def analyse_exact(record: GameRecord, side: str, max_empties: int,
                  seconds: Optional[float] = None, max_nodes: Optional[int] = None) -> Verdict:
    """The same question answered by the exact endgame solver (bot.search.solver, within
    ``seconds`` and/or ``max_nodes`` a position), from the first of ``side``'s moves with at
    most ``max_empties`` empty cells. The first move proven lost outright is a blunder if
    another move was proven to hold (draw or win); if every other move was proven lost, the
    game was already lost there; else it is "unsettled" (``unknown`` other moves unproven)."""
    solver = Solver()
    cells = record.M * record.N - 1
    for ply, position, move in side_moves(record, side):
        if cells - ply > max_empties:
            continue
        proven = solver.solve_moves(position, max_nodes=max_nodes, seconds=seconds)
        safe_moves = position.non_losing_moves()
        if move not in proven and move & safe_moves:  # it stops at the first win found
            reply = solver.solve_moves(position.play_bit(move), max_nodes=max_nodes,
                                       seconds=seconds)
            if WIN in reply.values():
                proven[move] = LOSS
        if proven.get(move) == LOSS or not move & safe_moves:
            others = [m for m in bits(safe_moves) if m != move]
            safe = [position.geo.column(m) for m in others if proven.get(m, LOSS) != LOSS]
            unknown = sum(m not in proven for m in others)
            kind = "blunder" if safe else "unsettled" if unknown else "beyond"
            return Verdict(record, kind, ply, position.geo.column(move), safe, unknown)
    return Verdict(record, "unproven")


def lost_games(records: List[GameRecord], player: str) -> List[Tuple[GameRecord, str]]:
    """(record, the player's side) of each game ``player`` lost: not won, not drawn (a
    fault counts as a loss, as in the course's table), with moves to replay."""
    lost = []
    for record in records:
        side = "a" if record.a == player else "b" if record.b == player else ""
        if side and record.result not in (side, "draw") and record.moves:
            lost.append((record, side))
    return lost


def describe(verdict: Verdict, horizon: str) -> str:
    """One line for a verdict; ``horizon`` says how far the proof reached ("within 9 plies")."""
    r = verdict.record
    head = (f"round {r.round} leg {r.leg} ({r.M}x{r.N}, forbidden ({r.no_x}, {r.no_y}), "
            f"{len(r.moves)} plies)")
    if verdict.kind == "blunder":
        return (f"{head}: BLUNDER at ply {verdict.ply}, column {verdict.column}: the opponent "
                f"forces a win {horizon}; safe were columns {verdict.safe}")
    if verdict.kind == "beyond":
        return (f"{head}: at ply {verdict.ply} every move already lost {horizon} "
                f"(the mistake was earlier)")
    if verdict.kind == "unsettled":
        return (f"{head}: ply {verdict.ply}, column {verdict.column} loses {horizon}; "
                f"{verdict.unknown} other moves not settled")
    return f"{head}: no move proven losing {horizon}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path, help="arena results (.jsonl)")
    parser.add_argument("--player", required=True, help="the player whose losses to analyse")
    parser.add_argument("--depth", type=int, default=9, help="plies searched (default 9)")
    parser.add_argument("--nodes", type=int, default=2_000_000,
                        help="node budget of one question (default 2,000,000)")
    parser.add_argument("--exact", type=int, metavar="EMPTIES",
                        help="ask the exact endgame solver instead, from the first move with at "
                             "most EMPTIES empty cells")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="--exact: the solver's time a position (default 1.0)")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.nodes < 1 or args.seconds <= 0:
        parser.error("--depth, --nodes and --seconds must be positive")
    if args.exact is not None and args.exact < 1:
        parser.error("--exact must be positive")
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
    games = tqdm(lost, desc="games", unit="game", file=sys.stderr)
    if args.exact is None:
        horizon, unknown = f"within {args.depth} plies", "questions cut by the node budget"
        verdicts = [analyse(record, side, args.depth, args.nodes) for record, side in games]
    else:
        horizon, unknown = "with exact play", "other moves the solver did not settle"
        verdicts = [analyse_exact(record, side, args.exact, args.seconds)
                    for record, side in games]
    for verdict in verdicts:
        print(describe(verdict, horizon))
    counts = {kind: sum(v.kind == kind for v in verdicts)
              for kind in ("blunder", "beyond", "unsettled", "unproven")}
    print(f"{len(verdicts)} games lost by {args.player}: {counts['blunder']} blunders "
          f"{horizon}, {counts['beyond']} already lost there, {counts['unsettled']} "
          f"unsettled, {counts['unproven']} never proven; {sum(v.unknown for v in verdicts)} "
          f"{unknown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
