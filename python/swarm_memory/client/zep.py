"""The zep wing: the API keys of `swarm-memory serve` and the graph reads it answers with,
each row already in Zep's wire shape (sql/functions/wings/zep; docs/zep.md)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike, _json, _translated, _vector

__all__ = [
    "ApiKeyRow",
    "ClaimedEpisode",
    "KeyRole",
    "RevokedKey",
    "ZepCreatedGraph",
    "ZepDeletedGraph",
    "ZepGraph",
    "ZepGraphRow",
    "ZepMixin",
]


@dataclass(frozen=True)
class ApiKeyRow:
    """A key as `key list` shows it: never the key nor its hash, only its first characters."""

    key_id: uuid.UUID
    key_prefix: str
    role_name: str
    created_at: datetime
    created_by: str
    revoked_at: datetime | None


@dataclass(frozen=True)
class RevokedKey:
    role_name: str
    revoked_at: datetime


@dataclass(frozen=True)
class KeyRole:
    """What a key authenticates as: its tenant and the role its requests run as."""

    tenant_id: uuid.UUID
    key_id: uuid.UUID
    role_name: str


@dataclass(frozen=True)
class ZepGraphRow:
    """A graph of graph.list_all (Zep's Graph) with the count of all the tenant's graphs."""

    graph: dict[str, Any]
    total_count: int


@dataclass(frozen=True)
class ZepGraph:
    """A graph (Zep's Graph), the simulation it is and the model of its vectors."""

    simulation_id: uuid.UUID
    model: str
    graph: dict[str, Any]


@dataclass(frozen=True)
class ZepCreatedGraph:
    """graph.create's graph (Zep's Graph), its simulation and model, and whether it was made."""

    simulation_id: uuid.UUID
    model: str
    graph: dict[str, Any]
    created: bool


@dataclass(frozen=True)
class ZepDeletedGraph:
    """What graph.delete removed, by kind."""

    nodes: int
    edges: int
    episodes: int


@dataclass(frozen=True)
class ClaimedEpisode:
    """An episode claimed for extraction, with its graph's ontology and model; `attempt`
    goes back with its result (zep_apply_extraction, zep_fail_extraction)."""

    graph_id: str
    simulation_id: uuid.UUID
    episode_uuid: uuid.UUID
    sequence_index: int
    content: str
    source: str
    source_description: str | None
    created_at: datetime
    attempt: int
    model: str
    entity_types: list[dict[str, Any]]
    edge_types: list[dict[str, Any]]


class ZepMixin(MemoryBase):
    """Memory's zep wing. Keys: memory_admin. Reads: as any role granted the tenant (the
    service runs them as the key's role)."""

    def create_api_key(
        self,
        tenant_id: UUIDLike,
        role: str,
        key_hash: bytes,
        key_prefix: str,
        *,
        conn: Connection | None = None,
    ) -> uuid.UUID:
        """Record a key by its sha256, bound to the tenant and a role holding its grant."""
        return self._rows(
            "SELECT memory.create_api_key(%s, %s, %s, %s)",
            (tenant_id, role, key_hash, key_prefix),
            conn,
        )[0][0]

    def api_keys(self, tenant_id: UUIDLike, *, conn: Connection | None = None) -> list[ApiKeyRow]:
        return self._records(ApiKeyRow, "SELECT * FROM memory.api_keys(%s)", (tenant_id,), conn)

    def revoke_api_key(
        self, tenant_id: UUIDLike, key_id: UUIDLike, *, conn: Connection | None = None
    ) -> RevokedKey:
        """Revoke a key (its role's grant for the tenant ends); NotFound for an unknown one."""
        return self._one(
            RevokedKey, "SELECT * FROM memory.revoke_api_key(%s, %s)", (tenant_id, key_id), conn
        )

    def api_key_role(self, key_hash: bytes, *, conn: Connection | None = None) -> KeyRole | None:
        """The tenant and role of the unrevoked key of this sha256, or None."""
        rows = self._records(KeyRole, "SELECT * FROM memory.api_key_role(%s)", (key_hash,), conn)
        return rows[0] if rows else None

    def enter_key_role(
        self, key_hash: bytes, statement_timeout: str, *, conn: Connection
    ) -> KeyRole | None:
        """Authenticate the key of this sha256 and act as its role for the rest of conn's
        transaction, under statement_timeout; None (and nothing set) for no unrevoked key.

        One round trip where a lookup, `SET LOCAL ROLE` and `SET LOCAL statement_timeout`
        took three on every request: set_config(..., true) is SET LOCAL, and the role's
        check is the same (membership of the connecting role), evaluated only for the row
        the lookup found."""
        with _translated():
            row = conn.execute(
                "SELECT k.tenant_id, k.key_id, k.role_name,"
                " pg_catalog.set_config('role', k.role_name, true),"
                " pg_catalog.set_config('statement_timeout', %s, true)"
                " FROM memory.api_key_role(%s) AS k",
                (statement_timeout, key_hash),
            ).fetchone()
        return None if row is None else KeyRole(row[0], row[1], row[2])

    def zep_graphs(
        self,
        tenant_id: UUIDLike,
        page_number: int | None = 1,
        page_size: int | None = 1000,
        *,
        conn: Connection | None = None,
    ) -> list[ZepGraphRow]:
        return self._records(
            ZepGraphRow,
            "SELECT * FROM memory.zep_graphs(%s, %s, %s)",
            (tenant_id, page_number, page_size),
            conn,
        )

    def zep_graph(
        self, tenant_id: UUIDLike, graph_id: str, *, conn: Connection | None = None
    ) -> ZepGraph:
        return self._one(
            ZepGraph, "SELECT * FROM memory.zep_graph(%s, %s)", (tenant_id, graph_id), conn
        )

    def _jsons(self, query: str, params: tuple[Any, ...], conn: Connection | None) -> list[Any]:
        return [r[0] for r in self._rows(query, params, conn)]

    def zep_nodes(
        self,
        tenant_id: UUIDLike,
        graph_id: str,
        limit: int | None = 1000,
        uuid_cursor: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[dict[str, Any]]:
        return self._jsons(
            "SELECT n FROM memory.zep_nodes(%s, %s, %s, %s) AS n",
            (tenant_id, graph_id, limit, uuid_cursor),
            conn,
        )

    def zep_edges(
        self,
        tenant_id: UUIDLike,
        graph_id: str,
        limit: int | None = 1000,
        uuid_cursor: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[dict[str, Any]]:
        return self._jsons(
            "SELECT e FROM memory.zep_edges(%s, %s, %s, %s) AS e",
            (tenant_id, graph_id, limit, uuid_cursor),
            conn,
        )

    def zep_node(
        self, tenant_id: UUIDLike, uuid_: str, *, conn: Connection | None = None
    ) -> dict[str, Any]:
        return self._rows("SELECT memory.zep_node(%s, %s)", (tenant_id, uuid_), conn)[0][0]

    def zep_edge(
        self, tenant_id: UUIDLike, uuid_: str, *, conn: Connection | None = None
    ) -> dict[str, Any]:
        return self._rows("SELECT memory.zep_edge(%s, %s)", (tenant_id, uuid_), conn)[0][0]

    def zep_node_edges(
        self, tenant_id: UUIDLike, uuid_: str, *, conn: Connection | None = None
    ) -> list[dict[str, Any]]:
        return self._jsons(
            "SELECT e FROM memory.zep_node_edges(%s, %s) AS e", (tenant_id, uuid_), conn
        )

    def zep_search(
        self,
        tenant_id: UUIDLike,
        graph_id: str,
        query: str,
        vector: Any,
        scope: str | None = "edges",
        limit: int | None = 10,
        model: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[dict[str, Any]]:
        """graph.search: `vector` is `query` embedded with the graph's model, named by
        `model` (zep_graph gives it)."""
        return self._jsons(
            "SELECT r FROM memory.zep_search(%s, %s, %s, %s, %s, %s, %s) AS r",
            (tenant_id, graph_id, query, _vector(vector), scope, limit, model),
            conn,
        )

    # Writes: as a role granted the tenant with memory_writer (the service runs them as the
    # key's role). Each is atomic; repeating graph creation or an ontology changes nothing.

    def zep_create_graph(
        self,
        tenant_id: UUIDLike,
        graph_id: str,
        name: str | None = None,
        description: str | None = None,
        model: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> ZepCreatedGraph:
        """graph.create: the graph of `graph_id`, made once."""
        return self._one(
            ZepCreatedGraph,
            "SELECT * FROM memory.zep_create_graph(%s, %s, %s, %s, %s)",
            (tenant_id, graph_id, name, description, model),
            conn,
        )

    def zep_set_ontology(
        self,
        tenant_id: UUIDLike,
        graph_ids: list[str],
        entity_types: list[dict[str, Any]] | None,
        edge_types: list[dict[str, Any]] | None,
        *,
        conn: Connection | None = None,
    ) -> int:
        """set_ontology: the graphs' entity and edge types, replaced whole; all or none."""
        return self._rows(
            "SELECT memory.zep_set_ontology(%s, %s, %s, %s)",
            (tenant_id, graph_ids, _json(entity_types or []), _json(edge_types or [])),
            conn,
        )[0][0]

    def zep_ontology(
        self, tenant_id: UUIDLike, graph_id: str, *, conn: Connection | None = None
    ) -> dict[str, Any]:
        """list_entity_types: a graph's entity and edge types as set_ontology set them."""
        return self._jsons("SELECT memory.zep_ontology(%s, %s)", (tenant_id, graph_id), conn)[0]

    def zep_add_episodes(
        self,
        tenant_id: UUIDLike,
        graph_id: str,
        episodes: list[dict[str, Any]],
        batch_id: UUIDLike | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[dict[str, Any]]:
        """graph.add / add_batch: episodes committed, searchable and queued; Zep's Episodes."""
        return self._jsons(
            "SELECT e FROM memory.zep_add_episodes(%s, %s, %s, %s) AS e",
            (tenant_id, graph_id, _json(episodes), batch_id),
            conn,
        )

    def zep_episode(
        self, tenant_id: UUIDLike, episode_uuid: UUIDLike, *, conn: Connection | None = None
    ) -> dict[str, Any]:
        """graph.episode.get: processed once its extraction committed."""
        return self._jsons("SELECT memory.zep_episode(%s, %s)", (tenant_id, episode_uuid), conn)[0]

    def zep_graph_episodes(
        self,
        tenant_id: UUIDLike,
        graph_id: str,
        lastn: int | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[dict[str, Any]]:
        return self._jsons(
            "SELECT e FROM memory.zep_graph_episodes(%s, %s, %s) AS e",
            (tenant_id, graph_id, lastn),
            conn,
        )

    def zep_delete_graph(
        self, tenant_id: UUIDLike, graph_id: str, *, conn: Connection | None = None
    ) -> ZepDeletedGraph:
        return self._one(
            ZepDeletedGraph,
            "SELECT * FROM memory.zep_delete_graph(%s, %s)",
            (tenant_id, graph_id),
            conn,
        )

    def zep_claim_episodes(
        self,
        tenant_id: UUIDLike,
        limit: int = 1,
        lease_seconds: int = 300,
        *,
        conn: Connection | None = None,
    ) -> list[ClaimedEpisode]:
        """The extraction queue: the oldest episodes due, claimed for `lease_seconds`."""
        return self._records(
            ClaimedEpisode,
            "SELECT * FROM memory.zep_claim_episodes(%s, %s, %s)",
            (tenant_id, limit, lease_seconds),
            conn,
        )

    def zep_extraction_context(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        text: str,
        *,
        conn: Connection | None = None,
    ) -> dict[str, Any]:
        """The graph's entities a text names and their current facts, numbered."""
        return self._jsons(
            "SELECT memory.zep_extraction_context(%s, %s, %s)",
            (tenant_id, simulation_id, text),
            conn,
        )[0]

    def zep_apply_extraction(
        self,
        tenant_id: UUIDLike,
        episode_uuid: UUIDLike,
        attempt: int,
        extraction: dict[str, Any],
        *,
        conn: Connection | None = None,
    ) -> dict[str, Any]:
        """Commit an episode's extraction whole; the counts and what was refused."""
        return self._jsons(
            "SELECT memory.zep_apply_extraction(%s, %s, %s, %s)",
            (tenant_id, episode_uuid, attempt, _json(extraction)),
            conn,
        )[0]

    def zep_fail_extraction(
        self,
        tenant_id: UUIDLike,
        episode_uuid: UUIDLike,
        attempt: int,
        error: str,
        *,
        conn: Connection | None = None,
    ) -> bool:
        return self._rows(
            "SELECT memory.zep_fail_extraction(%s, %s, %s, %s)",
            (tenant_id, episode_uuid, attempt, error),
            conn,
        )[0][0]

    def zep_retry_episodes(
        self, tenant_id: UUIDLike, graph_id: str | None = None, *, conn: Connection | None = None
    ) -> int:
        """Queue a graph's failed episodes again (None: every graph of the tenant)."""
        return self._rows("SELECT memory.zep_retry_episodes(%s, %s)", (tenant_id, graph_id), conn)[
            0
        ][0]
