"""A thin client over the SQL API: one method per SQL function, frozen dataclasses back.

Every method takes the tenant explicitly and sends one `SELECT memory.fn(...)`; the database
does the checking. Pass `conn=` to run a call on your own connection (and so inside your
transaction); otherwise the call takes a connection from the pool, in autocommit.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from swarm_memory.errors import translate

UUIDLike = uuid.UUID | str


@dataclass(frozen=True)
class UpsertCounts:
    inserted: int
    updated: int
    unchanged: int
    skipped: int = 0


@dataclass(frozen=True)
class DeleteCounts:
    nodes: int
    edges: int
    episodes: int
    profiles: int


@dataclass(frozen=True)
class Node:
    node_id: str
    name: str
    type: str
    labels: list[str]
    summary: str | None
    attributes: dict[str, Any]


@dataclass(frozen=True)
class Neighbor:
    node_id: str
    name: str
    type: str
    depth: int
    path: list[str]
    edge_id: str
    edge_type: str
    fact: str | None


@dataclass(frozen=True)
class EpisodeHit:
    episode_id: str
    agent_id: int | None
    agent_name: str | None
    platform: str | None
    round: int | None
    action_type: str
    content: str | None
    occurred_at: datetime | None
    similarity: float


@dataclass(frozen=True)
class NodeHit:
    node_id: str
    name: str
    type: str
    summary: str | None
    similarity: float


@dataclass(frozen=True)
class SimulationStats:
    simulation_id: uuid.UUID
    name: str | None
    metadata: dict[str, Any]
    nodes: int
    edges: int
    episodes: int
    profiles: int
    node_types: dict[str, int]
    edge_types: dict[str, int]
    platforms: dict[str, int]
    agents: int
    rounds: int | None
    first_at: datetime | None
    last_at: datetime | None


@dataclass(frozen=True)
class ImportAttempt:
    attempt_id: uuid.UUID
    state: str
    declared: dict[str, int] | None
    staged: dict[str, int] | None
    result: dict[str, Any] | None
    skip_dangling: bool
    error: str | None
    started_at: datetime
    finished_at: datetime | None
    seconds: float


@dataclass(frozen=True)
class AuditRow:
    table_name: str
    rls_enabled: bool
    rls_forced: bool
    policies: list[str]
    ok: bool
    problem: str | None


def vector_literal(vec: Sequence[float]) -> str:
    """A vector as pgvector's text form; sent as a parameter, never pasted into SQL."""
    return "[" + ",".join(repr(float(x)) for x in vec) + "]"


