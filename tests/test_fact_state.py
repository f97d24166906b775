"""One rule of a fact's state: memory._fact_state. The hot queries write the rule out inline
(a call per row costs what a walk or a facts search cannot pay); each copy is held here to
the rule, at every moment that matters (before, at and after each bound, now, infinity), on
facts with every combination of bounds:

- memory.facts (the time wing) and memory.search_facts, exact and through the simulation's
  facts index (memory._search_facts, memory._search_facts_ann), and at a snapshot
  (memory._search_facts_known): the state of every row;
- memory._recall_graph (the recall wing's graph arm): the facts and the entities it reaches
  are those of current facts;
- memory.paths: a path exists only over facts current now;
- memory.neighbors: sql/functions/wings/time/tests/023_time.sql holds the walk's copy.

The vectors are synthetic unit vectors (tests/helpers.vec): only the states are compared."""

from __future__ import annotations

import datetime as dt
import itertools

import psycopg
import pytest
from helpers import upsert, vec, vec_text
from swarm_memory import ann

T1 = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
T2 = dt.datetime(2025, 6, 1, tzinfo=dt.UTC)
T3 = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)  # after today: a fact not begun yet
MOMENTS = [
    dt.datetime(2024, 6, 1, tzinfo=dt.UTC),
    T1,
    dt.datetime(2025, 3, 1, tzinfo=dt.UTC),
    T2,
    dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    T3,
    dt.datetime(2031, 1, 1, tzinfo=dt.UTC),
    dt.datetime.max.replace(tzinfo=dt.UTC),
]


def iso(t: dt.datetime | None) -> str | None:
    return None if t is None else t.isoformat()


def bounds() -> list[tuple[dt.datetime | None, ...]]:
    """valid_at, invalid_at, expired_at: every combination of open and set bounds, an end
    never before the start."""
    return [
        (v, i, x)
        for v, i, x in itertools.product([None, T1, T3], [None, T2, T3], [None, T1, T2])
        if not (v and i and i <= v)
    ]


@pytest.fixture
def graph(world, connect):
    """A hub with one fact to a node of its own per combination of bounds."""
    app = connect("app_a")
    combos = bounds()
    nodes = [{"id": "hub", "name": "hub", "type": "Person", "embedding": vec(0)}]
    edges = []
    for n, (v, i, x) in enumerate(combos):
        nodes.append(
            {"id": f"n{n}", "name": f"node {n}", "type": "Person", "embedding": vec(n + 1)}
        )
        edge = {
            "id": f"f{n}",
            "type": "KNOWS",
            "source_id": "hub",
            "target_id": f"n{n}",
            "fact": f"fact {n}",
            "embedding": vec(1000 + n),
        }
        for field, value in (("valid_at", v), ("invalid_at", i), ("expired_at", x)):
            if value is not None:
                edge[field] = iso(value)
        edges.append(edge)
    upsert(app, "upsert_nodes", world.tenant_a, world.sim_a, nodes)
    upsert(app, "upsert_edges", world.tenant_a, world.sim_a, edges)
    return len(combos)


def rule(conn: psycopg.Connection, world, at) -> dict[str, str]:
    """edge_id -> memory._fact_state at `at` (NULL: now), from the stored bounds."""
    return dict(
        conn.execute(
            "SELECT e.edge_id, memory._fact_state(e.valid_at, e.invalid_at, e.expired_at,"
            " COALESCE(%s, now())) FROM memory.edges AS e"
            " WHERE e.tenant_id = %s AND e.simulation_id = %s",
            (at, world.tenant_a, world.sim_a),
        ).fetchall()
    )


def as_of(t: dt.datetime) -> str:
    return "infinity" if t.year == dt.MAXYEAR else t.isoformat()


def test_the_bounds_cover_every_state(world, connect, graph):
    su = connect()
    seen = {s for t in MOMENTS for s in rule(su, world, as_of(t)).values()}
    assert seen == {"future", "ended", "expired", "current"}


