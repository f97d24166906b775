"""The entities' per-simulation pair of ANN indexes (V0035: memory.ann_plan_entities,
memory.ann_index_entities, swarm_memory.ann.build_entities) and memory.search_nodes and
recall's entities arm through them.

The vectors are synthetic (seeded, clustered, normalised, as in test_ann.py): they exercise
the index path, its type filter and its fallback against the exact ranking, not the model's
quality.
"""

from __future__ import annotations

import json
import uuid

import psycopg
import pytest
from swarm_memory import ann
from swarm_memory.client import Memory
from swarm_memory.importer import stage
from test_ann import clustered, literal

N = 2400
TYPES = ("Person", "Organization", "MediaOutlet")


@pytest.fixture
def big_graph(world, connect):
    """N entities of sim_a, each with a name vector; four of five with a summary and its
    vector; every hundredth a Location (24 of them), the others of TYPES."""
    names, summaries = clustered(N, 21), clustered(N, 22)
    conn = connect("app_a")
    for start in range(0, N, 600):
        items = [
            {
                "id": f"n{i}",
                "name": f"Entity {i}",
                "type": "Location" if i % 100 == 0 else TYPES[i % 3],
                "summary": f"summary {i}" if i % 5 else None,
                "embedding": names[i].tolist(),
                **({"summary_embedding": summaries[i].tolist()} if i % 5 else {}),
            }
            for i in range(start, min(N, start + 600))
        ]
        conn.execute(
            "SELECT memory.upsert_nodes(%s, %s, %s::jsonb)",
            (world.tenant_a, world.sim_a, json.dumps(items)),
        )
    return names, summaries


def search(conn, world, q, k=10, by="both", type_=None):
    return conn.execute(
        "SELECT node_id, similarity FROM memory.search_nodes(%s, %s, %s::vector, %s, %s, %s)",
        (world.tenant_a, world.sim_a, literal(q), k, type_, by),
    ).fetchall()


def index_scans(conn, name: str) -> int:
    return conn.execute(
        "SELECT pg_stat_get_xact_numscans(to_regclass(%s))", (f"memory.{name}",)
    ).fetchone()[0]


