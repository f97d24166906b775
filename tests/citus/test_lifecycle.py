"""The calls that end, correct and move data, on a Citus cluster (issue 15), against the same
calls on one node (the coordinator's database without the extension): an outcome recorded
and corrected, a near-duplicate compaction, a simulation deleted, a re-embed to another
model, a retention sweep, a grant revoked and renewed, a tenant deleted. Runs after
test_cluster.py and test_grow.py (files in name order), on tenants and simulations of its
own where it deletes.

The vectors are the real model's (all-MiniLM-L6-v2, and WordLlama for the re-embed),
computed here."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import cluster
import psycopg
import pytest
from swarm_memory.client import Memory
from swarm_memory.distribute import distribute
from swarm_memory.embed import WORDLLAMA_MODEL_NAME, Embedder
from swarm_memory.errors import NotSupported, TenantAccessDenied
from swarm_memory.reembed import reembed
from test_grow import owner_may_log_in
from world import SIM_A, TENANT_A, Cluster

pytestmark = pytest.mark.usefixtures("citus")

POSTS = [
    "Closing Riverside Road to cars will hurt the bakery",
    "Closing Riverside Road to cars will hurt the bakery",  # a repost: the same text
    "The council should keep one lane open for deliveries",
    "关闭河滨路对小商店不利",
    "Footfall on the high street fell after the closure",
]


def _dsns(citus: Cluster, role: str) -> list[str]:
    return [citus.dsn(role), citus.single_dsn(role)]


def _episodes(sim_posts: list[str]) -> list[dict]:
    vectors = Embedder().encode(sim_posts)
    return [
        {
            "id": f"lc-{i}",
            "agent_id": 7,
            "agent_name": "ana",
            "platform": "twitter",
            "round": i,
            "action_type": "CREATE_POST",
            "content": text,
            "embedding": [float(x) for x in vec],
        }
        for i, (text, vec) in enumerate(zip(sim_posts, vectors, strict=True))
    ]


def _simulation(dsn: str, tenant: uuid.UUID, sim: uuid.UUID, episodes: list[dict]) -> None:
    with Memory(dsn) as mem:
        mem.upsert_simulation(tenant, sim, "lifecycle")
        mem.upsert_episodes(tenant, sim, episodes)
        mem.upsert_predictions(
            tenant,
            sim,
            [{"id": "p1", "claim": "Footfall on Riverside Road falls", "confidence": 0.6}],
        )


@contextmanager
def _tenant(citus: Cluster) -> Iterator[uuid.UUID]:
    """A tenant of its own on both, granted to citus_app_a."""
    tenant = uuid.uuid4()
    for dsn in _dsns(citus, "citus_admin"):
        with Memory(dsn) as admin:
            admin.create_tenant(f"lifecycle-{tenant.hex[:8]}", tenant)
            admin.grant_tenant("citus_app_a", tenant)
    yield tenant


def test_outcomes_compaction_and_a_delete_answer_as_on_one_node(citus: Cluster) -> None:
    sim = uuid.uuid4()
    episodes = _episodes(POSTS)
    answers = []
    for dsn in _dsns(citus, "citus_app_a"):
        _simulation(dsn, TENANT_A, sim, episodes)
        with Memory(dsn) as mem:
            first = mem.record_outcome(TENANT_A, sim, "p1", "refuted", "footfall rose")
            again = mem.record_outcome(TENANT_A, sim, "p1", "refuted", "footfall rose")
            corrected = mem.record_outcome(TENANT_A, sim, "p1", "partial", "rose, then fell")
            compacted = mem.compact_episodes(TENANT_A, sim, 0.99)
            replayed = mem.compact_episodes(TENANT_A, sim, 0.99)
            deleted = mem.delete_simulation(TENANT_A, sim)
            gone = [s for s in mem.list_simulations(TENANT_A) if s.simulation_id == sim]
        answers.append(
            (
                [(o.outcome, o.note) for o in (first, again, corrected)],
                first.recorded_at == again.recorded_at,
                compacted,
                replayed,
                deleted,
                gone,
            )
        )
    on_cluster, on_one_node = answers
    assert on_cluster == on_one_node
    outcomes, replay_kept_time, compacted, replayed, deleted, gone = on_cluster
    assert outcomes[-1] == ("partial", "rose, then fell") and replay_kept_time
    assert (compacted.clumps, compacted.episodes) == (1, 1)  # the repost and its original
    assert (replayed.clumps, replayed.episodes) == (0, 0)  # a replay writes nothing
    assert (deleted.episodes, deleted.predictions) == (5, 1) and gone == []


def test_a_reembed_to_another_model_stores_what_one_node_stores(citus: Cluster) -> None:
    sim = uuid.uuid4()
    episodes = _episodes(POSTS)
    stored = []
    for dsn, su in zip(_dsns(citus, "citus_app_a"), _dsns(citus, "postgres"), strict=True):
        _simulation(dsn, TENANT_A, sim, episodes)
        report = reembed(dsn, TENANT_A, WORDLLAMA_MODEL_NAME, [sim])
        assert report.simulations[0].switched["episodes"] == len(POSTS)
        with psycopg.connect(su, autocommit=True) as conn:
            stored.append(
                conn.execute(
                    "SELECT episode_id, embedding_model, embedding::text FROM memory.episodes"
                    " WHERE tenant_id = %s AND simulation_id = %s ORDER BY episode_id",
                    (TENANT_A, sim),
                ).fetchall()
            )
        with Memory(dsn) as mem:
            assert mem.model_of(TENANT_A, sim).model == WORDLLAMA_MODEL_NAME
            mem.delete_simulation(TENANT_A, sim)
    assert stored[0] == stored[1]
    assert {m for _, m, _ in stored[0]} == {WORDLLAMA_MODEL_NAME}


def test_a_retention_sweep_runs_tenant_by_tenant_on_the_cluster(citus: Cluster) -> None:
    """sweep_tenant deletes the tenant's old simulations on its worker as on one node;
    memory.sweep(), which would sweep every tenant in one call, is refused on the cluster
    (0A000), and Memory.sweep() sweeps each tenant by sweep_tenant instead."""
    swept = []
    with _tenant(citus) as tenant:
        sim = uuid.uuid4()
        for app, admin_dsn in zip(
            _dsns(citus, "citus_app_a"), _dsns(citus, "citus_admin"), strict=True
        ):
            _simulation(app, tenant, sim, _episodes(POSTS[:2]))
            with Memory(admin_dsn) as admin:
                admin.set_retention(tenant, 30, 0.995, False)
                with psycopg.connect(admin_dsn, autocommit=True) as conn:
                    rows = conn.execute(
                        "SELECT tenant_id, simulation_id, action, detail - 'updated_at'"
                        " FROM memory.sweep_tenant(%s, now() + interval '40 days')",
                        (tenant,),
                    ).fetchall()
                swept.append(rows)
                assert admin.sweep() == []  # every tenant, one call each: nothing left
        with Memory(citus.dsn("citus_admin")) as admin, pytest.raises(NotSupported) as refused:
            admin._rows("SELECT * FROM memory.sweep()", (), None)
        assert "sweep_tenant" in (refused.value.hint or "")
    assert swept[0] == swept[1]
    assert [(r[1], r[2], r[3]["episodes"]) for r in swept[0]] == [(sim, "deleted", 2)]


def test_a_grant_revoked_and_renewed_on_the_cluster(citus: Cluster) -> None:
    """An administrator revokes a role's grant on the cluster (its map of node OIDs emptied:
    a delete of the reference table would connect to every node as memory_owner) and the
    role is refused on the tenant's worker; a new grant gives the tenant back."""
    with _tenant(citus) as tenant:
        sim = uuid.uuid4()
        with Memory(citus.dsn("citus_app_a")) as app:
            app.upsert_simulation(tenant, sim, "revoked")
            # the tenant's model named, changed and named again (an upsert on its worker)
            for model in (WORDLLAMA_MODEL_NAME, None, None):
                app.set_tenant_model(tenant, model)
            assert app.model_of(tenant).model != WORDLLAMA_MODEL_NAME
        with Memory(citus.dsn("citus_admin")) as admin:
            admin.revoke_tenant("citus_app_a", tenant)
            admin.revoke_tenant("citus_app_a", tenant)  # idempotent
        with Memory(citus.dsn("citus_app_a")) as app, pytest.raises(TenantAccessDenied):
            app.list_simulations(tenant)
        # distribute (run by every migrate of the cluster) maps grants to new nodes, and
        # leaves an ended grant ended
        distribute(citus.dsn())
        with Memory(citus.dsn("citus_app_a")) as app, pytest.raises(TenantAccessDenied):
            app.list_simulations(tenant)
        with psycopg.connect(citus.dsn(), autocommit=True) as conn:
            maps = conn.execute(
                "SELECT node_role_oids FROM memory.tenant_grants WHERE tenant_id = %s", (tenant,)
            ).fetchall()
        assert maps == [({},)]
        with Memory(citus.dsn("citus_admin")) as admin:
            admin.grant_tenant("citus_app_a", tenant)
        with Memory(citus.dsn("citus_app_a")) as app:
            assert [s.simulation_id for s in app.list_simulations(tenant)] == [sim]
        with psycopg.connect(citus.dsn(), autocommit=True) as conn:
            (renewed,) = conn.execute(
                "SELECT node_role_oids FROM memory.tenant_grants WHERE tenant_id = %s", (tenant,)
            ).fetchone()
        assert len(renewed) == 1 + len(citus.workers) + 1  # coordinator, the workers, the third


