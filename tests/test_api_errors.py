"""Every error of the SQL API contract (DESIGN.md) by SQLSTATE, with a message naming the bad
value and a hint, and the same errors through the Python client's exception hierarchy:
42501 -> TenantAccessDenied, P0002 -> NotFound, class 22 -> InvalidInput,
23503 -> UnknownReference.

Vectors are synthetic (numpy, fixed seed), not model output.
"""

from __future__ import annotations

import uuid

import numpy as np
import psycopg
import pytest
from psycopg.types.json import Jsonb
from swarm_memory import (
    InvalidInput,
    Memory,
    NotFound,
    SwarmMemoryError,
    TenantAccessDenied,
    UnknownReference,
)

GHOST_SIM = uuid.UUID("00000000-0000-4000-8000-00000000dead")


def vec(seed: int = 0, dim: int = 384) -> list[float]:
    v = np.random.default_rng(seed).normal(size=dim)
    return [float(x) for x in v / np.linalg.norm(v)]


def text(v: list[float]) -> str:
    return "[" + ",".join(repr(x) for x in v) + "]"


@pytest.fixture
def data(world, connect):
    conn = connect("app_a")
    conn.execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        (
            world.tenant_a,
            world.sim_a,
            Jsonb(
                [
                    {"id": "alice", "name": "Alice", "embedding": vec(1)},
                    {"id": "bob", "name": "Bob"},
                ]
            ),
        ),
    )
    conn.execute(
        "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
        (
            world.tenant_a,
            world.sim_a,
            Jsonb([{"id": "e1", "type": "KNOWS", "source_id": "alice", "target_id": "bob"}]),
        ),
    )
    return world


