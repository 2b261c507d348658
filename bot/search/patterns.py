"""The learned line-pattern evaluation, read from ``bot/data/patterns.json``.

Every four-cell line of the board not through the forbidden cell is a pattern of four cell
states seen from the FIRST mover: 0/1 an empty cell that follow-up (claimeven) play gives to
the first/second mover, 2/3 the same cell when it is playable now, 4/5 a piece of the
first/second mover (knowledge/features.py, the trainer's numpy version of this definition,
says why; tests/knowledge/test_features.py checks that both give the same value).

The first mover's chance to win is sigmoid(bias[side to move] + the sum over the lines of their
pattern's weight). Only the lines through a dropped piece's cell, and through the cell it
makes playable, change with a move, so a child's value is its parent's plus a few look-ups
(``BoardPatterns.child_logit``).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from bot.rules import Geometry

FORMAT = "c4-line-patterns/1"
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "patterns.json"
STATES = 6

# A line: (its table's offset plus the index it has with all its cells empty and not playable,
# its cells as (bit, index change for a first mover's piece, for a second mover's piece,
# for playable-now))
Line = Tuple[int, Tuple[Tuple[int, int, int, int], ...]]


class PatternWeights:
    """The shipped weights: one table of STATES**4 entries per direction, and two biases."""

    def __init__(self, data: Dict[str, object]) -> None:
        if data.get("format") != FORMAT or data.get("states") != STATES:
            raise ValueError(f"pattern weights: format {data.get('format')!r}, expected {FORMAT}")
        self.directions: List[Tuple[int, int]] = [tuple(d) for d in data["directions"]]
        tables: Sequence[Sequence[float]] = data["weights"]
        if len(tables) != len(self.directions) or any(len(t) != STATES ** 4 for t in tables):
            raise ValueError("pattern weights: one table of 6**4 weights per direction expected")
        self.weights: List[float] = [float(w) for t in tables for w in t]
        self.bias: Tuple[float, float] = (float(data["bias"][0]), float(data["bias"][1]))

    def for_board(self, geo: Geometry) -> BoardPatterns:
        return BoardPatterns(self, geo)


@lru_cache(maxsize=1)
def load(path: Path = DEFAULT_PATH) -> PatternWeights:
    """The weights file, read once a process."""
    return PatternWeights(json.loads(Path(path).read_text()))


class BoardPatterns:
    """The lines of one board and the evaluation of its positions."""

    def __init__(self, weights: PatternWeights, geo: Geometry) -> None:
        self.geo = geo
        self.weights = weights.weights
        self.bias = weights.bias
        stride, M = geo.stride, geo.M
        forbidden_h, no_y = M - 1 - geo.no_x, geo.no_y
        total = M * geo.N - 1
        size = STATES ** 4
        self.lines: List[Line] = []
        self.through: Dict[int, List[int]] = {}  # cell bit -> the lines through it
        for d, (dh, dy) in enumerate(weights.directions):
            for y in range(geo.N):
                for h in range(M):
                    cells = [(h + k * dh, y + k * dy) for k in range(4)]
                    if any(not (0 <= ch < M and 0 <= cy < geo.N) or
                           (cy == no_y and ch == forbidden_h) for ch, cy in cells):
                        continue
                    base = d * size
                    spec = []
                    for k, (ch, cy) in enumerate(cells):
                        r = ch - (1 if cy == no_y and ch > forbidden_h else 0)
                        parity = (r + total) % 2
                        unit = STATES ** k
                        base += parity * unit
                        spec.append((1 << (cy * stride + ch), (4 - parity) * unit,
                                     (5 - parity) * unit, 2 * unit))
                    for bit, *_ in spec:
                        self.through.setdefault(bit, []).append(len(self.lines))
                    self.lines.append((base, tuple(spec)))

    def _index(self, line: Line, first: int, second: int, playable: int) -> int:
        index, cells = line
        for bit, d_first, d_second, d_play in cells:
            if bit & first:
                index += d_first
            elif bit & second:
                index += d_second
            elif bit & playable:
                index += d_play
        return index

    def sides(self, current: int, mask: int) -> Tuple[int, int, int]:
        """(first mover's stones, second mover's stones, side to move: 0 first, 1 second)."""
        geo = self.geo
        other = mask ^ current ^ geo.forbidden
        to_move = (bin(mask).count("1") - 1) % 2
        return (current, other, 0) if to_move == 0 else (other, current, 1)

    def logit(self, current: int, mask: int) -> float:
        """The first mover's log-odds of winning in the position (``current``, ``mask``)."""
        first, second, to_move = self.sides(current, mask)
        geo = self.geo
        playable = (mask + geo.bottom) & ~mask & geo.board_mask
        w = self.weights
        return self.bias[to_move] + sum(w[self._index(line, first, second, playable)]
                                        for line in self.lines)

    def child_logit(self, parent_logit: float, current: int, mask: int, move: int) -> float:
        """The first mover's log-odds after ``move`` in (``current``, ``mask``), from the
        parent's: only the lines through the move's cell and the cell it opens change."""
        geo = self.geo
        first, second, to_move = self.sides(current, mask)
        playable = (mask + geo.bottom) & ~mask & geo.board_mask
        new_mask = mask | move
        new_playable = (new_mask + geo.bottom) & ~new_mask & geo.board_mask
        opened = new_playable & ~playable
        if to_move == 0:
            new_first, new_second = first | move, second
        else:
            new_first, new_second = first, second | move
        changed = set(self.through.get(move, ()))
        if opened:
            changed.update(self.through.get(opened, ()))
        w = self.weights
        delta = self.bias[1 - to_move] - self.bias[to_move]
        for i in changed:
            line = self.lines[i]
            delta += (w[self._index(line, new_first, new_second, new_playable)] -
                      w[self._index(line, first, second, playable)])
        return parent_logit + delta

    def value(self, current: int, mask: int) -> float:
        """The side to move's chance to win, by the patterns alone."""
        z = self.logit(current, mask)
        if (bin(mask).count("1") - 1) % 2:
            z = -z
        return 1.0 / (1.0 + math.exp(-z))
