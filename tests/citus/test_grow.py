"""Growing the cluster (issue 15): a third worker joins, the shards are rebalanced while reads
keep answering, and one large tenant moves to a shard of its own. Runs after test_cluster.py
(the third worker stays registered in the session's database)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import cluster
import psycopg
from swarm_memory.distribute import distribute
from world import SIM_A, TENANT_A, TENANT_B, Cluster


@contextmanager
def owner_may_log_in(conn: psycopg.Connection) -> Iterator[None]:
    """Citus copies a shard over a connection as the table's owner: memory_owner may log in
    for the length of a move only (README "Scaling out")."""
    conn.execute("ALTER ROLE memory_owner LOGIN")
    try:
        yield
    finally:
        conn.execute("ALTER ROLE memory_owner NOLOGIN")


def _walk(dsn: str, start: str) -> list[tuple]:
    """A read through the API, delegated to the tenant's worker: the entities of the start
    node's type and the start node itself (the walk has tests of its own in test_cluster)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(
            "SELECT t.node_id, g.node_id FROM memory.nodes_by_type(%s, %s, NULL, 1000) AS t"
            " CROSS JOIN memory.get_node(%s, %s, %s) AS g ORDER BY 1",
            (TENANT_A, SIM_A, TENANT_A, SIM_A, start),
        ).fetchall()


def test_a_third_worker_and_a_rebalance_while_reads_answer(citus: Cluster) -> None:
    dsn = citus.dsn()
    with psycopg.connect(dsn, autocommit=True) as conn:
        start = conn.execute(
            "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND name = 'Daniel Reyes'",
            (TENANT_A,),
        ).fetchone()[0]
    expected = _walk(dsn, start)
    third = cluster.up(3)[3]
    with psycopg.connect(third.dsn(), autocommit=True) as conn:
        if not conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (citus.dbname,)
        ).fetchone():
            conn.execute(f'CREATE DATABASE "{citus.dbname}"')
    with psycopg.connect(third.dsn(citus.dbname), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS citus")

    answers: list[list[tuple]] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            try:
                answers.append(_walk(dsn, start))
            except psycopg.Error as exc:  # a read that did not answer
                errors.append(exc)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        with psycopg.connect(dsn, autocommit=True) as conn, owner_may_log_in(conn):
            cluster.add_worker(conn, third)
            # every grant names its role by the new node's OID too (V0024), before a shard
            # moves there: without it the grants give nothing on the new node (fail closed)
            distribute(dsn)
            conn.execute(
                "SELECT rebalance_table_shards('memory.simulations', shard_transfer_mode => 'block_writes')"
            )
            placed = conn.execute(
                "SELECT count(*) FROM citus_shards WHERE table_name = 'memory.simulations'::regclass"
                " AND nodename = %s",
                (str(third.dir),),
            ).fetchone()[0]
    finally:
        stop.set()
        reader.join()
    assert placed > 0, "the rebalance moved no shard to the third worker"
    assert errors == []
    assert len(answers) > 0 and all(a == expected for a in answers)
    assert _walk(dsn, start) == expected


def test_a_large_tenant_gets_a_shard_of_its_own(citus: Cluster) -> None:
    dsn = citus.dsn()
    with psycopg.connect(dsn, autocommit=True) as conn, owner_may_log_in(conn):
        before = conn.execute(
            "SELECT count(*) FROM memory.nodes WHERE tenant_id = %s", (TENANT_A,)
        ).fetchone()[0]
        conn.execute(
            "SELECT isolate_tenant_to_new_shard('memory.simulations', %s::uuid, 'CASCADE',"
            " shard_transfer_mode => 'block_writes')",
            (str(TENANT_A),),
        )
        shard_a = conn.execute(
            "SELECT get_shard_id_for_distribution_column('memory.nodes', %s::uuid)",
            (str(TENANT_A),),
        ).fetchone()[0]
        shard_b = conn.execute(
            "SELECT get_shard_id_for_distribution_column('memory.nodes', %s::uuid)",
            (str(TENANT_B),),
        ).fetchone()[0]
        lo, hi = conn.execute(
            "SELECT shardminvalue::bigint, shardmaxvalue::bigint FROM pg_dist_shard WHERE shardid = %s",
            (shard_a,),
        ).fetchone()
        after = conn.execute(
            "SELECT count(*) FROM memory.nodes WHERE tenant_id = %s", (TENANT_A,)
        ).fetchone()[0]
    assert lo == hi, "the tenant's shard holds one hash value: the tenant alone"
    assert shard_a != shard_b
    assert after == before
    assert len(_walk(dsn, _start(dsn))) == 33


def _start(dsn: str) -> str:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(
            "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND name = 'Daniel Reyes'",
            (TENANT_A,),
        ).fetchone()[0]
