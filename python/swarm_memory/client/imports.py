"""Staged imports, the vector cache and evidence links (sql/functions/core/import);
swarm_memory.importer drives them."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import psycopg
from psycopg.rows import class_row

from swarm_memory.client._base import (
    Connection,
    MemoryBase,
    UUIDLike,
    _ensure_vector,
    _json,
    _resolve_names,
    _translated,
    _vector,
)
from swarm_memory.client.rows import (
    CachedVector,
    CommittedHash,
    EvidenceLinks,
    ImportAttempt,
    ImportProblem,
    PromoteCounts,
    StagedCounts,
    StagingColumn,
    StagingTable,
)

# The session's staging tables and the columns a loader writes, in column order, each with
# its type or, for a domain (memory.label) or an array of one, the domain's base type: a
# binary COPY sends the base type's form, and the server checks the domain.
_STAGING_COLUMNS = """
WITH RECURSIVE col (relname, attname, attnum, typ) AS (
    SELECT c.relname, a.attname, a.attnum, a.atttypid
      FROM pg_catalog.pg_class AS c
      JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid
     WHERE c.relnamespace = pg_catalog.pg_my_temp_schema()
       AND c.relkind = 'r'
       AND c.relname LIKE 'stage\\_%'
       AND a.attnum > 0 AND NOT a.attisdropped
       AND a.attgenerated = ''
    UNION ALL
    SELECT col.relname, col.attname, col.attnum,
           CASE WHEN t.typtype = 'd' THEN t.typbasetype
                ELSE (SELECT b.typarray FROM pg_catalog.pg_type AS b WHERE b.oid = e.typbasetype)
           END
      FROM col
      JOIN pg_catalog.pg_type AS t ON t.oid = col.typ
      LEFT JOIN pg_catalog.pg_type AS e ON e.oid = t.typelem AND t.typcategory = 'A'
     WHERE t.typtype = 'd' OR e.typtype = 'd'
)
SELECT col.relname, col.attname, pg_catalog.format_type(col.typ, NULL), col.typ::integer
  FROM col
  JOIN pg_catalog.pg_type AS t ON t.oid = col.typ
  LEFT JOIN pg_catalog.pg_type AS e ON e.oid = t.typelem AND t.typcategory = 'A'
 WHERE t.typtype <> 'd' AND e.typtype IS DISTINCT FROM 'd'
 ORDER BY col.relname, col.attnum
