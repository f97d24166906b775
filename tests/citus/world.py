"""The data of the cluster tests and of `make bench-citus`: a database on the cluster,
migrated and distributed, and beside it a database of the coordinator without the citus
extension ("one node"), both holding the example run's graph and its Twitter posts, embedded
with the real model (all-MiniLM-L6-v2) when built.

The rows are inserted directly by the superuser, the same rows in both databases (the API's
writes have tests of their own in test_writes.py). The applications' grants are made by an
administrator through the API.
"""

from __future__ import annotations

import json
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import cluster  # noqa: E402
from swarm_memory.embed import MODEL_NAME  # noqa: E402

# Login roles of the cluster tests (roles are per server; Citus propagates them to the workers).
ROLES = {
    "citus_app_a": "memory_writer",
    "citus_app_b": "memory_writer",
    "citus_admin": "memory_admin",
    "citus_reader_a": "memory_reader",
}
TENANT_A = uuid.UUID("00000000-0000-4000-8000-00000000000a")
TENANT_B = uuid.UUID("00000000-0000-4000-8000-00000000000b")
SIM_A = uuid.UUID("00000000-0000-4000-8000-0000000000a1")
SIM_B = uuid.UUID("00000000-0000-4000-8000-0000000000b1")


@dataclass(frozen=True)
class Cluster:
    coordinator: cluster.Node
    workers: list[cluster.Node]
    dbname: str
    single: str  # the one-node database on the coordinator (no citus extension)

    def dsn(self, role: str = "postgres") -> str:
        return self.coordinator.dsn(self.dbname, role)

    def single_dsn(self, role: str = "postgres") -> str:
        return self.coordinator.dsn(self.single, role)


def _example() -> tuple[list[dict], list[dict], list[dict]]:
    """The example run's nodes, edges and Twitter posts as upsert items (no vectors yet)."""
    run = ROOT / "examples" / "mirofish_run"
    graph = json.loads((run / "graph.json").read_text())
    graph = graph.get("data", graph)
    nodes = [
        {
            "id": n["uuid"],
            "name": n["name"],
            "type": next((x for x in n["labels"] if x not in ("Entity", "Node")), "Entity"),
            "summary": n.get("summary"),
        }
        for n in graph["nodes"]
    ]
    edges = [
        {
            "id": e["uuid"],
            "type": e["name"],
            "source_id": e["source_node_uuid"],
            "target_id": e["target_node_uuid"],
            "fact": e["fact"],
            "valid_at": e.get("valid_at"),
        }
        for e in graph["edges"]
    ]
    episodes = []
    for line_no, line in enumerate((run / "twitter" / "actions.jsonl").read_text().splitlines()):
        row = json.loads(line)
        content = (row.get("action_args") or {}).get("content")
        if row.get("event_type") or row.get("action_type") != "CREATE_POST" or not content:
            continue
        episodes.append(
            {
                "id": f"tw-{line_no}",
                "agent_id": row["agent_id"],
                "agent_name": row["agent_name"],
                "platform": "twitter",
                "round": row["round"],
                "action_type": row["action_type"],
                "content": content,
            }
        )
    return nodes, edges, episodes


