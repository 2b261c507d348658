"""PNG plots for stat.py: score per opponent and the move-time histogram (matplotlib, Agg)."""

import logging
from pathlib import Path
from typing import Dict, List, Sequence

import matplotlib
import numpy as np

from arena.report.results import CourseGame
from records.tally import by_pairing, wdl

matplotlib.use("Agg")  # files only: no display needed on a server
# matplotlib's INFO lines (its font cache built on the first run, say) are no news to the user
logging.getLogger("matplotlib").setLevel(logging.WARNING)
import matplotlib.pyplot as plt  # noqa: E402


def score_plot(games: Sequence[CourseGame], path: Path) -> Path:
    """Bars of A's score against each B (points 2/1/0 over the points available), 50% marked."""
    pairs = by_pairing(games)
    labels = [f"{a} vs {b}" for a, b in pairs]
    scores = [100 * wdl(gs).score for gs in pairs.values()]
    fig, ax = plt.subplots(figsize=(max(4.0, 0.6 * len(labels) + 2), 3.5))
    ax.bar(range(len(labels)), scores, color="tab:blue")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=8)
    ax.set(ylim=(0, 100), ylabel="score of A (%)", title="score per opponent")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def time_plot(times: Dict[str, List[float]], path: Path) -> Path:
    """Histogram of move times per player (milliseconds, log-spaced bins from 10 us)."""
    fig, ax = plt.subplots(figsize=(6, 3.5))
    every = [t for ts in times.values() for t in ts]
    high_ms = max(max(every) * 1000, 1.0) if every else 1.0
    bins = np.logspace(-2, np.log10(high_ms) + 0.1, 40)
    for player, ts in times.items():
        ax.hist([max(t * 1000, 0.01) for t in ts], bins=bins.tolist(), histtype="step",
                label=player)
    ax.set(xscale="log", xlabel="move time (ms)", ylabel="moves", title="move-time histogram")
    if times:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
