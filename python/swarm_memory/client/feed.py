"""The feed wing: the change feed, retention and its sweep, compaction and health
(sql/functions/wings/feed). sweep and health go tenant by tenant, listed by list_tenants."""

from __future__ import annotations

from swarm_memory.client._base import Connection, UUIDLike, _resolve_names, _translated
from swarm_memory.client.rows import Change, CompactCounts, ForgetCounts, HealthRow, SweepRow
from swarm_memory.client.tenancy import TenancyMixin
from swarm_memory.errors import NotSupported


class FeedMixin(TenancyMixin):
    """Memory's feed wing."""

    def changes_since(
        self,
        tenant_id: UUIDLike,
        cursor: int | None = None,
        limit: int = 1000,
        *,
        conn: Connection | None = None,
    ) -> list[Change]:
        """The tenant's changes after a cursor (the last change_id handled; None: from the
        start), in commit order; a cursor that is no change of the tenant gives nothing."""
        return self._records(
            Change,
            "SELECT * FROM memory.changes_since(%s, %s, %s)",
            (tenant_id, cursor, limit),
            conn,
        )

    def forget_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        episode_ids: list[str],
        *,
        conn: Connection | None = None,
    ) -> ForgetCounts:
        """Forget episodes: them, the facts only they supported, every copy of their text
        (history, words, cached vectors, clumps, Zep copies), leaving tombstones that an
        import respects. Ids not there are nothing to forget (a replay changes nothing)."""
        return self._one(
            ForgetCounts,
            "SELECT * FROM memory.forget_episodes(%s, %s, %s)",
            (tenant_id, simulation_id, list(episode_ids)),
            conn,
        )

    def forget_agent(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        agent_id: int,
        platform: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> ForgetCounts:
        """Forget an agent: its episodes (on one platform, or all) and profiles, as
        forget_episodes does."""
        return self._one(
            ForgetCounts,
            "SELECT * FROM memory.forget_agent(%s, %s, %s, %s)",
            (tenant_id, simulation_id, agent_id, platform),
            conn,
        )

    def forgotten_ids(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        kind: str,
        ids: list[str],
        text_hashes: list[bytes | None] | None = None,
        *,
        conn: Connection | None = None,
    ) -> set[str]:
        """The ids among these that the simulation has forgotten (an episode also by the
        sha256 of its text, anywhere in the tenant)."""
        rows = self._rows(
            "SELECT * FROM memory.forgotten_ids(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, kind, list(ids), text_hashes),
            conn,
        )
        return {r[0] for r in rows}

    def health_tenant(
        self, tenant_id: UUIDLike, recall_sample: int = 10, *, conn: Connection | None = None
    ) -> list[HealthRow]:
        """One tenant's sizes, index state, sampled index recall and feed head (no latency):
        the form a Citus cluster runs, where memory.health refuses."""
        return self._records(
            HealthRow,
            "SELECT * FROM memory.health_tenant(%s, %s)",
            (tenant_id, recall_sample),
            conn,
        )

    def health(
        self,
        tenant_id: UUIDLike | None = None,
        recall_sample: int = 10,
        *,
        conn: Connection | None = None,
    ) -> list[HealthRow]:
        """Sizes, index state, sampled index recall, feed head and latency (memory.health).
        On a Citus cluster, where memory.health refuses (0A000), and on the client's own
        connections: each tenant's rows by memory.health_tenant, without latency."""
        try:
            return self._records(
                HealthRow, "SELECT * FROM memory.health(%s, %s)", (tenant_id, recall_sample), conn
            )
        except NotSupported:
            if conn is not None:  # the caller's transaction is aborted: the caller decides
                raise
        tenants = (
            [tenant_id] if tenant_id is not None else [t.tenant_id for t in self.list_tenants()]
        )
        return [r for t in tenants for r in self.health_tenant(t, recall_sample)]

    def set_retention(
        self,
        tenant_id: UUIDLike,
        keep_days: int | None,
        compact_similarity: float | None = None,
        compact_drop: bool = False,
        *,
        conn: Connection | None = None,
    ) -> None:
        """Set a tenant's retention and compaction policy (memory_admin)."""
        with _translated(), self._conn(conn) as c:
            query = "SELECT memory.set_retention(%s, %s, %s::real, %s)"
            params = (tenant_id, keep_days, compact_similarity, compact_drop)
            c.execute(query, _resolve_names(c, query, params))

    def sweep(
        self, tenant_id: UUIDLike | None = None, *, conn: Connection | None = None
    ) -> list[SweepRow]:
        """Apply the tenants' retention and compaction policies (memory_admin): one
        `memory.sweep_tenant` call a tenant (every tenant when `tenant_id` is None), each
        committed on its own. On a Citus cluster each call runs on the tenant's worker, where
        `memory.sweep`, which sweeps every tenant in one call, refuses to run."""
        if tenant_id is not None:
            return self.sweep_tenant(tenant_id, conn=conn)
        return [
            r
            for t in self.list_tenants(conn=conn)
            for r in self.sweep_tenant(t.tenant_id, conn=conn)
        ]

    def sweep_tenant(
        self, tenant_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[SweepRow]:
        """Apply one tenant's retention and compaction policy (memory_admin)."""
        return self._records(SweepRow, "SELECT * FROM memory.sweep_tenant(%s)", (tenant_id,), conn)

    def compact_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        similarity: float = 0.99,
        drop: bool = False,
        *,
        conn: Connection | None = None,
    ) -> CompactCounts:
        """Compact an agent's near-duplicate episodes into representatives with their count."""
        return self._one(
            CompactCounts,
            "SELECT * FROM memory.compact_episodes(%s, %s, %s::real, %s)",
            (tenant_id, simulation_id, similarity, drop),
            conn,
        )
