"""memory.neighbors() against an oracle: a breadth-first search written here in Python,
and memory.neighbor_ids() against memory.neighbors() (the same rows cut to their ids).

On random graphs (cycles, self-loops, parallel edges, several edge types, awkward ids) for
every direction and several edge-type filters and depths, the database must return the same
set of (node_id, depth), and every returned path must be a shortest path along real edges of
the allowed types and direction, ending with the edge reported in the row. This stays in
pytest because the oracle is an independent program over generated graphs; the walk's
contract on fixed graphs (clamps, filters, cycles, ties, errors) is in pgTAP:
sql/tests/006_walk.sql and 005_errors.sql.
"""

from __future__ import annotations

import random
import uuid
from collections import defaultdict, deque

import psycopg
import pytest
from helpers import add_graph

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
    add_graph(conn, world.tenant_a, world.sim_a, nodes, edges)
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
                    lean = reader.execute(
                        "SELECT node_id, depth, edge_id FROM memory.neighbor_ids(%s, %s, %s, %s, %s, %s)",
                        (world.tenant_a, world.sim_a, start, depth, types, direction),
                    ).fetchall()
                    assert lean == [(r[0], r[3], r[5]) for r in rows]  # the lean walk: the same
                    checked += len(rows)
    assert checked > 0  # the graphs are not all empty walks


@pytest.mark.parametrize("seed", range(4))
def test_bounded_walk_is_a_prefix_of_the_unbounded_one(world, connect, seed):
    """p_limit keeps the nearest nodes: on random graphs, for every direction and several
    bounds, the bounded walk is exactly the first p_limit rows of the unbounded walk (which
    the oracle checks), through the client as well as by SQL."""
    from swarm_memory.client import Memory

    conn = connect("app_a")
    nodes, edges = random_graph(100 + seed)
    add_graph(conn, world.tenant_a, world.sim_a, nodes, edges)
    reader = connect("reader_a")
    rnd = random.Random(2000 + seed)
    sql = (
        "SELECT node_id, name, type, depth, path, edge_id, edge_type, fact"
        " FROM memory.neighbors(%s, %s, %s, %s, %s, %s, p_limit => %s)"
    )
    sql_ids = (
        "SELECT node_id, depth, edge_id"
        " FROM memory.neighbor_ids(%s, %s, %s, %s, %s, %s, p_limit => %s)"
    )
    bounded_somewhere = 0
    for start in rnd.sample(nodes, 3):
        for direction in ("out", "in", "both"):
            full = walk(reader, world.tenant_a, world.sim_a, start, 20, None, direction)
            check_walk(full, edges, start, 20, None, direction)
            for limit in (1, 2, 5, len(full), len(full) + 3):
                args = (world.tenant_a, world.sim_a, start, 20, None, direction, limit)
                rows = reader.execute(sql, args).fetchall()
                assert rows == full[:limit]
                lean = reader.execute(sql_ids, args).fetchall()
                assert lean == [(r[0], r[3], r[5]) for r in full[:limit]]
                bounded_somewhere += len(rows) < len(full)
    assert bounded_somewhere > 0  # some bound cut a walk short
    with Memory(world.dsn("reader_a")) as mem:
        start = rnd.choice(nodes)
        full = mem.neighbors(world.tenant_a, world.sim_a, start, 20)
        assert mem.neighbors(world.tenant_a, world.sim_a, start, 20, limit=3) == full[:3]
        assert mem.neighbors(world.tenant_a, world.sim_a, start, 20, limit=None) == full
        ids = mem.neighbor_ids(world.tenant_a, world.sim_a, start, 20, limit=3)
        assert [(r.node_id, r.depth, r.edge_id) for r in ids] == [
            (r.node_id, r.depth, r.edge_id) for r in full[:3]
        ]


def test_lean_walk_reads_the_graph_as_known_then(world, connect):
    """p_known_at: neighbor_ids walks the graph as the memory held it at a past moment, as
    neighbors does, after its edges were moved to other nodes."""
    conn = connect("app_a")
    nodes, edges = random_graph(77)
    add_graph(conn, world.tenant_a, world.sim_a, nodes, edges)
    then = conn.execute("SELECT clock_timestamp()").fetchone()[0]
    rnd = random.Random(77)
    moved = [(e, t, rnd.choice(nodes), d) for e, t, _s, d in edges[::2]]
    add_graph(conn, world.tenant_a, world.sim_a, nodes, moved)
    reader = connect("reader_a")
    args = "%s, %s, %s, 20, NULL, 'both', NULL, %s"
    differs = 0
    for start in nodes[:6]:
        for known_at in (then, None):
            params = (world.tenant_a, world.sim_a, start, known_at)
            full = reader.execute(
                f"SELECT node_id, depth, edge_id FROM memory.neighbors({args})", params
            ).fetchall()
            lean = reader.execute(
                f"SELECT node_id, depth, edge_id FROM memory.neighbor_ids({args})", params
            ).fetchall()
            assert lean == full
        old = reader.execute(
            f"SELECT node_id, depth FROM memory.neighbor_ids({args})",
            (world.tenant_a, world.sim_a, start, then),
        ).fetchall()
        assert {r[0]: r[1] for r in old} == bfs(edges, start, 20, None, "both")
        differs += (
            old
            != reader.execute(
                f"SELECT node_id, depth FROM memory.neighbor_ids({args})",
                (world.tenant_a, world.sim_a, start, None),
            ).fetchall()
        )
    assert differs > 0  # the move changed some walk
