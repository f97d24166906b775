"""Loading the benchmark data set through the staged import path, and the record-by-record
baseline it is compared with."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field

import numpy as np
import psycopg
from swarm_memory.client import Memory
from swarm_memory.embed import MODEL_NAME
from swarm_memory.importer import stage

from bench import data


@dataclass
class Sim:
    tenant_id: uuid.UUID
    simulation_id: uuid.UUID
    size: int
    topics: list[int]
    n_nodes: int = 0
    n_edges: int = 0
    vectors: np.ndarray | None = None  # kept for exact recall checks
    texts: np.ndarray | None = None
    edges: list[tuple[int, int]] = field(default_factory=list)


def episode_rows(sim: Sim, base: data.Base, rng: np.random.Generator) -> list[dict]:
    vectors, first = data.derive(base, sim.topics, sim.size, rng)
    sim.vectors = vectors
    sim.texts = first
    platforms = ("twitter", "reddit")
    rows = []
    for i in range(sim.size):
        rows.append(
            {
                "id": f"ep-{i}",
                "position": i,
                "agent_id": int(i % 97),
                "agent_name": f"agent {i % 97}",
                "platform": platforms[i % 2],
                "round": int(i // 500),
                "action_type": "CREATE_POST",
                "content": base.texts[int(first[i])],
                "metadata": {},
                "occurred_at": None,
                "embedding": vectors[i],
                "embedding_model": MODEL_NAME,
                "content_hash": None,
            }
        )
    return rows


def graph_rows(
    sim: Sim, rng: np.random.Generator, base: data.Base | None = None
) -> tuple[list[dict], list[dict]]:
    """The simulation's entities and facts. With `base`, every fact has a text and its
    vector, as every fact of a MiroFish import is embedded, and every entity a summary and
    both of an import's vectors, of "{type}: {name}" and of the summary (real vectors
    derived from the base set, as the episodes' are); without it, neither texts nor
    vectors."""
    kinds = ("Person", "Organization", "MediaOutlet", "Location", "Policy", "Event")
    nodes = [
        {
            "id": f"n-{i}",
            "position": i,
            "name": f"Entity {i}",
            "type": kinds[i % 6],
            "labels": ["Entity", kinds[i % 6]],
            "summary": None,
            "attributes": {},
            "embedding": None,
        }
        for i in range(sim.n_nodes)
    ]
    if sim.n_nodes == 15 and sim.n_edges == 210:
        pairs = [(a, b) for a in range(15) for b in range(15) if a != b]
    else:
        pairs = data.graph(sim.n_nodes, sim.n_edges, rng)
    sim.edges = pairs
    types = ("SUPPORTS", "OPPOSES", "WORKS_FOR", "REPORTS_ON", "LOCATED_IN", "MEMBER_OF")
    if base is not None and pairs:
        vectors, first = data.derive(base, sim.topics, len(pairs), rng)
        facts = [base.texts[int(i)] for i in first]
    else:
        vectors, facts = None, None
    if base is not None and nodes:
        # drawn after the facts' vectors, so that the facts are those of the graphs before
        names, _ = data.derive(base, sim.topics, len(nodes), rng)
        summaries, said = data.derive(base, sim.topics, len(nodes), rng)
        for i, node in enumerate(nodes):
            node["summary"] = base.texts[int(said[i])]
            node["embedding"] = names[i]
            node["summary_embedding"] = summaries[i]
            node["embedding_model"] = MODEL_NAME
    edges = [
        {
            "id": f"e-{k}",
            "position": k,
            "type": types[k % 6],
            "source_id": f"n-{a}",
            "target_id": f"n-{b}",
            "fact": facts[k] if facts else None,
            "attributes": {},
            "embedding": vectors[k] if vectors is not None else None,
            "embedding_model": MODEL_NAME if vectors is not None else None,
            "content_hash": None,
        }
        for k, (a, b) in enumerate(pairs)
    ]
    return nodes, edges


def staged_import(
    mem: Memory,
    conn: psycopg.Connection,
    sim: Sim,
    rows: dict[str, list[dict]],
    batch_size: int = 20000,
    phases: dict[str, float] | None = None,
) -> float:
    """One attempt for a simulation through the bulk path, on an autocommit session from
    `mem.connect()` (a transaction per call and per staged batch); returns seconds. With
    `phases`, adds each phase's seconds to it: begin, stage (rows built, COPY and
    memory.stage_rows), commit (validation, merge, evidence, cleanup)."""
    start = time.perf_counter()
    declared = {k: len(v) for k, v in rows.items()}
    attempt = mem.begin_import(sim.tenant_id, sim.simulation_id, declared, conn=conn)
    began = time.perf_counter()
    stage(mem, conn, sim.tenant_id, attempt, rows, batch_size)
    staged = time.perf_counter()
    mem.commit_import(sim.tenant_id, attempt, conn=conn)
    done = time.perf_counter()
    if phases is not None:
        for name, seconds in (
            ("begin", began - start),
            ("stage", staged - began),
            ("commit", done - staged),
        ):
            phases[name] = phases.get(name, 0.0) + seconds
    return done - start


def record_by_record(mem: Memory, conn: psycopg.Connection, sim: Sim, rows: list[dict]) -> float:
    """The same episodes, one upsert_episodes call (and transaction) per row, on a
    connection that is not in autocommit (each row committed by hand)."""
    mem.upsert_simulation(sim.tenant_id, sim.simulation_id, "record-by-record", conn=conn)
    conn.commit()
    start = time.perf_counter()
    for row in rows:
        item = {k: v for k, v in row.items() if k not in ("position", "content_hash")}
        item["embedding"] = [float(x) for x in row["embedding"]]
        mem.upsert_episodes(sim.tenant_id, sim.simulation_id, [item], conn=conn)
        conn.commit()
    return time.perf_counter() - start


def main() -> None:
    """python -m bench.load --dsn SUPERUSER_DSN [--episodes 50000]: one bulk import of
    episodes with precomputed vectors into a new simulation of the oldest tenant of that
    database (as a login role granted to it), timed by phase; issue 13, item 4."""
    import argparse

    from swarm_memory.server import as_role

    p = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    p.add_argument("--dsn", required=True)
    p.add_argument("--role", default="walk_peers_app")
    p.add_argument("--episodes", type=int, default=50_000)
    p.add_argument("--repeat", type=int, default=2)
    args = p.parse_args()
    with psycopg.connect(args.dsn, autocommit=True) as su:
        if not su.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (args.role,)).fetchone():
            su.execute(f'CREATE ROLE "{args.role}" LOGIN')
            su.execute(f'GRANT memory_writer TO "{args.role}"')
        tenant = su.execute(
            "SELECT tenant_id FROM memory.tenants ORDER BY created_at LIMIT 1"
        ).fetchone()[0]
        su.execute("SELECT memory.grant_tenant(%s, %s)", (args.role, tenant))
    base = data.base_set(2000, 10)
    rng = np.random.default_rng(7)
    with Memory(as_role(args.dsn, args.role)) as mem, mem.connect() as conn:
        for _ in range(args.repeat):
            sim = Sim(tenant, uuid.uuid4(), args.episodes, [0, 1, 2])
            t = time.perf_counter()
            rows = episode_rows(sim, base, rng)
            built = time.perf_counter() - t
            phases: dict[str, float] = {}
            seconds = staged_import(mem, conn, sim, {"episodes": rows}, phases=phases)
            each = ", ".join(f"{k} {v:.2f} s" for k, v in phases.items())
            print(
                f"{args.episodes} episodes: {args.episodes / seconds:,.0f} episodes/s "
                f"({seconds:.2f} s: {each}; rows built beforehand in {built:.2f} s)"
            )


if __name__ == "__main__":
    main()
