"""The write API (upsert_simulation, upsert_nodes, upsert_edges, upsert_episodes,
upsert_profiles, delete_simulation) and the plain readers (nodes_by_type, get_node,
simulation_stats), against the real database.

Embeddings here are synthetic unit vectors from numpy with a fixed seed, not model output:
they only exercise storage, comparison and replay.
"""

from __future__ import annotations

import random
import uuid

import numpy as np
import psycopg
import pytest
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
TABLES = ["simulations", "nodes", "edges", "episodes", "profiles"]


def vec(seed: int) -> list[float]:
    v = np.random.default_rng(seed).normal(size=384).astype(np.float32)
    return [float(x) for x in v / np.linalg.norm(v)]


def upsert(conn, fn: str, tenant, sim, items, *extra) -> tuple:
    marks = ", ".join(["%s"] * (3 + len(extra)))
    return conn.execute(
        f"SELECT * FROM memory.{fn}({marks})", (tenant, sim, Jsonb(items), *extra)
    ).fetchone()


def snapshot(su, table: str) -> list[dict]:
    """Every row of a table, read as the superuser (who is not subject to RLS)."""
    with su.cursor(row_factory=dict_row) as cur:
        return cur.execute(f"SELECT * FROM memory.{table} ORDER BY 1, 2, 3, 4").fetchall()


def snapshot_all(su) -> dict[str, list[dict]]:
    return {t: snapshot(su, t) for t in TABLES}


NODES = [
    {
        "id": "alice",
        "name": "Alice",
        "type": "Person",
        "labels": ["Entity", "Person"],
        "summary": "a student",
        "attributes": {"age": 20, "tags": ["x"]},
        "embedding": vec(1),
    },
    {
        "id": "bob",
        "name": "Bob",
        "type": "Person",
        "embedding": vec(2),
        "embedding_model": "test/synthetic",
    },
    {"id": "acme", "name": "ACME", "type": "Organization", "attributes": {}},
]
EDGES = [
    {
        "id": "e1",
        "type": "KNOWS",
        "source_id": "alice",
        "target_id": "bob",
        "fact": "Alice knows Bob",
        "attributes": {"since": 2020},
        "valid_at": "2024-01-01T00:00:00Z",
        "invalid_at": None,
        "embedding": vec(3),
    },
    {"id": "e2", "type": "WORKS_AT", "source_id": "bob", "target_id": "acme"},
]
EPISODES = [
    {
        "id": "ep1",
        "agent_id": 1,
        "agent_name": "alice",
        "platform": "twitter",
        "round": 1,
        "action_type": "CREATE_POST",
        "content": "hello",
        "metadata": {"likes": 3},
        "occurred_at": "2025-03-01T10:00:00+00:00",
        "embedding": vec(4),
    },
    {
        "id": "ep2",
        "agent_id": 2,
        "agent_name": "bob",
        "platform": "reddit",
        "round": 4,
        "action_type": "LIKE_POST",
        "occurred_at": "2025-03-01T12:30:00+00:00",
    },
    {"id": "ep3", "agent_id": 1, "platform": "twitter", "round": 2, "action_type": "DO_NOTHING"},
]
PROFILES = [
    {
        "agent_id": 1,
        "platform": "twitter",
        "name": "Alice",
        "username": "alice01",
        "bio": "bio",
        "persona": "curious",
        "attributes": {"followers": 10},
    },
    {"agent_id": 1, "platform": "reddit", "name": "Alice R"},
    {"agent_id": 2, "platform": "twitter"},
]


def load_all(conn, tenant, sim) -> None:
    upsert(conn, "upsert_nodes", tenant, sim, NODES)
    upsert(conn, "upsert_edges", tenant, sim, EDGES)
    upsert(conn, "upsert_episodes", tenant, sim, EPISODES)
    upsert(conn, "upsert_profiles", tenant, sim, PROFILES)


# -- normal paths ---------------------------------------------------------------------


