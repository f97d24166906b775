"""The bulk import beside its floors, interleaved in one run (bench/README.md, "Ingest and
its floors").

Each round times, one after the other on the same server and the same rows (episodes with
their vectors, as `bench.load.episode_rows` makes them):

- `plain`: a binary COPY into an unindexed table of the staged columns: what moving the
  bytes costs, nothing else;
- `shaped`: the same COPY into `memory.episodes` itself, with its indexes, defaults,
  generated key and checks, but no trigger, no foreign key check and no row-level security
  (`session_replication_role = replica`, as the superuser), rolled back: what storing the
  rows in the live table's shape costs in the loaded store;
- `shaped_words`: `shaped` and, in the same rolled-back transaction, the rows' word
  postings computed and inserted in one statement, as memory._index_words does: the floor of
  a searchable-by-words import;
- `import`: the staged import (`bench.load.staged_import`), begin, stage and commit.

Every figure is episodes a second and the import's ratio to each floor; a round's order
turns so that no step always follows the same one."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import numpy as np
import psycopg
from swarm_memory.client import Memory

from bench import data, load

_PLAIN = """
CREATE TABLE IF NOT EXISTS public.bench_ingest_floor (
    tenant_id uuid, simulation_id uuid, episode_id text, agent_id integer, agent_name text,
    platform text, round integer, action_type text, content text, metadata jsonb,
    occurred_at timestamptz, embedding public.vector(384), embedding_model text,
    content_hash bytea)
"""
_COLUMNS = (
    "tenant_id, simulation_id, episode_id, agent_id, agent_name, platform, round, "
    "action_type, content, metadata, occurred_at, embedding, embedding_model, content_hash"
)
_SHAPED_COLUMNS = _COLUMNS + ", sim_no, source"
# The postings of the rows just copied, as memory._index_words computes an episode's
_WORDS = """
INSERT INTO memory.word_postings (tenant_id, simulation_id, word, kind, row_key, tf, weight, doc_len)
SELECT n.tenant_id, n.simulation_id, u.lexeme, 'e', n.episode_key,
       LEAST(COALESCE(cardinality(u.positions), 1), 32767)::smallint,
       (CASE WHEN 'A' = ANY (u.weights) THEN 'A' ELSE 'B' END)::"char",
       LEAST(length(d.doc), 32767)::smallint
  FROM memory.episodes AS n
 CROSS JOIN LATERAL (SELECT memory._words_doc(n.content, NULL) AS doc OFFSET 0) AS d
 CROSS JOIN LATERAL unnest(d.doc) AS u
 WHERE n.tenant_id = %s AND n.simulation_id = %s AND n.content IS NOT NULL
 ORDER BY 3, 4, 5
"""


def _vector_types(conn: psycopg.Connection) -> list[int]:
    oids = dict(
        conn.execute(
            "SELECT typname, oid::integer FROM pg_type WHERE typname IN"
            " ('uuid', 'text', 'int4', 'jsonb', 'timestamptz', 'vector', 'bytea', 'int8')"
            " AND typnamespace IN ('pg_catalog'::regnamespace, 'public'::regnamespace)"
        ).fetchall()
    )
    names = ["uuid", "uuid", "text", "int4", "text", "text", "int4", "text", "text", "jsonb"]
    names += ["timestamptz", "vector", "text", "bytea"]
    return [oids[n] for n in names]


def _tuples(rows: list[dict], tenant: uuid.UUID, sim: uuid.UUID) -> list[tuple]:
    from psycopg.types.json import Jsonb

    return [
        (
            tenant,
            sim,
            r["id"],
            r["agent_id"],
            r["agent_name"],
            r["platform"],
            r["round"],
            r["action_type"],
            r["content"],
            Jsonb(r["metadata"]),
            r["occurred_at"],
            r["embedding"],
            r["embedding_model"],
            r["content_hash"],
        )
        for r in rows
    ]


def _copy(conn: psycopg.Connection, table: str, columns: str, types: list[int], rows) -> None:
    with conn.cursor().copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def plain(su: psycopg.Connection, rows: list[dict], tenant: uuid.UUID) -> float:
    """Seconds to COPY the rows (built into tuples inside the timing, as the import builds
    its own) into an unindexed table, committed; the table is emptied afterwards."""
    types = _vector_types(su)
    su.execute(_PLAIN)
    su.execute("TRUNCATE public.bench_ingest_floor")
    su.commit()
    start = time.perf_counter()
    with su.transaction():
        _copy(su, "public.bench_ingest_floor", _COLUMNS, types, _tuples(rows, tenant, uuid.uuid4()))
    seconds = time.perf_counter() - start
    su.execute("TRUNCATE public.bench_ingest_floor")
    su.commit()
    return seconds


def shaped(su: psycopg.Connection, rows: list[dict], tenant: uuid.UUID, words: bool) -> float:
    """Seconds to COPY the rows into memory.episodes (a new simulation of `tenant`) with its
    indexes and no trigger, foreign key check or policy, then (with `words`) their postings,
    and commit: the transaction is rolled back instead, so the store is as it was, and the
    time of its commit is not counted (a commit of that size costs little beside it)."""
    types = _vector_types(su) + [
        su.execute("SELECT 'int8'::regtype::oid::integer").fetchone()[0],
        su.execute("SELECT 'text'::regtype::oid::integer").fetchone()[0],
    ]
    sim = uuid.uuid4()
    su.rollback()
    start = time.perf_counter()
    try:
        with su.transaction():
            su.execute("SET LOCAL session_replication_role = replica")
            sim_no = su.execute(
                "INSERT INTO memory.simulations (tenant_id, simulation_id, name) VALUES (%s, %s, %s)"
                " RETURNING sim_no",
                (tenant, sim, "bench ingest floor"),
            ).fetchone()[0]
            body = [t + (sim_no, "import") for t in _tuples(rows, tenant, sim)]
            _copy(su, "memory.episodes", _SHAPED_COLUMNS, types, body)
            if words:
                su.execute(_WORDS, (tenant, sim))
            seconds = time.perf_counter() - start
            raise _RolledBack
    except _RolledBack:
        pass
    return seconds


class _RolledBack(Exception):
    """Leaves a floor's transaction by rolling it back."""