def sim_no(connect, world) -> int:
    return (
        connect()
        .execute("SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (world.sim_a,))
        .fetchone()[0]
    )


def indexes(connect) -> list[str]:
    return [
        r[0]
        for r in connect()
        .execute(
            "SELECT relname FROM pg_class WHERE relnamespace = 'memory'::regnamespace"
            " AND relkind = 'i' AND relname LIKE 'entities_ann_%' ORDER BY relname"
        )
        .fetchall()
    ]


def test_every_write_path_gives_an_entity_its_simulations_number(world, connect, big_graph):
    """upsert_nodes (the fixture) and the staged import both: the merge fills sim_no."""
    mem = Memory(world.dsn("app_a"))
    writer = connect("app_a", autocommit=False)
    staged_sim = uuid.uuid4()
    attempt = mem.begin_import(world.tenant_a, staged_sim, {"nodes": 2}, conn=writer)
    writer.commit()
    nodes = [
        {
            "id": f"s{i}",
            "position": i,
            "name": f"Staged {i}",
            "type": "Person",
            "labels": [],
            "attributes": {},
            "embedding": None,
            "content_hash": None,
        }
        for i in range(2)
    ]
    stage(mem, writer, world.tenant_a, attempt, {"nodes": nodes}, 100)
    mem.commit_import(world.tenant_a, attempt, conn=writer)
    writer.commit()
    counts = (
        connect()
        .execute("SELECT count(*) FROM memory.nodes WHERE simulation_id = %s", (staged_sim,))
        .fetchone()
    )
    assert counts == (2,)
    rows = (
        connect()
        .execute(
            "SELECT DISTINCT n.sim_no = s.sim_no FROM memory.nodes AS n"
            " JOIN memory.simulations AS s USING (tenant_id, simulation_id)"
        )
        .fetchall()
    )
    assert rows == [(True,)]


def test_entity_indexes_are_built_used_and_agree_with_the_exact_scan(world, connect, big_graph):
    reader = connect("reader_a")
    queries = clustered(30, 23)
    cases = [(by, k) for by in ("name", "summary", "both", "meaning") for k in (10, 50)]
    exact = {case: [search(reader, world, q, case[1], case[0]) for q in queries] for case in cases}

    actions = ann.build_entities(world.dsn(), min_rows=2000)
    number = sim_no(connect, world)
    assert [(a.action, a.rows, a.index_name) for a in actions] == [
        ("built", N, f"entities_ann_{number}")
    ]
    assert indexes(connect) == [f"entities_ann_{number}", f"entities_ann_{number}_summary"]

    with psycopg.connect(world.dsn("reader_a")) as tx:  # one transaction: its scan counts
        name, summary = f"entities_ann_{number}", f"entities_ann_{number}_summary"
        before = (index_scans(tx, name), index_scans(tx, summary))
        assert len(search(tx, world, queries[0], 10, "both")) == 10
        after = (index_scans(tx, name), index_scans(tx, summary))
        assert after[0] > before[0] and after[1] > before[1], "search_nodes read not both indexes"
        search(tx, world, queries[0], 10, "name")
        assert index_scans(tx, summary) == after[1], "a search by name read the summaries' index"
        # by meaning: the summaries' index, and the entities without a summary exactly
        before = (index_scans(tx, name), index_scans(tx, summary))
        search(tx, world, queries[0], 10, "meaning")
        assert index_scans(tx, name) == before[0], "a search by meaning read the names' index"
        assert index_scans(tx, summary) > before[1]
    for (by, k), rows_exact in exact.items():
        overlap = []
        for q, want in zip(queries, rows_exact, strict=True):
            rows = search(reader, world, q, k, by)
            assert len(rows) == k
            # best first, and each similarity the exact one of the full vectors
            assert [r[1] for r in rows] == sorted((r[1] for r in rows), reverse=True)
            exact_sim = dict(want)
            assert all(abs(r[1] - exact_sim[r[0]]) < 1e-9 for r in rows if r[0] in exact_sim)
            overlap.append(len({r[0] for r in rows} & set(exact_sim)) / k)
            if by == "summary":  # an entity without a summary has no summary similarity
                assert all(int(r[0][1:]) % 5 for r in rows)
            if by == "meaning":  # those without a summary are compared exactly: none missed
                assert {r[0] for r in want if int(r[0][1:]) % 5 == 0} <= {r[0] for r in rows}
        assert sum(overlap) / len(overlap) >= 0.95, (by, k, sum(overlap) / len(overlap))


def test_a_rare_type_is_answered_whole_by_the_exact_scan(world, connect, big_graph):
    reader = connect("reader_a")
    q = clustered(1, 24)[0]
    want = search(reader, world, q, 50, "both", "Location")
    want_10 = search(reader, world, q, 10, "name", "Location")
    assert len(want) == 24
    ann.build_entities(world.dsn(), min_rows=2000)
    # 24 Locations, fewer than the 50 asked for: the exact scan answers, all of them
    assert search(reader, world, q, 50, "both", "Location") == want
    # ten of them through the index's iterative scan (the type applied inside it)
    got = search(reader, world, q, 10, "name", "Location")
    assert len(got) == 10 and all(int(r[0][1:]) % 100 == 0 for r in got)
    assert len({r[0] for r in got} & {r[0] for r in want_10}) >= 9


def test_a_half_built_pair_is_no_path_and_is_built_whole(world, connect, big_graph):
    """An interrupted `swarm-memory index` can leave one index of the pair: searches then
    take the exact scan, and the next plan builds the pair again."""
    reader = connect("reader_a")
    queries = clustered(5, 26)
    exact = [search(reader, world, q, 10, "summary") for q in queries]
    number = sim_no(connect, world)
    ann.build_entities(world.dsn(), min_rows=2000)
    connect().execute(f"DROP INDEX memory.entities_ann_{number}_summary")
    plan = connect().execute("SELECT action FROM memory.ann_plan_entities()").fetchall()
    assert plan == [("build",)]
    with psycopg.connect(world.dsn("reader_a")) as tx:
        before = index_scans(tx, f"entities_ann_{number}")
        assert [search(tx, world, q, 10, "summary") for q in queries] == exact
        assert [len(search(tx, world, q, 10, "both")) for q in queries] == [10] * 5
        assert index_scans(tx, f"entities_ann_{number}") == before, "half a pair was searched"
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["built"]
    assert indexes(connect) == [f"entities_ann_{number}", f"entities_ann_{number}_summary"]
    # a half left invalid (as by an interrupted CREATE INDEX CONCURRENTLY, here marked so by
    # hand): no path either, and built again
    connect().execute(
        "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass",
        (f"memory.entities_ann_{number}_summary",),
    )
    with psycopg.connect(world.dsn("reader_a")) as tx:
        before = index_scans(tx, f"entities_ann_{number}")
        assert [search(tx, world, q, 10, "summary") for q in queries] == exact
        assert index_scans(tx, f"entities_ann_{number}") == before, "an invalid pair was searched"
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["built"]
    # a half rebuilt with other parameters: the pair is rebuilt
    connect().execute(f"DROP INDEX memory.entities_ann_{number}_summary")
    connect().execute(
        f"CREATE INDEX entities_ann_{number}_summary ON memory.nodes USING hnsw"
        " ((summary_embedding::public.halfvec(384)) public.halfvec_cosine_ops)"
        f" WITH (m = 8, ef_construction = 128) WHERE sim_no = {number}"
    )
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["rebuilt"]
    # a lone half of a simulation that is gone is dropped
    connect().execute(f"DROP INDEX memory.entities_ann_{number}")
    connect("app_a").execute(
        "SELECT memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
    )
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["dropped"]
    assert indexes(connect) == []


def test_the_entity_indexes_are_kept_rebuilt_and_dropped_as_a_pair(world, connect, big_graph):
    number = sim_no(connect, world)
    pair = [f"entities_ann_{number}", f"entities_ann_{number}_summary"]
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["built"]
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["kept"]
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000, m=8)] == ["rebuilt"]
    assert indexes(connect) == pair
    options = (
        connect()
        .execute(
            "SELECT DISTINCT reloptions FROM pg_class WHERE relname = ANY (%s)",
            (pair,),
        )
        .fetchall()
    )
    assert options == [(["m=8", "ef_construction=128"],)]
    # the episodes' and facts' plans leave the pair alone
    assert ann.build(world.dsn(), min_rows=2000) == []
    assert ann.build_facts(world.dsn(), min_rows=2000) == []
    assert indexes(connect) == pair
    # below the threshold: the pair goes
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=N + 1)] == ["dropped"]
    assert indexes(connect) == []
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["built"]
    connect("app_a").execute(
        "SELECT memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
    )
    assert [a.action for a in ann.build_entities(world.dsn(), min_rows=2000)] == ["dropped"]
    assert indexes(connect) == []


