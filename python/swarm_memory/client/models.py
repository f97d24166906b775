"""The models wing: naming a simulation's or a tenant's model, re-embedding and switching
(sql/functions/wings/models)."""

from __future__ import annotations

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike
from swarm_memory.client.rows import ReembedText, SwitchedRows


class ModelsMixin(MemoryBase):
    """Memory's models wing."""

    def set_model(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        model: str,
        *,
        conn: Connection | None = None,
    ) -> str:
        """Name a simulation's model (StateError while it holds vectors of another model)."""
        return self._rows(
            "SELECT memory.set_model(%s, %s, %s)", (tenant_id, simulation_id, model), conn
        )[0][0]

    def set_tenant_model(
        self, tenant_id: UUIDLike, model: str | None, *, conn: Connection | None = None
    ) -> str:
        """Name the model of a tenant's new simulations (None: the default)."""
        return self._rows("SELECT memory.set_tenant_model(%s, %s)", (tenant_id, model), conn)[0][0]

    def reembed_texts(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        model: str,
        limit: int | None = 10000,
        *,
        conn: Connection | None = None,
    ) -> list[ReembedText]:
        """The texts of a simulation that still need a vector of `model` (not in the
        tenant's vector cache), at most `limit`: a re-embed's work list."""
        return self._records(
            ReembedText,
            "SELECT * FROM memory.reembed_texts(%s, %s, %s, %s)",
            (tenant_id, simulation_id, model, limit),
            conn,
        )

    def switch_model(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        model: str,
        *,
        conn: Connection | None = None,
    ) -> list[SwitchedRows]:
        """Switch a simulation's vectors to `model` atomically, from the vector cache; rows
        switched by kind. StateError (55000) while it imports or some text lacks a vector."""
        return self._records(
            SwitchedRows,
            "SELECT * FROM memory.switch_model(%s, %s, %s)",
            (tenant_id, simulation_id, model),
            conn,
        )
