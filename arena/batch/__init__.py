"""Batches: the config, the built-in players, the scheduler and its local pool, the early stop."""