def test_entity_index_calls_refuse_bad_input_and_non_admins(world, connect):
    admin = connect()
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        admin.execute("SELECT * FROM memory.ann_index_entities(1, 'shred')")
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        admin.execute("SELECT * FROM memory.ann_index_entities(NULL, 'build')")
    # not run: the statements of a build, CONCURRENTLY, for a superuser to run one by one
    statements = [
        r[0]
        for r in admin.execute(
            "SELECT * FROM memory.ann_index_entities(7, 'build', p_run => false)"
        ).fetchall()
    ]
    assert statements == [
        "DROP INDEX CONCURRENTLY IF EXISTS memory.entities_ann_7",
        "CREATE INDEX CONCURRENTLY entities_ann_7 ON memory.nodes USING hnsw"
        " ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)"
        " WITH (m = 32, ef_construction = 128) WHERE sim_no = 7",
        "DROP INDEX CONCURRENTLY IF EXISTS memory.entities_ann_7_summary",
        "CREATE INDEX CONCURRENTLY entities_ann_7_summary ON memory.nodes USING hnsw"
        " ((summary_embedding::public.halfvec(384)) public.halfvec_cosine_ops)"
        " WITH (m = 32, ef_construction = 128) WHERE sim_no = 7",
    ]
    for role in ("app_a", "reader_a"):
        conn = connect(role)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM memory.ann_plan_entities()")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM memory.ann_index_entities(1, 'drop')")


