"""memory.health and `swarm-memory health` (issue 14, item 6): rows and bytes per tenant,
simulation and agent as the tables hold them; each simulation's index states (its episodes',
its facts' and its entities' pair); the sampled recall of the approximate search against the
exact one once a simulation has its episodes' index; the feed's head; the latency section
(pg_stat_statements or why not); a reader sees its tenant only, an administrator every
tenant. Vectors are random unit vectors (helpers.vec), or clustered ones (test_ann) for the
facts and entities: the recall check compares two searches over the same stored vectors."""

from __future__ import annotations

import pytest
from helpers import upsert, vec
from swarm_memory import ann
from swarm_memory.cli import main
from swarm_memory.errors import InvalidInput, TenantAccessDenied
from test_ann import clustered


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
    # as `swarm-memory index` builds it: its statements, CONCURRENTLY, as the superuser
    for (statement,) in admin.execute(
        "SELECT s FROM memory.ann_index(%s, 'build', 32, 128, false) AS s", (sim_no,)
    ).fetchall():
        su.execute(statement)
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


# The embedded rows from which health expects a simulation's index of a kind (the default
# min_rows of `swarm-memory index`; memory._health_tenant's c_min_rows).
DUE = 2000


def seed_graph(conn, world, bare: set[int]) -> None:
    """DUE entities of sim_a, each with a name vector (every other one with a summary and its
    vector), and DUE facts among them, each with a vector; the entity and the fact numbered
    in `bare` without a vector (name vector, fact vector)."""
    names, summaries, facts = clustered(DUE, 31), clustered(DUE, 32), clustered(DUE, 33)
    for start in range(0, DUE, 500):
        nodes = [
            {
                "id": f"n{i}",
                "name": f"Entity {i}",
                "type": "Person",
                **({} if i in bare else {"embedding": names[i].tolist()}),
                **(
                    {"summary": f"summary {i}", "summary_embedding": summaries[i].tolist()}
                    if i % 2
                    else {}
                ),
            }
            for i in range(start, start + 500)
        ]
        upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, nodes)
    for start in range(0, DUE, 500):
        edges = [
            {
                "id": f"f{i}",
                "type": "KNOWS",
                "source_id": f"n{i}",
                "target_id": f"n{(i * 7 + 1) % DUE}",
                "fact": f"fact {i}",
                **({} if i in bare else {"embedding": facts[i].tolist()}),
            }
            for i in range(start, start + 500)
        ]
        upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, edges)


def test_health_reports_the_facts_index_and_the_entities_pair(world, connect, capsys):
    from swarm_memory import Memory

    def report():
        with Memory(world.dsn("reader_a")) as mem:
            got = mem.health(world.tenant_a, 0)
        (facts,) = rows(got, "index", "facts_ann_index", simulation_id=world.sim_a)
        (entities,) = rows(got, "index", "entities_ann_index", simulation_id=world.sim_a)
        (episodes,) = rows(got, "index", "ann_index", simulation_id=world.sim_a)
        return facts, entities, episodes

    def size(*names: str) -> int:
        return (
            connect()
            .execute(
                "SELECT sum(pg_relation_size(to_regclass('memory.' || n)))::bigint"
                " FROM unnest(%s::text[]) AS n",
                (list(names),),
            )
            .fetchone()[0]
        )

    # One embedded row short of the threshold: exact, ok, nothing built.
    writer = connect("app_a")
    seed_graph(writer, world, bare={0})
    facts, entities, episodes = report()
    assert (facts.value, facts.ok, facts.detail) == (
        0,
        True,
        {"state": "exact", "embedded_facts": DUE - 1},
    )
    assert (entities.value, entities.ok, entities.detail) == (
        0,
        True,
        {"state": "exact", "embedded_entities": DUE - 1},
    )
    # the episodes' row keeps its name and keys
    assert (episodes.ok, episodes.detail) == (True, {"state": "exact", "embedded_episodes": 0})

    # At the threshold without an index: missing, an alert (the CLI exits 1).
    seed_graph(writer, world, bare=set())
    facts, entities, episodes = report()
    assert (facts.value, facts.ok, facts.detail) == (
        0,
        False,
        {"state": "missing", "embedded_facts": DUE},
    )
    assert (entities.value, entities.ok, entities.detail) == (
        0,
        False,
        {"state": "missing", "embedded_entities": DUE},
    )
    assert episodes.ok
    assert main(["--dsn", world.dsn("reader_a"), "health", "--tenant", str(world.tenant_a)]) == 1
    assert "facts_ann_index" in capsys.readouterr().out

    # Built by `swarm-memory index`: indexed, ok, its rows, bytes and name(s).
    number = (
        connect()
        .execute("SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (world.sim_a,))
        .fetchone()[0]
    )
    fname, ename = f"facts_ann_{number}", f"entities_ann_{number}"
    assert [a.action for a in ann.build_facts(world.dsn(), m=8, ef_construction=32)] == ["built"]
    assert [a.action for a in ann.build_entities(world.dsn(), m=8, ef_construction=32)] == ["built"]
    facts, entities, episodes = report()
    assert (facts.value, facts.ok, facts.detail) == (
        DUE,
        True,
        {"state": "indexed", "embedded_facts": DUE, "bytes": size(fname), "index": fname},
    )
    assert (entities.value, entities.ok, entities.detail) == (
        DUE,
        True,
        {
            "state": "indexed",
            "embedded_entities": DUE,
            "bytes": size(ename, f"{ename}_summary"),
            "index": ename,
            "summary_index": f"{ename}_summary",
        },
    )
    assert size(fname) > 0 and size(f"{ename}_summary") > 0
    assert main(["--dsn", world.dsn("reader_a"), "health", "--tenant", str(world.tenant_a)]) == 0

    # Half of the pair left invalid (as by an interrupted CREATE INDEX CONCURRENTLY, marked so
    # by hand), then gone: invalid, then missing; the facts' index left invalid: invalid.
    su = connect()
    su.execute(
        "UPDATE pg_index SET indisvalid = false WHERE indexrelid = ANY (%s::regclass[])",
        ([f"memory.{ename}_summary", f"memory.{fname}"],),
    )
    facts, entities, _ = report()
    assert (facts.value, facts.ok, facts.detail["state"]) == (DUE, False, "invalid")
    assert (entities.ok, entities.detail["state"], entities.detail["summary_index"]) == (
        False,
        "invalid",
        f"{ename}_summary",
    )
    su.execute(f"DROP INDEX memory.{ename}_summary")
    facts, entities, _ = report()
    assert (entities.value, entities.ok, entities.detail) == (
        DUE,
        False,
        {"state": "missing", "embedded_entities": DUE, "bytes": size(ename), "index": ename},
    )
    # the other half gone too, and the pair's own plan builds it whole again
    su.execute(f"DROP INDEX memory.{ename}")
    _, entities, _ = report()
    assert (entities.value, entities.ok, entities.detail["state"]) == (0, False, "missing")
    assert [a.action for a in ann.build_entities(world.dsn(), m=8, ef_construction=32)] == ["built"]
    _, entities, _ = report()
    assert (entities.ok, entities.detail["state"]) == (True, "indexed")
