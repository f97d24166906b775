"""Per-simulation ANN indexes (swarm_memory.ann) and the search path that uses them.

The vectors here are synthetic (seeded, clustered, normalised): they exercise the index
path and its fallback against a brute-force ranking, not the model's quality.
"""

from __future__ import annotations

import uuid

import numpy as np
import psycopg
import pytest
from swarm_memory import Memory, ann
from swarm_memory.cli import main

N = 2400


def clustered(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, 384)).astype(np.float32)
    v = centres[rng.integers(0, 40, n)] + 0.35 * rng.standard_normal((n, 384)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def literal(v: np.ndarray) -> str:
    return "[" + ",".join(repr(float(x)) for x in v) + "]"


@pytest.fixture
def big_sim(world, connect):
    vectors = clustered(N, 1)
    conn = connect("app_a")
    for start in range(0, N, 600):
        items = [
            {
                "id": f"e{i}",
                "action_type": "CREATE_POST",
                "agent_id": 0 if i < 3 else 1 + i % 7,
                "content": f"post {i}",
                "embedding": vectors[i].tolist(),
            }
            for i in range(start, min(N, start + 600))
        ]
        conn.execute(
            "SELECT memory.upsert_episodes(%s, %s, %s::jsonb)",
            (world.tenant_a, world.sim_a, __import__("json").dumps(items)),
        )
    return vectors


def search(conn, world, q, k=10, agent=None):
    return conn.execute(
        "SELECT episode_id, similarity FROM memory.search_episodes(%s, %s, %s::vector, %s, %s)",
        (world.tenant_a, world.sim_a, literal(q), k, agent),
    ).fetchall()


def test_index_is_built_used_and_agrees_with_brute_force(world, connect, big_sim):
    reader = connect("reader_a")
    queries = clustered(30, 2)
    before = [search(reader, world, q) for q in queries]

    actions = ann.build(world.dsn(), min_rows=2000)
    assert [(a.action, a.rows) for a in actions] == [("built", N)]
    assert actions[0].bridged is None  # below ann.BRIDGE_MIN_ROWS: no bridge
    name = actions[0].index_name
    assert (
        connect().execute("SELECT to_regclass(%s) IS NOT NULL", (f"memory.{name}",)).fetchone()[0]
    )
    # The planner really takes the partial index for the query memory._search_episodes_ann
    # runs (with its enable_sort = off).
    su = connect()
    su.execute("SET enable_sort = off")
    plan = "\n".join(
        r[0]
        for r in su.execute(
            "EXPLAIN SELECT episode_id FROM memory.episodes e WHERE e.sim_no = %s::bigint"
            " AND e.tenant_id = %s AND e.simulation_id = %s"
            " ORDER BY e.embedding::halfvec(384) <=> %s::halfvec(384) LIMIT 100",
            (actions[0].sim_no, world.tenant_a, world.sim_a, literal(queries[0])),
        ).fetchall()
    )
    assert name in plan

    recalls = []
    for q, exact_before in zip(queries, before, strict=True):
        got = search(reader, world, q)
        assert len(got) == 10
        sims = big_sim @ q
        truth = {f"e{i}" for i in np.argsort(-sims)[:10]}
        recalls.append(len(truth & {g[0] for g in got}) / 10)
        assert [g[1] for g in got] == sorted((g[1] for g in got), reverse=True)
        assert {g[0] for g in exact_before} == truth
    assert np.mean(recalls) >= 0.97

    # A filter that leaves fewer rows than asked for falls back to the exact search.
    rare = search(reader, world, queries[0], 10, agent=0)
    assert sorted(r[0] for r in rare) == ["e0", "e1", "e2"]

    # Again: nothing to build. After the simulation is gone, its index is dropped.
    assert [a.action for a in ann.build(world.dsn(), min_rows=2000)] == ["kept"]
    connect("app_a").execute(
        "SELECT memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
    )
    assert [a.action for a in ann.build(world.dsn(), min_rows=2000)] == ["dropped"]


def episode_scans(connect, world, q) -> dict[str, int]:
    """search() on a connection of its own (a backend's scan counts of earlier transactions
    may not be flushed yet, and pg_stat_get_xact_numscans would add them), and what it
    scanned of memory.episodes in that transaction: each vector index by name, and the
    table's sequential scans under 'episodes', with how often (none: absent). The b-tree
    indexes are left out: the model check's one-row lookup of a simulation's vector model
    (memory._simulation_model) reads one, and no ranking does."""
    with connect("reader_a") as conn, conn.transaction():
        search(conn, world, q)
        return dict(
            conn.execute(
                "SELECT c.relname, pg_stat_get_xact_numscans(c.oid) FROM pg_class c"
                " WHERE (c.oid = 'memory.episodes'::regclass OR c.oid IN (SELECT i.indexrelid"
                " FROM pg_index i WHERE i.indrelid = 'memory.episodes'::regclass))"
                " AND pg_stat_get_xact_numscans(c.oid) > 0"
                " AND (c.relname = 'episodes' OR c.relname ~ '^episodes_(ann|ivf)_')"
            ).fetchall()
        )


def test_a_new_simulation_is_searched_through_its_bridge_while_its_index_builds(
    world, connect, big_sim
):
    """A superuser's `swarm-memory index` builds a simulation's IVFFlat bridge first, and
    search_episodes answers through it alone (close to the exact ranking, no exact scan
    behind it) until the HNSW index is built and valid; then the bridge is gone and the HNSW
    index answers. A bridge an interrupted run left is searched only while the simulation
    has no valid HNSW index, and the next run drops it, whether it keeps the simulation's
    index or the simulation is gone."""
    su = connect()
    (sim_no,) = su.execute(
        "SELECT sim_no FROM memory.simulations WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    ).fetchone()
    bridge, hnsw = f"episodes_ivf_{sim_no}", f"episodes_ann_{sim_no}"
    queries = clustered(20, 7)

    def truth(q):
        return {f"e{i}" for i in np.argsort(-(big_sim @ q))[:10]}

    def indexes():
        return dict(
            su.execute(
                "SELECT c.relname, i.indisvalid FROM pg_class c JOIN pg_index i"
                " ON i.indexrelid = c.oid WHERE c.relname = ANY(%s)",
                ([bridge, hnsw],),
            ).fetchall()
        )

    def scans(q):
        return episode_scans(connect, world, q)

    def index_health():
        """The state and the bridge health_tenant names for the simulation's episodes index."""
        with Memory(world.dsn("reader_a")) as mem:
            return [
                (h.detail["state"], h.detail.get("bridge"))
                for h in mem.health_tenant(world.tenant_a, 0)
                if h.metric == "ann_index" and h.simulation_id == world.sim_a
            ]

    reader = connect("reader_a")
    seen: dict = {}

    def on_bridged(n: int) -> None:
        assert n == sim_no
        seen["indexes"] = indexes()
        seen["scans"] = scans(queries[0])
        seen["health"] = index_health()
        seen["recall"] = np.mean(
            [len(truth(q) & {g[0] for g in search(reader, world, q)}) / 10 for q in queries]
        )

    # (the default leaves the bridge out below 20,000 episodes, where it saves little)
    assert ann.BRIDGE_MIN_ROWS > N
    actions = ann.build(world.dsn(), min_rows=2000, on_bridged=on_bridged, bridge_min_rows=N)
    assert [(a.action, a.sim_no) for a in actions] == [("built", sim_no)]
    assert 0 < actions[0].bridged < actions[0].seconds
    assert seen["indexes"] == {bridge: True}  # the bridge alone, before the HNSW index
    assert seen["scans"] == {bridge: 1}  # through it alone: no exact scan after it
    assert seen["recall"] >= 0.95
    # health names the bridge beside the HNSW index's own state, and not once that is built
    assert seen["health"] == [("missing", bridge)]
    assert index_health() == [("indexed", None)]
    assert indexes() == {hnsw: True}  # the bridge dropped once the HNSW index was built
    assert scans(queries[0]) == {hnsw: 1}

    with psycopg.connect(world.dsn(), autocommit=True) as admin:
        # an interrupted run: the bridge built, the HNSW index not (yet)
        admin.execute(f"DROP INDEX memory.{hnsw}")
        planned = [
            r[0]
            for r in admin.execute(
                "SELECT s FROM memory.ann_index(%s, 'build', 32, 128, false) AS s", (sim_no,)
            ).fetchall()
        ]
        assert planned[0] == f"DROP INDEX CONCURRENTLY IF EXISTS memory.{bridge}"
        assert planned[-1] == planned[0]
        admin.execute(planned[1])
        assert indexes() == {bridge: True}
        assert scans(queries[1]) == {bridge: 1}
        # the HNSW index there but not valid (as while CREATE INDEX CONCURRENTLY runs): the
        # bridge answers; once it is valid, the bridge is not searched any more
        for statement in planned[2:4]:
            admin.execute(statement)
        admin.execute(
            "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass",
            (f"memory.{hnsw}",),
        )
        assert indexes() == {bridge: True, hnsw: False}
        assert scans(queries[1]) == {bridge: 1}
        admin.execute(
            "UPDATE pg_index SET indisvalid = true WHERE indexrelid = %s::regclass",
            (f"memory.{hnsw}",),
        )
    assert indexes() == {bridge: True, hnsw: True}
    assert scans(queries[1]) == {hnsw: 1}
    # the next run keeps the index and drops the bridge left beside it
    assert [a.action for a in ann.build(world.dsn(), min_rows=2000)] == ["kept"]
    assert indexes() == {hnsw: True}
    # the simulation gone: its index and a bridge left beside it are dropped together
    with psycopg.connect(world.dsn(), autocommit=True) as admin:
        admin.execute(planned[1])
    connect("app_a").execute(
        "SELECT memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
    )
    assert [a.action for a in ann.build(world.dsn(), min_rows=2000)] == ["dropped"]
    assert indexes() == {}
    # and a bridge left alone, of a simulation that is gone, is planned as a drop of its own
    with psycopg.connect(world.dsn(), autocommit=True) as admin:
        admin.execute(planned[1])
    assert indexes() == {bridge: True}
    assert [(a.action, a.sim_no) for a in ann.build(world.dsn(), min_rows=2000)] == [
        ("dropped", sim_no)
    ]
    assert indexes() == {}


def test_an_index_built_with_other_parameters_is_rebuilt_in_place(world, connect, big_sim):
    su = connect()

    def options(name: str) -> list[str]:
        return sorted(
            su.execute(
                "SELECT c.reloptions FROM pg_class c WHERE c.oid = to_regclass(%s)",
                (f"memory.{name}",),
            ).fetchone()[0]
        )

    old = ann.build(world.dsn(), min_rows=2000, m=8, ef_construction=32)
    assert [a.action for a in old] == ["built"]
    name = old[0].index_name
    assert options(name) == ["ef_construction=32", "m=8"]

    new = ann.build(world.dsn(), min_rows=2000)
    assert [(a.action, a.index_name) for a in new] == [("rebuilt", name)]
    assert options(name) == ["ef_construction=128", "m=32"]
    assert (
        su.execute(
            "SELECT count(*) FROM pg_class WHERE relname LIKE 'episodes\\_ann\\_%%'"
        ).fetchone()[0]
        == 1
    )
    q = clustered(1, 3)[0]
    assert len(search(connect("reader_a"), world, q)) == 10
    assert [a.action for a in ann.build(world.dsn(), min_rows=2000)] == ["kept"]


def test_index_command_needs_memory_admin(world, capsys):
    assert main(["--dsn", world.dsn("app_a"), "index"]) == 2
    assert "42501" in capsys.readouterr().err


@pytest.fixture
def index_admin(world):
    """A login of its own (roles are cluster-wide: the shared admin stays as it is) holding
    memory_admin and nothing of memory_owner; dropped at the end."""
    name = f"idx_{uuid.uuid4().hex[:10]}"
    with world.connect() as su:
        su.execute(f'CREATE ROLE "{name}" LOGIN')
        su.execute(f'GRANT memory_admin TO "{name}"')
    yield name
    with world.connect() as su:
        su.execute(f'DROP OWNED BY "{name}"')
        su.execute(f'DROP ROLE "{name}"')


def owner_grant(world, role: str) -> tuple:
    """(SET, ADMIN OPTION) of role's grant of memory_owner, (None, None) without one."""
    with world.connect() as su:
        return su.execute(
            "SELECT m.set_option, m.admin_option FROM pg_auth_members AS m"
            " WHERE m.roleid = 'memory_owner'::regrole AND m.member = %s::regrole",
            (role,),
        ).fetchone() or (None, None)


def test_an_administrator_builds_concurrently_as_the_owner(
    world, connect, big_sim, index_admin, capsys
):
    """No superuser: `swarm-memory index` runs the CONCURRENTLY statements as memory_owner.
    An administrator that may not become memory_owner is refused (42501) with the GRANT a
    superuser must run, and nothing is built; one holding ADMIN OPTION on memory_owner (the
    CREATEROLE administrator who made it) takes SET for the run and gives it back; one that
    may SET ROLE memory_owner uses that."""
    su = connect()
    (name,) = su.execute(
        "SELECT memory._ann_index_name(sim_no) FROM memory.simulations"
        " WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    ).fetchone()

    def index() -> tuple | None:
        return su.execute(
            "SELECT c.relowner::regrole::text, i.indisvalid FROM pg_class c"
            " JOIN pg_index i ON i.indexrelid = c.oid WHERE c.oid = to_regclass(%s)",
            (f"memory.{name}",),
        ).fetchone()

    assert main(["--dsn", world.dsn(index_admin), "index", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "42501" in err and f"GRANT memory_owner TO {index_admin} WITH INHERIT FALSE" in err
    assert index() is None

    su.execute(f'GRANT memory_owner TO "{index_admin}" WITH ADMIN TRUE, INHERIT FALSE, SET FALSE')
    assert main(["--dsn", world.dsn(index_admin), "index", "--quiet"]) == 0
    assert index() == ("memory_owner", True)
    assert owner_grant(world, index_admin) == (False, True)  # the SET it took, given back
    q = clustered(1, 4)[0]
    got = search(connect("reader_a"), world, q)
    truth = {f"e{i}" for i in np.argsort(-(big_sim @ q))[:10]}
    assert len(got) == 10 and len(truth & {g[0] for g in got}) >= 8

    su.execute(f'REVOKE memory_owner FROM "{index_admin}"')
    su.execute(f'GRANT memory_owner TO "{index_admin}" WITH INHERIT FALSE, SET TRUE')
    assert [a.action for a in ann.build(world.dsn(index_admin), min_rows=2000, m=8)] == ["rebuilt"]
    assert index() == ("memory_owner", True)
    assert owner_grant(world, index_admin) == (True, False)

    # A tenant's writer is not an administrator, whatever it asks for.
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        connect("app_a").execute("SELECT memory.ann_index(1, 'drop')")
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        connect("admin").execute("SELECT memory.ann_index(1, 'truncate')")


def test_an_index_action_in_one_transaction_is_refused_on_one_node(world, connect, big_sim):
    """A plain CREATE or DROP INDEX would hold the table against every tenant's writes: on
    one node memory.ann_index_tenant, and memory.ann_index / ann_index_facts /
    ann_index_entities with p_run, refuse any action with a statement to run (55000, the
    hint naming `swarm-memory index`); the concurrent statements are still planned. A writer
    is refused, an unknown simulation is P0002 and an unknown action 22023."""
    from swarm_memory import Memory

    su = connect()
    (sim_no,) = su.execute(
        "SELECT sim_no FROM memory.simulations WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    ).fetchone()
    admin = connect("admin")
    for action in ("build", "rebuild", "drop"):
        for call, args in (
            ("memory.ann_index_tenant(%s, %s, %s)", (world.tenant_a, world.sim_a, action)),
            ("memory.ann_index(%s, %s)", (sim_no, action)),
            ("memory.ann_index_facts(%s, %s)", (sim_no, action)),
            ("memory.ann_index_entities(%s, %s)", (sim_no, action)),
        ):
            with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState) as exc:
                admin.execute(f"SELECT * FROM {call}", args)
            assert "swarm-memory index" in exc.value.diag.message_hint, (call, action)
    # 'keep' with nothing to do is nothing
    assert (
        admin.execute(
            "SELECT * FROM memory.ann_index_tenant(%s, %s, 'keep')", (world.tenant_a, world.sim_a)
        ).fetchall()
        == []
    )
    with Memory(world.dsn("admin")) as mem:
        planned = mem.ann_index(sim_no, "build", run=False)
    assert planned and all("CONCURRENTLY" in s for s in planned if "RENAME" not in s)
    assert (
        su.execute(
            "SELECT count(*) FROM pg_class WHERE relname ~ %s", (f"^episodes_(ann|ivf)_{sim_no}",)
        ).fetchone()[0]
        == 0
    )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        connect("app_a").execute(
            "SELECT memory.ann_index_tenant(%s, %s, 'drop')", (world.tenant_a, world.sim_a)
        )
    with pytest.raises(psycopg.errors.NoDataFound):
        admin.execute("SELECT memory.ann_index_tenant(%s, %s)", (world.tenant_a, world.sim_b))
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        admin.execute(
            "SELECT memory.ann_index_tenant(%s, %s, 'truncate')", (world.tenant_a, world.sim_a)
        )


def test_deleting_a_tenant_drops_its_indexes(world, connect, big_sim, capsys):
    """`swarm-memory tenant delete` deletes the tenant and drops every search index of its
    simulations (episodes' with a bridge left beside it, facts', the entities' pair, clump
    builds'), CONCURRENTLY; another tenant's index stays."""
    su = connect()
    (sim_no,) = su.execute(
        "SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (world.sim_a,)
    ).fetchone()
    # tenant B's simulation, indexed too
    vectors = clustered(N, 9)
    items = [
        {"id": f"b{i}", "action_type": "CREATE_POST", "embedding": v.tolist()}
        for i, v in enumerate(vectors)
    ]
    connect("app_b").execute(
        "SELECT memory.upsert_episodes(%s, %s, %s::jsonb)",
        (world.tenant_b, world.sim_b, __import__("json").dumps(items)),
    )
    assert [a.action for a in ann.build(world.dsn(), min_rows=2000)] == ["built", "built"]
    (b_no,) = su.execute(
        "SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (world.sim_b,)
    ).fetchone()
    # the other kinds' indexes of A's simulation, as their builds name them, and a bridge
    # and a clump build's index an interrupted run left
    for stmt in (
        f"CREATE INDEX memory.facts_ann_{sim_no} ON memory.edges (sim_no) WHERE sim_no = {sim_no}",
        f"CREATE INDEX entities_ann_{sim_no} ON memory.nodes (sim_no) WHERE sim_no = {sim_no}",
        f"CREATE INDEX entities_ann_{sim_no}_summary ON memory.nodes (sim_no) WHERE sim_no = {sim_no}",
        f"CREATE INDEX episodes_ivf_{sim_no} ON memory.episodes (sim_no) WHERE sim_no = {sim_no}",
        f"CREATE INDEX search_points_ann_{sim_no}_999 ON memory.search_points (build_no)"
        " WHERE build_no = 999",
    ):
        su.execute(stmt.replace("INDEX memory.", "INDEX "))

    def indexes(n: int) -> list[str]:
        return [
            r[0]
            for r in su.execute(
                "SELECT relname FROM pg_class WHERE relnamespace = 'memory'::regnamespace"
                " AND relkind = 'i' AND relname ~ %s ORDER BY 1",
                (f"_{n}(_[0-9]+|_summary)?$",),
            )
        ]

    assert len(indexes(sim_no)) == 6
    assert (
        main(["--dsn", world.dsn("admin"), "tenant", "delete", str(world.tenant_a), "--yes"]) == 2
    )
    assert "42501" in capsys.readouterr().err  # admin may not act as memory_owner: nothing deleted
    assert su.execute(
        "SELECT count(*) FROM memory.tenants WHERE tenant_id = %s", (world.tenant_a,)
    ).fetchone() == (1,)
    assert main(["--dsn", world.dsn(), "tenant", "delete", str(world.tenant_a), "--yes"]) == 0
    out = capsys.readouterr().out
    assert f"deleted tenant {world.tenant_a}: 1 simulations" in out and "6 search indexes" in out
    assert indexes(sim_no) == []
    assert indexes(b_no) == [f"episodes_ann_{b_no}"]


def test_no_tenant_or_simulation_id_in_the_catalog(world, connect, big_sim):
    """After a build, the index's name, definition, predicate and statistics carry only the
    simulation's opaque number: no uuid of any tenant or simulation anywhere in them."""
    ann.build(world.dsn(), min_rows=2000)
    ids = [str(x) for x in (world.tenant_a, world.tenant_b, world.sim_a, world.sim_b)]
    nobody = connect("nobody")
    search(connect("reader_a"), world, clustered(1, 5)[0])  # the index gets scanned
    texts = {
        "pg_indexes": "SELECT string_agg(i::text, ' ') FROM pg_indexes i",
        "pg_class": "SELECT string_agg(c.relname || ' ' || coalesce(c.reloptions::text, ''), ' ')"
        " FROM pg_class c",
        "pg_index": "SELECT string_agg(coalesce(pg_get_expr(x.indpred, x.indrelid), '')"
        " || pg_get_indexdef(x.indexrelid), ' ') FROM pg_index x",
        "pg_stat_user_indexes": "SELECT string_agg(s::text, ' ') FROM pg_stat_user_indexes s",
        "pg_statio_user_indexes": "SELECT string_agg(s::text, ' ') FROM pg_statio_user_indexes s",
    }
    (name,) = (
        connect()
        .execute(
            "SELECT memory._ann_index_name(sim_no) FROM memory.simulations WHERE simulation_id = %s",
            (world.sim_a,),
        )
        .fetchone()
    )
    for view, query in texts.items():
        text = nobody.execute(query).fetchone()[0]
        assert name in text, view  # the index is there to be read ...
        for id_ in ids:
            assert id_ not in text, (view, id_)  # ... and names no id
            assert id_.replace("-", "") not in text.replace("-", ""), (view, id_)
