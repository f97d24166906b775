"""The facts' per-simulation ANN index (V0032: memory.ann_plan_facts, memory.ann_index_facts,
swarm_memory.ann.build_facts) and memory.search_facts through it.

The vectors are synthetic (seeded, clustered, normalised, as in test_ann.py): they exercise
the index path, its state filter and its fallback against the exact ranking, not the
model's quality.
"""

from __future__ import annotations

import json

import psycopg
import pytest
from swarm_memory import ann
from test_ann import clustered, literal

N = 2400
NODES = 60


@pytest.fixture
def big_graph(world, connect):
    """N facts among NODES entities of sim_a, every fifth of them ended a year ago."""
    vectors = clustered(N, 11)
    conn = connect("app_a")
    nodes = [{"id": f"n{i}", "name": f"Person {i}", "type": "Person"} for i in range(NODES)]
    conn.execute(
        "SELECT memory.upsert_nodes(%s, %s, %s::jsonb)",
        (world.tenant_a, world.sim_a, json.dumps(nodes)),
    )
    for start in range(0, N, 600):
        items = [
            {
                "id": f"f{i}",
                "type": "KNOWS",
                "source_id": f"n{i % NODES}",
                "target_id": f"n{(i * 7 + 1) % NODES}",
                "fact": f"fact {i}",
                "valid_at": "2025-01-01T00:00:00Z",
                "invalid_at": "2025-06-01T00:00:00Z" if i % 5 == 0 else None,
                "embedding": vectors[i].tolist(),
            }
            for i in range(start, min(N, start + 600))
        ]
        conn.execute(
            "SELECT memory.upsert_edges(%s, %s, %s::jsonb)",
            (world.tenant_a, world.sim_a, json.dumps(items)),
        )
    return vectors


def search(conn, world, q, k=10, state="current"):
    return conn.execute(
        "SELECT edge_id, state, source_name, target_name, similarity"
        " FROM memory.search_facts(%s, %s, %s::vector, %s, %s)",
        (world.tenant_a, world.sim_a, literal(q), k, state),
    ).fetchall()


def index_scans(conn, name: str) -> int:
    return conn.execute(
        "SELECT pg_stat_get_xact_numscans(to_regclass(%s))", (f"memory.{name}",)
    ).fetchone()[0]


def test_facts_index_is_built_used_and_agrees_with_the_exact_scan(world, connect, big_graph):
    reader = connect("reader_a")
    queries = clustered(30, 12)
    exact = {
        (state, k): [search(reader, world, q, k, state) for q in queries]
        for state in ("current", "historical")
        for k in (10, 50)
    }
    # every current fact of the exact scan is current, every historical one ended
    assert {r[1] for rows in exact[("current", 10)] for r in rows} == {"current"}
    assert {r[1] for rows in exact[("historical", 10)] for r in rows} == {"ended"}

    actions = ann.build_facts(world.dsn(), min_rows=2000)
    sim_no = (
        connect()
        .execute("SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (world.sim_a,))
        .fetchone()[0]
    )
    assert [(a.action, a.rows, a.index_name) for a in actions] == [
        ("built", N, f"facts_ann_{sim_no}")
    ]
    name = actions[0].index_name

    with psycopg.connect(world.dsn("reader_a")) as tx:  # one transaction: its scan counts
        before = index_scans(tx, name)
        got = search(tx, world, queries[0])
        assert index_scans(tx, name) > before, "search_facts did not read the facts' index"
        assert len(got) == 10
    for (state, k), rows_exact in exact.items():
        recall = []
        for q, want in zip(queries, rows_exact, strict=True):
            rows = search(reader, world, q, k, state)
            assert len(rows) == k
            assert {r[1] for r in rows} == ({"current"} if state == "current" else {"ended"})
            # the ends are named, and the similarity is the exact one of the full vectors
            assert all(r[2].startswith("Person ") and r[3].startswith("Person ") for r in rows)
            exact_sim = {r[0]: r[4] for r in want}
            assert all(abs(r[4] - exact_sim[r[0]]) < 1e-9 for r in rows if r[0] in exact_sim)
            recall.append(len({r[0] for r in rows} & set(exact_sim)) / k)
        assert sum(recall) / len(recall) >= 0.95, (state, k, sum(recall) / len(recall))


def test_a_state_with_fewer_facts_than_asked_falls_back_to_the_exact_scan(
    world, connect, big_graph
):
    ann.build_facts(world.dsn(), min_rows=2000)
    reader = connect("reader_a")
    q = clustered(1, 13)[0]
    # no fact lies in the future: the index finds none, the exact scan is the authority
    assert search(reader, world, q, 10, "future") == []
    # one fact made future: the exact scan finds it although the index search would not
    connect("app_a").execute(
        "SELECT memory.upsert_edges(%s, %s, %s::jsonb)",
        (
            world.tenant_a,
            world.sim_a,
            json.dumps(
                [
                    {
                        "id": "f1",
                        "type": "KNOWS",
                        "source_id": "n1",
                        "target_id": "n8",
                        "fact": "fact 1",
                        "valid_at": "2999-01-01T00:00:00Z",
                        "embedding": big_graph[1].tolist(),
                    }
                ]
            ),
        ),
    )
    assert [(r[0], r[1]) for r in search(reader, world, q, 10, "future")] == [("f1", "future")]


def test_the_facts_index_is_kept_rebuilt_and_dropped(world, connect, big_graph):
    assert [a.action for a in ann.build_facts(world.dsn(), min_rows=2000)] == ["built"]
    assert [a.action for a in ann.build_facts(world.dsn(), min_rows=2000)] == ["kept"]
    assert [a.action for a in ann.build_facts(world.dsn(), min_rows=2000, m=8)] == ["rebuilt"]
    # below the threshold: the index goes; the episodes' plan is not touched by any of it
    assert [a.action for a in ann.build_facts(world.dsn(), min_rows=N + 1)] == ["dropped"]
    assert ann.build(world.dsn(), min_rows=2000) == []
    assert [a.action for a in ann.build_facts(world.dsn(), min_rows=2000)] == ["built"]
    connect("app_a").execute(
        "SELECT memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
    )
    assert [a.action for a in ann.build_facts(world.dsn(), min_rows=2000)] == ["dropped"]


def test_facts_index_calls_refuse_bad_input_and_non_admins(world, connect):
    admin = connect()
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        admin.execute("SELECT * FROM memory.ann_index_facts(1, 'shred')")
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        admin.execute("SELECT * FROM memory.ann_index_facts(NULL, 'build')")
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        admin.execute("SELECT * FROM memory._ann_plan('nodes', 2000, 32, 128)")
    for role in ("app_a", "reader_a"):
        conn = connect(role)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM memory.ann_plan_facts()")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM memory.ann_index_facts(1, 'drop')")


