"""The time wing: facts at a moment, a row's history, an entity's timeline
(sql/functions/wings/time)."""

from __future__ import annotations

from datetime import datetime

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike
from swarm_memory.client.rows import Fact, TimelineEvent, Version


class TimeMixin(MemoryBase):
    """Memory's time wing."""

    def facts(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str | None = None,
        state: str = "current",
        as_of: datetime | str | None = None,
        limit: int | None = 100,
        *,
        conn: Connection | None = None,
    ) -> list[Fact]:
        """Facts of a simulation or a node in a state ('current', 'historical', 'future',
        'all') at a world time (None: now)."""
        return self._records(
            Fact,
            "SELECT * FROM memory.facts(%s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, state, as_of, limit),
            conn,
        )

    def history(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        kind: str,
        row_id: str,
        *,
        conn: Connection | None = None,
    ) -> list[Version]:
        """The versions of a node, edge or episode (kind 'node', 'edge' or 'episode'),
        oldest first, the last the one held now unless it was removed."""
        return self._records(
            Version,
            "SELECT * FROM memory.history(%s, %s, %s, %s)",
            (tenant_id, simulation_id, kind, row_id),
            conn,
        )

    def timeline(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        limit: int | None = 100,
        *,
        conn: Connection | None = None,
    ) -> list[TimelineEvent]:
        """What happened to an entity in time order: facts that began or ended, actions naming it."""
        return self._records(
            TimelineEvent,
            "SELECT * FROM memory.timeline(%s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, limit),
            conn,
        )
