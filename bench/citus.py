"""make bench-citus: per-call overhead of the memory on a Citus cluster against one node, on
this machine (issue 15).

    python -m bench.citus [--calls 300]

Starts the test cluster of tests/citus/cluster.py (a coordinator and two workers, socket-only,
from a copy of the embedded binaries under .cache/citus) and builds the data of the cluster
tests (tests/citus/world.py: the example run's 33 entities, 46 facts and Twitter posts with
real vectors) twice: distributed on the cluster, and in a database of the coordinator without
the citus extension ("one node": the same server, the same binaries). Each call is timed
from the client, one at a time over one connection, as the superuser (granted roles read
on the cluster too since V0024; the figures were taken as the superuser and stay comparable);
the figure is the median, and
the cluster's overhead is cluster minus one node.

Then the staged import (issue 15, item 3): the same bulk import of episodes with real
precomputed vectors (bench/load.py's staged_import: begin_import, binary COPY into the
session's staging tables and stage_rows a batch per transaction, commit_import), into a new
simulation of tenant A as the granted writer, on one node and on the cluster, alternately;
the figure is the median rate of --imports imports of --episodes episodes each, with the
median seconds of each phase. The medians are appended to bench/history.csv.
"""

from __future__ import annotations

import argparse
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


def _median_ms(conn: psycopg.Connection, sql: str, params: tuple, calls: int) -> float:
    for _ in range(10):  # warm the plan caches and the connections to the workers
        conn.execute(sql, params).fetchall()
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        conn.execute(sql, params).fetchall()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def import_rates(c: world.Cluster, episodes: int, imports: int) -> dict[str, dict[str, float]]:
    """Median episodes/s and phase seconds of staged imports on one node and on the cluster,
    alternately (the same rows for both in each round)."""
    base = data.base_set(500, 10)  # real vectors of generated posts, cached under .cache
    rng = np.random.default_rng(7)
    targets = {"one node": c.single_dsn("citus_app_a"), "cluster": c.dsn("citus_app_a")}
    runs: dict[str, list[tuple[float, dict[str, float]]]] = {k: [] for k in targets}
    for _ in range(imports):
        sim = load.Sim(world.TENANT_A, uuid.uuid4(), episodes, [0, 1, 2])
        rows = load.episode_rows(sim, base, rng)
        for label, dsn in targets.items():
            with Memory(dsn) as mem, mem.connect() as conn:
                phases: dict[str, float] = {}
                seconds = load.staged_import(mem, conn, sim, {"episodes": rows}, phases=phases)
            runs[label].append((episodes / seconds, phases))
    return {
        label: {
            "episodes_per_s": statistics.median(r for r, _ in found),
            **{k: statistics.median(p[k] for _, p in found) for k in found[0][1]},
        }
        for label, found in runs.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--episodes", type=int, default=5000, help="episodes an import")
    parser.add_argument("--imports", type=int, default=3, help="imports on each side")
    args = parser.parse_args(argv)
    why = cluster.available()
    if why:
        print(f"bench-citus: skipped: {why}")
        return 0
    started, commit = datetime.now(UTC).isoformat(timespec="seconds"), history.head()
    c = world.build("citus_bench", "citus_bench_single")
    try:
        from swarm_memory.embed import Embedder

        q = Embedder().encode_query(
            "Will closing the riverside road to cars hurt the small shops nearby?"
        )
        literal = "[" + ",".join(f"{v:.7f}" for v in q) + "]"
        with psycopg.connect(c.dsn(), autocommit=True) as conn:
            start = conn.execute(
                "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND name = 'Daniel Reyes'",
                (world.TENANT_A,),
            ).fetchone()[0]
        t, s = world.TENANT_A, world.SIM_A
        calls = [
            (
                "nodes_by_type (all 33)",
                "SELECT * FROM memory.nodes_by_type(%s, %s, NULL, 100)",
                (t, s),
            ),
            ("neighbors depth 2", "SELECT * FROM memory.neighbors(%s, %s, %s, 2)", (t, s, start)),
            (
                "search_episodes top 10 (exact)",
                "SELECT * FROM memory.search_episodes(%s, %s, %s::text::vector, 10)",
                (t, s, literal),
            ),
            ("simulation_stats", "SELECT * FROM memory.simulation_stats(%s, %s)", (t, s)),
        ]
        rows = []
        for name, sql, params in calls:
            with (
                psycopg.connect(c.single_dsn(), autocommit=True) as one,
                psycopg.connect(c.dsn(), autocommit=True) as cl,
            ):
                single = _median_ms(one, sql, params, args.calls)
                try:
                    distributed = _median_ms(cl, sql, params, args.calls)
                except psycopg.errors.FeatureNotSupported as exc:  # docs/scale-out.md
                    print(
                        f"{name}: refused on the cluster ({exc.sqlstate}): {exc.diag.message_primary}"
                    )
                    continue
                cl.execute("BEGIN")
                in_tx = _median_ms(cl, sql, params, args.calls)
                cl.execute("COMMIT")
            rows.append((name, single, distributed, in_tx))
        print(
            f"per-call latency, median of {args.calls} calls, ms (coordinator + 2 workers, one machine, sockets)"
        )
        print(f"{'call':<34} {'one node':>9} {'cluster':>9} {'overhead':>9} {'in a txn':>9}")
        for name, single, distributed, in_tx in rows:
            print(
                f"{name:<34} {single:>9.2f} {distributed:>9.2f} {distributed - single:>+9.2f} {in_tx:>9.2f}"
            )
        rates = import_rates(c, args.episodes, args.imports)
        print(
            f"staged import of {args.episodes} episodes (real vectors), granted writer,"
            f" median of {args.imports}"
        )
        print(f"{'':<10} {'episodes/s':>11} {'begin s':>8} {'stage s':>8} {'commit s':>9}")
        for label, r in rates.items():
            print(
                f"{label:<10} {r['episodes_per_s']:>11,.0f} {r['begin']:>8.2f}"
                f" {r['stage']:>8.2f} {r['commit']:>9.2f}"
            )
        figures = []
        for name, single, distributed, _ in rows:
            figures += [(f"citus {name}", "one_node", single, "ms")]
            figures += [(f"citus {name}", "cluster", distributed, "ms")]
        for label, r in rates.items():
            t = f"citus staged import {args.episodes} episodes"
            figures += [(t, label.replace(" ", "_"), r["episodes_per_s"], "episodes/s")]
        history.append(history.printed_rows(started, figures, commit))
    finally:
        world.drop(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
