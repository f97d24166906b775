"""The walk beside two peers loaded with the same graphs: Kuzu, an embedded graph database, and
networkx, the in-memory floor. Each start node is walked in turn (the order rotating from
call to call) by the full walk (`neighbors`: names, paths, facts, states), the lean walk
(`neighbor_ids`: ids, depth and the edge that reached each node, what Kuzu answers), the
executor's floor (one bare recursive statement over the keys, sent by the client: no
checks, no edge picked, no ids; what PostgreSQL's executor costs for the same
breadth-first search), Kuzu and networkx, at every depth from 1 to 20 on the bench's
preferential-attachment graph and at depth 20 on K15; every answer is checked against
networkx (the same node at the same least depth), and the table gives each peer's p50 and
the walks' ratios to Kuzu's.

    python -m bench.graph_peers --dsn "host=... dbname=... user=postgres" [--queries 50]
        [--depths 1,2,3,20] [--split]

run alone it creates a tenant and a login role in that database, loads the two graphs
through the staged import and measures; `make bench` calls measure() on the graphs it
loaded. --depths measures some depths only; --split also times, interleaved with the rest,
the same walk counted on the server (`SELECT count(*) FROM memory.neighbors(...)`: every
column computed, no row sent), so that the table shows what of the walk's figure is the
server's work and what is sending and decoding the rows. The load average is logged before
and after (the machine may be shared) and kept in the result.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import tempfile
import time
import uuid
import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import psycopg

from bench import load

# Each peer answers the same question: every node within `depth` steps of the start along
# edges in either direction, each once at its least depth (the start itself excluded).
WALK_SQL = "SELECT node_id, depth FROM memory.neighbors(%s, %s, %s, %s)"
# the lean walk: every column it has (node id, depth, edge id)
LEAN_SQL = "SELECT node_id, depth, edge_id FROM memory.neighbor_ids(%s, %s, %s, %s)"
# the floor: the same breadth-first search as one bare statement over the keys, sent on the
# superuser's connection (no row-level security, no function, no checks), a level an iteration over the covering indexes, the visited
# nodes dropped by a hash anti-join; it answers keys (md5 of the ids), counted here by size
FLOOR_SQL = """
WITH RECURSIVE walk (level, found, visited) AS (
    SELECT 0, ARRAY[md5(%(start)s)::uuid], ARRAY[md5(%(start)s)::uuid]
    UNION ALL
    SELECT w.level + 1, s.found, w.visited || s.found
      FROM walk AS w
     CROSS JOIN LATERAL (
        SELECT array_agg(DISTINCT y.k) AS found
          FROM (SELECT e.target_key AS k FROM memory.edges AS e
                 WHERE e.tenant_id = %(t)s AND e.simulation_id = %(s)s AND e.source_key = ANY (w.found)
                UNION ALL
                SELECT e.source_key FROM memory.edges AS e
                 WHERE e.tenant_id = %(t)s AND e.simulation_id = %(s)s AND e.target_key = ANY (w.found)) AS y
         WHERE NOT EXISTS (SELECT FROM unnest(w.visited) AS v(k) WHERE v.k = y.k)) AS s
     WHERE w.level < %(depth)s AND s.found IS NOT NULL)
