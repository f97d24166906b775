"""Helpers shared by the pytest files: synthetic vectors and a seeded simulation.

The vectors are synthetic unit vectors (numpy, fixed seeds), not model output: they exercise
storage and the driver, never the quality of embeddings. The SQL contract itself is tested in
pgTAP (sql/tests/ and each wing's tests/ under sql/functions/wings/); pytest keeps the driver, concurrency, crash drills, real embeddings and
checks against an oracle written in Python.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

DIM = 384
SQL_FUNCTIONS = Path(__file__).resolve().parents[1] / "sql" / "functions"


def function_files(root: Path = SQL_FUNCTIONS) -> list[Path]:
    """Every function's file under sql/functions (the wings' pgTAP folders left out)."""
    return sorted(p for p in root.rglob("*.sql") if "tests" not in p.relative_to(root).parts)


def without_comments(sql: str) -> str:
    """SQL text without its -- comments."""
    return re.sub(r"--[^\n]*", "", sql)


def function_file(name: str, root: Path = SQL_FUNCTIONS) -> Path:
    """The file of memory.<name> under sql/functions (one function a file, in its family's
    folder)."""
    (path,) = [p for p in function_files(root) if p.stem == name]
    return path


def pgtap_files(root: Path = SQL_FUNCTIONS.parent) -> list[Path]:
    """Every pgTAP file: the core's in sql/tests, each wing's in its tests folder."""
    return sorted(
        [*(root / "tests").glob("*.sql"), *(root / "functions").glob("wings/*/tests/*.sql")],
        key=lambda p: p.name,
    )


def vec(seed: int = 0, dim: int = DIM) -> list[float]:
    """A unit vector of dim floats from a fixed seed."""
    v = np.random.default_rng(seed).normal(size=dim)
    return [float(x) for x in v / np.linalg.norm(v)]


def vec_text(v: Iterable[float]) -> str:
    """A vector as pgvector's text literal, for `%s::public.vector`."""
    return "[" + ",".join(repr(float(x)) for x in v) + "]"


def upsert(
    conn: psycopg.Connection, fn: str, tenant: uuid.UUID, sim: uuid.UUID, items, *extra
) -> tuple:
    """Call memory.<fn>(tenant, sim, items, *extra) and return its one row of counts."""
    marks = ", ".join(["%s"] * (3 + len(extra)))
    return conn.execute(
        f"SELECT * FROM memory.{fn}({marks})", (tenant, sim, Jsonb(items), *extra)
    ).fetchone()


def seed_simulation(
    conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID, tag: str, own_node: str
) -> None:
    """Nodes shared-1, shared-2 (ids every tenant may have) and own_node, two edges, three
    episodes and one profile, names and contents marked with tag."""
    upsert(
        conn,
        "upsert_nodes",
        tenant,
        sim,
        [
            {"id": "shared-1", "name": f"{tag} one", "type": "Person", "embedding": vec(1)},
            {"id": "shared-2", "name": f"{tag} two", "type": "Person", "embedding": vec(2)},
            {"id": own_node, "name": f"{tag} own", "type": "Person", "embedding": vec(3)},
        ],
    )
    upsert(
        conn,
        "upsert_edges",
        tenant,
        sim,
        [
            {
                "id": "e1",
                "type": "KNOWS",
                "source_id": "shared-1",
                "target_id": "shared-2",
                "fact": f"{tag} fact",
            },
            {"id": "e2", "type": "KNOWS", "source_id": "shared-2", "target_id": own_node},
        ],
    )
    upsert(
        conn,
        "upsert_episodes",
        tenant,
        sim,
        [
            {
                "id": f"{tag}-ep{i}",
                "agent_id": i,
                "action_type": "CREATE_POST",
                "platform": tag,
                "content": f"{tag} says {i}",
                "embedding": vec(10 + i),
            }
            for i in range(3)
        ],
    )
    upsert(conn, "upsert_profiles", tenant, sim, [{"agent_id": 1, "platform": tag, "name": tag}])


def add_graph(
    conn: psycopg.Connection,
    tenant: uuid.UUID,
    sim: uuid.UUID,
    nodes: list[str],
    edges: list[tuple[str, str, str, str]],
) -> None:
    """Nodes by id and edges as (edge_id, type, source_id, target_id); facts "src type dst"."""
    upsert(
        conn,
        "upsert_nodes",
        tenant,
        sim,
        [{"id": n, "name": f"name of {n}", "type": f"T{len(n) % 3}"} for n in nodes],
    )
    upsert(
        conn,
        "upsert_edges",
        tenant,
        sim,
        [
            {"id": e, "type": t, "source_id": s, "target_id": d, "fact": f"{s} {t} {d}"}
            for e, t, s, d in edges
        ],
    )


def api_key(capsys, dsn: str, tenant: uuid.UUID, *, reader: bool = False) -> str:
    """A key of `swarm-memory key create` for the tenant (a reader's with reader=True), which
    the service and the MCP server connect as the administrator `admin` to act as."""
    from swarm_memory.cli import main

    code = main(
        ["--dsn", dsn, "key", "create", "--tenant", str(tenant), "--service-role", "admin"]
        + (["--reader"] if reader else [])
    )
    out = capsys.readouterr().out
    assert code == 0, out
    key = out.splitlines()[0]
    assert key.startswith("smk_") and len(key) > 40
    return key


def drop_key_roles(conn: psycopg.Connection) -> None:
    """Drop the roles the keys were made with: roles are the cluster's, and outlive the test's
    database."""
    for (role,) in conn.execute("SELECT role_name FROM memory.api_keys").fetchall():
        conn.execute(f'DROP ROLE IF EXISTS "{role}"')