# (id, role, sql, params(world), sqlstate, words the message must contain)
CASES = [
    # 22004: NULL where a value is required
    (
        "null-tenant",
        "app_a",
        "SELECT * FROM memory.nodes_by_type(NULL, %s, NULL)",
        lambda w: (w.sim_a,),
        "22004",
        ["p_tenant_id"],
    ),
    (
        "null-sim",
        "app_a",
        "SELECT * FROM memory.simulation_stats(%s, NULL)",
        lambda w: (w.tenant_a,),
        "22004",
        ["p_simulation_id"],
    ),
    (
        "null-sim-upsert",
        "app_a",
        "SELECT memory.upsert_simulation(%s, NULL)",
        lambda w: (w.tenant_a,),
        "22004",
        ["p_simulation_id"],
    ),
    (
        "null-node-get",
        "app_a",
        "SELECT * FROM memory.get_node(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_node_id"],
    ),
    (
        "null-node-walk",
        "app_a",
        "SELECT * FROM memory.neighbors(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_node_id"],
    ),
    (
        "null-direction",
        "app_a",
        "SELECT * FROM memory.neighbors(%s, %s, 'alice', 1, NULL, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_direction"],
    ),
    (
        "null-query-episodes",
        "app_a",
        "SELECT * FROM memory.search_episodes(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_query"],
    ),
    (
        "null-query-nodes",
        "app_a",
        "SELECT * FROM memory.search_nodes(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_query"],
    ),
    (
        "null-nodes",
        "app_a",
        "SELECT * FROM memory.upsert_nodes(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_nodes"],
    ),
    (
        "null-edges",
        "app_a",
        "SELECT * FROM memory.upsert_edges(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_edges"],
    ),
    (
        "null-episodes",
        "app_a",
        "SELECT * FROM memory.upsert_episodes(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_episodes"],
    ),
    (
        "null-profiles",
        "app_a",
        "SELECT * FROM memory.upsert_profiles(%s, %s, NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_profiles"],
    ),
    (
        "null-skip",
        "app_a",
        "SELECT * FROM memory.upsert_edges(%s, %s, '[]', NULL)",
        lambda w: (w.tenant_a, w.sim_a),
        "22004",
        ["p_skip_dangling"],
    ),
    (
        "null-delete",
        "app_a",
        "SELECT * FROM memory.delete_simulation(%s, NULL)",
        lambda w: (w.tenant_a,),
        "22004",
        ["p_simulation_id"],
    ),
    (
        "null-tenant-name",
        "admin",
        "SELECT memory.create_tenant(NULL)",
        lambda w: (),
        "22004",
        ["p_name"],
    ),
    # P0002: unknown simulation or node (another tenant's is the same: test_api_isolation)
    (
        "unknown-sim",
        "app_a",
        "SELECT * FROM memory.nodes_by_type(%s, %s, NULL)",
        lambda w: (w.tenant_a, GHOST_SIM),
        "P0002",
        [str(GHOST_SIM)],
    ),
    (
        "unknown-sim-write",
        "app_a",
        "SELECT * FROM memory.upsert_nodes(%s, %s, '[]')",
        lambda w: (w.tenant_a, GHOST_SIM),
        "P0002",
        [str(GHOST_SIM)],
    ),
    (
        "unknown-sim-delete",
        "app_a",
        "SELECT * FROM memory.delete_simulation(%s, %s)",
        lambda w: (w.tenant_a, GHOST_SIM),
        "P0002",
        [str(GHOST_SIM)],
    ),
    (
        "unknown-node-get",
        "app_a",
        "SELECT * FROM memory.get_node(%s, %s, 'carol')",
        lambda w: (w.tenant_a, w.sim_a),
        "P0002",
        ["carol"],
    ),
    (
        "unknown-node-walk",
        "app_a",
        "SELECT * FROM memory.neighbors(%s, %s, 'carol', 3)",
        lambda w: (w.tenant_a, w.sim_a),
        "P0002",
        ["carol"],
    ),
    (
        "unknown-tenant-grant",
        "admin",
        "SELECT memory.grant_tenant('app_a', %s)",
        lambda w: (GHOST_SIM,),
        "P0002",
        [str(GHOST_SIM)],
    ),
    # 42501: no grant for the tenant
    (
        "no-grant",
        "app_b",
        "SELECT * FROM memory.get_node(%s, %s, 'alice')",
        lambda w: (w.tenant_a, w.sim_a),
        "42501",
        ["app_b", "tenant"],
    ),
    (
        "no-grant-nobody",
        "nobody",
        "SELECT memory.upsert_simulation(%s, %s)",
        lambda w: (w.tenant_a, w.sim_a),
        "42501",
        ["nobody"],
    ),
    # 22023: bad values
    (
        "unknown-direction",
        "app_a",
        "SELECT * FROM memory.neighbors(%s, %s, 'alice', 1, NULL, 'upward')",
        lambda w: (w.tenant_a, w.sim_a),
        "22023",
        ["upward"],
    ),
    (
        "query-383",
        "app_a",
        "SELECT * FROM memory.search_episodes(%s, %s, %s::public.vector)",
        lambda w: (w.tenant_a, w.sim_a, text(vec(2, 383))),
        "22023",
        ["383"],
    ),
    (
        "query-512",
        "app_a",
        "SELECT * FROM memory.search_nodes(%s, %s, %s::public.vector)",
        lambda w: (w.tenant_a, w.sim_a, text(vec(2, 512))),
        "22023",
        ["512"],
    ),
    (
        "query-zero",
        "app_a",
        "SELECT * FROM memory.search_nodes(%s, %s, %s::public.vector)",
        lambda w: (w.tenant_a, w.sim_a, text([0.0] * 384)),
        "22023",
        ["zero"],
    ),
    (
        "batch-not-array",
        "app_a",
        "SELECT * FROM memory.upsert_episodes(%s, %s, '{}')",
        lambda w: (w.tenant_a, w.sim_a),
        "22023",
        ["p_episodes", "array"],
    ),
    (
        "batch-item",
        "app_a",
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        lambda w: (w.tenant_a, w.sim_a, Jsonb([{"id": "a", "name": "a"}, {"id": "b"}])),
        "22023",
        ["p_nodes[1]", "name"],
    ),
    (
        "batch-vector-dim",
        "app_a",
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        lambda w: (
            w.tenant_a,
            w.sim_a,
            Jsonb([{"id": "a", "name": "a", "embedding": vec(3, 100)}]),
        ),
        "22023",
        ["p_nodes[0]", "embedding", "100"],
    ),
    (
        "batch-vector-zero",
        "app_a",
        "SELECT * FROM memory.upsert_episodes(%s, %s, %s)",
        lambda w: (
            w.tenant_a,
            w.sim_a,
            Jsonb(
                [
                    {"id": "a", "action_type": "P"},
                    {"id": "b", "action_type": "P", "embedding": [0] * 384},
                ]
            ),
        ),
        "22023",
        ["p_episodes[1]", "embedding"],
    ),
    (
        "batch-metadata",
        "app_a",
        "SELECT memory.upsert_simulation(%s, %s, 'x', '[]')",
        lambda w: (w.tenant_a, w.sim_a),
        "22023",
        ["p_metadata"],
    ),
    # 23503: an edge to a node the simulation does not have
    (
        "dangling-edge",
        "app_a",
        "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
        lambda w: (
            w.tenant_a,
            w.sim_a,
            Jsonb([{"id": "e2", "type": "KNOWS", "source_id": "alice", "target_id": "zed"}]),
        ),
        "23503",
        ["e2", "zed"],
    ),
]


