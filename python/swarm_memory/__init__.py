"""swarm-memory: tenant-owned memory for agent swarms, inside PostgreSQL."""

from swarm_memory.client import (
    AuditRow,
    DeleteCounts,
    EpisodeHit,
    Memory,
    Neighbor,
    Node,
    NodeHit,
    SimulationStats,
    UpsertCounts,
)
from swarm_memory.errors import (
    Conflict,
    InvalidInput,
    NotFound,
    SwarmMemoryError,
    TenantAccessDenied,
    UnknownReference,
)

__all__ = [
    "AuditRow",
    "Conflict",
    "DeleteCounts",
    "EpisodeHit",
    "InvalidInput",
    "Memory",
    "Neighbor",
    "Node",
    "NodeHit",
    "NotFound",
    "SimulationStats",
    "SwarmMemoryError",
    "TenantAccessDenied",
    "UnknownReference",
    "UpsertCounts",
]