def test_upserts_insert_and_store_every_field(world, connect):
    conn, su = connect("app_a"), connect()
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, NODES) == (3, 0, 0)
    assert upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, EDGES) == (2, 0, 0, 0)
    assert upsert(conn, "upsert_episodes", world.tenant_a, world.sim_a, EPISODES) == (3, 0, 0)
    assert upsert(conn, "upsert_profiles", world.tenant_a, world.sim_a, PROFILES) == (3, 0, 0)

    alice = su.execute(
        "SELECT tenant_id, simulation_id, name, type, labels, summary, attributes,"
        " embedding::real[], embedding_model FROM memory.nodes WHERE node_id = 'alice'"
    ).fetchone()
    assert alice[:7] == (
        world.tenant_a,
        world.sim_a,
        "Alice",
        "Person",
        ["Entity", "Person"],
        "a student",
        {"age": 20, "tags": ["x"]},
    )
    assert np.allclose(alice[7], vec(1), atol=1e-7) and alice[8] == DEFAULT_MODEL
    acme = su.execute(
        "SELECT type, labels, summary, attributes, embedding, embedding_model"
        " FROM memory.nodes WHERE node_id = 'acme'"
    ).fetchone()
    assert acme == ("Organization", [], None, {}, None, None)
    assert su.execute(
        "SELECT embedding_model FROM memory.nodes WHERE node_id = 'bob'"
    ).fetchone() == ("test/synthetic",)
    # type defaults to Entity
    upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "x", "name": "X"}])
    assert su.execute("SELECT type FROM memory.nodes WHERE node_id = 'x'").fetchone() == ("Entity",)

    e1 = su.execute(
        "SELECT type, source_id, target_id, fact, attributes, valid_at, invalid_at,"
        " embedding_model FROM memory.edges WHERE edge_id = 'e1'"
    ).fetchone()
    assert e1[:5] == ("KNOWS", "alice", "bob", "Alice knows Bob", {"since": 2020})
    assert e1[5].isoformat() == "2024-01-01T00:00:00+00:00" and e1[6] is None
    assert e1[7] == DEFAULT_MODEL

    ep1 = su.execute(
        "SELECT agent_id, agent_name, platform, round, action_type, content,"
        " metadata, occurred_at, embedding_model FROM memory.episodes"
        " WHERE episode_id = 'ep1'"
    ).fetchone()
    assert ep1[:7] == (1, "alice", "twitter", 1, "CREATE_POST", "hello", {"likes": 3})
    assert ep1[7].isoformat() == "2025-03-01T10:00:00+00:00" and ep1[8] == DEFAULT_MODEL
    ep3 = su.execute(
        "SELECT agent_name, content, metadata, occurred_at, embedding"
        " FROM memory.episodes WHERE episode_id = 'ep3'"
    ).fetchone()
    assert ep3 == (None, None, {}, None, None)

    prof = su.execute(
        "SELECT platform, agent_id, name, username, bio, persona, attributes"
        " FROM memory.profiles ORDER BY platform, agent_id"
    ).fetchall()
    assert prof == [
        ("reddit", 1, "Alice R", None, None, None, {}),
        ("twitter", 1, "Alice", "alice01", "bio", "curious", {"followers": 10}),
        ("twitter", 2, None, None, None, None, {}),
    ]


def test_empty_batches_change_nothing(world, connect):
    conn = connect("app_a")
    for fn in ("upsert_nodes", "upsert_episodes", "upsert_profiles"):
        assert upsert(conn, fn, world.tenant_a, world.sim_a, []) == (0, 0, 0)
    assert upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, []) == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("fn", "items", "counts"),
    [
        ("upsert_nodes", NODES, (0, 0, 3)),
        ("upsert_edges", EDGES, (0, 0, 2, 0)),
        ("upsert_episodes", EPISODES, (0, 0, 3)),
        ("upsert_profiles", PROFILES, (0, 0, 3)),
    ],
)
def test_replaying_a_batch_changes_nothing(world, connect, fn, items, counts):
    conn, su = connect("app_a"), connect()
    load_all(conn, world.tenant_a, world.sim_a)
    before = snapshot_all(su)
    assert upsert(conn, fn, world.tenant_a, world.sim_a, items) == counts
    assert snapshot_all(su) == before  # updated_at included


def test_replaying_everything_in_one_transaction_changes_nothing(world, connect):
    conn, su = connect("app_a", autocommit=False), connect()
    load_all(conn, world.tenant_a, world.sim_a)
    conn.commit()
    before = snapshot_all(su)
    load_all(conn, world.tenant_a, world.sim_a)
    conn.commit()
    assert snapshot_all(su) == before


CHANGES = [
    ("upsert_nodes", NODES, 0, {"summary": "a teacher"}, "nodes"),
    ("upsert_nodes", NODES, 0, {"embedding": vec(99)}, "nodes"),
    ("upsert_nodes", NODES, 1, {"embedding_model": "test/other"}, "nodes"),
    ("upsert_nodes", NODES, 0, {"labels": ["Person", "Entity"]}, "nodes"),
    ("upsert_nodes", NODES, 2, {"attributes": {"k": 1}}, "nodes"),
    ("upsert_edges", EDGES, 0, {"target_id": "acme"}, "edges"),
    ("upsert_edges", EDGES, 1, {"invalid_at": "2025-01-01T00:00:00Z"}, "edges"),
    ("upsert_episodes", EPISODES, 1, {"round": 5}, "episodes"),
    ("upsert_episodes", EPISODES, 0, {"metadata": {"likes": 4}}, "episodes"),
    ("upsert_profiles", PROFILES, 2, {"bio": "new bio"}, "profiles"),
]


