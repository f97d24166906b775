"""memory.health and `swarm-memory health` (issue 14, item 6): rows and bytes per tenant,
simulation and agent as the tables hold them; each simulation's index state; the sampled
recall of the approximate search against the exact one once a simulation has its index;
the feed's head; the latency section (pg_stat_statements or why not); a reader sees its
tenant only, an administrator every tenant. Vectors are random unit vectors (helpers.vec):
the recall check compares two searches over the same stored vectors."""

from __future__ import annotations

import pytest
from helpers import upsert, vec
from swarm_memory.cli import main
from swarm_memory.errors import InvalidInput, TenantAccessDenied


def seed(conn, world, n: int) -> None:
    upsert(
        conn,
        "upsert_episodes",
        world.tenant_a,
        world.sim_a,
        [
            {
                "id": f"e{i}",
                "agent_id": i % 3,
                "action_type": "CREATE_POST",
                "content": f"post {i}",
                "embedding": vec(i),
            }
            for i in range(n)
        ],
    )


def rows(report, section, metric, **where):
    return [
        h
        for h in report
        if h.section == section
        and h.metric == metric
        and all(getattr(h, k) == v for k, v in where.items())
    ]


def test_health_sizes_index_and_recall(world, connect):
    from swarm_memory import Memory

    seed(connect("app_a"), world, 300)
    su = connect()
    with Memory(world.dsn("reader_a")) as mem:
        report = mem.health(world.tenant_a)
    assert {h.tenant_id for h in report if h.tenant_id} == {world.tenant_a}
    (sim_rows,) = rows(report, "size", "rows", simulation_id=world.sim_a, agent_id=None)
    assert sim_rows.value == 300 and sim_rows.detail["episodes"] == 300
    (sim_bytes,) = rows(report, "size", "bytes", simulation_id=world.sim_a, agent_id=None)
    stored = su.execute(
        "SELECT sum(pg_column_size(e.*)) FROM memory.episodes e WHERE tenant_id = %s",
        (world.tenant_a,),
    ).fetchone()[0]
    assert sim_bytes.detail["episodes"] == stored > 300 * 384 * 4
    per_agent = {h.agent_id: h.value for h in rows(report, "size", "episode_rows")}
    assert per_agent == {0: 100, 1: 100, 2: 100}
    (index,) = rows(report, "index", "ann_index", simulation_id=world.sim_a)
    assert index.detail["state"] == "exact" and index.ok
    assert rows(report, "recall", "recall_at_10") == []  # no index, nothing to sample
    (feed,) = rows(report, "feed", "changes")
    assert feed.value == 2  # the simulation and the batch
    assert rows(report, "latency", "pg_stat_statements") or rows(report, "latency", "search")
    # health_tenant (the form a Citus cluster runs): the same rows but latency
    with Memory(world.dsn("reader_a")) as mem:
        alone = mem.health_tenant(world.tenant_a, 0)
        assert alone == [h for h in mem.health(world.tenant_a, 0) if h.section != "latency"]
        assert {h.section for h in alone} == {"size", "index", "feed"}
        with pytest.raises(TenantAccessDenied):
            mem.health_tenant(world.tenant_b)
        with pytest.raises(InvalidInput):
            mem.health_tenant(None)  # type: ignore[arg-type]

    # An index built (threshold lowered for the test): its state and its sampled recall.
    admin = connect("admin")
    (sim_no,) = su.execute(
        "SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (world.sim_a,)
    ).fetchone()
    admin.execute("SELECT memory.ann_index(%s, 'build')", (sim_no,))
    with Memory(world.dsn("admin")) as mem:
        report = mem.health(None, 20)
    assert {h.tenant_id for h in report if h.tenant_id} == {world.tenant_a, world.tenant_b}
    (index,) = rows(report, "index", "ann_index", simulation_id=world.sim_a)
    assert index.detail["state"] == "indexed" and index.value > 0 and index.ok
    (recall,) = rows(report, "recall", "recall_at_10", simulation_id=world.sim_a)
    assert (
        recall.value >= 0.95
        and recall.ok
        and recall.detail["queries"] == recall.detail["sampled"] == 20
    )


def test_health_cli(world, connect, capsys):
    seed(connect("app_a"), world, 30)
    assert main(["--dsn", world.dsn("reader_a"), "health", "--tenant", str(world.tenant_a)]) == 0
    out = capsys.readouterr().out
    assert "ann_index" in out and "episode_rows" in out and "changes" in out
    assert main(["--dsn", world.dsn("app_b"), "health", "--tenant", str(world.tenant_a)]) == 2
