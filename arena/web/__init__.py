"""The web app (`arena serve`): play the bot, watch a batch, the analysis board and the game
review, over HTTP with Server-Sent Events for the pushes."""