@pytest.mark.parametrize(("fn", "items", "index", "change", "table"), CHANGES)
def test_one_changed_item_is_one_update(world, connect, fn, items, index, change, table):
    conn, su = connect("app_a"), connect()
    load_all(conn, world.tenant_a, world.sim_a)
    before = snapshot(su, table)
    changed = [dict(it) for it in items]
    changed[index].update(change)
    counts = upsert(conn, fn, world.tenant_a, world.sim_a, changed)
    assert counts[:3] == (0, 1, len(items) - 1)
    after = snapshot(su, table)
    differing = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert len(differing) == 1
    old, new = differing[0]
    assert new["updated_at"] > old["updated_at"]
    assert new["created_at"] == old["created_at"]
    assert {k for k in old if old[k] != new[k]} - {"updated_at"}, "only updated_at changed"


def test_an_item_replaces_the_stored_row_whole(world, connect):
    conn, su = connect("app_a"), connect()
    load_all(conn, world.tenant_a, world.sim_a)
    assert upsert(
        conn, "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "alice", "name": "Alice"}]
    ) == (0, 1, 0)
    row = su.execute(
        "SELECT type, labels, summary, attributes, embedding, embedding_model"
        " FROM memory.nodes WHERE node_id = 'alice'"
    ).fetchone()
    assert row == ("Entity", [], None, {}, None, None)


def test_new_and_changed_and_unchanged_in_one_batch(world, connect):
    conn = connect("app_a")
    load_all(conn, world.tenant_a, world.sim_a)
    batch = [dict(n) for n in NODES] + [{"id": "carol", "name": "Carol"}]
    batch[1]["name"] = "Robert"
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, batch) == (1, 1, 2)


def test_upsert_simulation(world, connect):
    conn, su = connect("app_a"), connect()
    sim = uuid.uuid4()
    conn.execute(
        "SELECT memory.upsert_simulation(%s, %s, 'run', %s)",
        (world.tenant_a, sim, Jsonb({"rounds": 8, "platforms": ["twitter"]})),
    )
    q = (
        "SELECT name, metadata, created_at, updated_at FROM memory.simulations"
        " WHERE simulation_id = %s"
    )
    first = su.execute(q, (sim,)).fetchone()
    assert first[:2] == ("run", {"rounds": 8, "platforms": ["twitter"]})
    # replay: nothing changes, not even updated_at
    conn.execute(
        "SELECT memory.upsert_simulation(%s, %s, 'run', %s)",
        (world.tenant_a, sim, Jsonb({"rounds": 8})),
    )
    assert su.execute(q, (sim,)).fetchone() == first
    # NULL name keeps the stored one; metadata is merged key by key
    conn.execute(
        "SELECT memory.upsert_simulation(%s, %s, NULL, %s)",
        (world.tenant_a, sim, Jsonb({"rounds": 9, "seed": 1})),
    )
    second = su.execute(q, (sim,)).fetchone()
    assert second[:2] == ("run", {"rounds": 9, "seed": 1, "platforms": ["twitter"]})
    assert second[3] > first[3] and second[2] == first[2]
    conn.execute("SELECT memory.upsert_simulation(%s, %s, 'renamed', NULL)", (world.tenant_a, sim))
    assert su.execute(q, (sim,)).fetchone()[:2] == ("renamed", second[1])
    # defaults: no name, empty metadata
    bare = uuid.uuid4()
    conn.execute("SELECT memory.upsert_simulation(%s, %s)", (world.tenant_a, bare))
    assert su.execute(q, (bare,)).fetchone()[:2] == (None, {})


def test_upsert_simulation_refuses_non_object_metadata(world, connect):
    conn = connect("app_a")
    for bad in ([1, 2], "text", 3):
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            conn.execute(
                "SELECT memory.upsert_simulation(%s, %s, 'x', %s)",
                (world.tenant_a, world.sim_a, Jsonb(bad)),
            )
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        conn.execute("SELECT memory.upsert_simulation(%s, NULL)", (world.tenant_a,))


def test_delete_simulation(world, connect):
    conn, su = connect("app_a"), connect()
    other = uuid.uuid4()
    conn.execute("SELECT memory.upsert_simulation(%s, %s)", (world.tenant_a, other))
    load_all(conn, world.tenant_a, world.sim_a)
    load_all(conn, world.tenant_a, other)
    load_all(connect("app_b"), world.tenant_b, world.sim_b)
    keep = {t: [r for r in snapshot(su, t) if r["simulation_id"] != world.sim_a] for t in TABLES}
    row = conn.execute(
        "SELECT * FROM memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
    ).fetchone()
    assert row == (3, 2, 3, 3)
    assert {t: snapshot(su, t) for t in TABLES} == keep
    with pytest.raises(psycopg.errors.NoDataFound):
        conn.execute(
            "SELECT * FROM memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
        )
    assert conn.execute(
        "SELECT * FROM memory.delete_simulation(%s, %s)", (world.tenant_a, other)
    ).fetchone() == (3, 2, 3, 3)
    # an empty simulation deletes with zero counts
    empty = uuid.uuid4()
    conn.execute("SELECT memory.upsert_simulation(%s, %s)", (world.tenant_a, empty))
    assert conn.execute(
        "SELECT * FROM memory.delete_simulation(%s, %s)", (world.tenant_a, empty)
    ).fetchone() == (0, 0, 0, 0)


