"""The time wing: facts at a moment or a round, a row's history, an entity's timeline,
named snapshots (sql/functions/wings/time)."""

from __future__ import annotations

from datetime import datetime

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike
from swarm_memory.client.rows import Fact, Snapshot, SnapshotMade, TimelineEvent, Version


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
        round: int | None = None,
        snapshot: str | None = None,
        known_at: datetime | str | None = None,
        conn: Connection | None = None,
    ) -> list[Fact]:
        """Facts of a simulation or a node in a state ('current', 'historical', 'future',
        'all') at a world time (None: now) or at the end of a `round`, as the memory held
        them at `known_at` (record time, None: now) or in a `snapshot`."""
        return self._records(
            Fact,
            "SELECT * FROM memory.facts(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, state, as_of, limit, round, snapshot, known_at),
            conn,
        )

    def create_snapshot(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        name: str,
        round: int | None = None,
        note: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> SnapshotMade:
        """Freeze a simulation under `name` (optionally read at a `round`): later imports
        change none of its answers. A replay returns it with `created` false."""
        return self._one(
            SnapshotMade,
            "SELECT * FROM memory.create_snapshot(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, name, round, note),
            conn,
        )

    def snapshots(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[Snapshot]:
        """The live snapshots of a simulation, oldest first."""
        return self._records(
            Snapshot, "SELECT * FROM memory.snapshots(%s, %s)", (tenant_id, simulation_id), conn
        )

    def drop_snapshot(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        name: str,
        *,
        conn: Connection | None = None,
    ) -> bool:
        """Drop a snapshot by name; False when there was none to drop."""
        rows = self._rows(
            "SELECT memory.drop_snapshot(%s, %s, %s)", (tenant_id, simulation_id, name), conn
        )
        return bool(rows[0][0])

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
        round: int | None = None,
        conn: Connection | None = None,
    ) -> list[TimelineEvent]:
        """What happened to an entity in time order: facts that began or ended, actions naming
        it; up to the end of a `round` of the simulation if given."""
        return self._records(
            TimelineEvent,
            "SELECT * FROM memory.timeline(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, limit, round),
            conn,
        )
