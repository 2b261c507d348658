"""Learn the pattern weights from self-play games: logistic regression in numpy.

P(first mover wins) = sigmoid(bias[side to move] + sum of the weights of the position's
lines) (knowledge/features.py defines the lines and their patterns). The target is the
generator's search value of each searched position (``--target value``, the default), the
game's outcome (a draw half a win), or their mean: on 9,468 games the search value gives the
lowest held-out log-loss against the outcomes (docs/knowledge.md). Minibatch Adam with a
small L2 pull towards 0; games are split at random into training and held-out sets, so no
held-out position shares a game with a training one.

    python -m knowledge.train data/selfplay -o data/patterns.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from knowledge.features import (
    DIRECTIONS,
    DUMMY,
    PATTERNS,
    STATES,
    WEIGHTS,
    Game,
    dataset,
    parse_game,
    pattern_indices,
)

FORMAT = "c4-line-patterns/1"


def load_games(folder: Path) -> List[Game]:
    """Every game of the folder's shards (knowledge.generate), in file order."""
    games = []
    for path in sorted(folder.glob("*.txt.gz")):
        with gzip.open(path, "rt") as f:
            games.extend(parse_game(line) for line in f if line.strip())
    return games


def split(games: Sequence[Game], held_out: float, seed: int = 0) -> Tuple[List[Game], List[Game]]:
    """Training and held-out games, drawn at random by game."""
    rng = np.random.default_rng(seed)
    test = rng.random(len(games)) < held_out
    return ([g for g, t in zip(games, test) if not t], [g for g, t in zip(games, test) if t])


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