# -- readers --------------------------------------------------------------------------


def test_get_node(world, connect):
    load_all(connect("app_a"), world.tenant_a, world.sim_a)
    row = (
        connect("reader_a")
        .execute("SELECT * FROM memory.get_node(%s, %s, 'alice')", (world.tenant_a, world.sim_a))
        .fetchone()
    )
    assert row[:7] == (
        "alice",
        "Alice",
        "Person",
        ["Entity", "Person"],
        "a student",
        {"age": 20, "tags": ["x"]},
        DEFAULT_MODEL,
    )
    assert row[7] <= row[8]
    with pytest.raises(psycopg.errors.NoDataFound) as exc:
        connect("reader_a").execute(
            "SELECT * FROM memory.get_node(%s, %s, 'Alice')", (world.tenant_a, world.sim_a)
        )
    assert "Alice" in exc.value.diag.message_primary


def test_nodes_by_type_filters_and_orders(world, connect):
    conn = connect("app_a")
    items = [
        {"id": f"id{i}", "name": name, "type": t}
        for i, (name, t) in enumerate(
            [
                ("zed", "Person"),
                ("amy", "Person"),
                ("amy", "Person"),
                ("mid", "Person"),
                ("corp", "Organization"),
            ]
        )
    ]
    upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, items)
    reader = connect("reader_a")
    rows = reader.execute(
        "SELECT * FROM memory.nodes_by_type(%s, %s, 'Person')", (world.tenant_a, world.sim_a)
    ).fetchall()
    assert [(r[0], r[1]) for r in rows] == [
        ("id1", "amy"),
        ("id2", "amy"),
        ("id3", "mid"),
        ("id0", "zed"),
    ]
    assert rows[0][2:] == ("Person", [], None, {})
    rows = reader.execute(
        "SELECT node_id FROM memory.nodes_by_type(%s, %s, NULL)", (world.tenant_a, world.sim_a)
    ).fetchall()
    assert [r[0] for r in rows] == ["id4", "id1", "id2", "id3", "id0"]
    assert (
        reader.execute(
            "SELECT * FROM memory.nodes_by_type(%s, %s, 'person')", (world.tenant_a, world.sim_a)
        ).fetchall()
        == []
    )


@pytest.fixture
def thousand_nodes(world, connect):
    items = [{"id": f"n{i:04d}", "name": f"name {i:04d}", "type": "Person"} for i in range(1005)]
    assert upsert(connect("app_a"), "upsert_nodes", world.tenant_a, world.sim_a, items) == (
        1005,
        0,
        0,
    )


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        (None, 100),
        (-2147483648, 1),
        (-1, 1),
        (0, 1),
        (1, 1),
        (7, 7),
        (999, 999),
        (1000, 1000),
        (1001, 1000),
        (5000, 1000),
        (2147483647, 1000),
    ],
)
def test_nodes_by_type_limit_is_clamped_to_1_through_1000(
    world, connect, thousand_nodes, limit, expected
):
    rows = (
        connect("reader_a")
        .execute(
            "SELECT node_id FROM memory.nodes_by_type(%s, %s, %s, %s)",
            (world.tenant_a, world.sim_a, "Person", limit),
        )
        .fetchall()
    )
    assert len(rows) == expected
    assert [r[0] for r in rows] == [f"n{i:04d}" for i in range(expected)]


