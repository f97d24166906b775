"""Distribute the memory schema over a Citus cluster (`swarm-memory distribute`).

Run on the coordinator after `swarm-memory migrate`, as a superuser, and again after every
later migrate: `sql/citus/distribute.sql` makes the tenants, their grants and every table
without a tenant reference tables, distributes every tenant table by `tenant_id` colocated
with `memory.simulations`, and registers each API function that takes the tenant first as a
distributed function (its tenant argument the distribution argument, force_delegation), so
that a call runs whole on the worker holding its tenant: every read and write, the promote of
an import too. begin_import and stage_rows stay on the coordinator: they use the caller's
session (the attempt's advisory lock, the temporary staging tables). Idempotent: a second run
changes nothing and reports no step.

`sql/citus/cluster_audit.sql` then installs `memory.rls_audit_shards()`, the row-level security
audit of every shard placement (see there).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from swarm_memory.sqlfiles import PROJECT_ROOT

SQL_DIR = PROJECT_ROOT / "sql" / "citus"
CALL = "CALL pg_temp.swarm_memory_distribute();"


@dataclass(frozen=True)
class Step:
    step: str
    object: str


class CitusMissing(RuntimeError):
    """The database has no citus extension (or the server has not preloaded it)."""


def _script(name: str) -> str:
    return (Path(SQL_DIR) / name).read_text(encoding="utf-8")


def citus_version(conn) -> str | None:  # noqa: ANN001 - a psycopg connection
    row = conn.execute(
        "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'citus'"
    ).fetchone()
    return None if row is None else row[0]


def distribute(dsn: str, shard_count: int | None = None) -> list[Step]:
    """Distribute the schema of the database at `dsn` (the coordinator); return what changed.
    `shard_count` is the number of shards of the tables distributed now (citus.shard_count for
    this run; None: the server's setting). It counts only for the first distribution: every
    later table is colocated with memory.simulations and takes its shards, and a tenant moves
    between workers a shard group at a time, so the count bounds how finely a cluster can be
    balanced (the design on paper takes 128)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        if citus_version(conn) is None:
            raise CitusMissing(
                f"database {conn.info.dbname} has no citus extension: set shared_preload_libraries"
                " = 'citus' on every node, restart, CREATE EXTENSION citus and add the workers"
            )
        # The procedure commits step by step (Citus does not take a reference table created
        # earlier in the same transaction for one): its CALL is a statement of its own, since
        # a string of several statements runs as one transaction.
        setup, call = _script("distribute.sql").split(CALL)
        if shard_count is not None:
            if not 1 <= shard_count <= 64000:
                raise ValueError(f"shard count {shard_count}: from 1 to 64000")
            conn.execute("SELECT set_config('citus.shard_count', %s, false)", (str(shard_count),))
        conn.execute(setup)
        # the shard audit first: the procedure puts every function of the schema on every
        # node, this one too
        conn.execute(_script("cluster_audit.sql"))
        conn.execute(CALL)
        rows = conn.execute(
            "SELECT step, object FROM pg_temp.distribute_log ORDER BY step, object"
        ).fetchall()
    return [Step(*row) for row in rows]
