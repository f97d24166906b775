"""Episode search, the per-simulation search indexes' plans and builds, and warm
(sql/functions/core/search)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike, _vector
from swarm_memory.client.rows import (
    AnnPlanRow,
    EntitiesAnnPlanRow,
    EpisodeHit,
    FactsAnnPlanRow,
    WarmRow,
)


class SearchMixin(MemoryBase):
    """Memory's episode search, search indexes and warm."""

    def search_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Any,
        top_k: int | None = 10,
        agent_id: int | None = None,
        *,
        round_from: int | None = None,
        round_to: int | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        collapse: bool = False,
        model: str | None = None,
        snapshot: str | None = None,
        conn: Connection | None = None,
    ) -> list[EpisodeHit]:
        """Episodes nearest `query` (a 384-dimensional vector: numpy array or floats), within
        rounds round_from..round_to (inclusive) and the time window [since, until) if given;
        with `collapse`, near-identical hits (cosine >= 0.99) as one row each, with the
        number of copies and of agents behind it. `model`, the query vector's model, is
        refused (InvalidInput, 22023) when it is not the simulation's; None names the
        default model (model_of names a simulation's). `snapshot` reads the episodes as the
        memory held them in a snapshot (memory.create_snapshot; not with `collapse`)."""
        return self._records(
            EpisodeHit,
            "SELECT * FROM memory.search_episodes(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                _vector(query),
                top_k,
                agent_id,
                round_from,
                round_to,
                since,
                until,
                collapse,
                model,
                snapshot,
            ),
            conn,
            vectors=True,
        )

    def warm(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[WarmRow]:
        """Load a simulation's rows, word postings and (where pg_prewarm is installed) its
        own indexes into memory, after a restart or a load, so that its first questions do
        not each wait for their pages (memory.warm)."""
        return self._records(
            WarmRow, "SELECT * FROM memory.warm(%s, %s)", (tenant_id, simulation_id), conn
        )

    def ann_plan(
        self,
        min_rows: int = 2000,
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[AnnPlanRow]:
        """What building the per-simulation search indexes would do (memory_admin)."""
        return self._records(
            AnnPlanRow,
            "SELECT * FROM memory.ann_plan(%s, %s, %s)",
            (min_rows, m, ef_construction),
            conn,
        )

    def _index_action(
        self,
        fn: str,
        sim_no: int,
        action: str,
        m: int,
        ef_construction: int,
        run: bool,
        conn: Connection | None,
    ) -> list[str]:
        """One action of an index plan by memory.ann_index, ann_index_facts or
        ann_index_entities (fn): the statements, in order."""
        rows = self._rows(
            f"SELECT * FROM memory.{fn}(%s, %s, %s, %s, %s)",
            (sim_no, action, m, ef_construction, run),
            conn,
        )
        return [r[0] for r in rows]

    def ann_index(
        self,
        sim_no: int,
        action: str,
        m: int = 32,
        ef_construction: int = 128,
        run: bool = True,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Carry out one action of ann_plan (memory_admin); returns its statements. With
        run=True they run in the database as memory_owner (a plain CREATE INDEX)."""
        return self._index_action("ann_index", sim_no, action, m, ef_construction, run, conn)

    def ann_plan_facts(
        self,
        min_rows: int = 2000,
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[FactsAnnPlanRow]:
        """What building the per-simulation indexes over facts would do (memory_admin)."""
        return self._records(
            FactsAnnPlanRow,
            "SELECT * FROM memory.ann_plan_facts(%s, %s, %s)",
            (min_rows, m, ef_construction),
            conn,
        )

    def ann_index_facts(
        self,
        sim_no: int,
        action: str,
        m: int = 32,
        ef_construction: int = 128,
        run: bool = True,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Carry out one action of ann_plan_facts (memory_admin); returns its statements."""
        return self._index_action("ann_index_facts", sim_no, action, m, ef_construction, run, conn)

    def ann_plan_entities(
        self,
        min_rows: int = 2000,
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[EntitiesAnnPlanRow]:
        """What building the per-simulation index pairs over entities would do (memory_admin)."""
        return self._records(
            EntitiesAnnPlanRow,
            "SELECT * FROM memory.ann_plan_entities(%s, %s, %s)",
            (min_rows, m, ef_construction),
            conn,
        )

    def ann_index_entities(
        self,
        sim_no: int,
        action: str,
        m: int = 32,
        ef_construction: int = 128,
        run: bool = True,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Carry out one action of ann_plan_entities (memory_admin); returns its statements."""
        return self._index_action(
            "ann_index_entities", sim_no, action, m, ef_construction, run, conn
        )

    def ann_index_tenant(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        action: str = "build",
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Build, rebuild or drop a simulation's index by tenant and id (memory_admin): on a
        Citus cluster on the tenant's shard, on its worker. Returns the statements run."""
        rows = self._rows(
            "SELECT * FROM memory.ann_index_tenant(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, action, m, ef_construction),
            conn,
        )
        return [r[0] for r in rows]
