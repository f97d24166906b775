"""memory.neighbors(): the bounded breadth-first walk, against the real database.

The walk is checked against a breadth-first search written here in Python on random graphs
(cycles, self-loops, parallel edges, several edge types) for every direction and several
edge-type filters: the database must return the same set of (node_id, depth), and every
returned path must be a shortest path along real edges of the allowed types and direction,
ending with the edge reported in the row.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections import defaultdict, deque

import psycopg
import pytest
from psycopg.types.json import Jsonb

EDGE_TYPES = ["KNOWS", "LIKES", "POSTS"]
# Node ids that are awkward as JSON object keys, array elements and SQL literals.
EXOTIC_IDS = [
    "a'b",
    'q"uote',
    "semi;colon",
    "back\\slash",
    "emoji-\U0001f600",
    "{brace}",
    "comma,x",
    "sp ace",
    "NULL",
    "[1]",
]

Edge = tuple[str, str, str, str]  # (edge_id, type, source_id, target_id)


def load_graph(
    conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID, nodes: list[str], edges: list[Edge]
) -> None:
    conn.execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        (
            tenant,
            sim,
            Jsonb([{"id": n, "name": f"name of {n}", "type": f"T{len(n) % 3}"} for n in nodes]),
        ),
    )
    conn.execute(
        "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
        (
            tenant,
            sim,
            Jsonb(
                [
                    {"id": e, "type": t, "source_id": s, "target_id": d, "fact": f"{s} {t} {d}"}
                    for e, t, s, d in edges
                ]
            ),
        ),
    )


def walk(
    conn: psycopg.Connection,
    tenant: uuid.UUID,
    sim: uuid.UUID,
    start: str,
    depth: int | None = 1,
    types: list[str] | None = None,
    direction: str | None = "both",
) -> list[tuple]:
    return conn.execute(
        "SELECT node_id, name, type, depth, path, edge_id, edge_type, fact"
        " FROM memory.neighbors(%s, %s, %s, %s, %s, %s)",
        (tenant, sim, start, depth, types, direction),
    ).fetchall()


def steps(edges: list[Edge], types: list[str] | None, direction: str) -> dict:
    """(from, to) -> {edge_id: type} for every step the walk may take."""
    out: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for eid, etype, src, dst in edges:
        if types is not None and etype not in types:
            continue
        if direction in ("out", "both"):
            out[(src, dst)][eid] = etype
        if direction in ("in", "both"):
            out[(dst, src)][eid] = etype
    return out


def bfs(
    edges: list[Edge], start: str, depth: int, types: list[str] | None, direction: str
) -> dict[str, int]:
    adj: dict[str, set[str]] = defaultdict(set)
    for a, b in steps(edges, types, direction):
        adj[a].add(b)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if dist[node] == depth:
            continue
        for nxt in sorted(adj[node]):
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    del dist[start]
    return dist


def clamp(depth: int | None) -> int:
    return min(max(1 if depth is None else depth, 1), 20)


def check_walk(
    rows: list[tuple],
    edges: list[Edge],
    start: str,
    depth: int | None,
    types: list[str] | None,
    direction: str,
) -> None:
    expected = bfs(edges, start, clamp(depth), types, direction)
    got = {r[0]: r[3] for r in rows}
    assert len(rows) == len(got), "a node is returned more than once"
    assert got == expected
    allowed = steps(edges, types, direction)
    for node_id, _name, _type, d, path, edge_id, edge_type, fact in rows:
        assert path[0] == start and path[-1] == node_id
        assert len(path) == d + 1, f"path {path} does not have depth {d}"
        assert len(set(path)) == len(path)
        for i, (a, b) in enumerate(zip(path, path[1:], strict=False)):
            assert (a, b) in allowed, f"no allowed edge {a} -> {b} in path {path}"
            # every prefix of a shortest path is a shortest path
            assert expected.get(b) == i + 1
        last = allowed[(path[-2], path[-1])]
        assert edge_id in last, f"edge {edge_id} does not join {path[-2]} and {path[-1]}"
        assert edge_type == last[edge_id]
        src, dst = (path[-2], path[-1])
        assert fact in (f"{src} {edge_type} {dst}", f"{dst} {edge_type} {src}")
    assert [(r[3], r[0]) for r in rows] == sorted((r[3], r[0]) for r in rows)


def random_graph(seed: int) -> tuple[list[str], list[Edge]]:
    rnd = random.Random(seed)
    n = rnd.randint(8, 40)
    nodes = [f"n{i:02d}" for i in range(n)]
    if seed % 2:
        nodes[: len(EXOTIC_IDS)] = EXOTIC_IDS[:n]
    edges: list[Edge] = []
    for i in range(rnd.randint(n, 3 * n)):
        src = rnd.choice(nodes)
        dst = src if rnd.random() < 0.1 else rnd.choice(nodes)  # self-loops
        edges.append((f"e{i}", rnd.choice(EDGE_TYPES), src, dst))
    for i in range(rnd.randint(0, 4)):  # parallel edges
        _eid, _t, src, dst = rnd.choice(edges)
        edges.append((f"p{i}", rnd.choice(EDGE_TYPES), src, dst))
    return nodes, edges


@pytest.mark.parametrize("seed", range(8))
def test_walk_equals_python_bfs_on_random_graphs(world, connect, seed):
    conn = connect("app_a")
    nodes, edges = random_graph(seed)
    load_graph(conn, world.tenant_a, world.sim_a, nodes, edges)
    reader = connect("reader_a")
    rnd = random.Random(1000 + seed)
    starts = rnd.sample(nodes, 3)
    filters: list[list[str] | None] = [None, ["KNOWS"], ["LIKES", "POSTS"], [], ["NO_SUCH"]]
    checked = 0
    for start in starts:
        for direction in ("out", "in", "both"):
            for types in filters:
                for depth in (1, 2, 3, 20):
                    rows = walk(reader, world.tenant_a, world.sim_a, start, depth, types, direction)
                    check_walk(rows, edges, start, depth, types, direction)
                    checked += len(rows)
    assert checked > 0  # the graphs are not all empty walks


def test_complete_directed_graph_k15_depth_20(world, connect):
    conn = connect("app_a")
    nodes = [f"k{i}" for i in range(15)]
    edges = [(f"{a}->{b}", "KNOWS", a, b) for a in nodes for b in nodes if a != b]
    load_graph(conn, world.tenant_a, world.sim_a, nodes, edges)
    for direction in ("out", "in", "both"):
        rows = walk(conn, world.tenant_a, world.sim_a, "k0", 20, None, direction)
        assert len(rows) == 14
        assert {r[0] for r in rows} == set(nodes) - {"k0"}
        assert {r[3] for r in rows} == {1}
        assert all(r[4] == ["k0", r[0]] for r in rows)


def test_cycle_and_self_loop(world, connect):
    conn = connect("app_a")
    edges = [
        ("ab", "KNOWS", "a", "b"),
        ("bc", "KNOWS", "b", "c"),
        ("ca", "KNOWS", "c", "a"),
        ("aa", "KNOWS", "a", "a"),
        ("cc", "LIKES", "c", "c"),
    ]
    load_graph(conn, world.tenant_a, world.sim_a, ["a", "b", "c"], edges)
    out = walk(conn, world.tenant_a, world.sim_a, "a", 20, None, "out")
    assert [(r[0], r[3], r[4], r[5]) for r in out] == [
        ("b", 1, ["a", "b"], "ab"),
        ("c", 2, ["a", "b", "c"], "bc"),
    ]
    inc = walk(conn, world.tenant_a, world.sim_a, "a", 20, None, "in")
    assert [(r[0], r[3], r[4], r[5]) for r in inc] == [
        ("c", 1, ["a", "c"], "ca"),
        ("b", 2, ["a", "c", "b"], "bc"),
    ]
    both = walk(conn, world.tenant_a, world.sim_a, "a", 20, None, "both")
    assert sorted((r[0], r[3]) for r in both) == [("b", 1), ("c", 1)]
    # a node whose only edge is a self-loop has no neighbours
    load_graph(conn, world.tenant_a, world.sim_a, ["solo"], [("ss", "KNOWS", "solo", "solo")])
    assert walk(conn, world.tenant_a, world.sim_a, "solo", 20) == []


def test_start_node_never_returned_even_through_a_cycle(world, connect):
    conn = connect("app_a")
    edges = [("xy", "KNOWS", "x", "y"), ("yx", "KNOWS", "y", "x"), ("yz", "KNOWS", "y", "z")]
    load_graph(conn, world.tenant_a, world.sim_a, ["x", "y", "z"], edges)
    rows = walk(conn, world.tenant_a, world.sim_a, "x", 5)
    assert [r[0] for r in rows] == ["y", "z"]


def test_each_node_once_at_its_least_depth(world, connect):
    conn = connect("app_a")
    # d is three steps away along the chain and one step away directly
    edges = [
        ("ab", "KNOWS", "a", "b"),
        ("bc", "KNOWS", "b", "c"),
        ("cd", "KNOWS", "c", "d"),
        ("ad", "LIKES", "a", "d"),
        ("de", "KNOWS", "d", "e"),
    ]
    load_graph(conn, world.tenant_a, world.sim_a, list("abcde"), edges)
    rows = walk(conn, world.tenant_a, world.sim_a, "a", 10, None, "out")
    assert {r[0]: (r[3], r[4], r[5]) for r in rows} == {
        "b": (1, ["a", "b"], "ab"),
        "c": (2, ["a", "b", "c"], "bc"),
        "d": (1, ["a", "d"], "ad"),
        "e": (2, ["a", "d", "e"], "de"),
    }
    # without LIKES the short cut is gone and d is at depth 3
    rows = walk(conn, world.tenant_a, world.sim_a, "a", 10, ["KNOWS"], "out")
    assert {r[0]: r[3] for r in rows} == {"b": 1, "c": 2, "d": 3, "e": 4}


def test_rows_carry_name_type_edge_and_fact(world, connect):
    conn = connect("app_a")
    conn.execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        (
            world.tenant_a,
            world.sim_a,
            Jsonb(
                [
                    {"id": "alice", "name": "Alice", "type": "Person"},
                    {"id": "acme", "name": "ACME Corp", "type": "Organization"},
                ]
            ),
        ),
    )
    conn.execute(
        "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
        (
            world.tenant_a,
            world.sim_a,
            Jsonb(
                [
                    {
                        "id": "w1",
                        "type": "WORKS_AT",
                        "source_id": "alice",
                        "target_id": "acme",
                        "fact": "Alice works at ACME",
                    }
                ]
            ),
        ),
    )
    rows = walk(conn, world.tenant_a, world.sim_a, "acme", 1, None, "in")
    assert rows == [
        ("alice", "Alice", "Person", 1, ["acme", "alice"], "w1", "WORKS_AT", "Alice works at ACME")
    ]
    assert walk(conn, world.tenant_a, world.sim_a, "acme", 1, None, "out") == []


def test_directions_on_a_chain(world, connect):
    conn = connect("app_a")
    edges = [("ab", "KNOWS", "a", "b"), ("bc", "KNOWS", "b", "c")]
    load_graph(conn, world.tenant_a, world.sim_a, list("abc"), edges)
    assert [r[0] for r in walk(conn, world.tenant_a, world.sim_a, "b", 5, None, "out")] == ["c"]
    assert [r[0] for r in walk(conn, world.tenant_a, world.sim_a, "b", 5, None, "in")] == ["a"]
    assert [r[0] for r in walk(conn, world.tenant_a, world.sim_a, "b", 5)] == ["a", "c"]
    # the default direction is both
    rows = conn.execute(
        "SELECT node_id FROM memory.neighbors(%s, %s, 'b', 5)", (world.tenant_a, world.sim_a)
    ).fetchall()
    assert [r[0] for r in rows] == ["a", "c"]


@pytest.mark.parametrize(
    ("depth", "expected"),
    [
        (None, 1),
        (-2147483648, 1),
        (-3, 1),
        (0, 1),
        (1, 1),
        (2, 2),
        (19, 19),
        (20, 20),
        (21, 20),
        (25, 20),
        (2147483647, 20),
    ],
)
def test_depth_is_clamped_to_1_through_20(world, connect, depth, expected):
    conn = connect("app_a")
    nodes = [f"c{i:02d}" for i in range(30)]
    edges = [(f"e{i}", "NEXT", nodes[i], nodes[i + 1]) for i in range(29)]
    load_graph(conn, world.tenant_a, world.sim_a, nodes, edges)
    rows = walk(conn, world.tenant_a, world.sim_a, "c00", depth, None, "out")
    assert len(rows) == expected
    assert rows[-1][0] == nodes[expected] and rows[-1][4] == nodes[: expected + 1]


def test_default_depth_is_1(world, connect):
    conn = connect("app_a")
    load_graph(
        conn,
        world.tenant_a,
        world.sim_a,
        list("abc"),
        [("ab", "KNOWS", "a", "b"), ("bc", "KNOWS", "b", "c")],
    )
    rows = conn.execute(
        "SELECT node_id FROM memory.neighbors(%s, %s, 'a')", (world.tenant_a, world.sim_a)
    ).fetchall()
    assert rows == [("b",)]


def test_walk_stays_inside_its_simulation(world, connect):
    conn = connect("app_a")
    other = uuid.uuid4()
    conn.execute("SELECT memory.upsert_simulation(%s, %s, 'other')", (world.tenant_a, other))
    load_graph(conn, world.tenant_a, world.sim_a, list("ab"), [("ab", "KNOWS", "a", "b")])
    load_graph(
        conn,
        world.tenant_a,
        other,
        list("abc"),
        [("ab", "KNOWS", "a", "b"), ("ac", "KNOWS", "a", "c"), ("bc", "KNOWS", "b", "c")],
    )
    assert [r[0] for r in walk(conn, world.tenant_a, world.sim_a, "a", 20)] == ["b"]
    assert [r[0] for r in walk(conn, world.tenant_a, other, "a", 20)] == ["b", "c"]


def test_isolated_node_has_no_neighbours(world, connect):
    conn = connect("app_a")
    load_graph(conn, world.tenant_a, world.sim_a, ["lonely", "x", "y"], [("xy", "KNOWS", "x", "y")])
    assert walk(conn, world.tenant_a, world.sim_a, "lonely", 20) == []


def test_walk_errors(world, connect):
    conn = connect("reader_a")
    load_graph(connect("app_a"), world.tenant_a, world.sim_a, ["a"], [])
    with pytest.raises(psycopg.Error) as exc:
        walk(conn, world.tenant_a, world.sim_a, "a", 1, None, "sideways")
    assert exc.value.sqlstate == "22023"
    assert "sideways" in exc.value.diag.message_primary
    with pytest.raises(psycopg.Error) as exc:
        walk(conn, world.tenant_a, world.sim_a, "a", 1, None, "OUT")
    assert exc.value.sqlstate == "22023"
    with pytest.raises(psycopg.Error) as exc:
        walk(conn, world.tenant_a, world.sim_a, "a", 1, None, None)
    assert exc.value.sqlstate == "22004"
    with pytest.raises(psycopg.Error) as exc:
        walk(conn, world.tenant_a, world.sim_a, None, 1)
    assert exc.value.sqlstate == "22004"
    with pytest.raises(psycopg.errors.NoDataFound) as exc:
        walk(conn, world.tenant_a, world.sim_a, "no-such-node", 1)
    assert "no-such-node" in exc.value.diag.message_primary


def _key(upstream_id: str) -> uuid.UUID:
    """The surrogate key the schema derives from an upstream id: md5(id)::uuid."""
    return uuid.UUID(hashlib.md5(upstream_id.encode()).hexdigest())


def test_ties_between_shortest_paths_go_to_the_least_edge_key(world, connect):
    # d is two steps from s along four paths (through a, b, c, or the parallel edge from c);
    # the walk must take the edge into d with the least key, every time.
    conn = connect("app_a")
    into_d = ["ad", "bd", "cd", "cd-again"]
    edges = [("sa", "KNOWS", "s", "a"), ("sb", "KNOWS", "s", "b"), ("sc", "KNOWS", "s", "c")]
    edges += [(e, "KNOWS", e[0], "d") for e in into_d]
    load_graph(conn, world.tenant_a, world.sim_a, ["s", "a", "b", "c", "d"], edges)
    chosen = min(into_d, key=_key)
    for _ in range(3):
        rows = {r[0]: r for r in walk(conn, world.tenant_a, world.sim_a, "s", 2, None, "out")}
        assert rows["d"][5] == chosen
        assert rows["d"][4] == ["s", chosen[0], "d"]
        assert rows["d"][3] == 2
