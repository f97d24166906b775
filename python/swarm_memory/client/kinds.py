"""The record kinds' write path: the upserts, and remember over upsert_episodes
(sql/functions/core/kinds). remember embeds with the simulation's model, read by model_of."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from swarm_memory.client._base import Connection, UUIDLike, _json
from swarm_memory.client.reads import ReadsMixin
from swarm_memory.client.rows import UpsertCounts


class KindsMixin(ReadsMixin):
    """Memory's writes of the record kinds."""

    def upsert_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        nodes: Sequence[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
            (tenant_id, simulation_id, _json(list(nodes))),
            conn,
        )

    def upsert_edges(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        edges: Sequence[dict[str, Any]],
        skip_dangling: bool = False,
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_edges(%s, %s, %s, %s)",
            (tenant_id, simulation_id, _json(list(edges)), skip_dangling),
            conn,
        )

    def upsert_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        episodes: Sequence[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_episodes(%s, %s, %s)",
            (tenant_id, simulation_id, _json(list(episodes))),
            conn,
        )

    def remember(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        content: str,
        *,
        agent_id: int | None = None,
        agent_name: str | None = None,
        platform: str | None = None,
        action_type: str = "MEMORY",
        occurred_at: datetime | None = None,
        metadata: dict[str, Any] | None = None,
        embedder: Any = None,
        conn: Connection | None = None,
    ) -> str:
        """Add one episode written outside an import, embedded here (with the simulation's
        model unless `embedder` says otherwise). It is stored with source 'api', so no import
        removes it. Its id derives from who said what, where and as what, so remembering the
        same thing twice changes nothing. Returns the episode id."""
        from swarm_memory.embed import embedder_for  # the model loads only for callers that embed

        embedder = embedder or embedder_for(
            self.model_of(tenant_id, simulation_id, conn=conn).model
        )
        key = json.dumps(
            [agent_id, platform, action_type, content], ensure_ascii=False, separators=(",", ":")
        )
        episode_id = "memory:" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        item: dict[str, Any] = {
            "id": episode_id,
            "agent_id": agent_id,
            "agent_name": agent_name,
            "platform": platform,
            "action_type": action_type,
            "content": content,
            "metadata": metadata or {},
            "occurred_at": occurred_at.isoformat() if occurred_at else None,
            "embedding": embedder.encode_one(content),
            "embedding_model": embedder.model_name,
        }
        self.upsert_episodes(tenant_id, simulation_id, [item], conn=conn)
        return episode_id

    def upsert_profiles(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        profiles: Sequence[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_profiles(%s, %s, %s)",
            (tenant_id, simulation_id, _json(list(profiles))),
            conn,
        )
