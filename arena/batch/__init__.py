"""Batches: a config checked before anything starts, the built-in players, the scheduler with
its local `-j` pool (its Dask path is `arena.cluster`) and the SPRT's early stop."""