@pytest.mark.parametrize(
    ("role", "sql", "params", "state", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_error_sqlstate_message_and_hint(data, connect, role, sql, params, state, words):
    su = connect()
    before = su.execute(
        "SELECT (SELECT count(*) FROM memory.nodes), (SELECT count(*) FROM"
        " memory.edges), (SELECT count(*) FROM memory.episodes),"
        " (SELECT max(updated_at) FROM memory.simulations)"
    ).fetchone()
    with pytest.raises(psycopg.Error) as exc:
        connect(role).execute(sql, params(data))
    err = exc.value
    assert err.sqlstate == state, err.diag.message_primary
    for word in words:
        assert word in err.diag.message_primary, (word, err.diag.message_primary)
    assert err.diag.message_hint, "every API error carries a hint"
    after = su.execute(
        "SELECT (SELECT count(*) FROM memory.nodes), (SELECT count(*) FROM"
        " memory.edges), (SELECT count(*) FROM memory.episodes),"
        " (SELECT max(updated_at) FROM memory.simulations)"
    ).fetchone()
    assert after == before


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_query_vectors_are_class_22(data, connect, literal):
    q = "[" + ",".join([literal] + ["0.1"] * 383) + "]"
    for fn in ("search_episodes", "search_nodes"):
        with pytest.raises(psycopg.Error) as exc:
            connect("reader_a").execute(
                f"SELECT * FROM memory.{fn}(%s, %s, %s::public.vector)",
                (data.tenant_a, data.sim_a, q),
            )
        assert exc.value.sqlstate.startswith("22")


def test_non_finite_batch_vectors_are_class_22(data, connect):
    # JSON has no NaN or Infinity: Python's json emits them, PostgreSQL refuses the document
    for bad in (float("nan"), float("inf")):
        with pytest.raises(psycopg.Error) as exc:
            connect("app_a").execute(
                "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
                (
                    data.tenant_a,
                    data.sim_a,
                    Jsonb([{"id": "n", "name": "n", "embedding": [bad] + vec(5)[1:]}]),
                ),
            )
        assert exc.value.sqlstate.startswith("22")


def test_dangling_edge_names_the_first_one(data, connect):
    batch = [
        {"id": "ok1", "type": "T", "source_id": "alice", "target_id": "bob"},
        {"id": "bad1", "type": "T", "source_id": "ghost1", "target_id": "bob"},
        {"id": "ok2", "type": "T", "source_id": "bob", "target_id": "alice"},
        {"id": "bad2", "type": "T", "source_id": "alice", "target_id": "ghost2"},
    ]
    with pytest.raises(psycopg.errors.ForeignKeyViolation) as exc:
        connect("app_a").execute(
            "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
            (data.tenant_a, data.sim_a, Jsonb(batch)),
        )
    msg = exc.value.diag.message_primary
    assert "[1]" in msg and "bad1" in msg and "ghost1" in msg


def test_first_malformed_item_is_the_one_named(data, connect):
    batch = [{"id": "a", "name": "a"}, {"id": "b", "name": 5}, {"id": "", "name": "c"}]
    with pytest.raises(psycopg.errors.InvalidParameterValue) as exc:
        connect("app_a").execute(
            "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
            (data.tenant_a, data.sim_a, Jsonb(batch)),
        )
    assert "p_nodes[1].name" in exc.value.diag.message_primary


# -- the Python client ------------------------------------------------------------------


@pytest.fixture
def mem_a(data):
    with Memory(data.dsn("app_a")) as mem:
        yield mem


@pytest.fixture
def mem_b(data):
    with Memory(data.dsn("app_b")) as mem:
        yield mem


def check(exc_info, cls, state):
    err = exc_info.value
    assert type(err) is cls
    assert isinstance(err, SwarmMemoryError)
    assert err.sqlstate == state
    assert err.hint
    assert isinstance(err.__cause__, psycopg.Error) and err.__cause__.sqlstate == state


def test_client_maps_42501_to_tenant_access_denied(data, mem_b):
    calls = [
        lambda: mem_b.nodes_by_type(data.tenant_a, data.sim_a, None),
        lambda: mem_b.get_node(data.tenant_a, data.sim_a, "alice"),
        lambda: mem_b.neighbors(data.tenant_a, data.sim_a, "alice", 2),
        lambda: mem_b.search_episodes(data.tenant_a, data.sim_a, vec(1)),
        lambda: mem_b.search_nodes(data.tenant_a, data.sim_a, vec(1)),
        lambda: mem_b.simulation_stats(data.tenant_a, data.sim_a),
        lambda: mem_b.upsert_simulation(data.tenant_a, data.sim_a, "x"),
        lambda: mem_b.upsert_nodes(data.tenant_a, data.sim_a, [{"id": "x", "name": "x"}]),
        lambda: mem_b.upsert_edges(data.tenant_a, data.sim_a, []),
        lambda: mem_b.upsert_episodes(data.tenant_a, data.sim_a, []),
        lambda: mem_b.upsert_profiles(data.tenant_a, data.sim_a, []),
        lambda: mem_b.delete_simulation(data.tenant_a, data.sim_a),
    ]
    for fn in calls:
        with pytest.raises(TenantAccessDenied) as exc:
            fn()
        check(exc, TenantAccessDenied, "42501")


def test_client_maps_p0002_to_not_found(data, mem_a, mem_b):
    with pytest.raises(NotFound) as exc:
        mem_a.get_node(data.tenant_a, data.sim_a, "carol")
    check(exc, NotFound, "P0002")
    with pytest.raises(NotFound) as exc:
        mem_a.neighbors(data.tenant_a, data.sim_a, "carol")
    check(exc, NotFound, "P0002")
    with pytest.raises(NotFound) as exc:  # another tenant's simulation
        mem_b.simulation_stats(data.tenant_b, data.sim_a)
    check(exc, NotFound, "P0002")
    with pytest.raises(NotFound) as exc:
        mem_a.delete_simulation(data.tenant_a, GHOST_SIM)
    check(exc, NotFound, "P0002")


def test_client_maps_class_22_to_invalid_input(data, mem_a):
    cases = [
        (lambda: mem_a.neighbors(data.tenant_a, data.sim_a, "alice", 1, None, "upward"), "22023"),
        (lambda: mem_a.neighbors(data.tenant_a, data.sim_a, None), "22004"),  # type: ignore
        (lambda: mem_a.search_episodes(data.tenant_a, data.sim_a, vec(1, 383)), "22023"),
        (lambda: mem_a.search_nodes(data.tenant_a, data.sim_a, [0.0] * 384), "22023"),
        (lambda: mem_a.upsert_nodes(data.tenant_a, data.sim_a, [{"id": "x"}]), "22023"),
        (
            lambda: mem_a.upsert_episodes(
                data.tenant_a, data.sim_a, [{"id": "x", "action_type": "P", "round": "one"}]
            ),
            "22023",
        ),
        (lambda: mem_a.upsert_profiles(data.tenant_a, data.sim_a, [{"agent_id": 1}]), "22023"),
        (lambda: mem_a.get_node(data.tenant_a, None, "alice"), "22004"),  # type: ignore
    ]
    for fn, state in cases:
        with pytest.raises(InvalidInput) as exc:
            fn()
        check(exc, InvalidInput, state)
    # a NaN in the query vector is refused by pgvector on input (no hint there)
    with pytest.raises(InvalidInput) as exc:
        mem_a.search_nodes(data.tenant_a, data.sim_a, [float("nan")] + vec(1)[1:])
    assert exc.value.sqlstate.startswith("22")


def test_client_maps_23503_to_unknown_reference(data, mem_a, connect):
    with pytest.raises(UnknownReference) as exc:
        mem_a.upsert_edges(
            data.tenant_a,
            data.sim_a,
            [{"id": "e9", "type": "T", "source_id": "alice", "target_id": "zed"}],
        )
    check(exc, UnknownReference, "23503")
    assert isinstance(exc.value, InvalidInput)
    assert "zed" in str(exc.value)
    counts = mem_a.upsert_edges(
        data.tenant_a,
        data.sim_a,
        [{"id": "e9", "type": "T", "source_id": "alice", "target_id": "zed"}],
        skip_dangling=True,
    )
    assert (counts.inserted, counts.updated, counts.unchanged, counts.skipped) == (0, 0, 0, 1)
