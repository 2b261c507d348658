"""Where each lost game was decided: game records in, proofs out (`python -m arena analyse`).
A loss is walked backwards with the bot's exact searches (bot.search.solver, bot.search.tactics)
under a time budget a position: where the loser was first proven lost, its decisive mistake and
the winning line; what a budget cannot settle is reported as unsettled, never guessed. It never
imports the arena, and the referee never imports the bot, so the two implementations of the
rules check each other."""