def test_nodes_by_type_default_limit_is_100(world, connect, thousand_nodes):
    rows = (
        connect("reader_a")
        .execute("SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (world.tenant_a, world.sim_a))
        .fetchall()
    )
    assert len(rows) == 100


def test_simulation_stats(world, connect):
    conn = connect("app_a", autocommit=False)
    conn.execute(
        "SELECT memory.upsert_simulation(%s, %s, NULL, %s)",
        (world.tenant_a, world.sim_a, Jsonb({"rounds": 4})),
    )
    load_all(conn, world.tenant_a, world.sim_a)
    conn.commit()
    row = (
        connect("reader_a")
        .execute("SELECT * FROM memory.simulation_stats(%s, %s)", (world.tenant_a, world.sim_a))
        .fetchall()
    )
    assert len(row) == 1
    (
        sim,
        name,
        metadata,
        nodes,
        edges,
        episodes,
        profiles,
        node_types,
        edge_types,
        platforms,
        agents,
        rounds,
        first_at,
        last_at,
    ) = row[0]
    assert (sim, name, metadata) == (world.sim_a, "sim-a", {"rounds": 4})
    assert (nodes, edges, episodes, profiles) == (3, 2, 3, 3)
    assert node_types == {"Person": 2, "Organization": 1}
    assert edge_types == {"KNOWS": 1, "WORKS_AT": 1}
    assert platforms == {"twitter": 2, "reddit": 1}
    assert (agents, rounds) == (2, 4)
    assert first_at.isoformat() == "2025-03-01T10:00:00+00:00"
    assert last_at.isoformat() == "2025-03-01T12:30:00+00:00"


def test_simulation_stats_of_an_empty_simulation(world, connect):
    row = (
        connect("reader_a")
        .execute("SELECT * FROM memory.simulation_stats(%s, %s)", (world.tenant_a, world.sim_a))
        .fetchone()
    )
    assert row[1:] == ("sim-a", {}, 0, 0, 0, 0, {}, {}, {}, 0, None, None, None)


# -- malformed batches: 22004 / 22023 naming the item, nothing written -----------------

BAD_ITEMS = [
    ("upsert_nodes", {"name": "no id"}),
    ("upsert_nodes", {"id": "", "name": "empty id"}),
    ("upsert_nodes", {"id": 7, "name": "numeric id"}),
    ("upsert_nodes", {"id": "x"}),
    ("upsert_nodes", {"id": "x", "name": None}),
    ("upsert_nodes", {"id": "x", "name": "x", "type": 3}),
    ("upsert_nodes", {"id": "x", "name": "x", "labels": "Person"}),
    ("upsert_nodes", {"id": "x", "name": "x", "labels": ["a", 1]}),
    ("upsert_nodes", {"id": "x", "name": "x", "attributes": [1]}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding": vec(1)[:383]}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding": vec(1) + [0.0]}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding": [0.0] * 384}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding": ["0.1"] * 384}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding": "[0.1, 0.2]"}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding": [1e39] + vec(1)[1:]}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding": vec(1)[:383] + [-4e38]}),
    ("upsert_nodes", {"id": "x", "name": "x", "embedding_model": 5}),
    ("upsert_edges", {"id": "x", "source_id": "alice", "target_id": "bob"}),
    ("upsert_edges", {"id": "x", "type": "T", "target_id": "bob"}),
    ("upsert_edges", {"id": "x", "type": "T", "source_id": "alice", "target_id": ""}),
    (
        "upsert_edges",
        {
            "id": "x",
            "type": "T",
            "source_id": "alice",
            "target_id": "bob",
            "valid_at": "yesterday-ish",
        },
    ),
    (
        "upsert_edges",
        {"id": "x", "type": "T", "source_id": "alice", "target_id": "bob", "invalid_at": 12345},
    ),
    (
        "upsert_edges",
        {"id": "x", "type": "T", "source_id": "alice", "target_id": "bob", "fact": ["not", "text"]},
    ),
    ("upsert_episodes", {"id": "x"}),
    ("upsert_episodes", {"id": "x", "action_type": "POST", "agent_id": 1.5}),
    ("upsert_episodes", {"id": "x", "action_type": "POST", "agent_id": "3"}),
    ("upsert_episodes", {"id": "x", "action_type": "POST", "round": 2147483648}),
    ("upsert_episodes", {"id": "x", "action_type": "POST", "metadata": "m"}),
    ("upsert_episodes", {"id": "x", "action_type": "POST", "occurred_at": "2025-13-45"}),
    # relative words would make a replayed batch change the row: refused
    ("upsert_episodes", {"id": "x", "action_type": "POST", "occurred_at": "now"}),
    ("upsert_episodes", {"id": "x", "action_type": "POST", "occurred_at": " Today 10:00"}),
    (
        "upsert_edges",
        {"id": "x", "type": "T", "source_id": "alice", "target_id": "bob", "valid_at": "yesterday"},
    ),
    (
        "upsert_edges",
        {
            "id": "x",
            "type": "T",
            "source_id": "alice",
            "target_id": "bob",
            "invalid_at": "TOMORROW",
        },
    ),
    ("upsert_profiles", {"platform": "twitter"}),
    ("upsert_profiles", {"agent_id": 1}),
    ("upsert_profiles", {"agent_id": 1, "platform": "twitter", "bio": {"a": 1}}),
    ("upsert_profiles", {"agent_id": 1, "platform": "twitter", "attributes": "x"}),
]
GOOD = {
    "upsert_nodes": [{"id": "n0", "name": "n0"}, {"id": "n1", "name": "n1"}],
    "upsert_edges": [
        {"id": "g0", "type": "T", "source_id": "alice", "target_id": "bob"},
        {"id": "g1", "type": "T", "source_id": "bob", "target_id": "alice"},
    ],
    "upsert_episodes": [{"id": "p0", "action_type": "POST"}, {"id": "p1", "action_type": "POST"}],
    "upsert_profiles": [{"agent_id": 100, "platform": "x"}, {"agent_id": 101, "platform": "x"}],
}