def test_a_tenant_deleted_on_the_cluster_while_the_owner_may_log_in(citus: Cluster) -> None:
    """delete_tenant removes the tenant's rows on its worker and its rows of the reference
    tables on every node, over connections as memory_owner: refused while the owner may
    not log in (nothing deleted), done inside the window the README gives for it."""
    with _tenant(citus) as tenant:
        _simulation(citus.dsn("citus_app_a"), tenant, uuid.uuid4(), _episodes(POSTS[:1]))
        with Memory(citus.dsn("citus_admin")) as admin, pytest.raises(Exception) as refused:
            admin.delete_tenant(tenant)
        assert "memory_owner" in str(refused.value)
        with psycopg.connect(citus.dsn(), autocommit=True) as conn:
            counts = conn.execute(
                "SELECT (SELECT count(*) FROM memory.tenants WHERE tenant_id = %(t)s),"
                "       (SELECT count(*) FROM memory.episodes WHERE tenant_id = %(t)s)",
                {"t": tenant},
            ).fetchone()
            assert counts == (1, 1)
            with owner_may_log_in(conn), Memory(citus.dsn("citus_admin")) as admin:
                deleted = admin.delete_tenant(tenant)
            assert (deleted.simulations, deleted.episodes) == (1, 1)
            counts = conn.execute(
                "SELECT (SELECT count(*) FROM memory.tenants WHERE tenant_id = %(t)s),"
                "       (SELECT count(*) FROM memory.tenant_grants WHERE tenant_id = %(t)s),"
                "       (SELECT count(*) FROM memory.episodes WHERE tenant_id = %(t)s)",
                {"t": tenant},
            ).fetchone()
            assert counts == (0, 0, 0)


