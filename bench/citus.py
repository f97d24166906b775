"""make bench-citus: every read of the memory on a Citus cluster beside one node, on this
machine.

    python -m bench.citus [--calls 100] [--episodes 5000] [--imports 3] [--indexes 5,100,...]

Starts the test cluster of tests/citus/cluster.py (a coordinator and two workers, socket-only,
from a copy of the embedded binaries under .cache/citus) and builds the data of the cluster
tests (tests/citus/world.py) twice: distributed on the cluster, and in a database of the
coordinator without the citus extension ("one node": the same server, the same binaries).
The example run is imported into a new simulation of tenant A on each through the API (so
its word postings, history and evidence are a gateway's), and every read (entities, the walk,
search, facts, an entity's summary, paths, the timeline, the words arm, recall's words and
graph arms, recall, panorama, ...) is called as the tenant's granted reader, one call at a
time over one connection a side, the two sides taking turns call by call so that both see
the same load; the figure is each side's median and their ratio. The load average is printed
before and after.

Then the search's planning time against the number of partial HNSW indexes on the table
(--indexes; built empty in a transaction rolled back), and the staged import (bench/load.py's
staged_import) of --episodes episodes with real precomputed vectors into a new simulation,
as the granted writer, on one node and on the cluster alternately, with the time of the
simulation's HNSW index (ann_index_tenant, as an administrator: on the cluster on the
tenant's shard, what a moved shard's rebuild costs): the median of --imports imports. The
medians are appended to bench/history.csv.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psycopg
from swarm_memory.client import Memory

from bench import data, history, load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "citus"))

import cluster  # noqa: E402
import world  # noqa: E402

# The reads of the bench, each as the tenant's granted reader over the example run imported
# through the API (word postings, history and evidence written as a gateway writes them):
# (name, SQL, what it is given beyond tenant and simulation). "node" and "other" are entity
# ids, "vector" the question's embedding.
QUESTION = "Will closing the riverside road to cars hurt the small shops nearby?"
READS = [
    ("nodes_by_type (all 33)", "SELECT * FROM memory.nodes_by_type(%s, %s, NULL, 100)", ()),
    ("get_node", "SELECT * FROM memory.get_node(%s, %s, %s)", ("node",)),
    ("neighbors depth 2", "SELECT * FROM memory.neighbors(%s, %s, %s, 2)", ("node",)),
    (
        "search_episodes top 10 (exact)",
        "SELECT * FROM memory.search_episodes(%s, %s, %s::text::vector, 10)",
        ("vector",),
    ),
    (
        "search_nodes top 10",
        "SELECT * FROM memory.search_nodes(%s, %s, %s::text::vector, 10)",
        ("vector",),
    ),
    ("facts (all)", "SELECT * FROM memory.facts(%s, %s)", ()),
    ("facts of an entity", "SELECT * FROM memory.facts(%s, %s, %s, 'all')", ("node",)),
    ("entity_summary", "SELECT * FROM memory.entity_summary(%s, %s, %s)", ("node",)),
    ("paths", "SELECT * FROM memory.paths(%s, %s, %s, %s)", ("node", "other")),
    ("timeline", "SELECT * FROM memory.timeline(%s, %s, %s)", ("node",)),
    (
        "match_entities",
        "SELECT * FROM memory.match_entities(%s, %s, 'Daniel Reyes and River Road')",
        (),
    ),
    (
        "search_words (words arm)",
        "SELECT * FROM memory.search_words(%s, %s, 'River Road closure traffic', 10)",
        (),
    ),
    (
        "recall by text (words + graph arms)",
        'SELECT * FROM memory.recall(%s, %s, %s, NULL, 10, \'{"arms": ["words", "graph"]}\')',
        ("question",),
    ),
    (
        "recall (text and vector)",
        "SELECT * FROM memory.recall(%s, %s, %s, %s::text::vector, 10)",
        ("question", "vector"),
    ),
    (
        "panorama",
        "SELECT * FROM memory.panorama(%s, %s, %s, %s::text::vector)",
        ("question", "vector"),
    ),
    ("simulation_stats", "SELECT * FROM memory.simulation_stats(%s, %s)", ()),
]


def interleaved_ms(
    conns: dict[str, psycopg.Connection], sql: str, params: tuple, calls: int
) -> dict[str, float]:
    """The median ms of each connection's calls, the connections taking turns call by call
    (so both see the same load); ten calls each first warm the plan caches and the
    connections to the workers."""
    for conn in conns.values():
        for _ in range(10):
            conn.execute(sql, params).fetchall()
    times: dict[str, list[float]] = {k: [] for k in conns}
    for _ in range(calls):
        for label, conn in conns.items():
            t0 = time.perf_counter()
            conn.execute(sql, params).fetchall()
            times[label].append(time.perf_counter() - t0)
    return {k: statistics.median(v) * 1000 for k, v in times.items()}


# The statement memory._search_episodes_ann runs, with its simulation's number a constant
# (the partial index needs it), planned by EXPLAIN: its planning time against the number of
# partial indexes on the table (a shard is an ordinary table on its worker, planned there by
# PostgreSQL as one node plans it).
_SEARCH = """EXPLAIN (SUMMARY ON, FORMAT JSON)
SELECT c.episode_id FROM (SELECT e.episode_id, e.embedding FROM memory.episodes AS e
 WHERE e.sim_no = {sim_no} AND e.tenant_id = %s AND e.simulation_id = %s
 ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) %s::text::public.halfvec(384)
 LIMIT 200) AS c ORDER BY c.embedding OPERATOR(public.<=>) %s::text::public.vector LIMIT 10"""


def planning_by_indexes(
    dsn: str, tenant: uuid.UUID, sim: uuid.UUID, literal: str, counts: list[int], calls: int
) -> list[tuple[int, float]]:
    """The median planning ms of the search's statement with n partial HNSW indexes on
    memory.episodes (one the simulation's, the others of simulations without rows, built
    empty), for each n of counts, in one transaction rolled back; planned as the reader."""
    out = []
    with psycopg.connect(dsn) as conn:
        sim_no = conn.execute(
            "SELECT sim_no FROM memory.simulations WHERE tenant_id = %s AND simulation_id = %s",
            (tenant, sim),
        ).fetchone()[0]
        made = 0
        for n in sorted(counts):
            while made < n:
                no = sim_no if made == 0 else 10_000_000 + made
                conn.execute(
                    f"CREATE INDEX bench_partial_{made} ON memory.episodes USING hnsw"
                    " ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)"
                    f" WHERE sim_no = {no}"
                )
                made += 1
            conn.execute("SET LOCAL ROLE citus_reader_a")
            # as the search sets it; and no sequential scan, since the example run's
            # simulation is small enough for one (the planner weighs every index all the same)
            conn.execute("SET LOCAL enable_sort = off")
            conn.execute("SET LOCAL enable_seqscan = off")
            conn.execute("SELECT set_config('memory.tenant_id', %s, true)", (str(tenant),))
            sql = _SEARCH.format(sim_no=sim_no)
            params = (tenant, sim, literal, literal)
            plans = [conn.execute(sql, params).fetchone()[0][0] for _ in range(calls)]
            assert any("bench_partial_0" in str(p["Plan"]) for p in plans), (
                "the search did not use its partial index"
            )
            out.append((n, statistics.median(p["Planning Time"] for p in plans)))
            conn.execute("RESET ROLE")
        conn.rollback()
    return out


def import_rates(c: world.Cluster, episodes: int, imports: int) -> dict[str, dict[str, float]]:
    """Median episodes/s and phase seconds of staged imports on one node and on the cluster,
    alternately (the same rows for both in each round)."""
    base = data.base_set(500, 10)  # real vectors of generated posts, cached under .cache
    rng = np.random.default_rng(7)
    targets = {"one node": c.single_dsn("citus_app_a"), "cluster": c.dsn("citus_app_a")}
    su = {"one node": c.single_dsn(), "cluster": c.dsn("citus_admin")}
    runs: dict[str, list[tuple[float, dict[str, float]]]] = {k: [] for k in targets}
    builds: dict[str, list[float]] = {k: [] for k in targets}
    for _ in range(imports):
        sim = load.Sim(world.TENANT_A, uuid.uuid4(), episodes, [0, 1, 2])
        rows = load.episode_rows(sim, base, rng)
        for label, dsn in targets.items():
            with Memory(dsn) as mem, mem.connect() as conn:
                phases: dict[str, float] = {}
                seconds = load.staged_import(mem, conn, sim, {"episodes": rows}, phases=phases)
            runs[label].append((episodes / seconds, phases))
            # the simulation's HNSW index: on the cluster as an administrator through
            # ann_index_tenant (on the tenant's shard, on its worker: what a moved shard's
            # rebuild costs), on one node the same statement as the superuser (there
            # ann_index_tenant leaves builds to `swarm-memory index`, CONCURRENTLY)
            with psycopg.connect(su[label], autocommit=True) as a:
                t0 = time.perf_counter()
                if label == "cluster":
                    a.execute(
                        "SELECT * FROM memory.ann_index_tenant(%s, %s)",
                        (sim.tenant_id, sim.simulation_id),
                    ).fetchall()
                else:
                    (sim_no,) = a.execute(
                        "SELECT sim_no FROM memory.simulations"
                        " WHERE tenant_id = %s AND simulation_id = %s",
                        (sim.tenant_id, sim.simulation_id),
                    ).fetchone()
                    a.execute(
                        f"CREATE INDEX bench_build_{sim_no} ON memory.episodes USING hnsw"
                        " ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)"
                        f" WITH (m = 32, ef_construction = 128) WHERE sim_no = {sim_no}"
                    )
                builds[label].append(time.perf_counter() - t0)
    return {
        label: {
            "episodes_per_s": statistics.median(r for r, _ in found),
            "index_s": statistics.median(builds[label]),
            **{k: statistics.median(p[k] for _, p in found) for k in found[0][1]},
        }
        for label, found in runs.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100, help="calls a read on each side")
    parser.add_argument("--episodes", type=int, default=5000, help="episodes an import")
    parser.add_argument("--imports", type=int, default=3, help="imports on each side")
    parser.add_argument(
        "--indexes",
        default="5,100,300,1000,3000",
        help="partial indexes on the table for the search's planning time",
    )
    args = parser.parse_args(argv)
    why = cluster.available()
    if why:
        print(f"bench-citus: skipped: {why}")
        return 0
    started, commit = datetime.now(UTC).isoformat(timespec="seconds"), history.head()
    load_before = os.getloadavg()
    c = world.build("citus_bench", "citus_bench_single")
    try:
        from swarm_memory.embed import Embedder
        from swarm_memory.importer import import_run

        q = Embedder().encode_query(QUESTION)
        literal = "[" + ",".join(f"{v:.7f}" for v in q) + "]"
        t, s = world.TENANT_A, uuid.uuid4()
        for dsn in (c.dsn("citus_app_a"), c.single_dsn("citus_app_a")):
            import_run(dsn, t, s, world.ROOT / "examples" / "mirofish_run")
        given = {"vector": literal, "question": QUESTION}
        with psycopg.connect(c.single_dsn(), autocommit=True) as conn:
            for key, name in (("node", "Daniel Reyes"), ("other", "Millbrook Bridge")):
                given[key] = conn.execute(
                    "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND simulation_id = %s"
                    " AND name = %s",
                    (t, s, name),
                ).fetchone()[0]
        rows = []
        with (
            psycopg.connect(c.single_dsn("citus_reader_a"), autocommit=True) as one,
            psycopg.connect(c.dsn("citus_reader_a"), autocommit=True) as cl,
        ):
            for name, sql, needs in READS:
                params = (t, s, *(given[k] for k in needs))
                m = interleaved_ms({"one": one, "cluster": cl}, sql, params, args.calls)
                rows.append((name, m["one"], m["cluster"]))
        load_reads = os.getloadavg()
        print(
            f"per-call latency as the tenant's reader, the example run imported, median of"
            f" {args.calls} calls each side taking turns, ms (coordinator + 2 workers, one"
            f" machine, sockets); load average {load_before[0]:.2f} before, {load_reads[0]:.2f}"
            " after"
        )
        print(f"{'call':<38} {'one node':>9} {'cluster':>9} {'ratio':>7}")
        for name, single, distributed in rows:
            print(f"{name:<38} {single:>9.2f} {distributed:>9.2f} {distributed / single:>6.2f}x")
        counts = [int(x) for x in args.indexes.split(",") if x]
        planning = planning_by_indexes(c.single_dsn(), t, s, literal, counts, 30)
        print("search's planning time by partial indexes on the table, median of 30, ms")
        for n, ms in planning:
            print(f"{n:>6} indexes {ms:>8.3f}")
        rates = import_rates(c, args.episodes, args.imports)
        print(
            f"staged import of {args.episodes} episodes (real vectors), granted writer,"
            f" median of {args.imports}"
        )
        print(
            f"{'':<10} {'episodes/s':>11} {'begin s':>8} {'stage s':>8} {'commit s':>9}"
            f" {'HNSW index s':>13}"
        )
        for label, r in rates.items():
            print(
                f"{label:<10} {r['episodes_per_s']:>11,.0f} {r['begin']:>8.2f}"
                f" {r['stage']:>8.2f} {r['commit']:>9.2f} {r['index_s']:>13.2f}"
            )
        figures = []
        for name, single, distributed in rows:
            figures += [(f"citus {name}", "one_node", single, "ms")]
            figures += [(f"citus {name}", "cluster", distributed, "ms")]
            figures += [(f"citus {name}", "ratio", distributed / single, "x")]
        for n, ms in planning:
            figures += [(f"search planning {n} partial indexes", "p50", ms, "ms")]
        for label, r in rates.items():
            t = f"citus staged import {args.episodes} episodes"
            figures += [(t, label.replace(" ", "_"), r["episodes_per_s"], "episodes/s")]
            t = f"citus HNSW index of {args.episodes} episodes"
            figures += [(t, label.replace(" ", "_"), r["index_s"], "s")]
        history.append(history.printed_rows(started, figures, commit))
    finally:
        world.drop(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
