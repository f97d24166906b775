"""memory.search_episodes() and memory.search_nodes(): ranking, filters and clamps.

The vectors here are SYNTHETIC: random unit vectors from numpy with fixed seeds. They are
not model output and say nothing about the quality of the embeddings; they exercise the SQL
ranking, which must equal a brute-force cosine ranking computed in numpy over the same rows
(same ids in the same order, similarity within 1e-5).
"""

from __future__ import annotations

import uuid

import numpy as np
import psycopg
import pytest
from psycopg.types.json import Jsonb

DIM = 384


def unit_vectors(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def vec_text(v: np.ndarray) -> str:
    return "[" + ",".join(repr(float(x)) for x in v) + "]"


def brute_force(ids: list[str], vectors: np.ndarray, query: np.ndarray, k: int) -> list[tuple]:
    """(id, similarity) best first, ties by id, as float64 cosine over float32 inputs."""
    m = vectors.astype(np.float64)
    q = query.astype(np.float32).astype(np.float64)
    sims = (m @ q) / (np.linalg.norm(m, axis=1) * np.linalg.norm(q))
    order = sorted(range(len(ids)), key=lambda i: (-sims[i], ids[i]))
    return [(ids[i], float(sims[i])) for i in order[:k]]


def assert_same_ranking(got: list[tuple], expected: list[tuple]) -> None:
    assert [g[0] for g in got] == [e[0] for e in expected]
    for (gid, gsim), (_eid, esim) in zip(got, expected, strict=True):
        assert abs(gsim - esim) < 1e-5, f"{gid}: {gsim} != {esim}"


def add_episodes(
    conn,
    tenant,
    sim,
    vectors: np.ndarray,
    agents: list[int],
    without_embedding: int = 0,
    prefix: str = "ep",
) -> list[str]:
    items = []
    for i, v in enumerate(vectors):
        items.append(
            {
                "id": f"{prefix}{i:04d}",
                "agent_id": agents[i % len(agents)],
                "agent_name": f"agent {agents[i % len(agents)]}",
                "platform": "twitter",
                "round": i % 7,
                "action_type": "CREATE_POST",
                "content": f"post {i}",
                "occurred_at": f"2025-01-01T00:{i % 60:02d}:00Z",
                "embedding": [float(x) for x in v],
            }
        )
    for j in range(without_embedding):
        items.append(
            {"id": f"{prefix}-none-{j}", "agent_id": agents[0], "action_type": "DO_NOTHING"}
        )
    conn.execute("SELECT * FROM memory.upsert_episodes(%s, %s, %s)", (tenant, sim, Jsonb(items)))
    return [it["id"] for it in items[: len(vectors)]]


def add_nodes(conn, tenant, sim, vectors: np.ndarray, width: int = 0) -> None:
    """Nodes n0, n1, ... (ids zero-padded to width) with the given vectors."""
    items = [
        {"id": f"n{i:0{width}d}", "name": f"n{i}", "embedding": [float(x) for x in v]}
        for i, v in enumerate(vectors)
    ]
    conn.execute("SELECT * FROM memory.upsert_nodes(%s, %s, %s)", (tenant, sim, Jsonb(items)))


def search_episodes(conn, tenant, sim, query, top_k=10, agent_id=None) -> list[tuple]:
    return conn.execute(
        "SELECT episode_id, similarity"
        " FROM memory.search_episodes(%s, %s, %s::public.vector, %s, %s)",
        (tenant, sim, vec_text(query), top_k, agent_id),
    ).fetchall()


def search_nodes(conn, tenant, sim, query, top_k=10, type_=None) -> list[tuple]:
    return conn.execute(
        "SELECT node_id, similarity FROM memory.search_nodes(%s, %s, %s::public.vector, %s, %s)",
        (tenant, sim, vec_text(query), top_k, type_),
    ).fetchall()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_episodes_equals_brute_force(world, connect, seed):
    vectors = unit_vectors(seed, 60)
    agents = [1, 2, 3, 4, 5]
    ids = add_episodes(
        connect("app_a"), world.tenant_a, world.sim_a, vectors, agents, without_embedding=3
    )
    reader = connect("reader_a")
    for query in unit_vectors(seed + 100, 4):
        for k in (1, 10, 60, 100):
            got = search_episodes(reader, world.tenant_a, world.sim_a, query, k)
            assert_same_ranking(got, brute_force(ids, vectors, query, k))
        # agent filter: the brute force runs over that agent's rows only
        for agent in (2, 5):
            rows = [i for i in range(len(ids)) if agents[i % len(agents)] == agent]
            got = search_episodes(reader, world.tenant_a, world.sim_a, query, 100, agent)
            assert len(got) == len(rows) == 12
            assert_same_ranking(got, brute_force([ids[i] for i in rows], vectors[rows], query, 100))


def test_search_episodes_returns_the_columns_of_the_row(world, connect):
    vectors = unit_vectors(7, 5)
    add_episodes(connect("app_a"), world.tenant_a, world.sim_a, vectors, [9])
    row = (
        connect("reader_a")
        .execute(
            "SELECT * FROM memory.search_episodes(%s, %s, %s::public.vector, 1)",
            (world.tenant_a, world.sim_a, vec_text(vectors[3])),
        )
        .fetchone()
    )
    episode_id, agent_id, agent_name, platform, rnd, action, content, occurred_at, sim = row
    assert (episode_id, agent_id, agent_name, platform, rnd, action, content) == (
        "ep0003",
        9,
        "agent 9",
        "twitter",
        3,
        "CREATE_POST",
        "post 3",
    )
    assert occurred_at.isoformat() == "2025-01-01T00:03:00+00:00"
    assert abs(sim - 1.0) < 1e-6


def test_search_episodes_unnormalised_query_and_rows(world, connect):
    # cosine similarity does not depend on the length of either vector
    vectors = unit_vectors(11, 30) * np.linspace(0.1, 50, 30, dtype=np.float32)[:, None]
    ids = add_episodes(connect("app_a"), world.tenant_a, world.sim_a, vectors, [1])
    query = unit_vectors(12, 1)[0] * 7.5
    got = search_episodes(connect("app_a"), world.tenant_a, world.sim_a, query, 30)
    assert_same_ranking(got, brute_force(ids, vectors, query, 30))


def test_ties_are_broken_by_id(world, connect):
    v = unit_vectors(21, 1)[0]
    conn = connect("app_a")
    items = [
        {"id": i, "action_type": "CREATE_POST", "embedding": [float(x) for x in v]}
        for i in ("tie-c", "tie-a", "tie-b")
    ]
    conn.execute(
        "SELECT * FROM memory.upsert_episodes(%s, %s, %s)",
        (world.tenant_a, world.sim_a, Jsonb(items)),
    )
    got = search_episodes(conn, world.tenant_a, world.sim_a, unit_vectors(22, 1)[0], 10)
    assert [g[0] for g in got] == ["tie-a", "tie-b", "tie-c"]


@pytest.mark.parametrize("seed", [4, 5])
def test_search_nodes_equals_brute_force_with_and_without_type(world, connect, seed):
    vectors = unit_vectors(seed, 45)
    types = ["Person", "Organization", "Topic"]
    items = [
        {
            "id": f"node-{i:03d}",
            "name": f"n{i}",
            "type": types[i % 3],
            "summary": f"summary {i}",
            "embedding": [float(x) for x in v],
        }
        for i, v in enumerate(vectors)
    ]
    items.append({"id": "no-vector", "name": "no vector", "type": "Person"})
    connect("app_a").execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)", (world.tenant_a, world.sim_a, Jsonb(items))
    )
    ids = [it["id"] for it in items[:45]]
    reader = connect("reader_a")
    for query in unit_vectors(seed + 50, 3):
        for k in (1, 10, 45, 100):
            got = search_nodes(reader, world.tenant_a, world.sim_a, query, k)
            assert_same_ranking(got, brute_force(ids, vectors, query, k))
        for t in types:
            rows = [i for i in range(45) if types[i % 3] == t]
            got = search_nodes(reader, world.tenant_a, world.sim_a, query, 100, t)
            assert len(got) == 15
            assert_same_ranking(got, brute_force([ids[i] for i in rows], vectors[rows], query, 100))
        assert search_nodes(reader, world.tenant_a, world.sim_a, query, 10, "NoSuchType") == []


