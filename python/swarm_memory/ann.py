"""Per-simulation approximate-nearest-neighbour indexes: load first, index after.

A simulation with at least `min_rows` embedded episodes gets a partial HNSW index of its
own over half-precision vectors, built with CREATE INDEX CONCURRENTLY (no lock against the
other tenants' reads and writes) once its rows are loaded; memory.search_episodes uses it
when it exists and searches exactly otherwise. Building row by row while importing would
cost far more (an HNSW index maintained per row loads about 0.5k rows/s here), so imports
never wait for an index; run `swarm-memory index` after large imports.

This is database maintenance: it counts episodes across tenants and runs DDL on the
owner's table, so it needs a superuser connection.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from psycopg import sql

DEFAULT_MIN_ROWS = 2000


@dataclass(frozen=True)
class IndexAction:
    tenant_id: uuid.UUID | None
    simulation_id: uuid.UUID | None
    rows: int
    index_name: str
    action: str  # built, kept, dropped
    seconds: float


def plan(conn: psycopg.Connection, min_rows: int) -> tuple[list[tuple], list[str]]:
    """(simulations that need an index, names of indexes whose simulation is gone or small)."""
    wanted = conn.execute(
        "SELECT e.tenant_id, e.simulation_id, count(*) AS n,"
        "       memory._ann_index_name(e.tenant_id, e.simulation_id)"
        "  FROM memory.episodes AS e WHERE e.embedding IS NOT NULL"
        " GROUP BY 1, 2 HAVING count(*) >= %s ORDER BY n DESC",
        (min_rows,),
    ).fetchall()
    names = {w[3] for w in wanted}
    existing = [
        r[0]
        for r in conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'memory' AND c.relkind = 'i' AND c.relname LIKE 'episodes\\_ann\\_%%'"
        ).fetchall()
    ]
    return wanted, [name for name in existing if name not in names]


def build(
    dsn: str,
    min_rows: int = DEFAULT_MIN_ROWS,
    *,
    m: int = 32,
    ef_construction: int = 128,
    log: Callable[[str], None] = lambda _m: None,
) -> list[IndexAction]:
    actions: list[IndexAction] = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        if not conn.execute(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone()[0]:
            raise PermissionError(
                "swarm-memory index needs a superuser connection "
                "(it counts episodes across tenants and builds indexes)"
            )
        wanted, stale = plan(conn, min_rows)
        for tenant, sim, rows, name in wanted:
            valid = conn.execute(
                "SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(%s)",
                (f"memory.{name}",),
            ).fetchone()
            if valid and valid[0]:
                actions.append(IndexAction(tenant, sim, rows, name, "kept", 0.0))
                continue
            if valid is not None:  # an invalid leftover of an interrupted build
                conn.execute(
                    sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS memory.{}").format(
                        sql.Identifier(name)
                    )
                )
            start = time.perf_counter()
            conn.execute(
                sql.SQL(
                    "CREATE INDEX CONCURRENTLY {} ON memory.episodes USING hnsw"
                    " ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)"
                    " WITH (m = {}, ef_construction = {})"
                    " WHERE tenant_id = {} AND simulation_id = {}"
                ).format(
                    sql.Identifier(name),
                    sql.Literal(m),
                    sql.Literal(ef_construction),
                    sql.Literal(tenant),
                    sql.Literal(sim),
                )
            )
            seconds = time.perf_counter() - start
            log(f"built {name} for {rows} episodes of simulation {sim} in {seconds:.1f} s")
            actions.append(IndexAction(tenant, sim, rows, name, "built", seconds))
        for name in stale:
            conn.execute(
                sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS memory.{}").format(sql.Identifier(name))
            )
            log(f"dropped {name}")
            actions.append(IndexAction(None, None, 0, name, "dropped", 0.0))
    return actions
