"""A tenant's simulations (sql/functions/core/simulations)."""

from __future__ import annotations

from typing import Any

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike, _json
from swarm_memory.client.rows import (
    DeleteCounts,
    ForkCounts,
    SimulationMatch,
    SimulationRow,
    SimulationStats,
)


class SimulationsMixin(MemoryBase):
    """Memory's methods over a tenant's simulations."""

    def upsert_simulation(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        name: str | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        conn: Connection | None = None,
    ) -> None:
        self._rows(
            "SELECT memory.upsert_simulation(%s, %s, %s, %s)",
            (tenant_id, simulation_id, name, _json(metadata or {})),
            conn,
        )

    def delete_simulation(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> DeleteCounts:
        return self._one(
            DeleteCounts,
            "SELECT * FROM memory.delete_simulation(%s, %s)",
            (tenant_id, simulation_id),
            conn,
        )

    def fork_simulation(
        self,
        tenant_id: UUIDLike,
        source_id: UUIDLike,
        simulation_id: UUIDLike,
        round: int | None = None,
        name: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> ForkCounts:
        """A new simulation (`simulation_id`, a UUID) whose memory starts as the source's
        after `round` (None: as it is now), for a what-if run: the rows copied of each
        kind. A replay copies nothing."""
        return self._one(
            ForkCounts,
            "SELECT * FROM memory.fork_simulation(%s, %s, %s, %s, %s)",
            (tenant_id, source_id, simulation_id, round, name),
            conn,
        )

    def simulation_stats(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> SimulationStats:
        return self._one(
            SimulationStats,
            "SELECT * FROM memory.simulation_stats(%s, %s)",
            (tenant_id, simulation_id),
            conn,
        )

    def list_simulations(
        self, tenant_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[SimulationRow]:
        """The simulations of a tenant, with their names and MiroFish ids."""
        return self._records(
            SimulationRow, "SELECT * FROM memory.list_simulations(%s)", (tenant_id,), conn
        )

    def resolve_simulation(
        self, tenant_id: UUIDLike, reference: str, *, conn: Connection | None = None
    ) -> list[SimulationMatch]:
        """The simulations a name or MiroFish id names, the best kind of match only (an exact
        name, else the MiroFish simulation_id, else the graph_id): none, one, or the
        candidates of an ambiguous reference. `Memory.simulation()` takes the one."""
        return self._records(
            SimulationMatch,
            "SELECT * FROM memory.resolve_simulation(%s, %s)",
            (tenant_id, reference),
            conn,
        )
