"""make bench: build a realistic data set, measure every target, print a table and write it
with a description of the machine to bench/results/latest.md and latest.json (replacing the
previous run's files), its headline figures appended to bench/history.csv.

    python -m bench.run [--scale 1.0] [--queries 200] [--pgbench-seconds 60]

--scale 1.0 is the full size (1M episodes over 500 simulations and 50 tenants, simulation
sizes 100..200k, graphs up to 10k nodes and 50k edges, over 1M edges in all). The same code
runs at a tiny scale inside make test (tests/test_bench.py) so that it does not rot.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psycopg
from swarm_memory import ann
from swarm_memory.client import Memory, configure
from swarm_memory.server import as_role

from bench import background, data, history, load, pgbench_mixed, recall_eval
from bench import server as bserver

RESULTS = history.RESULTS
APP = "bench_app"


def machine(dsn: str) -> dict:
    with psycopg.connect(dsn) as conn:
        pg = conn.execute("SHOW server_version").fetchone()[0]
        huge = conn.execute("SHOW huge_pages_status").fetchone()[0]
        vec = conn.execute(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        ).fetchone()[0]
        settings = dict(
            conn.execute(
                "SELECT name, setting || COALESCE(unit, '') FROM pg_settings WHERE name = ANY(%s)",
                (list(bserver.SETTINGS),),
            ).fetchall()
        )
    return {
        **history.host(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "postgresql": pg,
        "pgvector": vec,
        "settings": settings,
        "huge_pages": huge,
    }


def pcts(values: list[float]) -> dict:
    a = np.array(values) * 1000
    return {
        "p50_ms": float(np.percentile(a, 50)),
        "p99_ms": float(np.percentile(a, 99)),
        "n": len(values),
    }


def timed(conn: psycopg.Connection, sql: str, params: tuple) -> tuple[float, list[tuple]]:
    start = time.perf_counter()
    rows = conn.execute(sql, params).fetchall()
    return time.perf_counter() - start, rows


# Raw SQL, to measure the functions themselves (RLS overhead, driver overhead); the query
# vector goes binary through pgvector's adapter, as the driver sends it (configure()).
SEARCH_SQL = "SELECT episode_id FROM memory.search_episodes(%s, %s, %s, 10)"
WALK_SQL = "SELECT node_id, depth FROM memory.neighbors(%s, %s, %s, %s)"
# The walk at a world time, and the facts of a node (issue 11). The bench graph's edges carry
# no validity, so the walk as of any moment reaches what the plain walk reaches.
WALK_AS_OF_SQL = "SELECT node_id, depth FROM memory.neighbors(%s, %s, %s, %s, p_as_of => %s)"
AS_OF = "2026-01-01T00:00:00Z"
FACTS_SQL = "SELECT edge_id FROM memory.facts(%s, %s, %s, 'all')"


def plan_simulations(
    scale: float, rng: np.random.Generator, tenants: list[uuid.UUID]
) -> list[load.Sim]:
    total = max(2000, int(1_000_000 * scale))
    count = max(6, int(500 * scale))
    largest = min(200_000, max(1000, total // 5))
    sizes = data.simulation_sizes(total, count, 100, largest, rng)
    sims = []
    for i, size in enumerate(sorted(sizes)):
        topics = [int(x) for x in rng.choice(len(data.TOPICS), size=3, replace=False)]
        sim = load.Sim(tenants[i % len(tenants)], uuid.uuid4(), size, topics)
        sim.n_nodes = int(min(10_000, max(20, size // 4)))
        sim.n_edges = sim.n_nodes * 5
        sims.append(sim)
    # the largest simulation carries the largest graph: 10k nodes, 50k edges at full scale
    sims[-1].n_nodes = int(min(10_000, max(50, 10_000 * min(1.0, scale * 5))))
    sims[-1].n_edges = sims[-1].n_nodes * 5
    k15 = load.Sim(tenants[0], uuid.uuid4(), 100, [0, 1, 2], n_nodes=15, n_edges=210)
    sims.append(k15)
    return sims


def load_all(
    app_dsn: str,
    sims: list[load.Sim],
    base: data.Base,
    rng: np.random.Generator,
    keep: set[int],
    log,
) -> dict:
    totals = {"episodes": 0, "nodes": 0, "edges": 0}
    seconds = 0.0
    with Memory(app_dsn) as mem, mem.connect() as conn:
        for i, sim in enumerate(sims):
            episodes = load.episode_rows(sim, base, rng)
            nodes, edges = load.graph_rows(sim, rng, base)
            if i not in keep:
                sim.vectors = None
                sim.texts = None
            seconds += load.staged_import(
                mem, conn, sim, {"nodes": nodes, "edges": edges, "episodes": episodes}
            )
            totals["episodes"] += len(episodes)
            totals["nodes"] += len(nodes)
            totals["edges"] += len(edges)
            if (i + 1) % 50 == 0 or i + 1 == len(sims):
                log(
                    f"  loaded {i + 1}/{len(sims)} simulations, {totals['episodes']} episodes, "
                    f"{totals['edges']} edges, {seconds:.0f} s"
                )
    return {
        **totals,
        "seconds": seconds,
        "rows_per_s": (totals["episodes"] + totals["nodes"] + totals["edges"]) / seconds,
        "episodes_per_s_end_to_end": totals["episodes"] / seconds,
    }


def bulk_vs_record(
    app_dsn: str, tenant: uuid.UUID, base: data.Base, rng: np.random.Generator, n: int
) -> tuple[dict, load.Sim]:
    """The same n episodes with precomputed vectors: staged bulk import versus one
    upsert_episodes call per row, in the same run; and the bulk path per kind. Also returns
    the simulation of the large import (its vectors kept), for the bridge's questions."""
    with (
        Memory(app_dsn) as mem,
        mem.connect() as conn,
        mem.connect(autocommit=False) as by_hand,
    ):
        bulk = load.Sim(tenant, uuid.uuid4(), n, [0, 1, 2])
        rows = load.episode_rows(bulk, base, rng)
        bulk_s = load.staged_import(mem, conn, bulk, {"episodes": rows})
        # the same path for a simulation ten times that size: what the fixed cost of an
        # attempt (begin, staging tables, validation, commits) weighs on a larger import
        large = load.Sim(tenant, uuid.uuid4(), n * 10, [0, 1, 2])
        large_rows = load.episode_rows(large, base, rng)
        large_s = load.staged_import(mem, conn, large, {"episodes": large_rows})
        # searchable from the end of its import: by the exact scan until `swarm-memory index`
        # has built its index (run() times that build and gives both figures)
        exact_lat, answers = [], []
        for qi in range(20):
            q = base.question_vectors[qi]
            s, hits = timed(conn, SEARCH_SQL, (tenant, large.simulation_id, q))
            exact_lat.append(s)
            answers.append((q, {r[0] for r in hits}))
        exact_rec = [recall_of(large.vectors, q, got, 10) for q, got in answers]
        rbr = load.Sim(tenant, uuid.uuid4(), n, [0, 1, 2])
        rbr_s = load.record_by_record(mem, by_hand, rbr, rows)
        # nodes and edges alone
        graph = load.Sim(
            tenant, uuid.uuid4(), 0, [0], n_nodes=max(100, n // 5), n_edges=max(100, n // 5) * 5
        )
        nodes, edges = load.graph_rows(graph, rng, base)
        graph_s = load.staged_import(mem, conn, graph, {"nodes": nodes, "edges": edges})
    return {
        "episodes": n,
        "bulk_seconds": bulk_s,
        "bulk_episodes_per_s": n / bulk_s,
        "large_episodes": n * 10,
        "large_episodes_per_s": n * 10 / large_s,
        "large_seconds": large_s,
        "large_simulation_id": str(large.simulation_id),
        "large_exact": {**pcts(exact_lat), "recall_at_10": float(np.mean(exact_rec))},
        "record_by_record_seconds": rbr_s,
        "record_by_record_per_s": n / rbr_s,
        "speedup": rbr_s / bulk_s,
        "graph_nodes": len(nodes),
        "graph_edges": len(edges),
        "graph_rows_per_s": (len(nodes) + len(edges)) / graph_s,
    }, large


def recall_of(vectors: np.ndarray, q: np.ndarray, got: set[str], want: int) -> float:
    """The share of the exact top `want` (numpy, by episode id) among the ids returned."""
    truth = {f"ep-{i}" for i in np.argsort(-(vectors @ q))[:want]}
    return len(truth & got) / want


def measure_bridge(app_dsn: str, sim: load.Sim, base: data.Base) -> dict:
    """search_episodes on a simulation while its HNSW index builds (through its bridge):
    20 questions, recall@10 against numpy's exact ranking, latency."""
    lat, rec = [], []
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        configure(conn)
        for qi in range(20):
            q = base.question_vectors[qi]
            s, hits = timed(conn, SEARCH_SQL, (sim.tenant_id, sim.simulation_id, q))
            lat.append(s)
            rec.append(recall_of(sim.vectors, q, {r[0] for r in hits}, 10))
    return {**pcts(lat), "recall_at_10": float(np.mean(rec)), "min_recall": float(min(rec))}


def searchable(su: str, bulk: dict, actions: list[ann.IndexAction], bridge: dict) -> dict:
    """From files to searchable (issue 13, item 4): the large import of bulk_vs_record, then
    what `swarm-memory index` did for that simulation: its bridge (the IVFFlat index searched
    while the HNSW index builds; `bridge` holds the search measured through it), its own
    index, its clump build."""
    with psycopg.connect(su) as conn:
        sim_no = conn.execute(
            "SELECT sim_no FROM memory.simulations WHERE simulation_id = %s",
            (bulk["large_simulation_id"],),
        ).fetchone()[0]
    mine = next((a for a in actions if a.sim_no == sim_no), None)
    index_s = mine.seconds if mine else 0.0
    clump_s = mine.clumps.seconds if mine and mine.clumps else 0.0
    bridge_s = mine.bridged if mine else None
    n = bulk["large_episodes"]
    return {
        "episodes": n,
        "import_seconds": bulk["large_seconds"],
        "bridge_seconds": bridge_s,
        "bridge": bridge,
        "episodes_per_s_bridged": n / (bulk["large_seconds"] + bridge_s) if bridge_s else None,
        "index_seconds": index_s,
        "clump_seconds": clump_s,
        "exact": bulk["large_exact"],
        "episodes_per_s_exact": n / bulk["large_seconds"],
        "episodes_per_s_indexed": n / (bulk["large_seconds"] + index_s + clump_s),
    }


def measure_search(
    app_dsn: str, su_dsn: str, sims: list[load.Sim], base: data.Base, queries: int
) -> list[dict]:
    out = []
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        configure(conn)
        for sim in sims:
            lat, short = [], 0
            # one question first, apart: it reads the simulation's index from disk (the first
            # call after a restart); the timed questions measure a simulation in use
            first, _ = timed(
                conn, SEARCH_SQL, (sim.tenant_id, sim.simulation_id, base.question_vectors[-1])
            )
            # the timed calls follow one another; the exact answers are computed after them
            # (computed between the calls, the harness's scan of every vector would empty
            # the CPU caches before each timed call: bench/README.md, "How a call is timed")
            want = min(10, sim.size)
            answers = []
            for qi in range(queries):
                q = base.question_vectors[qi % len(base.question_vectors)]
                s, rows = timed(conn, SEARCH_SQL, (sim.tenant_id, sim.simulation_id, q))
                lat.append(s)
                short += len(rows) != want
                answers.append((q, {r[0] for r in rows}))
            recalls = [recall_of(sim.vectors, q, got, want) for q, got in answers]
            with psycopg.connect(su_dsn) as su:
                indexed = su.execute(
                    "SELECT to_regclass('memory.' || memory._ann_index_name(s.sim_no)) IS NOT NULL"
                    " FROM memory.simulations AS s WHERE s.tenant_id = %s AND s.simulation_id = %s",
                    (sim.tenant_id, sim.simulation_id),
                ).fetchone()[0]
            out.append(
                {
                    "size": sim.size,
                    "path": "hnsw" if indexed else "exact",
                    "recall_at_10": float(np.mean(recalls)),
                    "min_recall": float(np.min(recalls)),
                    "short_results": short,
                    **pcts(lat),
                    "first_ms": first * 1000,
                }
            )
    return out


def bfs_reach(sim: load.Sim, start: int, depth: int) -> int:
    adj: dict[int, list[int]] = {}
    for a, b in sim.edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    seen, frontier = {start}, [start]
    for _ in range(depth):
        nxt = []
        for u in frontier:
            for v in adj.get(u, []):
                if v not in seen:
                    seen.add(v)
                    nxt.append(v)
        frontier = nxt
    return len(seen) - 1


def measure_walk(app_dsn: str, big: load.Sim, k15: load.Sim, queries: int) -> dict:
    rnd = random.Random(5)
    res: dict = {"graph_nodes": big.n_nodes, "graph_edges": big.n_edges}
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        for depth in (1, 2, 3, 4):
            lat, reached = [], []
            for _ in range(queries):
                start = rnd.randrange(big.n_nodes)
                s, rows = timed(
                    conn, WALK_SQL, (big.tenant_id, big.simulation_id, f"n-{start}", depth)
                )
                lat.append(s)
                reached.append(len(rows))
            res[f"depth_{depth}"] = {**pcts(lat), "mean_nodes": float(np.mean(reached))}
        lat = []
        rows: list = []
        for _ in range(queries):  # p50 and p99 over as many walks as the other targets
            start = rnd.randrange(big.n_nodes)
            s, rows = timed(conn, WALK_SQL, (big.tenant_id, big.simulation_id, f"n-{start}", 20))
            lat.append(s)
            expected = bfs_reach(big, start, 20)
            assert len(rows) == expected, (len(rows), expected)
        res["depth_20_whole_graph"] = {**pcts(lat), "nodes": len(rows)}
        lat = []
        for _ in range(queries):
            s, rows = timed(
                conn, WALK_SQL, (k15.tenant_id, k15.simulation_id, f"n-{rnd.randrange(15)}", 20)
            )
            lat.append(s)
            assert len(rows) == 14
        res["k15_depth_20"] = pcts(lat)
        # the walk as of a moment beside the plain walk, interleaved from the same starts
        for depth in (2, 3):
            plain, as_of = [], []
            for _ in range(queries):
                start = f"n-{rnd.randrange(big.n_nodes)}"
                s1, r1 = timed(conn, WALK_SQL, (big.tenant_id, big.simulation_id, start, depth))
                s2, r2 = timed(
                    conn, WALK_AS_OF_SQL, (big.tenant_id, big.simulation_id, start, depth, AS_OF)
                )
                assert len(r1) == len(r2), (start, len(r1), len(r2))
                plain.append(s1)
                as_of.append(s2)
            res[f"as_of_depth_{depth}"] = {"plain": pcts(plain), "as_of": pcts(as_of)}
        lat, counts = [], []
        for _ in range(queries):
            s, rows = timed(
                conn,
                FACTS_SQL,
                (big.tenant_id, big.simulation_id, f"n-{rnd.randrange(big.n_nodes)}"),
            )
            lat.append(s)
            counts.append(len(rows))
        res["facts_of_node"] = {**pcts(lat), "mean_facts": float(np.mean(counts))}
    return res


# Recall (issue 12, item 7): the fused call as a caller makes it (routed), all five arms, and
# each arm alone, interleaved per question in an order that turns. The question names an
# entity so that the graph arm has a start (the bench's entities are named "Entity <n>").
RECALL_SQL = "SELECT kind, id FROM memory.recall(%s, %s, %s, %s, 10, %s)"
RECALL_CONFIGS = [
    ("routed", {}),
    ("all five arms", {"arms": list(recall_eval.ARMS)}),
    *[(arm, {"arms": [arm]}) for arm in recall_eval.ARMS],
]


# Recall is timed on a warm store: each simulation's rows, word postings and own indexes
# loaded into memory first (memory.warm, pg_prewarm installed for its indexes), as a gateway
# does after a restart or a load. Unwarmed, the p99 at 200,000 episodes was the first reading
# of each question's pages, not recall's work.
def warm(app_dsn: str, su_dsn: str, sim: load.Sim) -> list[tuple]:
    with psycopg.connect(su_dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        return conn.execute(
            "SELECT * FROM memory.warm(%s, %s)", (sim.tenant_id, sim.simulation_id)
        ).fetchall()


def measure_recall(
    app_dsn: str, su_dsn: str, sims: list[load.Sim], base: data.Base, queries: int
) -> list[dict]:
    rnd = random.Random(7)
    out = []
    for sim in sims:
        warm(app_dsn, su_dsn, sim)
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        configure(conn)
        for sim in sims:
            lat: dict[str, list[float]] = {label: [] for label, _ in RECALL_CONFIGS}
            rows_n: dict[str, list[int]] = {label: [] for label, _ in RECALL_CONFIGS}
            # one call of each configuration first, untimed, as a pooled connection has made
            # before: a session's first call plans recall's statements (about 25 ms here)
            for _, options in RECALL_CONFIGS:
                conn.execute(
                    RECALL_SQL,
                    (
                        sim.tenant_id,
                        sim.simulation_id,
                        f"{base.questions[-1]} Entity 0",
                        base.question_vectors[-1],
                        json.dumps(options),
                    ),
                ).fetchall()
            # seven configurations a question: a third of the other targets' questions (at
            # least 20; with fewer, the p99 is the slowest call but one)
            for qi in range(max(20, queries // 3)):
                i = qi % len(base.question_vectors)
                text = f"{base.questions[i]} Entity {rnd.randrange(max(1, sim.n_nodes))}"
                q = base.question_vectors[i]
                # the order turns with the question, so that no configuration always pays
                # for reading the question's pages first
                turn = qi % len(RECALL_CONFIGS)
                for label, options in RECALL_CONFIGS[turn:] + RECALL_CONFIGS[:turn]:
                    s, rows = timed(
                        conn,
                        RECALL_SQL,
                        (sim.tenant_id, sim.simulation_id, text, q, json.dumps(options)),
                    )
                    lat[label].append(s)
                    rows_n[label].append(len(rows))
            out.append(
                {
                    "size": sim.size,
                    "nodes": sim.n_nodes,
                    "edges": sim.n_edges,
                    **{
                        label: {**pcts(v), "mean_rows": float(np.mean(rows_n[label]))}
                        for label, v in lat.items()
                    },
                }
            )
    return out


def measure_rls(
    app_dsn: str, su_dsn: str, sim: load.Sim, big: load.Sim, base: data.Base, queries: int
) -> dict:
    """The same search and walk as a superuser (row-level security bypassed, the owner's view
    with RLS off) and as the granted application role under RLS, interleaved."""
    res = {}
    with (
        psycopg.connect(app_dsn, autocommit=True) as app,
        psycopg.connect(su_dsn, autocommit=True) as su,
    ):
        configure(app)
        configure(su)
        for name, sql, make in (
            (
                "search",
                SEARCH_SQL,
                lambda i: (sim.tenant_id, sim.simulation_id, base.question_vectors[i % 300]),
            ),
            (
                "walk_depth_2",
                WALK_SQL,
                lambda i: (big.tenant_id, big.simulation_id, f"n-{(i * 7919) % big.n_nodes}", 2),
            ),
        ):
            a, b = [], []
            for i in range(queries):
                b.append(timed(su, sql, make(i))[0])
                a.append(timed(app, sql, make(i))[0])
            pa, pb = np.percentile(a, 50), np.percentile(b, 50)
            res[name] = {
                "rls_p50_ms": pa * 1000,
                "no_rls_p50_ms": pb * 1000,
                "overhead_pct": (pa / pb - 1) * 100,
            }
    return res


SEARCH_FACTS_SQL = "SELECT edge_id FROM memory.search_facts(%s, %s, %s, %s, 'all')"
# the exact ranking, as the superuser: no sim_no in the query, so no partial index serves it
SEARCH_FACTS_EXACT_SQL = (
    "SELECT edge_id FROM memory.edges WHERE tenant_id = %s AND simulation_id = %s"
    " AND embedding IS NOT NULL ORDER BY embedding <=> %s::vector(384), edge_id LIMIT %s"
)


def measure_facts(
    app_dsn: str, su_dsn: str, sims: list[load.Sim], base: data.Base, queries: int
) -> list[dict]:
    """memory.search_facts (through the simulation's facts index where it has one) against
    the exact ranking: recall@10 and @50, and its latency beside the exact scan's."""
    out = []
    with psycopg.connect(app_dsn, autocommit=True) as conn, psycopg.connect(su_dsn) as su:
        configure(conn)
        configure(su)
        for sim in sims:
            # one call first, apart, as the search rows have it: it reads the simulation's
            # facts index from disk, and timed as the first of the top 10's calls it made
            # their p99 (the top 50's calls that followed had none of it)
            first, _ = timed(
                conn,
                SEARCH_FACTS_SQL,
                (sim.tenant_id, sim.simulation_id, base.question_vectors[-1], 10),
            )
            row: dict = {"size": sim.size, "facts": sim.n_edges, "first_ms": first * 1000}
            for k in (10, 50):
                lat, lat_exact, rec = [], [], []
                qs = [
                    base.question_vectors[i % len(base.question_vectors)]
                    for i in range(max(20, queries // 4))
                ]
                # each in its own pass, the calls one after another: the exact scan (the
                # truth, which reads every fact's vector) no longer runs between the timed
                # calls of search_facts (bench/README.md, "How a call is timed")
                got = []
                for q in qs:
                    s, rows = timed(
                        conn, SEARCH_FACTS_SQL, (sim.tenant_id, sim.simulation_id, q, k)
                    )
                    lat.append(s)
                    got.append({r[0] for r in rows})
                for q, g in zip(qs, got, strict=True):
                    se, want = timed(
                        su, SEARCH_FACTS_EXACT_SQL, (sim.tenant_id, sim.simulation_id, q, k)
                    )
                    lat_exact.append(se)
                    rec.append(len(g & {r[0] for r in want}) / max(1, len(want)))
                row[f"top{k}"] = {
                    **pcts(lat),
                    "exact": pcts(lat_exact),
                    "recall": float(np.mean(rec)),
                    "min_recall": float(np.min(rec)),
                }
            out.append(row)
    return out


def measure_driver(app_dsn: str, sim: load.Sim, base: data.Base, queries: int) -> dict:
    mem = Memory(app_dsn, min_size=1, max_size=1)
    raw = psycopg.connect(app_dsn, autocommit=True)
    configure(raw)
    try:
        sql = "SELECT * FROM memory.search_episodes(%s, %s, %s, %s, %s)"
        client, direct = [], []
        for i in range(queries):
            q = base.question_vectors[i % len(base.question_vectors)]
            s = time.perf_counter()
            mem.search_episodes(sim.tenant_id, sim.simulation_id, q, 10)
            client.append(time.perf_counter() - s)
            s = time.perf_counter()
            raw.execute(sql, (sim.tenant_id, sim.simulation_id, q, 10, None)).fetchall()
            direct.append(time.perf_counter() - s)
    finally:
        mem.close()
        raw.close()
    return {
        "client_p50_ms": float(np.median(client) * 1000),
        "raw_p50_ms": float(np.median(direct) * 1000),
        "overhead_ms": float((np.median(client) - np.median(direct)) * 1000),
    }


def measure_embedding(n: int) -> dict:
    try:
        from bench import embedding
    except ImportError:
        return {"skipped": "bench.embedding not available"}
    texts, _ = data.make_texts(n, seed=99)
    return embedding.measure(texts)


def run(
    scale: float,
    queries: int,
    pgbench_seconds: int,
    texts: int,
    log=print,
    write: bool = True,
    settings: dict[str, str] | None = None,
) -> dict:
    started = time.perf_counter()
    rng = np.random.default_rng(42)
    results: dict = {
        "scale": scale,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": history.head(),
    }
    log("bench: fresh server")
    # the full run's server (6 GB of shared buffers) in huge pages where they can be had
    # (bench/server.py reserve_huge_pages); a run with settings of its own as it is
    su = bserver.fresh(settings, huge_pages=settings is None)
    app_dsn = as_role(su, APP)
    # what the server did besides the calls timed: its autovacuum workers, by phase
    sampler = background.Sampler(su).start()
    outer_log = log

    def log(message: str) -> None:
        sampler.see(message)
        outer_log(message)

    results["machine"] = machine(su)
    n_tenants = max(2, int(50 * scale))
    with psycopg.connect(su, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {APP} LOGIN")
        conn.execute(f"GRANT memory_writer TO {APP}")
        tenants = [
            conn.execute("SELECT memory.create_tenant(%s)", (f"tenant-{i:02d}",)).fetchone()[0]
            for i in range(n_tenants)
        ]
        for t in tenants:
            conn.execute("SELECT memory.grant_tenant(%s, %s)", (APP, t))

    log(f"bench: base vectors ({texts} texts, real model)")
    t = time.perf_counter()
    base = data.base_set(texts, 300)
    results["base"] = {
        "texts": texts,
        "questions": 300,
        "seconds": time.perf_counter() - t,
        "cached": base.embed_seconds == 0.0,
    }

    sims = plan_simulations(scale, rng, tenants)
    k15 = sims[-1]
    main_sims = sims[:-1]
    targets = sorted(
        {
            min(range(len(main_sims)), key=lambda i: abs(main_sims[i].size - s))
            for s in (100, 1000, 2000, 5000, 20000, 200_000)
        }
    )
    log(f"bench: loading {len(sims)} simulations over {n_tenants} tenants")
    results["load"] = load_all(app_dsn, sims, base, rng, set(targets), log)
    results["load"]["simulations"] = len(sims)
    results["load"]["tenants"] = n_tenants

    # Let the load's aftermath settle (autovacuum of a million fresh rows, a checkpoint) so
    # that the import below is measured on a server doing nothing else, like the reads.
    bserver.settle(su)

    log("bench: bulk versus record-by-record")
    results["bulk_vs_record"], large = bulk_vs_record(
        app_dsn, tenants[0], base, rng, max(500, min(5000, int(5000 * scale * 5)))
    )

    log(
        "bench: the bulk import beside its floors (plain COPY, the table's shape, words), interleaved"
    )
    results["ingest_floors"] = __import__("bench.ingest").ingest.measure(
        su,
        app_dsn,
        tenants[1],
        base,
        rng,
        results["bulk_vs_record"]["large_episodes"],
        rounds=3,
        log=log,
    )
    results["ingest_floors"]["load_average"] = list(os.getloadavg())

    log("bench: per-simulation HNSW indexes (load first, index after)")
    t = time.perf_counter()
    with psycopg.connect(su) as conn:
        (large_no,) = conn.execute(
            "SELECT sim_no FROM memory.simulations WHERE simulation_id = %s",
            (large.simulation_id,),
        ).fetchone()
    bridge: dict = {}

    def on_bridged(sim_no: int) -> None:
        # the large import's simulation, searched through its bridge before its index exists
        if sim_no == large_no:
            bridge.update(measure_bridge(app_dsn, large, base))

    # (the large import gets its bridge at every scale: at 1.0 it holds 50,000 episodes, more
    # than ann.BRIDGE_MIN_ROWS, which this leaves as it is)
    actions = ann.build(
        su,
        ann.DEFAULT_MIN_ROWS,
        on_bridged=on_bridged,
        bridge_min_rows=min(ann.BRIDGE_MIN_ROWS, large.size),
    )
    results["ann_indexes"] = {
        "built": sum(a.action == "built" for a in actions),
        "seconds": time.perf_counter() - t,
        "min_rows": ann.DEFAULT_MIN_ROWS,
    }
    results["searchable"] = searchable(su, results["bulk_vs_record"], actions, bridge)
    log("bench: per-simulation HNSW indexes over the facts (V0032)")
    t = time.perf_counter()
    facts = ann.build_facts(su, ann.DEFAULT_MIN_ROWS)
    results["ann_indexes"]["facts_built"] = sum(a.action == "built" for a in facts)
    results["ann_indexes"]["facts_seconds"] = time.perf_counter() - t
    log("bench: per-simulation HNSW index pairs over the entities (V0035)")
    t = time.perf_counter()
    entities = ann.build_entities(su, ann.DEFAULT_MIN_ROWS)
    results["ann_indexes"]["entities_built"] = sum(a.action == "built" for a in entities)
    results["ann_indexes"]["entities_seconds"] = time.perf_counter() - t
    bserver.settle(su)

    log("bench: search")
    results["search"] = measure_search(app_dsn, su, [main_sims[i] for i in targets], base, queries)
    results["clumps"] = __import__("bench.clumps").clumps.run(su, scale=scale, log=log)
    big = main_sims[-1]
    log("bench: walk")
    results["walk"] = measure_walk(app_dsn, big, k15, queries)
    log("bench: the walk beside Kuzu and networkx, depths 1..20 and K15, interleaved")
    results["graph_peers"] = __import__("bench.graph_peers").graph_peers.measure(
        app_dsn, big, k15, max(20, queries // 4), log=log, floor_dsn=su
    )
    mid = min((main_sims[i] for i in targets), key=lambda s: abs(s.size - 5000))
    log("bench: RLS and driver overhead")
    results["rls"] = measure_rls(app_dsn, su, mid, big, base, queries)
    results["driver"] = measure_driver(app_dsn, mid, base, queries)
    results["feed"] = __import__("bench.feed").feed.measure(app_dsn, tenants[0], log)
    log("bench: forks of a simulation beside a raw copy of its rows, interleaved")
    results["forks"] = __import__("bench.forks").forks.measure(su, app_dsn, [mid, big], log=log)
    log("bench: name matching on realistic names, beside every name compared")
    results["names"] = __import__("bench.names").names.measure(app_dsn, tenants[0], log)
    log("bench: one identity across runs: links on labelled pairs, the cost of linking and diff")
    results["identity"] = __import__("bench.identity").identity.measure(
        app_dsn, tenants[0], log, n=max(200, int(10_000 * min(scale, 1.0)))
    )
    log("bench: facts by meaning, through the facts' index, beside the exact ranking")
    results["facts_search"] = measure_facts(app_dsn, su, [mid, big], base, queries)
    log("bench: recall, fused and each arm")
    results["recall"] = measure_recall(app_dsn, su, [mid, big], base, queries)
    log("bench: recall quality, labelled questions over the example run")
    results["recall_quality"] = recall_eval.evaluate(su, app_dsn, log=log)
    log("bench: answers on LoCoMo's dev conversations and the Chinese run, beside the peers")
    answers = __import__("bench.answers").answers
    # (a tiny scale, as make test runs it, asks one conversation)
    results["answers"] = answers.run(
        su, app_dsn, log=log, conversations=None if scale >= 0.1 else answers.DEV_CONVERSATIONS[:1]
    )
    results["models"] = __import__("bench.models").models.run(su, app_dsn, log=log)
    log("bench: the Zep-compatible service: MiroFish's adds and searches over HTTP")
    results["zep_service"] = __import__("bench.zep_service").zep_service.run(
        su, log=log, **({"adds": 10, "questions": 8} if scale < 0.1 else {})
    )
    log("bench: how soon the CLI answers a command that needs no model")
    results["cli_start"] = __import__("bench.cli_start").cli_start.run(
        su, log=log, runs=7 if scale >= 0.1 else 2
    )
    log("bench: embedding throughput")
    results["embedding"] = measure_embedding(2000 if scale >= 0.1 else 200)

    if pgbench_seconds > 0:
        log(f"bench: pgbench mixed load, 16 clients, {pgbench_seconds} s")
        picks = []
        for sim in main_sims:
            q = base.question_vectors[len(picks) % len(base.question_vectors)]
            picks.append(
                (
                    sim.tenant_id,
                    sim.simulation_id,
                    f"n-{len(picks) % sim.n_nodes}",
                    "Person",
                    q.tolist(),
                )
            )
        n = pgbench_mixed.prepare(su, picks)
        results["pgbench"] = pgbench_mixed.run(su, APP, n, pgbench_seconds)
    results["seconds"] = time.perf_counter() - started
    results["background"] = sampler.stop()
    bserver.stop()
    if write:
        write_results(results)
    return results


def table(results: dict) -> str:
    def ok(cond: bool) -> str:
        return "met" if cond else "NOT MET"

    lines = ["| target | goal | measured | |", "|---|---|---|---|"]
    for s in results["search"]:
        good = (
            s["recall_at_10"] >= 0.99
            and s["short_results"] == 0
            and s["p50_ms"] <= 5
            and s["p99_ms"] <= 20
        )
        lines.append(
            f"| search, simulation of {s['size']} episodes ({s['path']}) "
            f"| recall@10 >= 0.99, p50 <= 5 ms, p99 <= 20 ms "
            f"| recall {s['recall_at_10']:.3f} (min {s['min_recall']:.1f}), "
            f"short results {s['short_results']}, p50 {s['p50_ms']:.2f} ms, "
            f"p99 {s['p99_ms']:.2f} ms (first call, apart: {s.get('first_ms', 0):.1f} ms) "
            f"| {ok(good)} |"
        )
    lines += __import__("bench.clumps").clumps.rows(results)
    w = results["walk"]
    for d in (1, 2, 3, 4):
        x = w[f"depth_{d}"]
        lines.append(
            f"| walk depth {d}, {w['graph_nodes']}-node {w['graph_edges']}-edge graph "
            f"| p50 <= 5 ms | p50 {x['p50_ms']:.2f} ms, p99 {x['p99_ms']:.2f} ms, "
            f"{x['mean_nodes']:.0f} nodes on average | {ok(x['p50_ms'] <= 5)} |"
        )
    if "graph_peers" in results:
        lines.append(__import__("bench.graph_peers").graph_peers.table(results["graph_peers"]))
    x = w["depth_20_whole_graph"]
    lines.append(
        f"| walk depth 20, whole graph ({x['nodes']} nodes) | <= 100 ms "
        f"| p50 {x['p50_ms']:.1f} ms, p99 {x['p99_ms']:.1f} ms | {ok(x['p50_ms'] <= 100)} |"
    )
    x = w["k15_depth_20"]
    lines.append(
        f"| walk K15 depth 20 | <= 10 ms | p50 {x['p50_ms']:.2f} ms, "
        f"p99 {x['p99_ms']:.2f} ms | {ok(x['p99_ms'] <= 10)} |"
    )
    for d in (2, 3):
        x = w.get(f"as_of_depth_{d}")
        if x:
            extra = x["as_of"]["p50_ms"] / x["plain"]["p50_ms"] - 1
            lines.append(
                f"| walk depth {d} with p_as_of, beside the plain walk | within 20% "
                f"| p50 {x['as_of']['p50_ms']:.2f} vs {x['plain']['p50_ms']:.2f} ms ({extra:+.1%}) "
                f"| {ok(extra <= 0.20)} |"
            )
    x = w.get("facts_of_node")
    if x:
        lines.append(
            f"| facts of a node (all states) | reported | p50 {x['p50_ms']:.2f} ms, "
            f"p99 {x['p99_ms']:.2f} ms, {x['mean_facts']:.0f} facts on average | - |"
        )
    b = results["bulk_vs_record"]
    ld = results["load"]
    sr = results.get("searchable")
    if sr:
        br = sr.get("bridge") or {}
        bridged = sr.get("episodes_per_s_bridged")
        via = (
            f"its bridge (IVFFlat) {sr['bridge_seconds']:.1f} s after, searched through it at "
            f"recall {br['recall_at_10']:.3f} (min {br['min_recall']:.1f}), p50 "
            f"{br['p50_ms']:.1f} ms: {bridged:,.0f} episodes/s; "
            if bridged and br
            else ""
        )
        lines.append(
            f"| from files to searchable, {sr['episodes']:,} episodes into the loaded store "
            f"| >= 5,000 episodes/s, import and bridge (recall >= 0.99) "
            f"| import {sr['import_seconds']:.1f} s, "
            f"searchable at once by the exact scan (recall {sr['exact']['recall_at_10']:.3f}, "
            f"p50 {sr['exact']['p50_ms']:.0f} ms): {sr['episodes_per_s_exact']:,.0f} episodes/s; "
            f"{via}its own index {sr['index_seconds']:.1f} s and clump build "
            f"{sr['clump_seconds']:.1f} s in all: {sr['episodes_per_s_indexed']:,.0f} episodes/s "
            f"to the HNSW search "
            f"| {ok(bool(bridged and br and bridged >= 5000 and br['recall_at_10'] >= 0.99))} |"
        )
    lines.append(
        f"| bulk import, precomputed vectors | >= 20k episodes/s "
        f"| {b['bulk_episodes_per_s']:,.0f} episodes/s ({b['episodes']} episodes), "
        f"{b['large_episodes_per_s']:,.0f} episodes/s ({b['large_episodes']} episodes); "
        f"full load {ld['episodes_per_s_end_to_end']:,.0f} episodes/s with graphs "
        f"({ld['rows_per_s']:,.0f} rows/s) | {ok(b['bulk_episodes_per_s'] >= 20000)} |"
    )
    fl = results.get("ingest_floors")
    if fl:
        per, over = fl["episodes_per_s"], fl["import_over"]
        lines.append(
            f"| bulk import beside its floors, {fl['episodes']:,} episodes, "
            f"{fl['rounds']} rounds in turn | reported "
            f"| import {per['import']:,.0f}/s; plain COPY {per['plain']:,.0f}/s "
            f"({over['plain']:.1f}x), into memory.episodes' shape {per['shaped']:,.0f}/s "
            f"({over['shaped']:.1f}x), with the word postings {per['shaped_words']:,.0f}/s "
            f"({over['shaped_words']:.1f}x); load average "
            f"{fl['load_average'][0]:.1f} | - |"
        )
    lines.append(
        f"| bulk vs record-by-record | >= 20x | {b['speedup']:.0f}x "
        f"({b['record_by_record_per_s']:,.0f} rows/s one by one) "
        f"| {ok(b['speedup'] >= 20)} |"
    )
    e = results["embedding"]
    if "speedup" in e:
        lines.append(
            f"| embedding throughput | >= 2x default encode, cosine >= 0.99 "
            f"| {e['speedup']:.2f}x ({e.get('ours_per_s', 0):.0f} vs "
            f"{e.get('default_per_s', 0):.0f} sentences/s), min cosine "
            f"{e.get('min_cosine', 0):.4f} | {ok(e['speedup'] >= 2)} |"
        )
    for name, r in results["rls"].items():
        lines.append(
            f"| RLS overhead, {name} | <= 10% | {r['overhead_pct']:+.1f}% "
            f"({r['rls_p50_ms']:.2f} vs {r['no_rls_p50_ms']:.2f} ms) "
            f"| {ok(r['overhead_pct'] <= 10)} |"
        )
    for r in results.get("facts_search", []):
        for k in (10, 50):
            x = r[f"top{k}"]
            first = (
                f" (first call, apart: {r['first_ms']:.1f} ms)"
                if k == 10 and "first_ms" in r
                else ""
            )
            lines.append(
                f"| search_facts top {k}, simulation of {r['facts']} facts | recall@{k} >= 0.99, "
                f"p50 <= 5 ms | recall {x['recall']:.3f} (min {x['min_recall']:.2f}), p50 "
                f"{x['p50_ms']:.2f} ms, p99 {x['p99_ms']:.2f} ms{first}; exact scan p50 "
                f"{x['exact']['p50_ms']:.2f} ms | {ok(x['recall'] >= 0.99 and x['p50_ms'] <= 5)} |"
            )
    for r in results.get("recall", []):
        x = r["routed"]
        lines.append(
            f"| recall (routed), simulation of {r['size']} episodes, {r['nodes']}-node graph "
            f"| p50 <= 20 ms, p99 <= 50 ms | p50 {x['p50_ms']:.1f} ms, p99 {x['p99_ms']:.1f} ms "
            f"| {ok(x['p50_ms'] <= 20 and x['p99_ms'] <= 50)} |"
        )
        each = ", ".join(
            f"{label} {r[label]['p50_ms']:.1f} / {r[label]['p99_ms']:.1f}"
            for label, _ in RECALL_CONFIGS[1:]
        )
        lines.append(
            f"| recall's arms, simulation of {r['size']} episodes | reported "
            f"| p50 / p99 ms: {each} | - |"
        )
    g = results.get("recall_quality", {}).get("goals", {})
    if g:
        b, s = g["beats_best_arm_ndcg"], g.get("semantic_vs_vector_ndcg", {})
        lines.append(
            f"| recall quality, {results['recall_quality']['questions']} labelled questions "
            f"| fused above the best arm; semantic within 2 points of the vector arm "
            f"| nDCG@10 {b['fused']:.3f} vs {b['best']:.3f} ({b['best_arm']}); semantic "
            f"{s.get('fused', 0):.3f} vs {s.get('vector', 0):.3f} (recall@10 "
            f"{g['beats_best_arm_recall']['fused']:.3f} vs {g['beats_best_arm_recall']['best']:.3f}) "
            f"| {ok(all(v['met'] for v in g.values()))} |"
        )
    lines += __import__("bench.answers").answers.rows(results)
    if "names" in results:
        lines.append(__import__("bench.names").names.row(results["names"]))
    lines += __import__("bench.identity").identity.rows(results)
    lines += __import__("bench.models").models.rows(results)
    lines += __import__("bench.forks").forks.rows(results)
    lines += __import__("bench.zep_service").zep_service.rows(results)
    lines += __import__("bench.cli_start").cli_start.rows(results)
    d = results["driver"]
    lines.append(
        f"| driver overhead per call | <= 1 ms | {d['overhead_ms']:.3f} ms "
        f"| {ok(d['overhead_ms'] <= 1)} |"
    )
    if "pgbench" in results:
        p = results["pgbench"]
        lines.append(
            f"| mixed load (pgbench, {p['clients']} clients, {p['seconds']} s, 80% reads) "
            f"| zero errors | {p['failed']} failed, {p['transactions']} transactions, "
            f"{p['tps']:.0f} TPS, p50 {p['p50_ms']:.1f} ms, p95 {p['p95_ms']:.1f} ms, "
            f"p99 {p['p99_ms']:.1f} ms | {ok(p['failed'] == 0 and p['exit_code'] == 0)} |"
        )
    return "\n".join(lines)


def describe(results: dict) -> str:
    m = results["machine"]
    ld = results["load"]
    return (
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}; "
        f"PostgreSQL {m['postgresql']}, pgvector {m['pgvector']}, shared memory in huge "
        f"pages: {m.get('huge_pages', 'unknown')}. "
        f"Data: {ld['episodes']:,} episodes, {ld['nodes']:,} nodes, {ld['edges']:,} edges "
        f"in {ld['simulations']} simulations over {ld['tenants']} tenants (scale "
        f"{results['scale']}); {results['ann_indexes']['built']} per-simulation HNSW "
        f"indexes built in {results['ann_indexes']['seconds']:.0f} s, "
        f"{results['ann_indexes'].get('facts_built', 0)} over facts in "
        f"{results['ann_indexes'].get('facts_seconds', 0):.0f} s, "
        f"{results['ann_indexes'].get('entities_built', 0)} pairs over entities (name and "
        f"summary vectors) in {results['ann_indexes'].get('entities_seconds', 0):.0f} s. "
        f"Entities carry a summary and both vectors, as an import's do. "
        f"Run took {results['seconds'] / 60:.1f} min."
    )


def write_results(
    results: dict, directory: Path = RESULTS, history_csv: Path = history.HISTORY
) -> Path:
    """The run's table (latest.md) and every figure (latest.json) in `directory`, in place
    of the previous run's files (a run's figures outlive its files in the history CSV, to
    which its headline figures are appended)."""
    directory.mkdir(parents=True, exist_ok=True)
    commit = f" at commit {results['commit']}" if results.get("commit") else ""
    body = f"# Benchmark {results['started']}{commit}\n\n{describe(results)}\n\n{table(results)}\n"
    if "recall_quality" in results:
        body += f"\n## Recall quality\n\n{results['recall_quality']['table']}\n"
    for r in results.get("answers", []):
        body += f"\n## Answers: {r['set']}\n\n{r['table']}\n"
    if "zep_service" in results:
        body += f"\n## The Zep-compatible service\n\n{results['zep_service']['table']}\n"
    if "background" in results:
        body += f"\n## Autovacuum during the run\n\n{background.table(results['background'])}\n"
    path = directory / "latest.md"
    for old in [*directory.glob("*.md"), *directory.glob("*.json")]:
        old.unlink()
    path.write_text(body)
    (directory / "latest.json").write_text(json.dumps(results, indent=2, default=str))
    history.append(history.run_rows(results), history_csv)
    return path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--pgbench-seconds", type=int, default=60)
    p.add_argument("--texts", type=int, default=20000)
    args = p.parse_args()
    results = run(args.scale, args.queries, args.pgbench_seconds, args.texts)
    print()
    print(describe(results))
    print()
    print(table(results))
    if "recall_quality" in results:
        print()
        print(results["recall_quality"]["table"])


if __name__ == "__main__":
    main()