def test_search_nodes_returns_the_columns_of_the_row(world, connect):
    v = unit_vectors(31, 2)
    connect("app_a").execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        (
            world.tenant_a,
            world.sim_a,
            Jsonb(
                [
                    {
                        "id": "n1",
                        "name": "Alice",
                        "type": "Person",
                        "summary": "a student",
                        "embedding": [float(x) for x in v[0]],
                    },
                    {
                        "id": "n2",
                        "name": "Bob",
                        "type": "Person",
                        "embedding": [float(x) for x in v[1]],
                    },
                ]
            ),
        ),
    )
    row = (
        connect("reader_a")
        .execute(
            "SELECT * FROM memory.search_nodes(%s, %s, %s::public.vector, 1)",
            (world.tenant_a, world.sim_a, vec_text(v[0])),
        )
        .fetchone()
    )
    assert row[:4] == ("n1", "Alice", "Person", "a student")
    assert abs(row[4] - 1.0) < 1e-6


def test_fewer_rows_than_top_k_returns_every_row(world, connect):
    vectors = unit_vectors(41, 3)
    add_episodes(connect("app_a"), world.tenant_a, world.sim_a, vectors, [1], without_embedding=2)
    add_nodes(connect("app_a"), world.tenant_a, world.sim_a, vectors)
    q = unit_vectors(42, 1)[0]
    assert len(search_episodes(connect("reader_a"), world.tenant_a, world.sim_a, q, 10)) == 3
    assert len(search_nodes(connect("reader_a"), world.tenant_a, world.sim_a, q, 10)) == 3


