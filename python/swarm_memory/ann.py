"""Per-simulation approximate-nearest-neighbour indexes: load first, index after.

A simulation with at least `min_rows` embedded episodes gets a partial HNSW index of its
own over half-precision vectors, once its rows are loaded; memory.search_episodes uses it
when it exists and searches exactly otherwise. Building row by row while importing would
cost far more (an HNSW index maintained per row loads about 0.5k rows/s here), so imports
never wait for an index; run `swarm-memory index` after large imports.

The plan and the statements come from the database (memory.ann_plan, memory.ann_index),
which name a simulation by its opaque number only (memory.simulations.sim_no): no index
name or predicate carries a tenant or simulation id. Any role with memory_admin's
privileges runs it:
- as a superuser, each statement runs here with CREATE INDEX CONCURRENTLY, so other tenants
  keep reading and writing during a build;
- otherwise (managed PostgreSQL) memory.ann_index runs them as memory_owner, a plain CREATE
  INDEX: every tenant's writes to episodes wait while a simulation's index builds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg

DEFAULT_MIN_ROWS = 2000


@dataclass(frozen=True)
class IndexAction:
    sim_no: int
    rows: int
    index_name: str
    action: str  # built, rebuilt (other parameters), kept, dropped
    seconds: float


_DONE = {"build": "built", "rebuild": "rebuilt", "keep": "kept", "drop": "dropped"}


def plan(
    conn: psycopg.Connection, min_rows: int, m: int = 32, ef_construction: int = 128
) -> list[tuple[int, str, int, str]]:
    """memory.ann_plan: (sim_no, index name, embedded episodes, action) for every simulation
    with at least `min_rows` embedded episodes and every per-simulation index to drop."""
    return conn.execute(
        "SELECT sim_no, index_name, episodes, action FROM memory.ann_plan(%s, %s, %s)",
        (min_rows, m, ef_construction),
    ).fetchall()


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
        superuser = conn.execute(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone()[0]
        for sim_no, name, rows, action in plan(conn, min_rows, m, ef_construction):
            start = time.perf_counter()
            if action != "keep":
                # One transaction per simulation: a build's lock ends with it.
                statements = conn.execute(
                    "SELECT s FROM memory.ann_index(%s, %s, %s, %s, %s) AS s",
                    (sim_no, action, m, ef_construction, not superuser),
                ).fetchall()
                if superuser:
                    for (statement,) in statements:
                        conn.execute(statement)  # CONCURRENTLY: outside a transaction
            seconds = time.perf_counter() - start
            done = _DONE[action]
            if action != "keep":
                log(f"{done} {name} ({rows} episodes) in {seconds:.1f} s")
            actions.append(IndexAction(sim_no, rows, name, done, seconds))
    return actions
