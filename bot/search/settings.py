"""The search's tuning, in one place: benchmarks and tests set it from Python, the command line
does not (a student's options are protocol, time, play-outs, seed, pondering, cores and logs).

Each value is the one measured best; docs/strength.md has the figures and the commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple


@dataclass(frozen=True)
class Settings:
    """How the MCTS-solver searches.

    - ``c``: the UCB1 exploration constant for scores in [0, 1]. 0.5 measured better than 0.7
      at 1,500 play-outs a move and equal at 5,000; 1.2 clearly worse.
    - ``probe_depth``, ``probe_visits``, ``probe_nodes``: a node reaching ``probe_visits``
      visits is searched ``probe_depth`` plies deep for a forced win (MCTS-MS, Baier and
      Winands), at most ``probe_nodes`` nodes (about 5 ms); 0 plies turns it off.
    - ``deep_probes``: (visits, plies, node budget) of deeper probes for the few nodes the
      search keeps coming back to (the root's likely moves). A 7-ply question takes 6 ms on
      average and up to 0.1 s, a 9-ply one 28 ms and up to about 160k nodes (at 390,000 nodes
      a second in the column order; the same questions now run x1.4 as fast at 7 plies
      and x1.7 at 9, docs/performance.md); the move's deadline (and, while pondering, the
      opponent's reply) also ends any probe.
    - ``guard_depths``, ``guard_nodes``, ``guard_share``: the move about to be played is
      searched for a forced win of the opponent's at each depth in turn (at most
      ``guard_nodes`` nodes a question), in the last ``guard_share`` of the move's time; a
      move proven lost gives way to the next, and the time a quick clearance leaves goes
      back to the search (bot.search.mcts.MCTS.search). Forced fours of 11 to 17 plies, beyond
      the 9-ply probes, decide over a third of the bot's analysed losses (docs/strength.md,
      "Where the games are lost", keeps the counts). Under
      a play-out cap a question gets at most ``guard_playout_nodes`` nodes a play-out: at
      2.4 s the search runs about 12,000 play-outs on one core while the guard's 0.48 s
      bought about 280,000 nodes in the column order, 24 a play-out. With threatening moves
      first (bot.search.tactics) a proof that a decisive move loses within 13 plies takes 358
      to 63,000 nodes (one 219,000; the 17 such moves of the first 61 analysed losses), where
      the column order took 137,000 to 713,000.
    - ``ponder_guard``: after this many play-outs of pondering (0: never), the guard also
      checks our likely answer to the opponent's likely reply, the two most visited moves
      below the pondered position, at the same depths and node budget. The move's own guard
      gets a fifth of the move's time, too little for most 13-ply proofs in the column order
      (0.4 to 0.9 s at the analysed losses); the opponent's time has room for them, and a
      move proven lost there stays marked in the tree the next search starts from.
    - ``follow``: the chance that a play-out move goes on top of the last one (keeps each
      column's parity, bot.search.rollout).
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
