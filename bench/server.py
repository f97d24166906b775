"""A dedicated embedded PostgreSQL for the benchmarks, tuned for this machine."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import psycopg
from swarm_memory import migrate, server

DATADIR = Path(
    os.environ.get(
        "SWARM_MEMORY_BENCH_PGDATA", Path(__file__).resolve().parents[1] / ".cache" / "bench" / "pg"
    )
)

SETTINGS = {
    "shared_buffers": "6GB",
    "effective_cache_size": "16GB",
    "maintenance_work_mem": "4GB",
    "work_mem": "64MB",
    "max_wal_size": "16GB",
    "checkpoint_timeout": "30min",
    "max_parallel_maintenance_workers": "1",
    "jit": "off",
}


def fresh(settings: dict[str, str] | None = None) -> str:
    """A new, empty, tuned and migrated server; returns the superuser DSN."""
    if DATADIR.exists():
        server.stop(DATADIR)
        shutil.rmtree(DATADIR)
    DATADIR.parent.mkdir(parents=True, exist_ok=True)
    dsn = server.start(DATADIR)
    with psycopg.connect(dsn, autocommit=True) as conn:
        for key, value in (settings or SETTINGS).items():
            conn.execute(f"ALTER SYSTEM SET {key} = '{value}'")
    server.stop(DATADIR)
    dsn = server.start(DATADIR)
    migrate.migrate(dsn)
    return dsn


def settle(dsn: str) -> None:
    """Let a load's aftermath settle before the next measurement: vacuum and analyze what was
    written (what autovacuum would otherwise do while the next calls are timed: on two cores
    it has none to itself) and write the dirty pages out."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        conn.execute("CHECKPOINT")


def stop() -> None:
    server.stop(DATADIR)