@pytest.mark.parametrize(("fn", "bad"), BAD_ITEMS)
def test_malformed_item_fails_the_whole_batch_naming_its_index(world, connect, fn, bad):
    conn, su = connect("app_a"), connect()
    load_all(conn, world.tenant_a, world.sim_a)
    before = snapshot_all(su)
    # a batch that also changes an existing row and adds new ones: none of it may land
    existing = {
        "upsert_nodes": dict(NODES[0], summary="changed"),
        "upsert_edges": dict(EDGES[0], fact="changed"),
        "upsert_episodes": dict(EPISODES[0], content="changed"),
        "upsert_profiles": dict(PROFILES[0], bio="changed"),
    }[fn]
    batch = [existing, *GOOD[fn], bad]
    with pytest.raises(psycopg.Error) as exc:
        upsert(conn, fn, world.tenant_a, world.sim_a, batch)
    assert exc.value.sqlstate == "22023", exc.value.diag.message_primary
    assert "[3]" in exc.value.diag.message_primary
    assert exc.value.diag.message_hint
    assert snapshot_all(su) == before


@pytest.mark.parametrize(
    "fn", ["upsert_nodes", "upsert_edges", "upsert_episodes", "upsert_profiles"]
)
def test_batch_shape_errors(world, connect, fn):
    conn, su = connect("app_a"), connect()
    before = snapshot_all(su)
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        conn.execute(f"SELECT * FROM memory.{fn}(%s, %s, NULL)", (world.tenant_a, world.sim_a))
    for not_array in ({"id": "x"}, "x", 1, None):
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            upsert(conn, fn, world.tenant_a, world.sim_a, not_array)
    with pytest.raises(psycopg.errors.InvalidParameterValue) as exc:
        upsert(conn, fn, world.tenant_a, world.sim_a, [*GOOD[fn], "not an object"])
    assert "[2]" in exc.value.diag.message_primary
    assert snapshot_all(su) == before


@pytest.mark.parametrize(
    ("fn", "items"),
    [
        (
            "upsert_nodes",
            [{"id": "a", "name": "1"}, {"id": "b", "name": "2"}, {"id": "a", "name": "3"}],
        ),
        (
            "upsert_episodes",
            [
                {"id": "a", "action_type": "P"},
                {"id": "b", "action_type": "P"},
                {"id": "a", "action_type": "Q"},
            ],
        ),
        (
            "upsert_edges",
            [
                {"id": "a", "type": "T", "source_id": "alice", "target_id": "bob"},
                {"id": "b", "type": "T", "source_id": "alice", "target_id": "bob"},
                {"id": "a", "type": "U", "source_id": "bob", "target_id": "alice"},
            ],
        ),
        (
            "upsert_profiles",
            [
                {"agent_id": 1, "platform": "p"},
                {"agent_id": 1, "platform": "q"},
                {"agent_id": 1, "platform": "p"},
            ],
        ),
    ],
)
def test_duplicate_key_in_a_batch_names_both_items(world, connect, fn, items):
    conn, su = connect("app_a"), connect()
    upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, NODES)
    before = snapshot_all(su)
    with pytest.raises(psycopg.errors.InvalidParameterValue) as exc:
        upsert(conn, fn, world.tenant_a, world.sim_a, items)
    msg = exc.value.diag.message_primary
    assert "0" in msg and "2" in msg and "twice" in msg
    assert snapshot_all(su) == before


# -- dangling edges -------------------------------------------------------------------


def test_dangling_edge_fails_with_23503_naming_edge_and_node(world, connect):
    conn, su = connect("app_a"), connect()
    upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, NODES)
    before = snapshot_all(su)
    batch = [
        EDGES[0],
        {"id": "bad-edge", "type": "T", "source_id": "alice", "target_id": "ghost-node"},
        EDGES[1],
    ]
    with pytest.raises(psycopg.errors.ForeignKeyViolation) as exc:
        upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, batch)
    msg = exc.value.diag.message_primary
    assert "bad-edge" in msg and "ghost-node" in msg and "[1]" in msg
    assert exc.value.diag.message_hint
    assert snapshot_all(su) == before
    # unknown source is caught as well
    with pytest.raises(psycopg.errors.ForeignKeyViolation) as exc:
        upsert(
            conn,
            "upsert_edges",
            world.tenant_a,
            world.sim_a,
            [{"id": "e9", "type": "T", "source_id": "nobody-here", "target_id": "bob"}],
        )
    assert "nobody-here" in exc.value.diag.message_primary


