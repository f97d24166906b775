"""Tenants, grants and roles, quotas and the audit (sql/functions/core/tenancy)."""

from __future__ import annotations

import uuid

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike
from swarm_memory.client.rows import AuditRow, QuotaRow, TenantDeleteCounts, TenantRow


class TenancyMixin(MemoryBase):
    """Memory's methods over tenants, grants, quotas and the audit."""

    def create_tenant(
        self, name: str, tenant_id: UUIDLike | None = None, *, conn: Connection | None = None
    ) -> uuid.UUID:
        return self._rows("SELECT memory.create_tenant(%s, %s)", (name, tenant_id), conn)[0][0]

    def grant_tenant(
        self, role: str, tenant_id: UUIDLike, *, conn: Connection | None = None
    ) -> None:
        self._rows("SELECT memory.grant_tenant(%s, %s)", (role, tenant_id), conn)

    def revoke_tenant(
        self, role: str, tenant_id: UUIDLike, *, conn: Connection | None = None
    ) -> None:
        self._rows("SELECT memory.revoke_tenant(%s, %s)", (role, tenant_id), conn)

    def delete_tenant(
        self, tenant_id: UUIDLike, *, conn: Connection | None = None
    ) -> TenantDeleteCounts:
        return self._one(
            TenantDeleteCounts, "SELECT * FROM memory.delete_tenant(%s)", (tenant_id,), conn
        )

    def rls_audit(self, *, conn: Connection | None = None) -> list[AuditRow]:
        return self._records(AuditRow, "SELECT * FROM memory.rls_audit()", (), conn)

    def list_tenants(self, *, conn: Connection | None = None) -> list[TenantRow]:
        """The tenants the caller may act for (every tenant for memory_admin)."""
        return self._records(TenantRow, "SELECT * FROM memory.list_tenants()", (), conn)

    def set_quota(
        self,
        tenant_id: UUIDLike,
        kind: str,
        max_rows: int | None,
        *,
        conn: Connection | None = None,
    ) -> None:
        """Set a tenant's cap on its simulations or its rows of a record kind (memory_admin);
        None removes the cap. Writes beyond it raise QuotaExceeded (53400)."""
        self._rows("SELECT memory.set_quota(%s, %s, %s::bigint)", (tenant_id, kind, max_rows), conn)

    def quotas(self, tenant_id: UUIDLike, *, conn: Connection | None = None) -> list[QuotaRow]:
        """A tenant's caps by kind beside what it holds now (memory_admin, or a role granted
        the tenant)."""
        return self._records(QuotaRow, "SELECT * FROM memory.quotas(%s)", (tenant_id,), conn)
