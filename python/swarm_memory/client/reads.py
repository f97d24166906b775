"""Entities, edges, the walk, pages, profiles, episodes, evidence and the models listed
(sql/functions/core/reads)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike
from swarm_memory.client.rows import (
    EdgeDetail,
    EmbeddingModel,
    EpisodeRow,
    Evidence,
    GraphEdge,
    GraphNode,
    ModelOf,
    Neighbor,
    NeighborId,
    Node,
    NodeDetail,
    NodeRef,
    ProfileRow,
)


class ReadsMixin(MemoryBase):
    """Memory's reads of the graph, the episodes, the profiles and the models listed."""

    def nodes_by_type(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        type: str | None,
        limit: int = 100,
        *,
        conn: Connection | None = None,
    ) -> list[Node]:
        return self._records(
            Node,
            "SELECT * FROM memory.nodes_by_type(%s, %s, %s, %s)",
            (tenant_id, simulation_id, type, limit),
            conn,
        )

    def get_node(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        *,
        conn: Connection | None = None,
    ) -> NodeDetail:
        return self._one(
            NodeDetail,
            "SELECT * FROM memory.get_node(%s, %s, %s)",
            (tenant_id, simulation_id, node_id),
            conn,
        )

    def neighbors(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        depth: int | None = 1,
        edge_types: Sequence[str] | None = None,
        direction: str = "both",
        *,
        as_of: datetime | str | None = None,
        known_at: datetime | str | None = None,
        include_ended: bool = False,
        limit: int | None = None,
        round: int | None = None,
        snapshot: str | None = None,
        conn: Connection | None = None,
    ) -> list[Neighbor]:
        """The walk along the facts current at `as_of` (world time, None: now; "infinity":
        the latest state), as the memory held them at `known_at` (record time, None: now);
        `include_ended` follows every fact, a current one winning where several reach a node;
        `limit` keeps the nearest `limit` nodes (None: no bound), a prefix of the unbounded walk.
        `round` reads the world time at which that round of the simulation ended, in place
        of `as_of`; `snapshot` (a name from `create_snapshot`) its record time and round."""
        return self._records(
            Neighbor,
            "SELECT * FROM memory.neighbors(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                node_id,
                depth,
                list(edge_types) if edge_types is not None else None,
                direction,
                as_of,
                known_at,
                include_ended,
                limit,
                round,
                snapshot,
            ),
            conn,
        )

    def neighbor_ids(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        depth: int | None = 1,
        edge_types: Sequence[str] | None = None,
        direction: str = "both",
        *,
        as_of: datetime | str | None = None,
        known_at: datetime | str | None = None,
        include_ended: bool = False,
        limit: int | None = None,
        round: int | None = None,
        snapshot: str | None = None,
        conn: Connection | None = None,
    ) -> list[NeighborId]:
        """The walk of `neighbors`, lean: each node's id, depth and the edge that reached it,
        the same rows in the same order, walked over keys and no row built."""
        return self._records(
            NeighborId,
            "SELECT * FROM memory.neighbor_ids(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                node_id,
                depth,
                list(edge_types) if edge_types is not None else None,
                direction,
                as_of,
                known_at,
                include_ended,
                limit,
                round,
                snapshot,
            ),
            conn,
        )

    def profiles(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        platform: str | None = None,
        agent_id: int | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[ProfileRow]:
        return self._records(
            ProfileRow,
            "SELECT * FROM memory.profiles(%s, %s, %s, %s)",
            (tenant_id, simulation_id, platform, agent_id),
            conn,
        )

    def episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        *,
        agent_id: int | None = None,
        platform: str | None = None,
        action_type: str | None = None,
        round_from: int | None = None,
        round_to: int | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 100,
        after: str | None = None,
        conn: Connection | None = None,
    ) -> list[EpisodeRow]:
        """A page of a simulation's episodes in the order they happened; pass the last
        episode_id of a page as `after` for the next."""
        return self._records(
            EpisodeRow,
            "SELECT * FROM memory.episodes(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                agent_id,
                platform,
                action_type,
                round_from,
                round_to,
                since,
                until,
                limit,
                after,
            ),
            conn,
        )

    def evidence(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        edge_id: str,
        *,
        conn: Connection | None = None,
    ) -> list[Evidence]:
        """The evidence behind a fact: its source episodes, then the actions naming both ends."""
        return self._records(
            Evidence,
            "SELECT * FROM memory.evidence(%s, %s, %s)",
            (tenant_id, simulation_id, edge_id),
            conn,
        )

    def episode_vector(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        episode_id: str,
        *,
        conn: Connection | None = None,
    ) -> Any:
        """An episode's stored vector (numpy array), or None if it has none."""
        return self._rows(
            "SELECT memory.episode_vector(%s, %s, %s)", (tenant_id, simulation_id, episode_id), conn
        )[0][0]

    def get_edge(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        edge_id: str,
        *,
        conn: Connection | None = None,
    ) -> EdgeDetail:
        return self._one(
            EdgeDetail,
            "SELECT * FROM memory.get_edge(%s, %s, %s)",
            (tenant_id, simulation_id, edge_id),
            conn,
        )

    def graph_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        *,
        limit: int = 1000,
        after: str | None = None,
        conn: Connection | None = None,
    ) -> list[GraphNode]:
        """A page of a simulation's nodes ordered by id; pass the last node_id of a page as
        `after` for the next."""
        return self._records(
            GraphNode,
            "SELECT * FROM memory.graph_nodes(%s, %s, %s, %s)",
            (tenant_id, simulation_id, limit, after),
            conn,
        )

    def graph_edges(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        *,
        limit: int = 1000,
        after: str | None = None,
        conn: Connection | None = None,
    ) -> list[GraphEdge]:
        """A page of a simulation's edges ordered by id, each with every field get_edge
        gives; pass the last edge_id of a page as `after` for the next."""
        return self._records(
            GraphEdge,
            "SELECT * FROM memory.graph_edges(%s, %s, %s, %s)",
            (tenant_id, simulation_id, limit, after),
            conn,
        )

    def nodes_named(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        name: str,
        *,
        conn: Connection | None = None,
    ) -> list[NodeRef]:
        """The entities with a name, in any case."""
        return self._records(
            NodeRef,
            "SELECT * FROM memory.nodes_named(%s, %s, %s)",
            (tenant_id, simulation_id, name),
            conn,
        )

    def list_models(self, *, conn: Connection | None = None) -> list[EmbeddingModel]:
        """The embedding models the installation knows."""
        return self._records(EmbeddingModel, "SELECT * FROM memory.list_models()", (), conn)

    def model_of(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike | None = None,
        *,
        conn: Connection | None = None,
    ) -> ModelOf:
        """The model of a tenant's new simulations (no simulation) or of a simulation's
        vectors, what names it, and how to embed for it."""
        return self._one(
            ModelOf, "SELECT * FROM memory.model_of(%s, %s)", (tenant_id, simulation_id), conn
        )
