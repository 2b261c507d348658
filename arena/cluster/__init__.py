"""Batches on Dask workers (docs/cluster.md): `client` submits, `bundle` ships, `worker` plays."""
