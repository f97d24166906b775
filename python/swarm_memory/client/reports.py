"""The reports wing: MiroFish reports, their sections and logs, predictions and outcomes
(sql/functions/wings/reports)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike, _json, _vector
from swarm_memory.client.rows import (
    OutcomeRow,
    PredictionRow,
    ReportHit,
    ReportLogLine,
    ReportRow,
    ReportSection,
    UpsertCounts,
)


class ReportsMixin(MemoryBase):
    """Memory's reports wing."""

    def reports(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[ReportRow]:
        """The simulation's MiroFish reports, newest first."""
        return self._records(
            ReportRow, "SELECT * FROM memory.reports(%s, %s)", (tenant_id, simulation_id), conn
        )

    def report_sections(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        report_id: str,
        *,
        conn: Connection | None = None,
    ) -> list[ReportSection]:
        """A report's sections in order, as written (markdown)."""
        return self._records(
            ReportSection,
            "SELECT * FROM memory.report_sections(%s, %s, %s)",
            (tenant_id, simulation_id, report_id),
            conn,
        )

    def report_log(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        report_id: str,
        *,
        limit: int = 100,
        after: int | None = None,
        conn: Connection | None = None,
    ) -> list[ReportLogLine]:
        """A page of a report's agent log; pass the last line_no of a page as `after`."""
        return self._records(
            ReportLogLine,
            "SELECT * FROM memory.report_log(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, report_id, limit, after),
            conn,
        )

    def search_reports(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Any,
        top_k: int | None = 10,
        report_id: str | None = None,
        *,
        model: str | None = None,
        conn: Connection | None = None,
    ) -> list[ReportHit]:
        """Report section chunks nearest `query` (a 384-dimensional vector), best first;
        `model` as for search_nodes."""
        return self._records(
            ReportHit,
            "SELECT * FROM memory.search_reports(%s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, _vector(query), top_k, report_id, model),
            conn,
            vectors=True,
        )

    def predictions(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        report_id: str | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[PredictionRow]:
        """The simulation's predictions (of one report), with their recorded outcomes."""
        return self._records(
            PredictionRow,
            "SELECT * FROM memory.predictions(%s, %s, %s)",
            (tenant_id, simulation_id, report_id),
            conn,
        )

    def upsert_predictions(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        predictions: Sequence[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        """Add or update predictions {id, claim, horizon, confidence, report_id,
        section_index, metadata} (source 'api': no import removes them)."""
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_predictions(%s, %s, %s)",
            (tenant_id, simulation_id, _json(list(predictions))),
            conn,
        )

    def record_outcome(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        prediction_id: str,
        outcome: str,
        note: str | None = None,
        observed_at: datetime | None = None,
        *,
        conn: Connection | None = None,
    ) -> OutcomeRow:
        """Record (or correct) what became of a prediction: confirmed, refuted, partial or
        void. No import ever overwrites it."""
        return self._one(
            OutcomeRow,
            "SELECT * FROM memory.record_outcome(%s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, prediction_id, outcome, note, observed_at),
            conn,
        )