"""


class ImportsMixin(MemoryBase):
    """Memory's staged imports, vector cache and evidence links."""

    def begin_import(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        declared: dict[str, int] | None = None,
        skip_dangling: bool = False,
        metadata: dict[str, Any] | None = None,
        name: str | None = None,
        *,
        scope: dict[str, list[str] | None] | None = None,
        conn: psycopg.Connection,
    ) -> uuid.UUID:
        """Begin an attempt. It lives as long as `conn`'s session: pass the connection that
        will stage and commit it. `scope` names what the attempt replaces (kinds, each None
        for all of it or a list of platforms); None replaces the whole simulation."""
        return self._rows(
            "SELECT memory.begin_import(%s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                _json(declared) if declared is not None else None,
                skip_dangling,
                _json(metadata or {}),
                name,
                _json(scope) if scope is not None else None,
            ),
            conn,
        )[0][0]

    def open_staging(self, *, conn: psycopg.Connection) -> dict[str, StagingTable]:
        """Create the session's staging tables (memory.open_staging) and return them by kind,
        with their columns as the database defines them. In `conn`'s transaction: commit it
        (or use an autocommit connection) for the tables to outlive it."""
        with _translated():
            conn.execute("SELECT memory.open_staging()")
            found: dict[str, list[StagingColumn]] = {}
            for table, column, type_name, oid in conn.execute(_STAGING_COLUMNS).fetchall():
                found.setdefault(table, []).append(StagingColumn(column, type_name, oid))
        return {
            table.removeprefix("stage_"): StagingTable(
                table.removeprefix("stage_"), table, tuple(cols)
            )
            for table, cols in found.items()
        }

    def stage_rows(
        self,
        tenant_id: UUIDLike,
        attempt_id: UUIDLike,
        rows: Mapping[StagingTable, Iterable[Sequence[Any]]] | None = None,
        *,
        conn: psycopg.Connection,
    ) -> StagedCounts:
        """COPY `rows` (tuples in the table's column order; vectors as numpy arrays) into the
        session's staging tables, binary, then move them into the attempt with
        memory.stage_rows(), in one transaction (a savepoint inside the caller's)."""
        with _translated():
            _ensure_vector(conn)
            with conn.transaction():
                for table, items in (rows or {}).items():
                    with conn.cursor().copy(table.copy_statement()) as copy:
                        copy.set_types([c.type_oid for c in table.columns])
                        for row in items:
                            copy.write_row(row)
                with conn.cursor(row_factory=class_row(StagedCounts)) as cur:
                    query = "SELECT * FROM memory.stage_rows(%s, %s)"
                    params = _resolve_names(conn, query, (tenant_id, attempt_id))
                    counts = cur.execute(query, params).fetchone()
        assert counts is not None
        return counts

    def validate_import(
        self, tenant_id: UUIDLike, attempt_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[ImportProblem]:
        return self._records(
            ImportProblem,
            "SELECT * FROM memory.validate_import(%s, %s)",
            (tenant_id, attempt_id),
            conn,
        )

    def commit_import(
        self, tenant_id: UUIDLike, attempt_id: UUIDLike, *, conn: Connection | None = None
    ) -> dict[str, PromoteCounts]:
        """Promote the attempt whole; what it did, by kind."""
        rows = self._records(
            PromoteCounts,
            "SELECT * FROM memory.commit_import(%s, %s)",
            (tenant_id, attempt_id),
            conn,
        )
        return {r.kind: r for r in rows}

    def abort_import(
        self,
        tenant_id: UUIDLike,
        attempt_id: UUIDLike,
        reason: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> None:
        self._rows("SELECT memory.abort_import(%s, %s, %s)", (tenant_id, attempt_id, reason), conn)

    def link_evidence(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> EvidenceLinks:
        """Recompute a simulation's evidence after upserts (imports do it themselves)."""
        return self._one(
            EvidenceLinks,
            "SELECT * FROM memory.link_evidence(%s, %s)",
            (tenant_id, simulation_id),
            conn,
        )

    def import_attempts(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[ImportAttempt]:
        return self._records(
            ImportAttempt,
            "SELECT * FROM memory.import_attempts(%s, %s)",
            (tenant_id, simulation_id),
            conn,
        )

    def committed_hashes(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[CommittedHash]:
        return self._records(
            CommittedHash,
            "SELECT * FROM memory.committed_hashes(%s, %s)",
            (tenant_id, simulation_id),
            conn,
        )

    def cached_vectors(
        self,
        tenant_id: UUIDLike,
        embedding_model: str,
        hashes: Sequence[bytes],
        *,
        conn: Connection | None = None,
    ) -> list[CachedVector]:
        """The tenant's cached vectors of `embedding_model` for these content hashes (hits
        only; at most memory._limit('cache_hashes') hashes a call). Vectors as float32 arrays."""
        import numpy as np
        from pgvector import Vector

        rows = self._records(
            CachedVector,
            "SELECT * FROM memory.cached_vectors(%s, %s, %s::bytea[])",
            (tenant_id, embedding_model, list(hashes)),
            conn,
            vectors=True,
        )
        return [
            CachedVector(r.content_hash, np.asarray(r.embedding.to_numpy(), dtype=np.float32))
            if isinstance(r.embedding, Vector)
            else r
            for r in rows
        ]

    def cache_vectors(
        self,
        tenant_id: UUIDLike,
        embedding_model: str,
        hashes: Sequence[bytes],
        vectors: Sequence[Any],
        *,
        conn: Connection | None = None,
    ) -> int:
        """Add vectors (numpy arrays or sequences of floats) to the tenant's cache, one per
        content hash; returns how many were new (a cached hash keeps its vector)."""
        with _translated(), self._conn(conn) as c:
            _ensure_vector(c)
            query = "SELECT memory.cache_vectors(%s, %s, %s::bytea[], %s::public.vector[])"
            params = (tenant_id, embedding_model, list(hashes), [_vector(v) for v in vectors])
            row = c.execute(query, _resolve_names(c, query, params)).fetchone()
        assert row is not None
        return int(row[0])
