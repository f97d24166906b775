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
    action: str  # built, rebuilt (other parameters), kept, dropped
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
        wanted_options = sorted([f"m={m}", f"ef_construction={ef_construction}"])
        for tenant, sim, rows, name in wanted:
            found = conn.execute(
                "SELECT i.indisvalid, c.reloptions FROM pg_index i"
                " JOIN pg_class c ON c.oid = i.indexrelid"
                " WHERE i.indexrelid = to_regclass(%s)",
                (f"memory.{name}",),
            ).fetchone()
            if found and found[0] and sorted(found[1] or []) == wanted_options:
                actions.append(IndexAction(tenant, sim, rows, name, "kept", 0.0))
                continue
            start = time.perf_counter()
            if found is None:
                _create(conn, name, tenant, sim, m, ef_construction)
                action = "built"
            elif not found[0]:  # an invalid leftover of an interrupted build
                _drop(conn, name)
                _create(conn, name, tenant, sim, m, ef_construction)
                action = "built"
            else:
                # Built with other parameters: build the new one beside it, then swap, so the
                # simulation is never without an index for longer than the swap.
                _drop(conn, f"{name}_new")
                _create(conn, f"{name}_new", tenant, sim, m, ef_construction)
                _drop(conn, name)
                conn.execute(
                    sql.SQL("ALTER INDEX memory.{} RENAME TO {}").format(
                        sql.Identifier(f"{name}_new"), sql.Identifier(name)
                    )
                )
                action = "rebuilt"
            seconds = time.perf_counter() - start
            log(f"{action} {name} for {rows} episodes of simulation {sim} in {seconds:.1f} s")
            actions.append(IndexAction(tenant, sim, rows, name, action, seconds))
        for name in stale:
            _drop(conn, name)
            log(f"dropped {name}")
            actions.append(IndexAction(None, None, 0, name, "dropped", 0.0))
    return actions


def _create(
    conn: psycopg.Connection, name: str, tenant: uuid.UUID, sim: uuid.UUID, m: int, ef: int
) -> None:
    conn.execute(
        sql.SQL(
            "CREATE INDEX CONCURRENTLY {} ON memory.episodes USING hnsw"
            " ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)"
            " WITH (m = {}, ef_construction = {})"
            " WHERE tenant_id = {} AND simulation_id = {}"
        ).format(
            sql.Identifier(name),
            sql.Literal(m),
            sql.Literal(ef),
            sql.Literal(tenant),
            sql.Literal(sim),
        )
    )


def _drop(conn: psycopg.Connection, name: str) -> None:
    conn.execute(
        sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS memory.{}").format(sql.Identifier(name))
    )
