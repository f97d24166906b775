"""The zep wing's batches: zep-cloud 3.25's batch API (sql/functions/wings/zep/zep_batch_*).
Each method answers the function's jsonb, already in Zep's wire shape (BatchSummary, a page
of batches or items, BatchItemDetail)."""

from __future__ import annotations

from typing import Any

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike, _json

__all__ = ["ZepBatchMixin"]


class ZepBatchMixin(MemoryBase):
    """Memory's Zep batches. Reads: any role granted the tenant; writes: memory_writer (the
    service runs both as the key's role). A draft's items become episodes when it is
    processed; from then on the batch's status is its episodes'."""

    def _batch_json(self, query: str, params: tuple[Any, ...], conn: Connection | None) -> Any:
        return self._rows(query, params, conn)[0][0]

    def zep_batch_create(
        self,
        tenant_id: UUIDLike,
        metadata: dict[str, Any] | None = None,
        ignore_roles: list[str] | None = None,
        *,
        conn: Connection | None = None,
    ) -> dict[str, Any]:
        """batch.create: a draft batch with its metadata (how a caller finds it again)."""
        return self._batch_json(
            "SELECT memory.zep_batch_create(%s, %s, %s)",
            (tenant_id, None if metadata is None else _json(metadata), ignore_roles),
            conn,
        )

    def zep_batch(
        self, tenant_id: UUIDLike, batch_id: UUIDLike, *, conn: Connection | None = None
    ) -> dict[str, Any]:
        """batch.get: a batch, its status and progress (NotFound when unknown)."""
        return self._batch_json("SELECT memory.zep_batch(%s, %s)", (tenant_id, batch_id), conn)

    def zep_batches(
        self,
        tenant_id: UUIDLike,
        limit: int | None = None,
        cursor: int | None = None,
        status: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> dict[str, Any]:
        """batch.list: {"batches": [...], "next_cursor": n or None}, oldest first."""
        return self._batch_json(
            "SELECT memory.zep_batches(%s, %s, %s, %s)", (tenant_id, limit, cursor, status), conn
        )

    def zep_batch_items(
        self,
        tenant_id: UUIDLike,
        batch_id: UUIDLike,
        limit: int | None = None,
        cursor: int | None = None,
        status: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> dict[str, Any]:
        """batch.list_items: {"items": [...], "next_cursor": n or None}, in the order added."""
        return self._batch_json(
            "SELECT memory.zep_batch_items(%s, %s, %s, %s, %s)",
            (tenant_id, batch_id, limit, cursor, status),
            conn,
        )

    def zep_batch_add(
        self,
        tenant_id: UUIDLike,
        batch_id: UUIDLike,
        items: list[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> list[dict[str, Any]]:
        """batch.add: graph_episode items appended to a draft, all or none; each may carry
        `embedding` and `embedding_model` (its data's vector in its graph's model)."""
        return [
            r[0]
            for r in self._rows(
                "SELECT i FROM memory.zep_batch_add(%s, %s, %s) AS i",
                (tenant_id, batch_id, _json(items)),
                conn,
            )
        ]

    def zep_batch_process(
        self, tenant_id: UUIDLike, batch_id: UUIDLike, *, conn: Connection | None = None
    ) -> dict[str, Any]:
        """batch.process: a draft's items made episodes; again, its failed ones re-queued."""
        return self._batch_json(
            "SELECT memory.zep_batch_process(%s, %s)", (tenant_id, batch_id), conn
        )

    def zep_batch_delete(
        self, tenant_id: UUIDLike, batch_id: UUIDLike, *, conn: Connection | None = None
    ) -> dict[str, Any]:
        """batch.delete: a draft or finished batch and its items; the batch as it was."""
        return self._batch_json(
            "SELECT memory.zep_batch_delete(%s, %s)", (tenant_id, batch_id), conn
        )