def test_health_runs_tenant_by_tenant_on_the_cluster(citus: Cluster) -> None:
    """health_tenant answers on the tenant's worker with one node's counts; memory.health(),
    whose tenant may be NULL (Citus crashes planning a delegated call with a NULL tenant),
    stays on the coordinator and refuses there (0A000), the coordinator still answering."""
    counts = []
    for dsn in _dsns(citus, "citus_reader_a"):
        with Memory(dsn) as mem:
            report = mem.health_tenant(TENANT_A, 0)
        counts.append(
            sorted(
                (h.metric, h.agent_id, h.value)
                for h in report
                if h.section == "size" and h.simulation_id == SIM_A and h.metric.endswith("rows")
            )
        )
    assert counts[0] == counts[1] and counts[0]
    with Memory(citus.dsn("citus_admin")) as admin:
        for tenant in (None, TENANT_A):
            with admin.connect() as conn, pytest.raises(NotSupported) as refused:
                admin.health(tenant, 0, conn=conn)
            assert "health_tenant" in (refused.value.hint or "")
        # Memory.health on its own connections: each tenant's health_tenant instead
        assert admin.health(TENANT_A, 0) == admin.health_tenant(TENANT_A, 0)
        everyone = admin.health(None, 0)
        assert {h.tenant_id for h in everyone} >= {TENANT_A} and not [
            h for h in everyone if h.section == "latency"
        ]