def test_empty_simulation_returns_no_rows(world, connect):
    q = unit_vectors(43, 1)[0]
    assert search_episodes(connect("reader_a"), world.tenant_a, world.sim_a, q) == []
    assert search_nodes(connect("reader_a"), world.tenant_a, world.sim_a, q) == []


@pytest.fixture
def many_rows(world, connect):
    """150 episodes and 150 nodes with synthetic vectors in simulation A."""
    vectors = unit_vectors(51, 150)
    conn = connect("app_a")
    add_episodes(conn, world.tenant_a, world.sim_a, vectors, [1, 2])
    add_nodes(conn, world.tenant_a, world.sim_a, vectors, width=3)
    return vectors


@pytest.mark.parametrize(
    ("top_k", "expected"),
    [
        (None, 10),
        (-2147483648, 1),
        (-1, 1),
        (0, 1),
        (1, 1),
        (2, 2),
        (99, 99),
        (100, 100),
        (101, 100),
        (1000, 100),
        (2147483647, 100),
    ],
)
def test_top_k_is_clamped_to_1_through_100(world, connect, many_rows, top_k, expected):
    q = unit_vectors(52, 1)[0]
    reader = connect("reader_a")
    assert len(search_episodes(reader, world.tenant_a, world.sim_a, q, top_k)) == expected
    assert len(search_nodes(reader, world.tenant_a, world.sim_a, q, top_k)) == expected


def test_top_k_defaults_to_10(world, connect, many_rows):
    reader = connect("reader_a")
    q = vec_text(unit_vectors(53, 1)[0])
    for fn in ("search_episodes", "search_nodes"):
        rows = reader.execute(
            f"SELECT * FROM memory.{fn}(%s, %s, %s::public.vector)",
            (world.tenant_a, world.sim_a, q),
        ).fetchall()
        assert len(rows) == 10


@pytest.mark.parametrize("fn", ["search_episodes", "search_nodes"])
def test_bad_query_vectors_are_class_22(world, connect, fn):
    reader = connect("reader_a")
    sql = f"SELECT * FROM memory.{fn}(%s, %s, %s::public.vector)"
    bad = {
        "[" + ",".join(["0.5"] * 383) + "]": "22023",  # wrong dimension, names 383
        "[" + ",".join(["0.5"] * 385) + "]": "22023",
        "[" + ",".join(["0"] * 384) + "]": "22023",  # zero vector
        "[" + ",".join(["NaN"] * 384) + "]": "22",  # pgvector refuses NaN on input
        "[" + ",".join(["Infinity"] * 384) + "]": "22",
    }
    for text, state in bad.items():
        with pytest.raises(psycopg.Error) as exc:
            reader.execute(sql, (world.tenant_a, world.sim_a, text))
        assert exc.value.sqlstate.startswith(state), (text[:20], exc.value.sqlstate)
        if exc.value.sqlstate == "22023":
            assert exc.value.diag.message_hint
    with pytest.raises(psycopg.Error) as exc:
        reader.execute(sql, (world.tenant_a, world.sim_a, "[" + ",".join(["0.5"] * 383) + "]"))
    assert "383" in exc.value.diag.message_primary
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        reader.execute(sql, (world.tenant_a, world.sim_a, None))


def test_search_does_not_reach_other_simulations(world, connect):
    conn = connect("app_a")
    other = uuid.uuid4()
    conn.execute("SELECT memory.upsert_simulation(%s, %s)", (world.tenant_a, other))
    vectors = unit_vectors(61, 10)
    add_episodes(conn, world.tenant_a, world.sim_a, vectors[:5], [1], prefix="mine")
    add_episodes(conn, world.tenant_a, other, vectors[5:], [1], prefix="theirs")
    got = search_episodes(conn, world.tenant_a, world.sim_a, vectors[7], 100)
    assert {g[0] for g in got} == {f"mine{i:04d}" for i in range(5)}
