"""The Python client's error contract: every SQLSTATE of the SQL API reaches a caller as one
class of a small hierarchy, with the SQLSTATE, the hint and the psycopg error as its cause:
42501 -> TenantAccessDenied, P0002 -> NotFound, class 22 -> InvalidInput, 23503 ->
UnknownReference, 23505 -> Conflict. The errors themselves (codes, messages, hints, nothing
written) are tested in pgTAP: sql/tests/005_errors.sql.
"""

from __future__ import annotations

import uuid

import psycopg
import pytest
from helpers import upsert, vec
from swarm_memory import (
    Conflict,
    InvalidInput,
    Memory,
    NotFound,
    SwarmMemoryError,
    TenantAccessDenied,
    UnknownReference,
)

GHOST_SIM = uuid.UUID("00000000-0000-4000-8000-00000000dead")


@pytest.fixture
def data(world, connect):
    conn = connect("app_a")
    nodes = [{"id": "alice", "name": "Alice", "embedding": vec(1)}, {"id": "bob", "name": "Bob"}]
    upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, nodes)
    edges = [{"id": "e1", "type": "KNOWS", "source_id": "alice", "target_id": "bob"}]
    upsert(conn, "upsert_edges", world.tenant_a, world.sim_a, edges)
    return world


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


def test_admin_functions_through_the_client(world):
    with Memory(world.dsn("admin")) as mem:
        t = mem.create_tenant("client-tenant")
        assert mem.create_tenant("client-tenant") == t
        with pytest.raises(Conflict) as exc:
            mem.create_tenant("client-tenant", uuid.uuid4())
        assert exc.value.sqlstate == "23505"
        with pytest.raises(NotFound):
            mem.grant_tenant("app_a", uuid.uuid4())
        with pytest.raises(InvalidInput):
            mem.create_tenant(None)  # type: ignore[arg-type]
        mem.grant_tenant("app_a", t)
        mem.revoke_tenant("app_a", t)
        audit = mem.rls_audit()
        assert audit and all(row.ok for row in audit)