def test_recalls_facts_arm_reads_the_index_narrowly_and_ranks_as_the_exact_scan(
    world, connect, big_graph
):
    """memory.recall's facts arm (V0033) goes through memory._search_facts with a breadth of
    its own (two a candidate, at least 100; search_facts takes memory._ann_breadth's): the
    index is read, only current facts come back, the raw scores are the exact similarities,
    and its top 50 overlap the exact top 50 at least as far as the test above asks of
    search_facts."""
    reader = connect("reader_a")
    queries = clustered(20, 14)
    exact = [search(reader, world, q, 50) for q in queries]
    name = ann.build_facts(world.dsn(), min_rows=2000)[0].index_name
    recall_sql = (
        "SELECT id, (ranks -> 'facts' ->> 'rank')::int, (ranks -> 'facts' ->> 'score')::float8"
        ' FROM memory.recall(%s, %s, NULL, %s::vector, 50, \'{"arms": ["facts"]}\')'
    )
    with psycopg.connect(world.dsn("reader_a")) as tx:
        before = index_scans(tx, name)
        tx.execute(recall_sql, (world.tenant_a, world.sim_a, literal(queries[0]))).fetchall()
        assert index_scans(tx, name) > before, "recall's facts arm did not read the index"
    overlap = []
    for q, want in zip(queries, exact, strict=True):
        rows = reader.execute(recall_sql, (world.tenant_a, world.sim_a, literal(q))).fetchall()
        assert len(rows) == 50
        exact_sim = {r[0]: r[4] for r in want}
        # every fifth fact has ended (the fixture): none of them is a current fact
        assert all(int(r[0][1:]) % 5 != 0 for r in rows)
        assert all(abs(r[2] - exact_sim[r[0]]) < 1e-9 for r in rows if r[0] in exact_sim)
        assert [r[1] for r in sorted(rows, key=lambda r: -r[2])] == list(range(1, 51))
        overlap.append(len({r[0] for r in rows} & set(exact_sim)) / 50)
    assert sum(overlap) / len(overlap) >= 0.95, sum(overlap) / len(overlap)


def test_an_invalid_facts_index_is_no_path(world, connect, big_graph):
    """An index left invalid (by an interrupted CREATE INDEX CONCURRENTLY, or one still being
    built: here marked so by hand) is not searched and the answers are the exact scan's; the
    next build makes it again."""
    reader = connect("reader_a")
    queries = clustered(5, 14)
    exact = [search(reader, world, q) for q in queries]
    [action] = ann.build_facts(world.dsn(), min_rows=2000)
    connect().execute(
        "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass",
        (f"memory.{action.index_name}",),
    )
    with psycopg.connect(world.dsn("reader_a")) as tx:  # one transaction: its scans count
        before = index_scans(tx, action.index_name)
        assert [search(tx, world, q) for q in queries] == exact
        assert index_scans(tx, action.index_name) == before, "an invalid index was searched"
    assert [a.action for a in ann.build_facts(world.dsn(), min_rows=2000)] == ["built"]
    with psycopg.connect(world.dsn("reader_a")) as tx:
        before = index_scans(tx, action.index_name)
        assert len(search(tx, world, queries[0])) == 10
        assert index_scans(tx, action.index_name) > before


def test_a_time_reaches_the_index_search_whatever_the_sessions_date_style(
    world, connect, big_graph
):
    """The index search gets p_as_of as a literal of its prepared statement: a session in
    Asia/Kolkata writing times the SQL way ("01/06/2025 04:30:00 IST") gets the same facts as
    one in UTC. An hour before the ended facts' end (2025-06-01 00:00 UTC) they are current;
    IST read as Israel's +02 (timezone_abbreviations, PostgreSQL 16 and 17) would end them;
    PostgreSQL 18 reads the session zone's own abbreviation right, so there this holds with
    or without the search's DateStyle."""
    ann.build_facts(world.dsn(), min_rows=2000)
    q = clustered(1, 12)[0]
    sql = (
        "SELECT edge_id, state FROM memory.search_facts(%s, %s, %s::vector, 50, 'current',"
        " '2025-05-31 23:00:00+00')"
    )
    args = (world.tenant_a, world.sim_a, literal(q))
    utc = connect("reader_a").execute(sql, args).fetchall()
    assert len(utc) == 50 and any(int(e[1:]) % 5 == 0 for e, _ in utc)
    kolkata = connect("reader_a")
    kolkata.execute("SET TimeZone = 'Asia/Kolkata'")
    kolkata.execute("SET DateStyle = 'SQL, DMY'")
    assert kolkata.execute(sql, args).fetchall() == utc
