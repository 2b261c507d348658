"""The search's tuning, in one place: benchmarks and tests set it from Python, the command line
does not (a student's options are protocol, time, play-outs, seed, pondering, cores and logs).

Each value is the one measured best; docs/strength.md has the figures and the commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple


@dataclass(frozen=True)
class Settings:
    """How the MCTS-solver searches; node budgets count nodes of the forced-win search
    (bot.search.tactics), visits and play-outs count the tree's iterations.

    - ``c``: the UCB1 exploration constant for scores in [0, 1] (a play-out's result).
    - ``probe_depth``, ``probe_visits``, ``probe_nodes``: a node reaching ``probe_visits``
      visits is searched ``probe_depth`` plies deep for a forced win (MCTS-MS, Baier and
      Winands), at most ``probe_nodes`` nodes; a win found becomes a proof the solver
      propagates. 0 plies turns it off.
    - ``deep_probes``: (visits, plies, node budget) of deeper probes for the few nodes the
      search keeps coming back to (the root's likely moves), so the move played has nearly
      always been checked 9 plies deep; the move's deadline (and, while pondering, the
      opponent's reply) ends any probe.
    - ``guard_depths``, ``guard_nodes``, ``guard_share``: in the last ``guard_share`` of the
      move's time (a fraction), the move about to be played is searched for a forced win of
      the opponent's at each depth in plies, at most ``guard_nodes`` nodes a question. A move
      proven lost gives way to the next; the time a quick clearance leaves goes back to the
      search (bot.search.mcts.MCTS.search). Why: forced fours of 11 to 17 plies, beyond the
      9-ply probes, decide a large share of the analysed losses (docs/strength.md, "Where the
      games are lost").
    - ``guard_playout_nodes``: under a play-out cap (no clock), a guard question gets at most
      this many nodes per play-out of the move: a capped search has no clock to end the
      guard, so its guard is bounded in proportion to its play-outs.
    - ``ponder_guard``: after this many play-outs of pondering (0: never), the guard also
      checks our likely answer to the opponent's likely reply (the two most visited moves
      below the pondered position), at the same depths and node budget. Why: the move's own
      share of its time is too short for many of the proofs the guard exists for; the
      opponent's time has room, and a move proven lost there stays marked in the tree the
      next search starts from.
    - ``follow``: the chance (0 to 1) that a play-out's free move goes on top of the last
      one, which keeps each column's parity (bot.search.rollout).
    - ``keep_threats``: play-outs avoid playing under their own winning cell while another
      move is safe, so threats survive to the zugzwang.
    """

    c: float = 0.5
    probe_depth: int = 3
    probe_visits: int = 20
    probe_nodes: int = 1_000
    deep_probes: Tuple[Tuple[int, int, int], ...] = (
        (1_000, 5, 10_000), (3_000, 7, 40_000), (6_000, 9, 150_000))
    guard_depths: Tuple[int, ...] = (11, 13)
    guard_nodes: int = 400_000
    guard_share: float = 0.2
    guard_playout_nodes: int = 24
    ponder_guard: int = 500
    follow: float = 0.8
    keep_threats: bool = True

    def probe_schedule(self) -> dict:
        """visits -> (plies, node budget) of the probe a node gets when it reaches them."""
        schedule = {visits: (plies, nodes) for visits, plies, nodes in self.deep_probes}
        if self.probe_depth:
            schedule[self.probe_visits] = (self.probe_depth, self.probe_nodes)
        return schedule


DEFAULT = Settings()
