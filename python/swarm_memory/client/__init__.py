"""A thin client over the SQL API: one method per SQL function, frozen dataclasses back.

Every method takes the tenant explicitly and sends one `SELECT memory.fn(...)`; the database
does the checking. Pass `conn=` to run a call on your own connection (and so inside your
transaction); otherwise the call takes a connection from the pool, in autocommit.

Vectors travel one way: as pgvector's binary type, through the adapter that `configure()`
registers on every connection the client makes (the pool's, and `connect()`'s) and, on first
use, on a caller's connection. A query vector may be a numpy array, a `pgvector.Vector` or a
sequence of floats; inside the JSON items of the upserts an embedding may be a numpy array
too. Every database error leaves a method as one of `swarm_memory.errors` (see translate()).

The methods live by family, as the SQL functions do under sql/functions: the core's families
(tenancy, simulations, kinds, imports, reads, search) and the wings' (recall, time, feed,
models, reports, zep), each a mixin of its own module; `Memory` gathers them over the connection
handling of `_base`, and the row types are in `rows`.
"""

from __future__ import annotations

# the list of calls exempt from the NULL-tenant refusal, which tests hold to the catalog
from swarm_memory.client._base import _NOT_TENANT_FIRST as _NOT_TENANT_FIRST
from swarm_memory.client._base import Connection, UUIDLike, configure
from swarm_memory.client.feed import FeedMixin
from swarm_memory.client.identity import IdentityMixin
from swarm_memory.client.imports import ImportsMixin
from swarm_memory.client.kinds import KindsMixin
from swarm_memory.client.models import ModelsMixin
from swarm_memory.client.reads import ReadsMixin
from swarm_memory.client.recall import RecallMixin
from swarm_memory.client.reports import ReportsMixin
from swarm_memory.client.rows import (
    AnnPlanRow,
    AuditRow,
    CachedVector,
    Chain,
    Change,
    CommittedHash,
    CompactCounts,
    DeleteCounts,
    EdgeDetail,
    EmbeddingModel,
    EntitiesAnnPlanRow,
    EntityMatch,
    EpisodeHit,
    EpisodeRow,
    Evidence,
    EvidenceLinks,
    Fact,
    FactHit,
    FactsAnnPlanRow,
    ForgetCounts,
    ForkCounts,
    GraphEdge,
    GraphNode,
    HealthRow,
    ImportAttempt,
    ImportProblem,
    ModelOf,
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
    QuotaRow,
    Recalled,
    ReembedText,
    ReportHit,
    ReportLogLine,
    ReportRow,
    ReportSection,
    Route,
    SimulationMatch,
    SimulationRow,
    SimulationStats,
    Snapshot,
    SnapshotMade,
    StagedCounts,
    StagingColumn,
    StagingTable,
    SummaryRow,
    SweepRow,
    SwitchedRows,
    TenantDeleteCounts,
    TenantRow,
    TimelineEvent,
    UpsertCounts,
    Version,
    WarmRow,
    WordHit,
)
from swarm_memory.client.search import SearchMixin
from swarm_memory.client.simulations import SimulationsMixin
from swarm_memory.client.tenancy import TenancyMixin
from swarm_memory.client.time import TimeMixin
from swarm_memory.client.zep import ZepMixin
from swarm_memory.client.zep_batches import ZepBatchMixin


# The wings first: a wing's mixin may build on a core family's (recall and kinds on reads'
# model_of, feed on tenancy's list_tenants), so it must precede it in the method order.
class Memory(
    IdentityMixin,
    RecallMixin,
    TimeMixin,
    FeedMixin,
    ModelsMixin,
    ReportsMixin,
    TenancyMixin,
    SimulationsMixin,
    KindsMixin,
    ImportsMixin,
    ReadsMixin,
    SearchMixin,
    ZepMixin,
    ZepBatchMixin,
):
    """Client of the swarm-memory SQL API over a psycopg connection pool.

    The pool opens on the first call that needs it: a client used only with `conn=` (the
    importer) opens none.
    """


__all__ = [
    "AnnPlanRow",
    "AuditRow",
    "CachedVector",
    "Chain",
    "Change",
    "CommittedHash",
    "CompactCounts",
    "configure",
    "Connection",
    "DeleteCounts",
    "ForgetCounts",
    "EdgeDetail",
    "EmbeddingModel",
    "EntitiesAnnPlanRow",
    "EntityMatch",
    "EpisodeHit",
    "EpisodeRow",
    "Evidence",
    "EvidenceLinks",
    "Fact",
    "ForkCounts",
    "Snapshot",
    "SnapshotMade",
    "FactHit",
    "FactsAnnPlanRow",
    "GraphEdge",
    "GraphNode",
    "HealthRow",
    "ImportAttempt",
    "ImportProblem",
    "Memory",
    "ModelOf",
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
    "QuotaRow",
    "Recalled",
    "ReembedText",
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
    "SweepRow",
    "SwitchedRows",
    "TenantDeleteCounts",
    "TenantRow",
    "TimelineEvent",
    "UpsertCounts",
    "UUIDLike",
    "Version",
    "WarmRow",
    "WordHit",
]