def test_facts_states_every_fact_by_the_rule(world, connect, graph):
    reader = connect("reader_a")
    su = connect()
    for t in MOMENTS:
        rows = reader.execute(
            "SELECT edge_id, state FROM memory.facts(%s, %s, NULL, 'all', %s, 1000)",
            (world.tenant_a, world.sim_a, as_of(t)),
        ).fetchall()
        assert dict(rows) == rule(su, world, as_of(t)), t


def search_states(conn, world, t) -> dict[str, str]:
    return dict(
        conn.execute(
            "SELECT edge_id, state FROM memory.search_facts(%s, %s, %s::public.vector, 100,"
            " 'all', %s)",
            (world.tenant_a, world.sim_a, vec_text(vec(7)), as_of(t)),
        ).fetchall()
    )


def test_search_facts_states_every_fact_by_the_rule_exact_and_indexed(world, connect, graph):
    reader = connect("reader_a")
    su = connect()
    for t in MOMENTS:
        assert search_states(reader, world, t) == rule(su, world, as_of(t)), t
    # the simulation's facts index, then the same answers through _search_facts_ann
    built = ann.build_facts(world.dsn(), min_rows=1)
    assert [a.action for a in built] == ["built"]
    index = built[0].index_name
    for t in MOMENTS:
        ranked = dict(
            su.execute(
                "SELECT edge_id, state FROM memory._search_facts_ann(%s, %s, %s::bigint,"
                " %s::public.vector, 100, 'all', %s::timestamptz, %s::real)",
                (
                    world.tenant_a,
                    world.sim_a,
                    built[0].sim_no,
                    vec_text(vec(7)),
                    as_of(t),
                    float(graph),
                ),
            ).fetchall()
        )
        assert ranked and ranked.items() <= rule(su, world, as_of(t)).items(), (t, index)
        assert search_states(reader, world, t) == rule(su, world, as_of(t)), t


def test_search_facts_at_a_snapshot_states_every_fact_by_the_rule(world, connect, graph):
    connect("app_a").execute(
        "SELECT * FROM memory.create_snapshot(%s, %s, 'frozen')", (world.tenant_a, world.sim_a)
    )
    reader = connect("reader_a")
    su = connect()
    for t in MOMENTS:
        # a transaction after the snapshot's: read through memory._search_facts_known
        rows = reader.execute(
            "SELECT edge_id, state FROM memory.search_facts(%s, %s, %s::public.vector, 100,"
            " 'all', %s, p_snapshot => 'frozen')",
            (world.tenant_a, world.sim_a, vec_text(vec(7)), as_of(t)),
        ).fetchall()
        assert dict(rows) == rule(su, world, as_of(t)), t


def test_the_graph_arm_follows_current_facts_only(world, connect, graph):
    su = connect()
    for t in MOMENTS:
        state = rule(su, world, as_of(t))
        for depth in (1, 2):
            hits = su.execute(
                "SELECT h.kind, h.id FROM memory._recall_graph(%s, %s, 'hub', 200, %s, %s,"
                " ARRAY[md5('hub')::uuid], ARRAY[1.0]::real[]) AS h",
                (world.tenant_a, world.sim_a, depth, as_of(t)),
            ).fetchall()
            facts = {i for k, i in hits if k == "fact"}
            entities = {i for k, i in hits if k == "entity"} - {"hub"}
            current = {e for e, s in state.items() if s == "current"}
            assert facts <= current, (t, depth)
            # every entity reached lies at the end of a fact current then
            assert entities == {f"n{e[1:]}" for e in current}, (t, depth)


def test_paths_walk_facts_current_now(world, connect, graph):
    reader = connect("reader_a")
    su = connect()
    state = rule(su, world, None)
    for edge, s in state.items():
        node = f"n{edge[1:]}"
        rows = reader.execute(
            "SELECT edge_ids FROM memory.paths(%s, %s, 'hub', %s, 1)",
            (world.tenant_a, world.sim_a, node),
        ).fetchall()
        assert (rows == [([edge],)]) == (s == "current"), (edge, s, rows)