def test_dangling_edges_can_be_skipped_and_counted(world, connect):
    conn, su = connect("app_a"), connect()
    upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, NODES)
    batch = [
        EDGES[0],
        {"id": "d1", "type": "T", "source_id": "alice", "target_id": "ghost"},
        {"id": "d2", "type": "T", "source_id": "ghost", "target_id": "ghost2"},
        EDGES[1],
    ]
    assert upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, batch, True) == (2, 0, 0, 2)
    assert [r[0] for r in su.execute("SELECT edge_id FROM memory.edges ORDER BY 1")] == ["e1", "e2"]
    assert upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, batch, True) == (0, 0, 2, 2)
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, batch, None)


def test_edges_in_another_simulation_are_dangling(world, connect):
    conn = connect("app_a")
    other = uuid.uuid4()
    conn.execute("SELECT memory.upsert_simulation(%s, %s)", (world.tenant_a, other))
    upsert(conn, "upsert_nodes", world.tenant_a, other, NODES)
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, EDGES)


# -- exotic values --------------------------------------------------------------------

EXOTIC = [
    "it's",
    'say "hi"',
    "a;b; DROP TABLE memory.nodes; --",
    "back\\slash\\\\",
    "emoji \U0001f600\U0001f680 \u00e9\u4e2d",
    "tab\tnew\nline",
    "%s %(x)s {}",
    "$1 $$x$$",
    "NULL",
    " leading and trailing ",
    "\u202eright-to-left",
]


def random_text(seed: int, n: int = 10_000) -> str:
    """n characters of incompressible text: quotes, backslashes, emoji, CJK, no NUL."""
    rnd = random.Random(seed)
    pool = "'\";\\%$ {}[]\n\t" + "abcdefghijklmnopqrstuvwxyz0123456789"
    out = []
    for _ in range(n):
        r = rnd.random()
        if r < 0.1:
            out.append(chr(rnd.randrange(0x1F600, 0x1F650)))
        elif r < 0.2:
            out.append(chr(rnd.randrange(0x4E00, 0x9FFF)))
        else:
            out.append(rnd.choice(pool))
    return "".join(out)


def test_exotic_ids_and_names_round_trip(world, connect):
    conn = connect("app_a")
    nodes = [
        {"id": s, "name": s, "type": s, "labels": [s, "x"], "summary": s, "attributes": {s: s}}
        for s in EXOTIC
    ]
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, nodes) == (len(EXOTIC), 0, 0)
    edges = [
        {
            "id": s,
            "type": s,
            "source_id": EXOTIC[i],
            "target_id": EXOTIC[(i + 1) % len(EXOTIC)],
            "fact": s,
        }
        for i, s in enumerate(EXOTIC)
    ]
    assert upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, edges)[0] == len(EXOTIC)
    assert upsert(
        conn,
        "upsert_episodes",
        world.tenant_a,
        world.sim_a,
        [
            {
                "id": s,
                "action_type": s,
                "agent_name": s,
                "content": s,
                "platform": s,
                "metadata": {s: [s]},
            }
            for s in EXOTIC
        ],
    )[0] == len(EXOTIC)
    assert upsert(
        conn,
        "upsert_profiles",
        world.tenant_a,
        world.sim_a,
        [{"agent_id": i, "platform": s, "name": s, "bio": s} for i, s in enumerate(EXOTIC)],
    )[0] == len(EXOTIC)
    reader = connect("reader_a")
    for i, s in enumerate(EXOTIC):
        row = reader.execute(
            "SELECT node_id, name, type, labels, summary, attributes"
            " FROM memory.get_node(%s, %s, %s)",
            (world.tenant_a, world.sim_a, s),
        ).fetchone()
        assert row == (s, s, s, [s, "x"], s, {s: s})
        assert [
            r[0]
            for r in reader.execute(
                "SELECT node_id FROM memory.nodes_by_type(%s, %s, %s)",
                (world.tenant_a, world.sim_a, s),
            )
        ] == [s]
        nxt = EXOTIC[(i + 1) % len(EXOTIC)]
        walk = reader.execute(
            "SELECT node_id, path, edge_id, edge_type, fact"
            " FROM memory.neighbors(%s, %s, %s, 1, %s, 'out')",
            (world.tenant_a, world.sim_a, s, [s]),
        ).fetchall()
        assert walk == [(nxt, [s, nxt], s, s, s)]
    su = connect()
    eps = su.execute(
        "SELECT episode_id, action_type, agent_name, content, platform, metadata"
        " FROM memory.episodes"
    ).fetchall()
    assert sorted(eps) == sorted((s, s, s, s, s, {s: [s]}) for s in EXOTIC)
    stats = reader.execute(
        "SELECT node_types, edge_types, platforms FROM memory.simulation_stats(%s, %s)",
        (world.tenant_a, world.sim_a),
    ).fetchone()
    assert stats == ({s: 1 for s in EXOTIC}, {s: 1 for s in EXOTIC}, {s: 1 for s in EXOTIC})


