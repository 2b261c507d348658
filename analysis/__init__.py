"""Where each lost game was decided (`python -m arena analyse`, docs/analyse.md): each loss walked
backwards with the bot's exact searches under a budget a position; what a budget cannot settle
is unsettled, never guessed. It never imports the arena, so the two rules check each other."""