def test_a_deploy_migrates_the_distributed_database(citus: Cluster) -> None:
    """`swarm-memory migrate` on the distributed database: the repeatable objects go in the
    cluster's form (policies without their subquery, one statement a command, the statement
    triggers allowed) and distribute runs again; afterwards a further distribute changes
    nothing, the shard audit is clean and a granted reader walks the graph on its worker."""
    from swarm_memory import migrate

    assert migrate.is_distributed(citus.dsn()) and not migrate.is_distributed(citus.single_dsn())
    result = migrate.migrate(citus.dsn())
    assert result.applied_versions == [] and result.repeatable_files > 100
    assert distribute(citus.dsn()) == []
    with psycopg.connect(citus.dsn(), autocommit=True) as conn:
        bad = conn.execute("SELECT * FROM memory.rls_audit_shards() WHERE NOT ok").fetchall()
        start = conn.execute(
            "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND name = 'Daniel Reyes'",
            (TENANT_A,),
        ).fetchone()[0]
    assert bad == []
    with psycopg.connect(citus.dsn("citus_reader_a"), autocommit=True) as conn:
        walked = conn.execute(
            "SELECT count(*) FROM memory.neighbors(%s, %s, %s, 2)", (TENANT_A, SIM_A, start)
        ).fetchone()[0]
    assert walked > 5


def test_a_simulations_index_lives_on_its_tenants_shard(citus: Cluster) -> None:
    """ann_index_tenant builds the simulation's HNSW index on the tenant's shard of
    memory.episodes, on its worker, and nowhere else; health_tenant reports it indexed and
    samples its recall there (the search through the index, on the worker); the search
    answers as one node's."""
    with Memory(citus.dsn("citus_admin")) as admin:
        (create,) = [s for s in admin.ann_index_tenant(TENANT_A, SIM_A) if "CREATE" in s]
        report = admin.health_tenant(TENANT_A, 5)
    with psycopg.connect(citus.dsn(), autocommit=True) as conn:
        shard = conn.execute(
            "SELECT get_shard_id_for_distribution_column('memory.episodes', %s)", (TENANT_A,)
        ).fetchone()[0]
        sim_no = conn.execute(
            "SELECT sim_no FROM memory.simulations WHERE tenant_id = %s AND simulation_id = %s",
            (TENANT_A, SIM_A),
        ).fetchone()[0]
        placed = conn.execute(
            "SELECT nodename, nodeport FROM pg_dist_shard_placement WHERE shardid = %s", (shard,)
        ).fetchall()
    assert f"ON memory.episodes_{shard} " in create
    found = {}
    for node in cluster.nodes(3):  # the coordinator and the three workers of test_grow
        with psycopg.connect(node.dsn(citus.dbname), autocommit=True) as conn:
            found[(str(node.dir), node.port)] = conn.execute(
                "SELECT i.indrelid::regclass::text FROM pg_index i"
                " WHERE i.indexrelid = to_regclass(%s)",
                (f"memory.episodes_ann_{sim_no}",),
            ).fetchall()
    assert {k: v for k, v in found.items() if v} == {
        tuple(placed[0]): [(f"memory.episodes_{shard}",)]
    }
    (index,) = [
        h
        for h in report
        if h.section == "index" and h.metric == "ann_index" and h.simulation_id == SIM_A
    ]
    facts_index, entities_index = (
        next(h for h in report if h.metric == m and h.simulation_id == SIM_A)
        for m in ("facts_ann_index", "entities_ann_index")
    )
    assert facts_index.detail["state"] == entities_index.detail["state"] == "exact"
    (recall,) = [h for h in report if h.section == "recall" and h.simulation_id == SIM_A]
    assert index.detail["state"] == "indexed" and recall.value == 1.0 and recall.ok
    assert recall.detail["sampled"] == recall.detail["queries"] == 5
    q = Embedder().encode_query("Will closing the riverside road hurt the small shops?")
    literal = "[" + ",".join(f"{v:.7f}" for v in q) + "]"
    sql = (
        "SELECT episode_id, round(similarity::numeric, 5)"
        " FROM memory.search_episodes(%s, %s, %s::text::vector, 10)"
    )
    answers = []
    for dsn in _dsns(citus, "citus_reader_a"):
        with psycopg.connect(dsn, autocommit=True) as conn:
            answers.append(conn.execute(sql, (TENANT_A, SIM_A, literal)).fetchall())
    assert answers[0] == answers[1] and len(answers[0]) == 10
    with Memory(citus.dsn("citus_admin")) as admin:
        admin.ann_index_tenant(TENANT_A, SIM_A, "drop")
