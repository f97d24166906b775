"""The memory on a Citus cluster: distribution, delegation, the trust model on the workers,
search and walk against one node, and the shard audit (issue 15)."""

from __future__ import annotations

import psycopg
import pytest
from swarm_memory.distribute import distribute
from world import SIM_A, TENANT_A, TENANT_B, Cluster

pytestmark = pytest.mark.usefixtures("citus")


def _rows(dsn: str, sql: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


# --- distribution ---------------------------------------------------------------------------


def test_a_second_distribute_changes_nothing(citus: Cluster) -> None:
    assert distribute(citus.dsn()) == []


def test_every_tenant_table_is_distributed_by_tenant_and_colocated(citus: Cluster) -> None:
    rows = _rows(
        citus.dsn(),
        """
        SELECT c.relname, d.partmethod, d.repmodel,
               pg_catalog.column_to_column_name(d.logicalrelid, d.partkey),
               d.colocationid = (SELECT colocationid FROM pg_dist_partition
                                  WHERE logicalrelid = 'memory.simulations'::regclass),
               EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id')
          FROM pg_class c LEFT JOIN pg_dist_partition d ON d.logicalrelid = c.oid
         WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind IN ('r', 'p')
        """,
    )
    assert len(rows) > 20
    for name, method, repmodel, column, colocated, has_tenant in rows:
        if name in ("tenants", "tenant_grants") or not has_tenant:
            assert (method, repmodel) == ("n", "t"), f"{name} should be a reference table"
        else:
            assert (method, column, colocated) == ("h", "tenant_id", True), name


def test_api_functions_are_delegated_by_their_tenant(citus: Cluster) -> None:
    rows = dict(
        _rows(
            citus.dsn(),
            """
            SELECT p.proname, (o.distribution_argument_index, o.force_delegation,
                               o.colocationid = (SELECT colocationid FROM pg_dist_partition
                                                  WHERE logicalrelid = 'memory.simulations'::regclass))::text
              FROM pg_proc p JOIN pg_dist_object o ON o.classid = 'pg_proc'::regclass AND o.objid = p.oid
             WHERE p.pronamespace = 'memory'::regnamespace
            """,
        )
    )
    for fn in (
        "neighbors",
        "search_episodes",
        "nodes_by_type",
        "recall",
        "upsert_nodes",
        "delete_simulation",
    ):
        assert rows.get(fn) == "(0,t,t)", fn
    # the import functions that use the caller's own session stay on the coordinator; the
    # promote and the rest of the import run on the tenant's worker
    for fn in ("stage_rows", "begin_import"):
        assert rows.get(fn, "(,,)").startswith("(,"), fn
    for fn in ("validate_import", "commit_import", "abort_import", "import_attempts"):
        assert rows.get(fn) == "(0,t,t)", fn


# --- row-level security on the shards --------------------------------------------------------


def test_the_shard_audit_finds_every_placement_as_its_table(citus: Cluster) -> None:
    rows = _rows(
        citus.dsn(), "SELECT table_name, placement, ok, problem FROM memory.rls_audit_shards()"
    )
    placements = [r for r in rows if r[1].startswith("shard ")]
    assert placements == [], placements
    known = {
        r[0]
        for r in _rows(
            citus.dsn(), "SELECT DISTINCT 'memory.' || table_name FROM memory._installed_policies()"
        )
    }
    assert [r for r in rows if r[0] in known and not r[2]] == []
    assert {r[0] for r in rows if r[2]} >= {
        "memory.nodes",
        "memory.episodes",
        "memory.tenant_grants",
    }


def test_the_code_audit_finds_the_cluster_as_the_release_installed_it(citus: Cluster) -> None:
    """Distribution resets plans and adds the shard audit: neither is a change rls_audit()
    reports, on the coordinator or on a worker, and the client's comparison with the shipped
    manifest agrees."""
    from swarm_memory import audit

    sql = "SELECT table_name, problem FROM memory.rls_audit() WHERE starts_with(table_name, 'function ')"
    assert _rows(citus.dsn(), sql) == []
    for worker in citus.workers:
        rows = _rows(worker.dsn(citus.dbname), sql)
        assert rows == [], f"{worker.name}: " + "; ".join(p for _, p in rows)
    with psycopg.connect(citus.dsn(), autocommit=True) as conn:
        assert audit.code_problems(conn) == []


def test_the_shard_audit_sees_a_shard_whose_rls_is_not_forced(citus: Cluster) -> None:
    shard, node, port = _rows(
        citus.dsn(),
        """
        SELECT s.shard_name, s.nodename, s.nodeport FROM citus_shards s
         WHERE s.table_name = 'memory.nodes'::regclass ORDER BY s.shardid LIMIT 1
        """,
    )[0]
    worker = next(w for w in citus.workers if str(w.dir) == node and w.port == port)
    with psycopg.connect(worker.dsn(citus.dbname), autocommit=True) as conn:
        conn.execute(f"ALTER TABLE {shard} NO FORCE ROW LEVEL SECURITY")
        try:
            bad = _rows(
                citus.dsn(), "SELECT placement, problem FROM memory.rls_audit_shards() WHERE NOT ok"
            )
        finally:
            conn.execute(f"ALTER TABLE {shard} FORCE ROW LEVEL SECURITY")
    assert [p for p, problem in bad if "forced=false" in problem and p.startswith("shard ")] != []


def _direct_count(dsn: str, tenant, propagate: bool) -> int | None:  # noqa: ANN001
    """Rows of memory.nodes a role sees selecting the table itself with the tenant setting
    set by hand: set_config on the coordinator, or SET LOCAL sent to the workers (with what
    memory._enter_tenant sets there). None when the statement is refused."""
    with psycopg.connect(dsn) as conn:
        try:
            if propagate:
                conn.execute("SET LOCAL citus.propagate_set_commands = 'local'")
                conn.execute("SET LOCAL citus.allow_nested_distributed_execution = on")
                conn.execute(f"SET LOCAL memory.tenant_id = '{tenant}'")
            else:
                conn.execute("SELECT set_config('memory.tenant_id', %s, true)", (str(tenant),))
            return conn.execute("SELECT count(*) FROM memory.nodes").fetchone()[0]
        except (psycopg.errors.InsufficientPrivilege, psycopg.errors.InternalError_):
            return None  # refused (42501, or a nested distributed query): nothing either
        finally:
            conn.rollback()


def test_a_forged_tenant_setting_gives_nothing_on_the_workers(citus: Cluster) -> None:
    """Granted roles selecting the table directly with the setting forged to a tenant they
    hold no grant for, on the coordinator or sent to the workers, see none of its rows; the
    same setting for a tenant the role holds a grant for does reach the workers (control)."""
    assert (
        _rows(citus.dsn(), "SELECT count(*) FROM memory.nodes WHERE tenant_id = %s", (TENANT_A,))[
            0
        ][0]
        > 0
    )
    for role, tenant in (
        ("citus_app_b", TENANT_A),
        ("citus_app_a", TENANT_B),
        ("citus_reader_a", TENANT_B),
    ):
        for propagate in (False, True):
            assert _direct_count(citus.dsn(role), tenant, propagate) in (0, None), (role, tenant)
    assert _direct_count(citus.dsn("citus_reader_a"), TENANT_A, True) == 33
    # set_config does not reach the workers: nothing, or refused
    assert _direct_count(citus.dsn("citus_reader_a"), TENANT_A, False) in (0, None)


def test_a_call_for_another_tenant_is_refused_on_the_worker(citus: Cluster) -> None:
    with (
        psycopg.connect(citus.dsn("citus_app_b"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute(
            "SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (TENANT_A, SIM_A)
        ).fetchall()


@pytest.mark.parametrize("role", ["citus_app_a", "citus_reader_a"])
def test_a_granted_role_reads_its_tenant_on_the_cluster(citus: Cluster, role: str) -> None:
    """A writer and a reader granted tenant A by an administrator (not a superuser): the call
    runs on the tenant's worker, where the grant names the role by its OID there (V0024)."""
    with psycopg.connect(citus.dsn(role), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (TENANT_A, SIM_A)
        ).fetchall()
        stats = conn.execute("SELECT * FROM memory.simulation_stats(%s, %s)", (TENANT_A, SIM_A))
        assert stats.fetchall()
    assert len(rows) == 33


def test_a_grant_names_the_role_by_its_oid_on_every_node(citus: Cluster) -> None:
    """The map grant_tenant recorded: every node's group, each the OID pg_roles gives the
    role on that node; the workers' OIDs are not the coordinator's here."""
    ((oid, mapping),) = _rows(
        citus.dsn(),
        "SELECT role_oid, node_role_oids FROM memory.tenant_grants"
        " WHERE tenant_id = %s AND role_name = 'citus_app_a'",
        (TENANT_A,),
    )
    groups = _rows(citus.dsn(), "SELECT groupid FROM pg_dist_node WHERE noderole = 'primary'")
    assert sorted(int(g) for g in mapping) == sorted(g for (g,) in groups)
    assert int(mapping["0"]) == oid
    for worker in citus.workers:
        group, local = _rows(
            worker.dsn(citus.dbname),
            "SELECT (SELECT groupid FROM pg_dist_local_group),"
            " (SELECT oid FROM pg_roles WHERE rolname = 'citus_app_a')",
        )[0]
        assert int(mapping[str(group)]) == local
    assert any(int(v) != oid for v in mapping.values()), "OIDs happen to agree: nothing tested"


def test_a_grant_without_the_workers_oid_fails_closed(citus: Cluster) -> None:
    """A grant whose map lacks the tenant's worker (a node added after it, distribute not run
    again) gives the role nothing there: 42501, not the coordinator's OID."""
    where = "tenant_id = %s AND role_name = 'citus_reader_a'"
    (mapping,) = _rows(
        citus.dsn(), f"SELECT node_role_oids FROM memory.tenant_grants WHERE {where}", (TENANT_A,)
    )[0]
    with psycopg.connect(citus.dsn(), autocommit=True) as conn:
        conn.execute(
            f"UPDATE memory.tenant_grants SET node_role_oids = %s WHERE {where}",
            (psycopg.types.json.Jsonb({"0": mapping["0"]}), TENANT_A),
        )
        try:
            with (
                psycopg.connect(citus.dsn("citus_reader_a"), autocommit=True) as reader,
                pytest.raises(psycopg.errors.InsufficientPrivilege),
            ):
                reader.execute(
                    "SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (TENANT_A, SIM_A)
                ).fetchall()
        finally:
            conn.execute(
                f"UPDATE memory.tenant_grants SET node_role_oids = %s WHERE {where}",
                (psycopg.types.json.Jsonb(mapping), TENANT_A),
            )
    with psycopg.connect(citus.dsn("citus_reader_a"), autocommit=True) as reader:
        assert reader.execute(
            "SELECT count(*) FROM memory.nodes_by_type(%s, %s, NULL)", (TENANT_A, SIM_A)
        ).fetchone() == (33,)


def test_a_granted_role_begins_an_import_on_the_coordinator(citus: Cluster) -> None:
    """begin_import stays on the coordinator; its statements reach the tenant's worker with
    the tenant (memory._enter_tenant's SET LOCAL), and the grant holds there."""
    with psycopg.connect(citus.dsn("citus_app_a"), autocommit=True) as conn:
        (attempt,) = conn.execute(
            "SELECT memory.begin_import(%s, %s)", (TENANT_A, SIM_A)
        ).fetchone()
    state = _rows(
        citus.dsn(),
        "SELECT state FROM memory.import_attempts WHERE tenant_id = %s AND attempt_id = %s",
        (TENANT_A, attempt),
    )
    assert state == [("loading",)]


# The writes (every upsert and the staged import) are tested in test_writes.py.


# --- delegation, walk and search -------------------------------------------------------------


def _remote_commands(
    dsn: str, sql: str, params: tuple, in_transaction: bool
) -> tuple[list, list[str]]:
    notices: list[str] = []
    with psycopg.connect(dsn, autocommit=not in_transaction) as conn:
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        conn.execute("SET citus.log_remote_commands = on")
        if in_transaction:
            conn.execute("SELECT 1")  # a statement before: the call is inside a transaction block
        rows = conn.execute(sql, params).fetchall()
        conn.execute("RESET citus.log_remote_commands")
        if in_transaction:
            conn.commit()
    return rows, [n for n in notices if n.startswith("issuing")]


@pytest.mark.parametrize(
    "function",
    ["nodes_by_type", "search_episodes", "neighbors"],
)
@pytest.mark.parametrize("in_transaction", [False, True])
def test_a_call_runs_whole_on_the_tenants_worker(
    citus: Cluster, function: str, in_transaction: bool
) -> None:
    """One remote command, the call itself: every statement inside runs on the worker."""
    start = _rows(
        citus.dsn(),
        "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND name = 'Daniel Reyes'",
        (TENANT_A,),
    )[0][0]
    sql, params = {
        "nodes_by_type": ("SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (TENANT_A, SIM_A)),
        "search_episodes": (
            "SELECT * FROM memory.search_episodes(%s, %s, memory.episode_vector(%s, %s, 'tw-1'))",
            (TENANT_A, SIM_A, TENANT_A, SIM_A),
        ),
        "neighbors": (
            "SELECT node_id, depth FROM memory.neighbors(%s, %s, %s, 2)",
            (TENANT_A, SIM_A, start),
        ),
    }[function]
    rows, remote = _remote_commands(citus.dsn(), sql, params, in_transaction)
    assert rows
    calls = [c for c in remote if f"memory.{function}" in c]
    assert len(calls) == 1, remote
    assert [c for c in remote if f"memory.{function}" not in c and "memory." in c] == []


def test_the_walk_answers_as_on_one_node(citus: Cluster) -> None:
    sql = (
        "SELECT node_id, depth, path, edge_id FROM memory.neighbors(%s, %s, %s, 3) ORDER BY node_id"
    )
    start = _rows(
        citus.dsn(),
        "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND name = 'Daniel Reyes'",
        (TENANT_A,),
    )[0][0]
    on_cluster = _rows(citus.dsn(), sql, (TENANT_A, SIM_A, start))
    assert len(on_cluster) > 5
    assert on_cluster == _rows(citus.single_dsn(), sql, (TENANT_A, SIM_A, start))


def test_search_answers_as_on_one_node(citus: Cluster) -> None:
    from swarm_memory.embed import Embedder

    q = Embedder().encode_query(
        "Will closing the riverside road to cars hurt the small shops nearby?"
    )
    literal = "[" + ",".join(f"{v:.7f}" for v in q) + "]"
    sql = "SELECT episode_id, round(similarity::numeric, 5) FROM memory.search_episodes(%s, %s, %s::text::vector, 10)"
    on_cluster = _rows(citus.dsn(), sql, (TENANT_A, SIM_A, literal))
    assert len(on_cluster) == 10
    assert on_cluster == _rows(citus.single_dsn(), sql, (TENANT_A, SIM_A, literal))


def test_no_function_asks_for_a_generic_plan_on_the_cluster(citus: Cluster) -> None:
    """On one node the walk, facts, the words' and graph's arms and the facts' ranking cache
    a generic plan; a generic plan leaves the tenant a parameter Citus cannot route by, so on
    every node of the cluster memory._use_custom_plans has reset them."""
    sql = """
        SELECT p.proname FROM pg_proc p
         WHERE p.pronamespace = 'memory'::regnamespace
           AND 'plan_cache_mode=force_generic_plan' = ANY (p.proconfig)
    """
    assert {r[0] for r in _rows(citus.single_dsn(), sql)} == {
        "neighbors",
        "neighbor_ids",
        "facts",
        "_search_words",
        "_recall_graph",
        "_search_facts",
        "_name_candidates",
    }
    assert _rows(citus.dsn(), sql) == []
    for worker in citus.workers:
        assert _rows(worker.dsn(citus.dbname), sql) == [], worker.name


def test_walk_and_vector_queries_plan_on_one_shard(citus: Cluster) -> None:
    """The shapes inside neighbors and search_episodes, planned on the coordinator: one task."""
    walk = """
        EXPLAIN WITH RECURSIVE w AS (
            SELECT e.target_key AS key, 1 AS depth FROM memory.edges e
             WHERE e.tenant_id = %(t)s AND e.simulation_id = %(s)s AND e.source_key = md5('x')::uuid
            UNION
            SELECT e.target_key, w.depth + 1 FROM w JOIN memory.edges e
              ON e.tenant_id = %(t)s AND e.simulation_id = %(s)s AND e.source_key = w.key
             WHERE w.depth < 3)
        SELECT * FROM w"""
    search = """
        EXPLAIN SELECT episode_id FROM memory.episodes
         WHERE tenant_id = %(t)s AND simulation_id = %(s)s AND embedding IS NOT NULL
         ORDER BY embedding <=> (SELECT embedding FROM memory.episodes
                                  WHERE tenant_id = %(t)s AND simulation_id = %(s)s LIMIT 1)
         LIMIT 10"""
    for sql in (walk, search):
        with psycopg.connect(citus.dsn(), autocommit=True) as conn:
            plan = "\n".join(r[0] for r in conn.execute(sql, {"t": TENANT_A, "s": SIM_A}))
        assert "Task Count: 1" in plan, plan


def test_tenant_b_rows_are_not_in_tenant_a_results(citus: Cluster) -> None:
    """A tenant's call never answers with another tenant's rows, also where both tenants'
    shards share a worker (they do with 8 shards on 2 workers)."""
    a = _rows(
        citus.dsn(),
        "SELECT node_id FROM memory.nodes_by_type(%s, %s, NULL, 1000)",
        (TENANT_A, SIM_A),
    )
    b_only = _rows(
        citus.dsn(), "SELECT count(*) FROM memory.nodes WHERE tenant_id = %s", (TENANT_B,)
    )[0][0]
    assert len(a) == 33 and b_only == 3
