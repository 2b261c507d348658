"""The n-tuple network that knowledge/ntuple.cpp learns, read and evaluated in numpy.

The file holds the tuple shapes, so the placements here follow the trainer's: every anchor
where the shape's six cells lie on the board and miss the forbidden cell, once as drawn and
once mirrored left to right (reading the same table). A position is the (SIZE, SIZE) grid of
cell states that knowledge.features.positions yields; the value is P(first mover wins).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Tuple

import numpy as np

from knowledge.features import SIZE

BANDS = 16  # the bias's ply bands (ply // 10)


@dataclass(frozen=True)
class Network:
    """Shapes ((rows up, columns right) per cell), biases by (ply band, side) and weights."""

    shapes: Tuple[Tuple[Tuple[int, int], ...], ...]
    bias: np.ndarray  # (BANDS, 2)
    weights: np.ndarray  # (shapes, 6 ** cells)
    games: int

    @classmethod
    def read(cls, path: Path) -> Network:
        """Reads a weights file; ValueError when it is not one."""
        data = Path(path).read_bytes()
        if data[:4] != b"NTUP" or len(data) < 24:
            raise ValueError("not an n-tuple weights file")
        version, count, cells = struct.unpack_from("<3i", data, 4)
        games, = struct.unpack_from("<q", data, 16)
        if version != 1:
            raise ValueError(f"version {version}, expected 1")
        at = 24
        offsets = np.frombuffer(data, "<i4", count * cells * 2, at).reshape(count, cells, 2)
        at += offsets.nbytes
        bias = np.frombuffer(data, "<f4", BANDS * 2, at).reshape(BANDS, 2)
        at += bias.nbytes
        size = 6 ** cells
        if len(data) != at + count * size * 4:
            raise ValueError(f"{len(data)} bytes, expected {at + count * size * 4}")
        weights = np.frombuffer(data, "<f4", count * size, at).reshape(count, size)
        shapes = tuple(tuple((int(h), int(y)) for h, y in s) for s in offsets)
        return cls(shapes, bias.astype(np.float64), weights.astype(np.float64), games)

    def value(self, codes: np.ndarray, ply: int, M: int, N: int, forbidden: int) -> float:
        """P(first mover wins) of the position ``codes`` (features.positions' grid) after
        ``ply`` plies on an M x N board whose forbidden cell is ``forbidden`` (h * SIZE + y)."""
        table, cells = placements(self.shapes, M, N, forbidden)
        flat = codes.reshape(-1).astype(np.int64)
        powers = 6 ** np.arange(cells.shape[1])
        index = (flat[cells] * powers).sum(axis=1)
        total = self.bias[min(ply // 10, BANDS - 1), ply % 2]
        total += self.weights.reshape(-1)[table + index].sum()
        return float(1.0 / (1.0 + np.exp(-total)))


@lru_cache(maxsize=64)
def placements(shapes: Tuple[Tuple[Tuple[int, int], ...], ...], M: int, N: int,
               forbidden: int) -> Tuple[np.ndarray, np.ndarray]:
    """(table offsets (P,), cells (P, cells)) of every placement, as the trainer lists them."""
    size = 6 ** len(shapes[0])
    table, cells = [], []
    for s, shape in enumerate(shapes):
        for mirror in (1, -1):
            for h0 in range(M):
                for y0 in range(N):
                    c = [(h0 + h) * SIZE + y0 + mirror * y for h, y in shape
                         if 0 <= h0 + h < M and 0 <= y0 + mirror * y < N]
                    if len(c) == len(shape) and forbidden not in c:
                        table.append(s * size)
                        cells.append(c)
    return np.array(table, dtype=np.int64), np.array(cells, dtype=np.int64)
