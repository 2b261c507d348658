"""Batches on Dask workers: `bundle` packs what a worker needs, `worker` plays there, `client`
submits games and collects records (docs/cluster.md)."""