class Memory:
    """Client of the swarm-memory SQL API over a psycopg connection pool."""

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 4) -> None:
        self.dsn = dsn
        self.pool = ConnectionPool(
            dsn, min_size=min_size, max_size=max_size, kwargs={"autocommit": True}, open=True
        )

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _conn(self, conn: psycopg.Connection | None) -> Iterator[psycopg.Connection]:
        if conn is not None:
            yield conn
        else:
            with self.pool.connection() as pooled:
                yield pooled

    def _rows(
        self, query: str, params: Sequence[Any], conn: psycopg.Connection | None
    ) -> list[tuple]:
        try:
            with self._conn(conn) as c:
                return c.execute(query, params).fetchall()
        except psycopg.Error as exc:
            err = translate(exc)
            if err is exc:
                raise
            raise err from exc

    # -- admin ------------------------------------------------------------------------

    def create_tenant(
        self, name: str, tenant_id: UUIDLike | None = None, *, conn=None
    ) -> uuid.UUID:
        return self._rows("SELECT memory.create_tenant(%s, %s)", (name, tenant_id), conn)[0][0]

    def grant_tenant(self, role: str, tenant_id: UUIDLike, *, conn=None) -> None:
        self._rows("SELECT memory.grant_tenant(%s, %s)", (role, tenant_id), conn)

    def revoke_tenant(self, role: str, tenant_id: UUIDLike, *, conn=None) -> None:
        self._rows("SELECT memory.revoke_tenant(%s, %s)", (role, tenant_id), conn)

    def rls_audit(self, *, conn=None) -> list[AuditRow]:
        rows = self._rows("SELECT * FROM memory.rls_audit()", (), conn)
        return [AuditRow(*r) for r in rows]

    # -- writes -----------------------------------------------------------------------

    def upsert_simulation(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        name: str | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        conn=None,
    ) -> None:
        self._rows(
            "SELECT memory.upsert_simulation(%s, %s, %s, %s)",
            (tenant_id, simulation_id, name, Jsonb(metadata or {})),
            conn,
        )

    def upsert_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        nodes: Sequence[dict[str, Any]],
        *,
        conn=None,
    ) -> UpsertCounts:
        row = self._rows(
            "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
            (tenant_id, simulation_id, Jsonb(list(nodes))),
            conn,
        )[0]
        return UpsertCounts(*row)

    def upsert_edges(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        edges: Sequence[dict[str, Any]],
        skip_dangling: bool = False,
        *,
        conn=None,
    ) -> UpsertCounts:
        row = self._rows(
            "SELECT * FROM memory.upsert_edges(%s, %s, %s, %s)",
            (tenant_id, simulation_id, Jsonb(list(edges)), skip_dangling),
            conn,
        )[0]
        return UpsertCounts(*row)

    def upsert_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        episodes: Sequence[dict[str, Any]],
        *,
        conn=None,
    ) -> UpsertCounts:
        row = self._rows(
            "SELECT * FROM memory.upsert_episodes(%s, %s, %s)",
            (tenant_id, simulation_id, Jsonb(list(episodes))),
            conn,
        )[0]
        return UpsertCounts(*row)

    def upsert_profiles(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        profiles: Sequence[dict[str, Any]],
        *,
        conn=None,
    ) -> UpsertCounts:
        row = self._rows(
            "SELECT * FROM memory.upsert_profiles(%s, %s, %s)",
            (tenant_id, simulation_id, Jsonb(list(profiles))),
            conn,
        )[0]
        return UpsertCounts(*row)

    def delete_simulation(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn=None
    ) -> DeleteCounts:
        row = self._rows(
            "SELECT * FROM memory.delete_simulation(%s, %s)", (tenant_id, simulation_id), conn
        )[0]
        return DeleteCounts(*row)

    # -- reads ------------------------------------------------------------------------

    def nodes_by_type(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        type: str | None,
        limit: int = 100,
        *,
        conn=None,
    ) -> list[Node]:
        rows = self._rows(
            "SELECT * FROM memory.nodes_by_type(%s, %s, %s, %s)",
            (tenant_id, simulation_id, type, limit),
            conn,
        )
        return [Node(*r) for r in rows]

    def get_node(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, node_id: str, *, conn=None
    ) -> Node:
        r = self._rows(
            "SELECT node_id, name, type, labels, summary, attributes"
            " FROM memory.get_node(%s, %s, %s)",
            (tenant_id, simulation_id, node_id),
            conn,
        )[0]
        return Node(*r)

    def neighbors(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        depth: int | None = 1,
        edge_types: Sequence[str] | None = None,
        direction: str = "both",
        *,
        conn=None,
    ) -> list[Neighbor]:
        rows = self._rows(
            "SELECT * FROM memory.neighbors(%s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                node_id,
                depth,
                list(edge_types) if edge_types is not None else None,
                direction,
            ),
            conn,
        )
        return [Neighbor(*r) for r in rows]

    def search_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Sequence[float],
        top_k: int | None = 10,
        agent_id: int | None = None,
        *,
        conn=None,
    ) -> list[EpisodeHit]:
        rows = self._rows(
            "SELECT * FROM memory.search_episodes(%s, %s, %s::public.vector, %s, %s)",
            (tenant_id, simulation_id, vector_literal(query), top_k, agent_id),
            conn,
        )
        return [EpisodeHit(*r) for r in rows]

    def search_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Sequence[float],
        top_k: int | None = 10,
        type: str | None = None,
        *,
        conn=None,
    ) -> list[NodeHit]:
        rows = self._rows(
            "SELECT * FROM memory.search_nodes(%s, %s, %s::public.vector, %s, %s)",
            (tenant_id, simulation_id, vector_literal(query), top_k, type),
            conn,
        )
        return [NodeHit(*r) for r in rows]

    def simulation_stats(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn=None
    ) -> SimulationStats:
        r = self._rows(
            "SELECT * FROM memory.simulation_stats(%s, %s)", (tenant_id, simulation_id), conn
        )[0]
        return SimulationStats(*r)

    # -- staged imports (see swarm_memory.importer for the bulk loader) -----------------

    def begin_import(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        declared: dict[str, int] | None = None,
        skip_dangling: bool = False,
        metadata: dict[str, Any] | None = None,
        name: str | None = None,
        *,
        conn: psycopg.Connection,
    ) -> uuid.UUID:
        """Begin an attempt. It lives as long as `conn`'s session: pass the connection that
        will stage and commit it."""
        return self._rows(
            "SELECT memory.begin_import(%s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                Jsonb(declared) if declared is not None else None,
                skip_dangling,
                Jsonb(metadata or {}),
                name,
            ),
            conn,
        )[0][0]

    def validate_import(
        self, tenant_id: UUIDLike, attempt_id: UUIDLike, *, conn=None
    ) -> list[tuple[str, str, str | None, str]]:
        return self._rows(
            "SELECT * FROM memory.validate_import(%s, %s)", (tenant_id, attempt_id), conn
        )

    def commit_import(
        self, tenant_id: UUIDLike, attempt_id: UUIDLike, *, conn=None
    ) -> dict[str, tuple[int, int, int, int, int]]:
        rows = self._rows(
            "SELECT * FROM memory.commit_import(%s, %s)", (tenant_id, attempt_id), conn
        )
        return {r[0]: tuple(r[1:]) for r in rows}

    def abort_import(
        self, tenant_id: UUIDLike, attempt_id: UUIDLike, reason: str | None = None, *, conn=None
    ) -> None:
        self._rows("SELECT memory.abort_import(%s, %s, %s)", (tenant_id, attempt_id, reason), conn)

    def import_attempts(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn=None
    ) -> list[ImportAttempt]:
        rows = self._rows(
            "SELECT * FROM memory.import_attempts(%s, %s)", (tenant_id, simulation_id), conn
        )
        return [ImportAttempt(*r) for r in rows]

    def committed_hashes(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn=None
    ) -> list[tuple[str, str, bytes]]:
        return self._rows(
            "SELECT * FROM memory.committed_hashes(%s, %s)", (tenant_id, simulation_id), conn
        )