SELECT unnest(found), level FROM walk WHERE level > 0"""
# --split: the same walk with every column computed on the server and no row sent
SERVER_SQL = "SELECT count(*) FROM memory.neighbors(%s, %s, %s, %s)"
# Kuzu: its breadth-first shortest-path recursion (each node once, at its least depth),
# undirected; upper bounds are literals in Cypher, so one prepared statement per depth.
KUZU_SQL = "MATCH p = (a:N {{id: $id}})-[:E* SHORTEST 1..{depth}]-(b:N) RETURN b.id, length(p)"
DEPTHS = tuple(range(1, 21))


class Kuzu:
    """An in-memory Kuzu database holding one graph: nodes N(id, name, type), edges E."""

    def __init__(self, name: str, n_nodes: int, pairs: list[tuple[int, int]]) -> None:
        import kuzu

        self.db = kuzu.Database()  # in memory: the fastest Kuzu there is
        self.conn = kuzu.Connection(self.db)
        self.conn.execute(
            "CREATE NODE TABLE N(id STRING, name STRING, type STRING, PRIMARY KEY (id))"
        )
        self.conn.execute("CREATE REL TABLE E(FROM N TO N, id STRING, type STRING)")
        with tempfile.TemporaryDirectory(prefix=f"kuzu-{name}-") as tmp:
            nodes, edges = Path(tmp) / "nodes.csv", Path(tmp) / "edges.csv"
            with nodes.open("w", newline="") as f:
                w = csv.writer(f)
                for i in range(n_nodes):
                    w.writerow([f"n-{i}", f"Entity {i}", "Person"])
            with edges.open("w", newline="") as f:
                w = csv.writer(f)
                for k, (a, b) in enumerate(pairs):
                    w.writerow([f"n-{a}", f"n-{b}", f"e-{k}", "SUPPORTS"])
            self.conn.execute(f"COPY N FROM '{nodes}' (header=false)")
            self.conn.execute(f"COPY E FROM '{edges}' (header=false)")
        # prepared once, as a caller that walks often would (Kuzu 0.11 warns that it prefers
        # execute(query, parameters), which plans on every call: slower, so not the peer)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.prepared = {d: self.conn.prepare(KUZU_SQL.format(depth=d)) for d in DEPTHS}

    def walk(self, start: str, depth: int) -> dict[str, int]:
        res = self.conn.execute(self.prepared[depth], {"id": start})
        out: dict[str, int] = {}
        while res.has_next():
            node, length = res.get_next()
            out[node] = length
        return out


def nx_graph(n_nodes: int, pairs: list[tuple[int, int]]) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(f"n-{i}" for i in range(n_nodes))
    g.add_edges_from((f"n-{a}", f"n-{b}") for a, b in pairs)
    return g


def nx_walk(g: nx.Graph, start: str, depth: int) -> dict[str, int]:
    out = nx.single_source_shortest_path_length(g, start, cutoff=depth)
    out.pop(start)
    return out


def pcts(values: list[float]) -> dict:
    a = np.array(values) * 1000
    return {"p50_ms": float(np.percentile(a, 50)), "p99_ms": float(np.percentile(a, 99))}


def _compare(
    conn: psycopg.Connection,
    sim: load.Sim,
    peer: Kuzu,
    g: nx.Graph,
    starts: list[str],
    depth: int,
    split: bool = False,
    floor: psycopg.Connection | None = None,
) -> dict:
    lat: dict[str, list[float]] = {"walk": [], "lean": [], "floor": [], "kuzu": [], "networkx": []}
    if floor is None:
        del lat["floor"]
    if split:
        lat["walk_server"] = []
    sizes = []
    for i, start in enumerate(starts):
        calls = [
            (
                "walk",
                lambda s=start: conn.execute(
                    WALK_SQL, (sim.tenant_id, sim.simulation_id, s, depth)
                ).fetchall(),
            ),
            (
                "lean",
                lambda s=start: conn.execute(
                    LEAN_SQL, (sim.tenant_id, sim.simulation_id, s, depth)
                ).fetchall(),
            ),
            (
                "floor",
                lambda s=start: floor.execute(
                    FLOOR_SQL,
                    {"t": sim.tenant_id, "s": sim.simulation_id, "start": s, "depth": depth},
                ).fetchall(),
            ),
            ("kuzu", lambda s=start: peer.walk(s, depth)),
            ("networkx", lambda s=start: nx_walk(g, s, depth)),
        ]
        calls = [c for c in calls if c[0] in lat]
        if split:
            calls.append(
                (
                    "walk_server",
                    lambda s=start: conn.execute(
                        SERVER_SQL, (sim.tenant_id, sim.simulation_id, s, depth)
                    ).fetchone()[0],
                )
            )
        got = {}
        k = i % len(calls)
        for name, call in calls[k:] + calls[:k]:  # rotate who goes first
            t = time.perf_counter()
            got[name] = call()
            lat[name].append(time.perf_counter() - t)
        truth = got["networkx"]
        walk = {node: d for node, d in got["walk"]}
        assert len(walk) == len(got["walk"]), ("a node twice", start, depth)
        assert walk == truth, ("walk differs from networkx", start, depth, len(walk), len(truth))
        lean = {node: d for node, d, _edge in got["lean"]}
        assert lean == truth and len(lean) == len(got["lean"]), ("lean walk differs", start, depth)
        # the lean walk is the full walk cut to its ids: the same edge reached each node
        full = sorted((r[0], r[1]) for r in got["walk"])
        assert full == sorted((r[0], r[1]) for r in got["lean"]), ("lean and full differ", start)
        assert floor is None or len(got["floor"]) == len(truth), ("floor differs", start, depth)
        assert got["kuzu"] == truth, ("kuzu differs from networkx", start, depth)
        assert not split or got["walk_server"] == len(truth), ("server count differs", start, depth)
        sizes.append(len(truth))
    out = {name: pcts(v) for name, v in lat.items()}
    out["mean_nodes"] = float(np.mean(sizes))
    out["walk_vs_kuzu"] = out["walk"]["p50_ms"] / out["kuzu"]["p50_ms"]
    out["lean_vs_kuzu"] = out["lean"]["p50_ms"] / out["kuzu"]["p50_ms"]
    if floor is not None:
        out["lean_vs_floor"] = out["lean"]["p50_ms"] / out["floor"]["p50_ms"]
    out["walk_vs_networkx"] = out["walk"]["p50_ms"] / out["networkx"]["p50_ms"]
    return out


def _server_note(r: dict) -> str:
    if "walk_server" not in r:
        return ""
    return f", server only {r['walk_server']['p50_ms']:.2f} ms"


def _line(r: dict) -> str:
    return (
        f"lean {r['lean']['p50_ms']:.2f} ms, full {r['walk']['p50_ms']:.2f} ms, floor "
        f"{r['floor']['p50_ms']:.2f} ms, kuzu {r['kuzu']['p50_ms']:.2f} ms, networkx "
        f"{r['networkx']['p50_ms']:.2f} ms ({r['mean_nodes']:.0f} nodes; lean/kuzu "
        f"{r['lean_vs_kuzu']:.2f}, lean/floor {r['lean_vs_floor']:.2f}, full/kuzu "
        f"{r['walk_vs_kuzu']:.2f}{_server_note(r)})"
    )


def measure(
    app_dsn: str,
    big: load.Sim,
    k15: load.Sim,
    queries: int,
    log=print,
    depths: tuple[int, ...] = DEPTHS,
    split: bool = False,
    *,
    floor_dsn: str,
) -> dict:
    """The walks and their peers, interleaved, on the two graphs `make bench` loaded
    (sim.edges); the floor's statement on floor_dsn, a superuser's connection."""
    load_before = os.getloadavg()
    log(f"  load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    t = time.perf_counter()
    peers = {
        "big": (Kuzu("big", big.n_nodes, big.edges), nx_graph(big.n_nodes, big.edges)),
        "k15": (Kuzu("k15", k15.n_nodes, k15.edges), nx_graph(k15.n_nodes, k15.edges)),
    }
    res: dict = {
        "graph_nodes": big.n_nodes,
        "graph_edges": big.n_edges,
        "queries": queries,
        "peers_loaded_s": time.perf_counter() - t,
        "depths": {},
        "load_before": list(load_before),
    }
    rnd = random.Random(13)
    with (
        psycopg.connect(app_dsn, autocommit=True) as conn,
        psycopg.connect(floor_dsn, autocommit=True) as floor,
    ):
        kz, g = peers["big"]
        for depth in DEPTHS:
            # the same starts whichever depths are measured
            starts = [f"n-{rnd.randrange(big.n_nodes)}" for _ in range(queries)]
            if depth not in depths:
                continue
            res["depths"][depth] = r = _compare(conn, big, kz, g, starts, depth, split, floor)
            log(f"  depth {depth:2d}: {_line(r)}")
        kz, g = peers["k15"]
        starts = [f"n-{rnd.randrange(k15.n_nodes)}" for _ in range(queries)]
        res["k15"] = r = _compare(conn, k15, kz, g, starts, 20, split, floor)
        log(f"  K15 depth 20: {_line(r)}")
    res["load_after"] = list(os.getloadavg())
    log("  load average after: " + " ".join(f"{x:.2f}" for x in res["load_after"]))
    return res


def table(res: dict) -> str:
    """Rows for the bench table: one per depth and K15, met when the lean walk's p50 is at or
    below Kuzu's; the full walk and the executor's floor beside it."""
    lines = []
    rows = [(f"depth {d}", r) for d, r in res["depths"].items()] + [("K15 depth 20", res["k15"])]
    for label, r in rows:
        ok = "met" if r["lean_vs_kuzu"] <= 1.0 else "NOT MET"
        lines.append(
            f"| walk vs Kuzu, {label} ({r['mean_nodes']:.0f} nodes) | lean p50 <= Kuzu's "
            f"| lean {r['lean']['p50_ms']:.2f} ms ({r['lean_vs_kuzu']:.2f}x Kuzu, "
            f"{r['lean_vs_floor']:.2f}x floor), full {r['walk']['p50_ms']:.2f} ms"
            f"{_server_note(r)} ({r['walk_vs_kuzu']:.2f}x), floor {r['floor']['p50_ms']:.2f} ms, "
            f"Kuzu {r['kuzu']['p50_ms']:.2f} ms, networkx {r['networkx']['p50_ms']:.2f} ms | {ok} |"
        )
    return "\n".join(lines)


def main() -> None:
    from swarm_memory.client import Memory
    from swarm_memory.server import as_role

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", required=True, help="a superuser DSN of a migrated database")
    p.add_argument("--role", default="walk_peers_app", help="login role created for the walks")
    p.add_argument("--queries", type=int, default=50)
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument(
        "--depths",
        default=",".join(map(str, DEPTHS)),
        help="comma-separated depths of the big graph to measure (K15 is always measured)",
    )
    p.add_argument(
        "--split",
        action="store_true",
        help="also time the walk counted on the server (every column computed, no row sent)",
    )
    args = p.parse_args()
    depths = tuple(sorted({int(d) for d in args.depths.split(",")}))
    if not set(depths) <= set(DEPTHS):
        p.error(f"--depths: each depth is one of {DEPTHS[0]}..{DEPTHS[-1]}")
    rng = np.random.default_rng(42)
    with psycopg.connect(args.dsn, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (args.role,)).fetchone():
            conn.execute(f'CREATE ROLE "{args.role}" LOGIN')
            conn.execute(f'GRANT memory_writer TO "{args.role}"')
        tenant = conn.execute(
            "SELECT memory.create_tenant(%s)", (f"graph-peers-{uuid.uuid4()}",)
        ).fetchone()[0]
        conn.execute("SELECT memory.grant_tenant(%s, %s)", (args.role, tenant))
    app = as_role(args.dsn, args.role)
    big = load.Sim(tenant, uuid.uuid4(), 0, [0], n_nodes=args.nodes, n_edges=args.nodes * 5)
    k15 = load.Sim(tenant, uuid.uuid4(), 0, [0], n_nodes=15, n_edges=210)
    with Memory(app) as mem, mem.connect() as conn:
        for sim in (big, k15):
            nodes, edges = load.graph_rows(sim, rng)
            load.staged_import(mem, conn, sim, {"nodes": nodes, "edges": edges})
    with psycopg.connect(args.dsn, autocommit=True) as conn:
        conn.execute("ANALYZE memory.nodes")
        conn.execute("ANALYZE memory.edges")
    res = measure(app, big, k15, args.queries, depths=depths, split=args.split, floor_dsn=args.dsn)
    print(table(res))


if __name__ == "__main__":
    main()
