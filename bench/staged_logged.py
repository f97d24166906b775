"""What logging the staged tables costs an import on one node.

    python -m bench.staged_logged [--episodes 5000] [--imports 5]

On a Citus cluster `distribute` makes the import's staged_* tables logged (a shard move
publishes its shard group, and an unlogged table cannot be published); one node keeps them
unlogged. This measures what that costs the import on one node: a fresh embedded server
(bench/server.py, default durability: fsync and full-page writes on, small memory for a
shared machine), the same staged import (bench/load.py's staged_import) of --episodes
episodes with real precomputed vectors into a new simulation, with the staged tables unlogged
and logged alternately, --imports times each. Prints the median seconds and episodes/s of
each, their ratio, and the WAL each wrote.
"""

from __future__ import annotations

import argparse
import os
import statistics
import uuid

import numpy as np
import psycopg
from swarm_memory.client import Memory

from bench import data, load, server

SETTINGS = {"shared_buffers": "256MB", "max_wal_size": "4GB", "jit": "off"}


def _persistence(dsn: str, logged: bool) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for (table,) in conn.execute(
            "SELECT c.oid::regclass::text FROM pg_class AS c WHERE c.relnamespace ="
            " 'memory'::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'staged\\_%'"
            " ORDER BY 1"
        ).fetchall():
            conn.execute(f"ALTER TABLE {table} SET {'LOGGED' if logged else 'UNLOGGED'}")
        conn.execute("CHECKPOINT")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=5000)
    parser.add_argument("--imports", type=int, default=5)
    args = parser.parse_args(argv)
    dsn = server.fresh(SETTINGS)
    try:
        tenant = uuid.uuid4()
        with Memory(dsn) as mem:
            mem.create_tenant("staged-logged", tenant)
            mem.grant_tenant("postgres", tenant)
        base = data.base_set(500, 10)  # real vectors of generated posts, cached under .cache
        rng = np.random.default_rng(7)
        runs: dict[str, list[tuple[float, int]]] = {"unlogged": [], "logged": []}
        for _ in range(args.imports):
            for label in ("unlogged", "logged"):
                _persistence(dsn, label == "logged")
                sim = load.Sim(tenant, uuid.uuid4(), args.episodes, [0, 1, 2])
                rows = load.episode_rows(sim, base, rng)
                with Memory(dsn) as mem, mem.connect() as conn:
                    mem.upsert_simulation(tenant, sim.simulation_id, "staged", conn=conn)
                    (before,) = conn.execute("SELECT pg_current_wal_lsn()").fetchone()
                    seconds = load.staged_import(mem, conn, sim, {"episodes": rows})
                    (wal,) = conn.execute(
                        "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)::bigint", (before,)
                    ).fetchone()
                runs[label].append((seconds, wal))
                server.settle(dsn)
        med = {k: statistics.median(s for s, _ in v) for k, v in runs.items()}
        wal = {k: statistics.median(w for _, w in v) for k, v in runs.items()}
        for label in runs:
            print(
                f"{label:9} {med[label]:.2f} s  {args.episodes / med[label]:.0f} episodes/s"
                f"  WAL {wal[label] / 2**20:.0f} MiB  (runs: "
                + ", ".join(f"{s:.2f}" for s, _ in runs[label])
                + ")"
            )
        print(f"logged / unlogged: {med['logged'] / med['unlogged']:.2f}x the time")
        print(f"load average: {os.getloadavg()}")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
