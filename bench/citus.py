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
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import psycopg

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    why = cluster.available()
    if why:
        print(f"bench-citus: skipped: {why}")
        return 0
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
                distributed = _median_ms(cl, sql, params, args.calls)
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
    finally:
        world.drop(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
