"""Where each lost game was decided: game records in, proofs out (`python -m arena analyse`).

A loss is walked backwards from its last move with the bot's exact searches (the win/draw/loss
solver of bot.search.solver and the forced-win search of bot.search.tactics), each position
under a time budget: the first ply from which the loser was proven lost, its decisive mistake
(the last move it made while a move not proven lost was still there) with the alternatives that
held, and the winning line the proof found. What a budget cannot settle is reported as
unsettled, never guessed.

- ``proof``: the exact questions about one position (each move's value, the shortest forced
  win, a winning line and how it ends).
- ``game``: one record's analysis (the backwards walk), a ``records.analysis.LossAnalysis``.
- ``summary``: how a file's losses split (colour, phase, kind of mistake, unsettled).
- ``command``: the command line, records in and annotated records out.

This package reads and writes game records (``records``) and uses the bot's search; it never
imports the arena, and the referee in arena/ never imports the bot, so the two implementations
of the rules still check each other.
"""