def test_recalls_entities_arm_reads_the_pair_and_ranks_as_search_nodes(world, connect, big_graph):
    """memory.recall's entities arm goes through memory._search_nodes as broadly as
    search_nodes does (at the facts arm's narrower breadth this overlap was 0.948), by
    meaning (V0036): the summaries' index is read and the names' is not, the raw scores are
    the exact similarities of the summary's vector (the name's for the fifth of the entities
    without a summary), and its top 50 overlap the exact top 50 as search_nodes' do."""
    reader = connect("reader_a")
    queries = clustered(20, 25)
    exact = [search(reader, world, q, 50, "meaning") for q in queries]
    number = sim_no(connect, world)
    ann.build_entities(world.dsn(), min_rows=2000)
    recall_sql = (
        "SELECT id, (ranks -> 'entities' ->> 'rank')::int, (ranks -> 'entities' ->> 'score')::float8"
        ' FROM memory.recall(%s, %s, NULL, %s::vector, 50, \'{"arms": ["entities"]}\')'
    )
    with psycopg.connect(world.dsn("reader_a")) as tx:
        names = (f"entities_ann_{number}", f"entities_ann_{number}_summary")
        before = [index_scans(tx, n) for n in names]
        tx.execute(recall_sql, (world.tenant_a, world.sim_a, literal(queries[0]))).fetchall()
        assert [index_scans(tx, n) > b for n, b in zip(names, before, strict=True)] == [False, True]
    overlap = []
    for q, want in zip(queries, exact, strict=True):
        rows = reader.execute(recall_sql, (world.tenant_a, world.sim_a, literal(q))).fetchall()
        assert len(rows) == 50
        exact_sim = dict(want)
        assert all(abs(r[2] - exact_sim[r[0]]) < 1e-9 for r in rows if r[0] in exact_sim)
        assert [r[1] for r in sorted(rows, key=lambda r: (-r[2], r[0]))] == list(range(1, 51))
        overlap.append(len({r[0] for r in rows} & set(exact_sim)) / 50)
    assert sum(overlap) / len(overlap) >= 0.95, sum(overlap) / len(overlap)


def test_warm_loads_the_entity_indexes_with_pg_prewarm_and_says_when_it_cannot(
    world, connect, big_graph
):
    """memory.warm: the simulation's rows, then its own indexes, each loaded through
    pg_prewarm (its pages, the index's size) when the extension is installed, and named as
    not loaded when it is not; a reader of another tenant may not warm this one."""
    number = sim_no(connect, world)
    ann.build_entities(world.dsn(), min_rows=2000)
    admin = connect()
    admin.execute("DROP EXTENSION IF EXISTS pg_prewarm")
    mem = Memory(world.dsn("reader_a"))
    rows = [(r.part, r.amount, r.unit) for r in mem.warm(world.tenant_a, world.sim_a)]
    assert rows[:3] == [("episodes", 0, "rows"), ("facts", 0, "rows"), ("entities", N, "rows")]
    assert rows[3][0] == "word postings" and rows[3][1] > N
    not_loaded = "not loaded: pg_prewarm is not installed"
    assert rows[4:] == [
        ("entities name index", None, not_loaded),
        ("entities summary index", None, not_loaded),
    ]
    admin.execute("CREATE EXTENSION pg_prewarm")
    try:
        pages = dict(
            admin.execute(
                "SELECT relname, relpages::bigint FROM pg_class WHERE relname = ANY (%s)",
                ([f"entities_ann_{number}", f"entities_ann_{number}_summary"],),
            ).fetchall()
        )
        rows = [(r.part, r.amount, r.unit) for r in mem.warm(world.tenant_a, world.sim_a)]
        assert rows[4:] == [
            ("entities name index", pages[f"entities_ann_{number}"], "pages"),
            ("entities summary index", pages[f"entities_ann_{number}_summary"], "pages"),
        ]
        assert all(p > 0 for p in pages.values())
        # another function by that name beside the extension's is never the one called (it
        # would run with the owner's rights)
        admin.execute(
            "CREATE FUNCTION public.pg_prewarm(regclass) RETURNS bigint"
            " LANGUAGE sql AS 'SELECT -1::bigint'"
        )
        try:
            rows = [(r.part, r.amount) for r in mem.warm(world.tenant_a, world.sim_a)]
            assert [a for _, a in rows[4:]] == [
                pages[f"entities_ann_{number}"],
                pages[f"entities_ann_{number}_summary"],
            ]
        finally:
            admin.execute("DROP FUNCTION public.pg_prewarm(regclass)")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connect("app_b").execute(
                "SELECT * FROM memory.warm(%s, %s)", (world.tenant_a, world.sim_a)
            )
    finally:
        admin.execute("DROP EXTENSION pg_prewarm")
