"""The naive query as a peer (issue 13, item 5): seed 1 of this project's vector search.

One shared table of every tenant's episodes (tenant, simulation, id, vector) and

    SELECT episode_id FROM naive.episodes WHERE tenant_id = $1 AND simulation_id = $2
     ORDER BY embedding <=> $3 LIMIT 10

in three forms, each asked the same question right after search_episodes (bench.clumps):
- *exact*: no vector index (the ORDER BY written as `(embedding <=> q) + 0`, which no index
  serves): the simulation's rows through the (tenant, simulation) b-tree, every distance
  computed and sorted;
- *shared HNSW*: one HNSW index over the whole table (pgvector's defaults, m = 16,
  ef_construction = 64, ef_search = 40), filtered after the scan;
- *shared HNSW + iterative scan*: the same with `hnsw.iterative_scan = relaxed_order`
  (pgvector 0.8: the scan goes on until the filter has passed enough rows or
  `hnsw.max_scan_tuples`, 20,000 by default, is reached).
No row-level security and no function call: the floor of what plain SQL costs. The exact
form of the largest simulations is asked a bounded number of questions (it takes hundreds of
milliseconds a call).
"""

from __future__ import annotations

import time

import numpy as np
import psycopg
from swarm_memory.client import configure

NAIVE_SQL = (
    "SELECT episode_id FROM naive.episodes WHERE tenant_id = %s AND simulation_id = %s"
    " ORDER BY embedding <=> %s LIMIT 10"
)
EXACT_SQL = (
    "SELECT episode_id FROM naive.episodes WHERE tenant_id = %s AND simulation_id = %s"
    " ORDER BY (embedding <=> %s) + 0, episode_id LIMIT 10"
)
EXACT_ROWS_MAX = 2_000_000  # exact questions per simulation: at most this many rows scanned


def prepare(su: str, sims: list, log=print) -> dict:
    """The shared table with the given simulations' episodes, its b-tree and HNSW index."""
    with psycopg.connect(su, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS naive CASCADE")
        conn.execute("CREATE SCHEMA naive")
        conn.execute(
            "CREATE TABLE naive.episodes (tenant_id uuid NOT NULL, simulation_id uuid NOT NULL,"
            " episode_id text NOT NULL, embedding public.vector(384) NOT NULL,"
            " PRIMARY KEY (tenant_id, simulation_id, episode_id))"
        )
        t = time.perf_counter()
        for s in sims:  # as a superuser: row-level security does not apply
            conn.execute(
                "INSERT INTO naive.episodes SELECT tenant_id, simulation_id, episode_id, embedding"
                " FROM memory.episodes WHERE tenant_id = %s AND simulation_id = %s"
                " AND embedding IS NOT NULL",
                (s.tenant_id, s.simulation_id),
            )
        rows = conn.execute("SELECT count(*) FROM naive.episodes").fetchone()[0]
        load_s = time.perf_counter() - t
        t = time.perf_counter()
        conn.execute(
            "CREATE INDEX naive_episodes_hnsw ON naive.episodes"
            " USING hnsw (embedding public.vector_cosine_ops)"
        )
        index_s = time.perf_counter() - t
        conn.execute("VACUUM ANALYZE naive.episodes")
    log(f"naive: shared table of {rows} rows in {load_s:.1f} s, HNSW index in {index_s:.1f} s")
    return {"rows": rows, "load_seconds": load_s, "index_seconds": index_s}


class Peer:
    """Three connections, one per form, so that each keeps its settings."""

    def __init__(self, su: str, _app: str) -> None:
        self.exact = psycopg.connect(su, autocommit=True)
        self.hnsw = psycopg.connect(su, autocommit=True)
        self.iterative = psycopg.connect(su, autocommit=True)
        for c in (self.exact, self.hnsw, self.iterative):
            configure(c)
        self.hnsw.execute("SET hnsw.iterative_scan = off")
        self.iterative.execute("SET hnsw.iterative_scan = relaxed_order")

    def ask(self, sim, q: np.ndarray, j: int) -> dict[str, tuple[float, list[str]]]:
        out = {}
        args = (sim.tenant_id, sim.simulation_id, q)
        if j < max(10, EXACT_ROWS_MAX // max(1, sim.size)):
            out["naive exact"] = _timed(self.exact, EXACT_SQL, args)
        out["naive shared HNSW"] = _timed(self.hnsw, NAIVE_SQL, args)
        out["naive shared HNSW + iterative scan"] = _timed(self.iterative, NAIVE_SQL, args)
        return out

    def close(self) -> None:
        for c in (self.exact, self.hnsw, self.iterative):
            c.close()


def _timed(conn: psycopg.Connection, sql: str, args: tuple) -> tuple[float, list[str]]:
    t = time.perf_counter()
    rows = conn.execute(sql, args).fetchall()
    return time.perf_counter() - t, [r[0] for r in rows]
