"""The domain's nouns, shared by every layer from a config to the statistics and the pages.

- ``player``: ``PlayerSpec``, how to start a player, parsed once from YAML or the command line.
- ``board``: ``Board``, a board's size and forbidden cell, and its JSON form.
- ``codes``: the course's result codes and the fault kinds that map onto them.
- ``result``: ``Side``, ``Seat``, ``Result``, ``Outcome``, ``WinChance`` and ``Fault``, the
  course's codes read both ways.
- ``move``: ``Move``, a cell, and its three written forms ([x, y], "x.y", base 36).
- ``game``: ``GameKey`` and ``GameRecord``, one finished game as the JSON Lines log holds it
  (docs/design.md).
- ``tally``: the one aggregation (W-D-L by side, player, colour and pairing; game pairs).
- ``log``: reading, appending and following the log (``LOG_NAME`` in a results folder).
- ``analysis``: where a lost game was decided, as ``python -m arena analyse`` writes it
  (docs/analyse.md).

Each is parsed from and printed to its JSON or YAML form here and nowhere else. The arena, the
loss analysis, the pages and the benchmarks use them; this package imports none of them, so
the arrows between packages run one way.
"""