def measure(
    su_dsn: str,
    app_dsn: str,
    tenant: uuid.UUID,
    base: data.Base,
    rng: np.random.Generator,
    n: int,
    rounds: int = 3,
    log: Callable[[str], None] = print,
) -> dict:
    """`rounds` rounds of the four steps on `n` episodes each, the order turned every round;
    medians, the import's ratio to each floor, and every sample."""
    samples: dict[str, list[float]] = {"plain": [], "shaped": [], "shaped_words": [], "import": []}
    phases: dict[str, float] = {}
    with (
        psycopg.connect(su_dsn) as su,
        Memory(app_dsn) as mem,
        mem.connect() as conn,
    ):
        from pgvector.psycopg import register_vector

        register_vector(su)
        for r in range(rounds):
            sim = load.Sim(tenant, uuid.uuid4(), n, [0, 1, 2])
            rows = load.episode_rows(sim, base, rng)
            sim.vectors = None
            steps = {
                "plain": lambda rows=rows: plain(su, rows, tenant),
                "shaped": lambda rows=rows: shaped(su, rows, tenant, words=False),
                "shaped_words": lambda rows=rows: shaped(su, rows, tenant, words=True),
                "import": lambda rows=rows, sim=sim: load.staged_import(
                    mem, conn, sim, {"episodes": rows}, phases=phases
                ),
            }
            order = list(steps)
            order = order[r % len(order) :] + order[: r % len(order)]
            for name in order:
                samples[name].append(steps[name]())
            log(
                f"  ingest round {r + 1}/{rounds}: "
                + ", ".join(f"{k} {n / v[-1]:,.0f}/s" for k, v in samples.items())
            )
    med = {k: float(np.median(v)) for k, v in samples.items()}
    return {
        "episodes": n,
        "rounds": rounds,
        "seconds": med,
        "episodes_per_s": {k: n / v for k, v in med.items()},
        "import_over": {k: med["import"] / med[k] for k in ("plain", "shaped", "shaped_words")},
        "import_phases": {k: v / rounds for k, v in phases.items()},
        "samples": samples,
    }


def main() -> None:
    """python -m bench.ingest --dsn SUPERUSER_DSN [--episodes 50000] [--rounds 3]: the
    import beside its floors on any migrated database, into the oldest tenant (as a login
    role granted to it); prints JSON with the load average."""
    import argparse
    import json
    import os

    from swarm_memory.server import as_role

    p = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    p.add_argument("--dsn", required=True)
    p.add_argument("--role", default="ingest_app")
    p.add_argument("--episodes", type=int, default=50_000)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    with psycopg.connect(args.dsn, autocommit=True) as su:
        if not su.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (args.role,)).fetchone():
            su.execute(f'CREATE ROLE "{args.role}" LOGIN')
            su.execute(f'GRANT memory_writer TO "{args.role}"')
        tenant = su.execute(
            "SELECT tenant_id FROM memory.tenants ORDER BY created_at LIMIT 1"
        ).fetchone()[0]
        su.execute("SELECT memory.grant_tenant(%s, %s)", (args.role, tenant))
    before = os.getloadavg()
    result = measure(
        args.dsn,
        as_role(args.dsn, args.role),
        tenant,
        data.base_set(2000, 10),
        np.random.default_rng(5),
        args.episodes,
        args.rounds,
    )
    result["load_average"] = {"before": list(before), "after": list(os.getloadavg())}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
