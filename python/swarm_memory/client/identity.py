"""The identity wing: one entity across a tenant's runs, and what changed between two runs
(sql/functions/wings/identity)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from swarm_memory.client._base import Connection, MemoryBase, UUIDLike


@dataclass(frozen=True)
class LinkCounts:
    """A row of link_runs: a simulation linked against, its links, what the call changed."""

    other_simulation_id: uuid.UUID
    other_name: str | None
    linked: int
    added: int
    changed: int
    dropped: int


@dataclass(frozen=True)
class IdentityLink:
    """A row of identity_links: an entity, the entity of another run it is linked to."""

    node_id: str
    name: str
    type: str
    other_simulation_id: uuid.UUID
    other_node_id: str
    other_name: str
    other_type: str
    score: float
    decision: str
    active: bool
    evidence: dict[str, Any]


@dataclass(frozen=True)
class LinkDecision:
    """The row of decide_link: the link as stored after the verdict."""

    simulation_a: uuid.UUID
    node_a: str
    simulation_b: uuid.UUID
    node_b: str
    score: float
    decision: str
    decided_by: str | None
    decided_at: datetime | None


@dataclass(frozen=True)
class IdentityMember:
    """A row of identity: the entity of one run that is the entity asked about."""

    run: int
    simulation_id: uuid.UUID
    simulation_name: str | None
    node_id: str
    name: str
    type: str
    summary: str | None
    score: float | None


@dataclass(frozen=True)
class IdentityFact:
    """A row of identity_facts: a fact of the entity in one run."""

    run: int
    simulation_id: uuid.UUID
    simulation_name: str | None
    node_id: str
    edge_id: str
    type: str
    direction: str
    other_node_id: str
    other_name: str
    fact: str | None
    valid_at: datetime | None
    invalid_at: datetime | None
    expired_at: datetime | None
    state: str


@dataclass(frozen=True)
class DiffRow:
    """A row of diff: a change between two runs, with its evidence in each (None: absent)."""

    kind: str
    change: str
    subject: str
    a: dict[str, Any] | None
    b: dict[str, Any] | None
    score: float | None


class IdentityMixin(MemoryBase):
    """Memory's identity wing."""

    def link_runs(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        other_simulation_id: UUIDLike | None = None,
        min_score: float | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[LinkCounts]:
        """Link a simulation's entities with those of the tenant's other simulations (or
        one); idempotent, keeps a person's verdicts."""
        other = self.simulation(tenant_id, other_simulation_id) if other_simulation_id else None
        return self._records(
            LinkCounts,
            "SELECT * FROM memory.link_runs(%s, %s, %s::uuid, %s::real)",
            (tenant_id, simulation_id, other, min_score),
            conn,
        )

    def identity_links(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        other_simulation_id: UUIDLike | None = None,
        all: bool = False,
        *,
        conn: Connection | None = None,
    ) -> list[IdentityLink]:
        """The links of a simulation's entities (those that count, or all with `all`)."""
        other = self.simulation(tenant_id, other_simulation_id) if other_simulation_id else None
        return self._records(
            IdentityLink,
            "SELECT * FROM memory.identity_links(%s, %s, %s::uuid, %s)",
            (tenant_id, simulation_id, other, all),
            conn,
        )

    def decide_link(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        other_simulation_id: UUIDLike,
        other_node_id: str,
        decision: str,
        *,
        conn: Connection | None = None,
    ) -> LinkDecision:
        """'confirmed', 'refused' or 'auto' (the verdict withdrawn) for a pair of entities."""
        other = self.simulation(tenant_id, other_simulation_id)
        return self._one(
            LinkDecision,
            "SELECT * FROM memory.decide_link(%s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, other, other_node_id, decision),
            conn,
        )

    def identity(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        *,
        conn: Connection | None = None,
    ) -> list[IdentityMember]:
        """The entities of every run linked to this one, in run order."""
        return self._records(
            IdentityMember,
            "SELECT * FROM memory.identity(%s, %s, %s)",
            (tenant_id, simulation_id, node_id),
            conn,
        )

    def identity_facts(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        *,
        conn: Connection | None = None,
    ) -> list[IdentityFact]:
        """An entity's facts in every run it is linked into, in run order."""
        return self._records(
            IdentityFact,
            "SELECT * FROM memory.identity_facts(%s, %s, %s)",
            (tenant_id, simulation_id, node_id),
            conn,
        )

    def diff(
        self,
        tenant_id: UUIDLike,
        run_a: UUIDLike,
        run_b: UUIDLike,
        agent_similarity: float = 0.95,
        posts: int = 3,
        *,
        conn: Connection | None = None,
    ) -> list[DiffRow]:
        """What changed from run a to run b, by identity: entities, facts, agents."""
        a, b = self.simulation(tenant_id, run_a), self.simulation(tenant_id, run_b)
        return self._records(
            DiffRow,
            "SELECT * FROM memory.diff(%s, %s, %s, %s::real, %s::integer)",
            (tenant_id, a, b, agent_similarity, posts),
            conn,
        )
