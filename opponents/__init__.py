"""The opponent ladder: players of graded strength for the arena (see docs/opponents.md)."""