class Model:
    """The weights: one table per direction (``PATTERNS`` entries) and a bias per side to move."""

    def __init__(self, weights: Optional[np.ndarray] = None,
                 bias: Optional[np.ndarray] = None) -> None:
        self.weights = np.zeros(WEIGHTS, dtype=np.float64) if weights is None else weights
        self.bias = np.zeros(2, dtype=np.float64) if bias is None else bias

    def logit(self, index: np.ndarray, to_move: np.ndarray) -> np.ndarray:
        """The first mover's log-odds for positions given as ``pattern_indices`` rows."""
        return self.weights[index].sum(axis=1) + self.bias[to_move]

    def predict(self, index: np.ndarray, to_move: np.ndarray) -> np.ndarray:
        return sigmoid(self.logit(index, to_move))

    def fit(self, index: np.ndarray, to_move: np.ndarray, target: np.ndarray, epochs: int = 6,
            batch: int = 4096, rate: float = 0.01, l2: float = 1e-6, seed: int = 0,
            progress: bool = True) -> None:
        """Minibatch Adam on the cross-entropy, every position once an epoch."""
        rng = np.random.default_rng(seed)
        params = np.concatenate([self.weights, self.bias])
        m = np.zeros_like(params)
        v = np.zeros_like(params)
        step = 0
        n = len(target)
        lines = index.shape[1]
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=epochs * -(-n // batch), unit="batch", desc="train")
        for _ in range(epochs):
            order = rng.permutation(n)
            for start in range(0, n, batch):
                rows = order[start:start + batch]
                idx, tm = index[rows], to_move[rows]
                err = sigmoid(self.weights[idx].sum(axis=1) + self.bias[tm]) - target[rows]
                grad = np.zeros_like(params)
                grad[:WEIGHTS] = np.bincount(idx.ravel(), weights=np.repeat(err, lines),
                                             minlength=WEIGHTS)
                grad[WEIGHTS:] = np.bincount(tm, weights=err, minlength=2)
                grad /= len(rows)
                grad[:WEIGHTS] += l2 * self.weights
                step += 1
                m = 0.9 * m + 0.1 * grad
                v = 0.999 * v + 0.001 * grad * grad
                params -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
                params[DUMMY] = 0.0
                self.weights, self.bias = params[:WEIGHTS], params[WEIGHTS:]
                if bar is not None:
                    bar.update(1)
        if bar is not None:
            bar.close()

    @classmethod
    def from_json(cls, data: Dict[str, object]) -> Model:
        """The model of a file ``to_json`` wrote."""
        if data.get("format") != FORMAT or data.get("states") != STATES:
            raise ValueError(f"pattern weights: format {data.get('format')!r}, expected {FORMAT}")
        weights = np.zeros(WEIGHTS, dtype=np.float64)
        weights[:DUMMY] = np.asarray(data["weights"], dtype=np.float64).ravel()
        return cls(weights, np.asarray(data["bias"], dtype=np.float64))

    def to_json(self, meta: Dict[str, object]) -> Dict[str, object]:
        """The shipped file: a header saying what the numbers are, then the numbers."""
        tables = self.weights[:DUMMY].reshape(len(DIRECTIONS), PATTERNS)
        return {
            "format": FORMAT,
            "states": STATES,
            "directions": [list(d) for d in DIRECTIONS],
            "pattern": "sum(state_k * states**k) over a line's cells k = 0..3 from its start "
                       "cell in the direction's order; directions are (rows up, columns right)",
            "value": "sigmoid(bias[side to move: 0 first, 1 second] + sum of the lines' "
                     "weights) = the first mover's chance to win",
            **meta,
            "bias": [round(float(b), 4) for b in self.bias],
            "weights": [[round(float(w), 4) for w in table] for table in tables],
        }


def accuracy_by_filled(prob: np.ndarray, outcome: np.ndarray, filled: np.ndarray,
                       at: Sequence[int] = (20, 40, 60),
                       width: int = 2) -> Dict[int, Tuple[float, int]]:
    """How often ``prob`` names the winner (decided games only) among positions with ``at``
    +- ``width`` filled cells: {at: (share right, positions)}."""
    out = {}
    decided = outcome != 0.5
    for a in at:
        sel = decided & (np.abs(filled.astype(int) - a) <= width)
        right = (prob[sel] > 0.5) == (outcome[sel] > 0.5)
        out[a] = (float(right.mean()) if sel.any() else float("nan"), int(sel.sum()))
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m knowledge.train", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+", help="folders of self-play shards")
    parser.add_argument("-o", "--output", type=Path, default=Path("data/patterns.json"))
    parser.add_argument("--held-out", type=float, default=0.1,
                        help="share of games kept out of training (default 0.1)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--every", type=int, default=1, help="use every k-th position of a game")
    parser.add_argument("--target", choices=("value", "outcome", "mix"), default="value",
                        help="what the weights learn to predict (default value)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    games = [g for folder in args.data for g in load_games(folder)]
    if not games:
        print(f"knowledge.train: no games in {', '.join(map(str, args.data))}", file=sys.stderr)
        return 2
    train_games, test_games = split(games, args.held_out)
    codes, to_move, outcome, value, _ = dataset(train_games, args.every)
    if args.target != "outcome":
        keep = ~np.isnan(value)
        codes, to_move, outcome, value = codes[keep], to_move[keep], outcome[keep], value[keep]
    target = {"value": value, "outcome": outcome, "mix": (value + outcome) / 2}[args.target]
    index = pattern_indices(codes)
    del codes
    model = Model()
    model.fit(index, to_move, target, epochs=args.epochs)
    tcodes, tmove, tout, _, tfilled = dataset(test_games)
    prob = model.predict(pattern_indices(tcodes), tmove)
    acc = accuracy_by_filled(prob, tout, tfilled)
    meta = {"games": len(train_games), "positions": int(len(target)), "target": args.target,
            "made_by": "python -m knowledge.train " + " ".join(sys.argv[1:] if argv is None
                                                               else argv)}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(model.to_json(meta), separators=(",", ":")) + "\n")
    print(f"{len(train_games)} training games ({len(outcome)} positions), "
          f"{len(test_games)} held out, {time.monotonic() - started:.0f} s")
    for a, (share, n) in acc.items():
        print(f"  {a} filled cells: names the winner in {share:.1%} of {n} held-out positions")
    print(f"wrote {args.output} ({args.output.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