def _load(conn, nodes: list[dict], edges: list[dict], episodes: list[dict], vectors) -> None:  # noqa: ANN001
    """Insert the data for tenant A (and a little for B) directly, as the superuser."""
    for tenant, sim in ((TENANT_A, SIM_A), (TENANT_B, SIM_B)):
        conn.execute(
            "INSERT INTO memory.tenants (tenant_id, name) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            (tenant, f"citus-{tenant.hex[-1]}"),
        )
        conn.execute(
            "INSERT INTO memory.simulations (tenant_id, simulation_id, name, published)"
            " VALUES (%s, %s, 'example', true) ON CONFLICT DO NOTHING",
            (tenant, sim),
        )
        n = nodes if tenant == TENANT_A else nodes[:3]
        with conn.cursor() as cur:
            sim_no = conn.execute(
                "SELECT sim_no FROM memory.simulations WHERE tenant_id = %s AND simulation_id = %s",
                (tenant, sim),
            ).fetchone()[0]
            cur.executemany(
                "INSERT INTO memory.nodes (tenant_id, simulation_id, sim_no, node_id, name, type,"
                " summary) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                [(tenant, sim, sim_no, x["id"], x["name"], x["type"], x["summary"]) for x in n],
            )
            if tenant == TENANT_A:
                cur.executemany(
                    "INSERT INTO memory.edges (tenant_id, simulation_id, sim_no, edge_id, type,"
                    " source_id, target_id, fact, valid_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT DO NOTHING",
                    [
                        (
                            tenant,
                            sim,
                            sim_no,
                            e["id"],
                            e["type"],
                            e["source_id"],
                            e["target_id"],
                            e["fact"],
                            e["valid_at"],
                        )
                        for e in edges
                    ],
                )
            cur.executemany(
                "INSERT INTO memory.episodes (tenant_id, simulation_id, sim_no, episode_id, agent_id,"
                " agent_name, platform, round, action_type, content, embedding, embedding_model)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::text::vector, %s) ON CONFLICT DO NOTHING",
                [
                    (
                        tenant,
                        sim,
                        sim_no,
                        e["id"],
                        e["agent_id"],
                        e["agent_name"],
                        e["platform"],
                        e["round"],
                        e["action_type"],
                        e["content"],
                        "[" + ",".join(f"{v:.7f}" for v in vec) + "]",
                        MODEL_NAME,
                    )
                    for e, vec in zip(
                        episodes if tenant == TENANT_A else episodes[:5], vectors, strict=False
                    )
                ],
            )


def _roles(conn) -> None:  # noqa: ANN001
    for role, group in ROLES.items():
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            conn.execute(f'CREATE ROLE "{role}" LOGIN')
        conn.execute(f'GRANT "{group}" TO "{role}"')


def build(dbname: str, single: str, workers: int = 2) -> Cluster:
    """Start the cluster, create both databases afresh, migrate, distribute and load them."""
    import psycopg
    from swarm_memory import migrate
    from swarm_memory.distribute import distribute
    from swarm_memory.embed import Embedder

    all_nodes = cluster.up(workers)
    coordinator, worker_nodes = all_nodes[0], all_nodes[1:]
    cluster.drop_database(dbname, cluster.nodes(3))
    cluster.drop_database(single, [coordinator])
    dsn = cluster.create_database(dbname, worker_nodes, coordinator)
    with psycopg.connect(coordinator.dsn(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{single}"')
    c = Cluster(coordinator, worker_nodes, dbname, single)
    migrate.migrate(dsn)
    migrate.migrate(c.single_dsn())
    distribute(dsn)
    nodes, edges, episodes = _example()
    vectors = Embedder().encode([e["content"] for e in episodes])
    for target in (dsn, c.single_dsn()):
        with psycopg.connect(target, autocommit=True) as conn:
            _roles(conn)
        with psycopg.connect(target) as conn:
            # The statement triggers (word postings, history) are left out of the load: on a
            # shard they see the shard's name, not the table's (README "Scaling out").
            conn.execute("SET LOCAL citus.propagate_set_commands = 'local'")
            conn.execute("SET LOCAL session_replication_role = replica")
            _load(conn, nodes, edges, episodes, vectors)
            conn.commit()
        with psycopg.connect(target, autocommit=True) as conn:
            for tenant in (TENANT_A, TENANT_B):
                conn.execute("SELECT memory.grant_tenant('postgres', %s)", (tenant,))
        # the applications' grants made by an administrator (not a superuser): on the
        # cluster grant_tenant asks every node for the role's OID there (V0024)
        with psycopg.connect(
            target.replace("user=postgres", "user=citus_admin"), autocommit=True
        ) as conn:
            conn.execute("SELECT memory.grant_tenant('citus_app_a', %s)", (TENANT_A,))
            conn.execute("SELECT memory.grant_tenant('citus_app_b', %s)", (TENANT_B,))
            conn.execute("SELECT memory.grant_tenant('citus_reader_a', %s)", (TENANT_A,))
    return c


def drop(c: Cluster) -> None:
    cluster.drop_database(c.dbname, cluster.nodes(3))
    cluster.drop_database(c.single, [c.coordinator])