def test_ten_kilobyte_texts_round_trip_exactly(world, connect):
    conn, su = connect("app_a"), connect()
    big = [random_text(i) for i in range(8)]
    assert len(big[0]) == 10_000 and len(big[0].encode()) > 10_000
    conn.execute(
        "SELECT memory.upsert_simulation(%s, %s, %s, %s)",
        (world.tenant_a, world.sim_a, big[0], Jsonb({"notes": big[1]})),
    )
    upsert(
        conn,
        "upsert_nodes",
        world.tenant_a,
        world.sim_a,
        [
            {
                "id": "n1",
                "name": "n1",
                "summary": big[2],
                "attributes": {"long": big[3]},
                "labels": [big[4]],
            },
            {"id": "n2", "name": "n2"},
        ],
    )
    upsert(
        conn,
        "upsert_edges",
        world.tenant_a,
        world.sim_a,
        [{"id": "e1", "type": "T", "source_id": "n1", "target_id": "n2", "fact": big[5]}],
    )
    upsert(
        conn,
        "upsert_episodes",
        world.tenant_a,
        world.sim_a,
        [{"id": "ep", "action_type": "CREATE_POST", "content": big[6], "agent_name": big[7]}],
    )
    upsert(
        conn,
        "upsert_profiles",
        world.tenant_a,
        world.sim_a,
        [{"agent_id": 1, "platform": "twitter", "bio": big[2], "persona": big[3]}],
    )
    reader = connect("reader_a")
    node = reader.execute(
        "SELECT summary, attributes, labels FROM memory.get_node(%s, %s, 'n1')",
        (world.tenant_a, world.sim_a),
    ).fetchone()
    assert node == (big[2], {"long": big[3]}, [big[4]])
    stats = reader.execute(
        "SELECT name, metadata FROM memory.simulation_stats(%s, %s)", (world.tenant_a, world.sim_a)
    ).fetchone()
    assert stats == (big[0], {"notes": big[1]})
    assert reader.execute(
        "SELECT fact FROM memory.neighbors(%s, %s, 'n1')", (world.tenant_a, world.sim_a)
    ).fetchone() == (big[5],)
    assert su.execute("SELECT content, agent_name FROM memory.episodes").fetchone() == (
        big[6],
        big[7],
    )
    assert su.execute("SELECT bio, persona FROM memory.profiles").fetchone() == (big[2], big[3])
    # and a replay of the big rows is recognised as unchanged
    assert upsert(
        conn,
        "upsert_episodes",
        world.tenant_a,
        world.sim_a,
        [{"id": "ep", "action_type": "CREATE_POST", "content": big[6], "agent_name": big[7]}],
    ) == (0, 0, 1)


def test_ten_kilobyte_node_name_round_trips(world, connect):
    name = random_text(99)
    upsert(
        connect("app_a"), "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "n1", "name": name}]
    )
    row = (
        connect("reader_a")
        .execute("SELECT name FROM memory.get_node(%s, %s, 'n1')", (world.tenant_a, world.sim_a))
        .fetchone()
    )
    assert row == (name,)


def test_counts_are_right_when_rows_change_twice_in_one_transaction(world, connect):
    conn = connect("app_a", autocommit=False)
    one = [{"id": "n", "name": "one"}]
    two = [{"id": "n", "name": "two"}]
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, one) == (1, 0, 0)
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, two) == (0, 1, 0)
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, two) == (0, 0, 1)
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, one) == (0, 1, 0)
    conn.commit()
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, two) == (0, 1, 0)
    conn.commit()


def test_ten_kilobyte_ids_round_trip_through_every_kind_and_the_walk(world, connect):
    a, b, e, ep = (random_text(100 + i) for i in range(4))
    conn = connect("app_a")
    nodes = [{"id": a, "name": "A"}, {"id": b, "name": "B"}]
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, nodes) == (2, 0, 0)
    edge = [{"id": e, "type": "KNOWS", "source_id": a, "target_id": b}]
    assert upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, edge) == (1, 0, 0, 0)
    episode = [{"id": ep, "action_type": "CREATE_POST", "content": "x"}]
    assert upsert(conn, "upsert_episodes", world.tenant_a, world.sim_a, episode) == (1, 0, 0)
    walk = conn.execute(
        "SELECT node_id, path, edge_id FROM memory.neighbors(%s, %s, %s)",
        (world.tenant_a, world.sim_a, a),
    ).fetchall()
    assert walk == [(b, [a, b], e)]
    assert upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, nodes) == (0, 0, 2)


def test_a_type_label_longer_than_200_characters_is_refused(world, connect):
    with pytest.raises(psycopg.errors.InvalidParameterValue) as exc:
        upsert(
            connect("app_a"),
            "upsert_nodes",
            world.tenant_a,
            world.sim_a,
            [{"id": "n", "name": "N", "type": "T" * 201}],
        )
    assert "p_nodes[0].type" in str(exc.value)
