"""The shapes of a finished game, shared by everything that writes or reads one.

- ``codes``: the course's result codes and the fault kinds that map onto them.
- ``game``: ``GameRecord``, one finished game as the JSON Lines log holds it (docs/design.md).
- ``log``: reading and appending the log (``LOG_NAME`` in a results folder), and its errors.
- ``analysis``: where a lost game was decided, as ``python -m arena analyse`` writes it
  (docs/analyse.md).

The arena writes these records, the loss analysis, the replay page and the benchmarks read
them; this package imports none of them, so the arrows between packages run one way.
"""
