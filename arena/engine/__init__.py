"""The engine's analysis: the client of the bot's analysis mode (`python -m bot --analyse`), the
positions it is asked about, and the game review built on it."""
