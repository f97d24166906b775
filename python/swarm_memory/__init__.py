"""swarm-memory: tenant-owned memory for agent swarms, inside PostgreSQL.

`from swarm_memory import Memory` (and the row types and errors below) works as ever; the
client is imported on first use of one of them, so a program that imports a module of the
package (the command line) pays for psycopg only when it connects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from swarm_memory.client import (
        AnnPlanRow,
        AuditRow,
        Chain,
        CommittedHash,
        DeleteCounts,
        EdgeDetail,
        EntityMatch,  # the words arm (V0017)
        EpisodeHit,
        EpisodeRow,
        Evidence,  # evidence and timeline (V0016)
        EvidenceLinks,
        Fact,
        FactHit,
        ForgetCounts,
        ImportAttempt,
        ImportProblem,
        Memory,
        Neighbor,
        NeighborId,
        Node,
        NodeDetail,
        NodeHit,
        NodeRef,
        OutcomeRow,
        PanoramaRow,
        PredictionRow,
        ProfileRow,
        PromoteCounts,
        Recalled,
        ReportHit,
        ReportLogLine,
        ReportRow,
        ReportSection,
        Route,
        SimulationMatch,
        SimulationRow,
        SimulationStats,
        StagedCounts,
        StagingColumn,
        StagingTable,
        SummaryRow,
        TenantDeleteCounts,
        TenantRow,
        TimelineEvent,
        UpsertCounts,
        Version,
        WordHit,
    )
    from swarm_memory.errors import (
        AmbiguousName,
        ConcurrentImport,
        Conflict,
        CountMismatch,
        DatabaseError,
        ImportFailed,
        InvalidInput,
        LimitExceeded,
        NotFound,
        NotSupported,
        QuotaExceeded,
        StateError,
        SwarmMemoryError,
        TenantAccessDenied,
        Timeout,
        UnknownReference,
    )

_FROM_CLIENT = frozenset(
    {
        "AnnPlanRow",
        "AuditRow",
        "Chain",
        "CommittedHash",
        "DeleteCounts",
        "ForgetCounts",
        "EdgeDetail",
        "EntityMatch",
        "EpisodeHit",
        "EpisodeRow",
        "Evidence",
        "EvidenceLinks",
        "Fact",
        "FactHit",
        "ImportAttempt",
        "ImportProblem",
        "Memory",
        "Neighbor",
        "NeighborId",
        "Node",
        "NodeDetail",
        "NodeHit",
        "NodeRef",
        "OutcomeRow",
        "PanoramaRow",
        "PredictionRow",
        "ProfileRow",
        "PromoteCounts",
        "Recalled",
        "ReportHit",
        "ReportLogLine",
        "ReportRow",
        "ReportSection",
        "Route",
        "SimulationMatch",
        "SimulationRow",
        "SimulationStats",
        "StagedCounts",
        "StagingColumn",
        "StagingTable",
        "SummaryRow",
        "TenantDeleteCounts",
        "TenantRow",
        "TimelineEvent",
        "UpsertCounts",
        "Version",
        "WordHit",
    }
)
_FROM_ERRORS = frozenset(
    {
        "AmbiguousName",
        "ConcurrentImport",
        "Conflict",
        "CountMismatch",
        "DatabaseError",
        "ImportFailed",
        "InvalidInput",
        "LimitExceeded",
        "NotFound",
        "NotSupported",
        "QuotaExceeded",
        "StateError",
        "SwarmMemoryError",
        "TenantAccessDenied",
        "Timeout",
        "UnknownReference",
    }
)


def __getattr__(name: str) -> Any:
    if name in _FROM_CLIENT:
        from swarm_memory import client

        return getattr(client, name)
    if name in _FROM_ERRORS:
        from swarm_memory import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'swarm_memory' has no attribute {name!r}")


__all__ = [
    "AmbiguousName",
    "ConcurrentImport",
    "AnnPlanRow",
    "AuditRow",
    "CommittedHash",
    "Conflict",
    "CountMismatch",
    "DatabaseError",
    "DeleteCounts",
    "ForgetCounts",
    "EdgeDetail",
    "Chain",
    "Fact",
    "FactHit",
    "PanoramaRow",
    "Recalled",
    "Route",
    "SummaryRow",
    "EpisodeHit",
    "EpisodeRow",
    "ImportAttempt",
    "ImportFailed",
    "ImportProblem",
    "InvalidInput",
    "LimitExceeded",
    "Memory",
    "Neighbor",
    "NeighborId",
    "Version",
    "Node",
    "NodeDetail",
    "NodeHit",
    # the words arm (V0017)
    "WordHit",
    "EntityMatch",
    "NodeRef",
    "NotFound",
    "NotSupported",
    "QuotaExceeded",
    "ProfileRow",
    "PromoteCounts",
    "SimulationMatch",
    "SimulationRow",
    "SimulationStats",
    "StagedCounts",
    "StagingColumn",
    "StagingTable",
    "TenantDeleteCounts",
    "TenantRow",
    "StateError",
    "SwarmMemoryError",
    "TenantAccessDenied",
    "Timeout",
    "UnknownReference",
    "UpsertCounts",
    # Evidence and timeline (V0016)
    "Evidence",
    "EvidenceLinks",
    "TimelineEvent",
    # Reports and predictions (V0014)
    "OutcomeRow",
    "PredictionRow",
    "ReportHit",
    "ReportLogLine",
    "ReportRow",
    "ReportSection",
]
