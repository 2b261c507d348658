"""How fast numpy plays MANY tactical play-outs at once, against the pure-Python rollout.

A feasibility figure for batched leaf evaluation (docs/strength.md, "Speed experiments"); the
bot does not use it. The batch plays the same policy as bot.search.rollout.TacticalRollout
(win now, block a single threat, lose on two threats or a forced move under a threat, never
play under the opponent's winning cell, forbidden cell skipped), one numpy step per ply for the
whole batch. Boards are (B, N) uint16 columns, bit h = height h; three empty columns pad each
side so that neighbouring columns are slices.

    .venv/bin/python bench/batch_rollout.py [--sizes 64,256,1024,4096] [--seconds 1]

Prints play-outs/s per batch size and position, and the batch's mean score beside the Python
rollout's (they must agree within noise: the same policy from the same position).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.speed import POSITIONS, position  # noqa: E402
from bot.rules import Position  # noqa: E402
from bot.search.rollout import TacticalRollout  # noqa: E402

PAD = 3
# (column step, height step) of the three non-vertical directions
DIRECTIONS = ((1, 0), (1, 1), (1, -1))


def columns(p: Position, stones: int) -> np.ndarray:
    """The (N,) uint16 column words of a bitboard set."""
    g = p.geo
    return np.array([(stones >> (y * g.stride)) & ((1 << g.M) - 1) for y in range(g.N)],
                    dtype=np.uint16)


def winning_cells(s: np.ndarray, n: int) -> np.ndarray:
    """(B, N) cells completing four for the padded stones ``s`` (B, N + 2 * PAD)."""
    mid = s[:, PAD:PAD + n]
    t = mid & (mid << 1)
    r = (t << 1) & (t << 2)
    for dc, dh in DIRECTIONS:
        a = {}
        for k in (-3, -2, -1, 1, 2, 3):
            cols = s[:, PAD + k * dc:PAD + k * dc + n]
            shift = k * dh
            a[k] = cols >> shift if shift > 0 else cols << -shift if shift < 0 else cols
        r |= (a[1] & a[2] & (a[3] | a[-1])) | (a[-1] & a[-2] & (a[-3] | a[1]))
    return r


def play_batch(p: Position, batch: int, rng: np.random.Generator) -> float:
    """Mean score for the side to move over ``batch`` tactical play-outs from ``p``."""
    g = p.geo
    n, full = g.N, np.uint16((1 << g.M) - 1)
    forbidden = columns(p, g.forbidden)
    above_forbidden = forbidden << 1
    pad = np.zeros((batch, n + 2 * PAD), dtype=np.uint16)
    cur, opp = pad.copy(), pad.copy()
    cur[:, PAD:PAD + n] = columns(p, p.current)
    opp[:, PAD:PAD + n] = columns(p, p.opponent())
    mask = np.tile(columns(p, p.mask), (batch, 1))
    me = np.ones(batch)  # score of the side to move if it wins now
    total = 0.0
    while True:
        free = ~mask & full
        possible = (mask + np.uint16(1)) & free
        own = winning_cells(cur, n) & possible
        threats = winning_cells(opp, n) & free
        danger = (threats >> 1) | ((threats & above_forbidden) >> 2)
        forced = possible & threats
        n_forced = np.count_nonzero(forced, axis=1)
        candidates = np.where(n_forced[:, None] == 1, forced, possible & ~danger)
        draw = ~possible.any(axis=1)
        win = own.any(axis=1) & ~draw
        lose = ~win & ~draw & ((n_forced > 1) | (forced & danger).any(axis=1)
                               | ~candidates.any(axis=1))
        done = draw | win | lose
        total += 0.5 * draw.sum() + me[win].sum() + (1.0 - me[lose]).sum()
        keep = ~done
        if not keep.any():
            break
        cur, opp, mask, me = cur[keep], opp[keep], mask[keep], me[keep]
        candidates = candidates[keep]
        col = np.argmax(rng.random(candidates.shape) * (candidates != 0), axis=1)
        idx = np.arange(len(me))
        move = candidates[idx, col]
        mask[idx, col] |= move
        cur[idx, PAD + col] |= move
        cur, opp, me = opp, cur, 1.0 - me
    return total / batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,256,1024,4096")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    rollout = TacticalRollout(keep_threats=False)  # the policy the numpy version plays
    print(f"{'position':30} {'batch':>6} {'play-outs/s':>12} {'mean score':>11}")
    for name, M, N, no_x, no_y, cols in POSITIONS:
        p = position(M, N, no_x, no_y, cols)
        rand = random.Random(1).random
        count, score, start = 0, 0.0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            score += rollout.evaluate(p.geo, p.current, p.mask, rand)
            count += 1
        rate = count / (time.perf_counter() - start)
        print(f"{name:30} {'python':>6} {rate:12.0f} {score / count:11.3f}")
        for size in map(int, args.sizes.split(",")):
            count, score, start = 0, 0.0, time.perf_counter()
            while time.perf_counter() - start < args.seconds:
                score += play_batch(p, size, rng) * size
                count += size
            rate = count / (time.perf_counter() - start)
            print(f"{name:30} {size:6} {rate:12.0f} {score / count:11.3f}")


if __name__ == "__main__":
    main()
