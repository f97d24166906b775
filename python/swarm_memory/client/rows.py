"""What the SQL functions return: one frozen dataclass per row shape, built by column name
(a column the dataclass lacks, or a field the function does not return, fails the call)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from psycopg import sql

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class UpsertCounts:
    """upsert_nodes / _edges / _episodes / _profiles; `skipped` only from upsert_edges."""

    inserted: int
    updated: int
    unchanged: int
    skipped: int = 0


@dataclass(frozen=True)
class DeleteCounts:
    """delete_simulation: rows deleted by kind."""

    nodes: int
    edges: int
    episodes: int
    profiles: int
    reports: int
    predictions: int


@dataclass(frozen=True)
class ForgetCounts:
    """forget_episodes, forget_agent: what went. facts_kept: facts that lost the forgotten
    episodes' evidence but had other support; history: versions scrubbed from row_history;
    vectors: the tenant's cached vectors of the texts."""

    episodes: int
    facts_removed: int
    facts_kept: int
    profiles: int
    history: int
    vectors: int


@dataclass(frozen=True)
class TenantDeleteCounts:
    """delete_tenant: rows deleted by kind, with the tenant's simulations and grants."""

    simulations: int
    nodes: int
    edges: int
    episodes: int
    profiles: int
    grants: int
    reports: int
    predictions: int


@dataclass(frozen=True)
class Node:
    """A row of nodes_by_type."""

    node_id: str
    name: str
    type: str
    labels: list[str]
    summary: str | None
    attributes: dict[str, Any]


@dataclass(frozen=True)
class NodeDetail(Node):
    """The row of get_node: a Node with the model of its vector and its timestamps."""

    embedding_model: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Neighbor:
    """A row of neighbors: a node, how it was reached, and the reaching fact's validity and
    state (current, ended, expired, future) at the walk's world time."""

    node_id: str
    name: str
    type: str
    depth: int
    path: list[str]
    edge_id: str
    edge_type: str
    fact: str | None
    valid_at: datetime | None
    invalid_at: datetime | None
    state: str


@dataclass(frozen=True)
class NeighborId:
    """A row of neighbor_ids: a node the walk reaches, its least depth and the edge that
    reached it (the same as neighbors' row for that node)."""

    node_id: str
    depth: int
    edge_id: str


@dataclass(frozen=True)
class Fact:
    """A row of facts: a relationship with both ends, its validity window, when the graph
    learned it and its end, its state at the asked moment and its source episodes."""

    edge_id: str
    type: str
    fact: str | None
    source_id: str
    source_name: str
    target_id: str
    target_name: str
    valid_at: datetime | None
    invalid_at: datetime | None
    learned_at: datetime | None
    expired_at: datetime | None
    state: str
    episodes: list[str] | None


@dataclass(frozen=True)
class FactHit:
    """A row of search_facts: a fact near the query, with both ends and its validity."""

    edge_id: str
    type: str
    fact: str | None
    source_id: str
    source_name: str
    target_id: str
    target_name: str
    valid_at: datetime | None
    invalid_at: datetime | None
    state: str
    similarity: float


@dataclass(frozen=True)
class Route:
    """The row of route: where a question goes (graph, vector, hybrid) and the phrases that
    decided it."""

    target: str
    signals: list[dict[str, str]]


@dataclass(frozen=True)
class Recalled:
    """A row of recall: an episode, fact or entity, its fused score, each arm's rank and raw
    score, why it is there, and for an episode the copies and agents folded into it."""

    kind: str
    id: str
    text: str | None
    score: float
    ranks: dict[str, dict[str, float]]
    why: str
    # an episode's row: the copies of its text the arms found folded into it (itself
    # included) and their distinct agents; None for a fact or an entity
    copies: int | None = None
    agents: int | None = None


@dataclass(frozen=True)
class Chain:
    """A row of paths: one shortest chain of current facts between two entities."""

    path_no: int
    length: int
    node_ids: list[str]
    names: list[str]
    edge_ids: list[str]
    facts: list[str | None]


@dataclass(frozen=True)
class PanoramaRow:
    """A row of panorama: an entity or a fact about the question, facts with their state
    and validity; score is recall's for what it found itself."""

    kind: str
    id: str
    text: str | None
    state: str | None
    valid_at: datetime | None
    invalid_at: datetime | None
    score: float | None


@dataclass(frozen=True)
class SummaryRow:
    """A row of entity_summary: a section (entity, fact, neighbour, episode), its id, text
    and the row's other fields."""

    section: str
    id: str
    text: str | None
    detail: dict[str, Any]


@dataclass(frozen=True)
class Version:
    """A row of history: one version of a node, edge or episode and when it was the
    memory's word (recorded_to None: the version held now)."""

    version: int
    recorded_from: datetime
    recorded_to: datetime | None
    change: str
    attempt_id: uuid.UUID | None
    data: dict[str, Any]


@dataclass(frozen=True)
class EpisodeHit:
    """A row of search_episodes."""

    episode_id: str
    agent_id: int | None
    agent_name: str | None
    platform: str | None
    round: int | None
    action_type: str
    content: str | None
    occurred_at: datetime | None
    similarity: float
    copies: int = 1  # with collapse: the near-identical hits this row stands for
    agents: int = 1  # with collapse: the distinct agents behind them


@dataclass(frozen=True)
class Evidence:
    """A row of evidence: a source episode of a fact, or an action supporting it (found by
    names, by meaning or both: found_by; score the cosine of fact and action)."""

    kind: str
    episode_id: str
    resolved: bool
    list_position: int | None
    matched: list[str] | None
    agent_id: int | None
    agent_name: str | None
    platform: str | None
    round: int | None
    action_type: str | None
    content: str | None
    occurred_at: datetime | None
    found_by: list[str] | None = None
    score: float | None = None


@dataclass(frozen=True)
class TimelineEvent:
    """A row of timeline: a fact that began or ended, or an action naming the entity."""

    at: datetime
    event: str
    edge_id: str | None
    episode_id: str | None
    content: str | None
    other_node_id: str | None
    other_name: str | None


@dataclass(frozen=True)
class EvidenceLinks:
    """The row of link_evidence: the links a simulation holds and what the call changed."""

    sources: int
    mentions: int
    added: int
    removed: int


@dataclass(frozen=True)
class NodeHit:
    """A row of search_nodes."""

    node_id: str
    name: str
    type: str
    summary: str | None
    similarity: float


# -- the words arm (V0017) --------------------------------------------------------------------


@dataclass(frozen=True)
class WordHit:
    """A row of search_words: an episode, fact (edge id) or entity (node id) holding words
    of the question, best first."""

    kind: str
    id: str
    text: str | None
    score: float
    matched: str | None


@dataclass(frozen=True)
class EntityMatch:
    """A row of match_entities: an entity whose name the text names or nearly names."""

    node_id: str
    name: str
    type: str
    similarity: float


@dataclass(frozen=True)
class SimulationStats:
    """The row of simulation_stats."""

    simulation_id: uuid.UUID
    name: str | None
    metadata: dict[str, Any]
    nodes: int
    edges: int
    episodes: int
    profiles: int
    node_types: dict[str, int]
    edge_types: dict[str, int]
    platforms: dict[str, int]
    agents: int
    rounds: int | None
    first_at: datetime | None
    last_at: datetime | None


@dataclass(frozen=True)
class ProfileRow:
    """A row of profiles."""

    platform: str
    agent_id: int
    name: str | None
    username: str | None
    bio: str | None
    persona: str | None
    attributes: dict[str, Any]
    source: str


@dataclass(frozen=True)
class EpisodeRow:
    """A row of episodes."""

    episode_id: str
    agent_id: int | None
    agent_name: str | None
    platform: str | None
    round: int | None
    action_type: str
    content: str | None
    metadata: dict[str, Any]
    occurred_at: datetime | None
    source: str


@dataclass(frozen=True)
class EdgeDetail:
    """The row of get_edge: every field MiroFish sends with a relationship."""

    edge_id: str
    type: str
    source_id: str
    target_id: str
    fact: str | None
    fact_type: str | None
    valid_at: datetime | None
    invalid_at: datetime | None
    created_at: datetime | None
    expired_at: datetime | None
    episodes: list[str] | None
    attributes: dict[str, Any]
    source: str


@dataclass(frozen=True)
class GraphNode:
    """A row of graph_nodes: a node with every stored field but its vector."""

    node_id: str
    name: str
    type: str
    labels: list[str]
    summary: str | None
    attributes: dict[str, Any]
    source: str


@dataclass(frozen=True)
class GraphEdge(EdgeDetail):
    """A row of graph_edges: the fields of get_edge, for every edge a page at a time."""


@dataclass(frozen=True)
class NodeRef:
    """A row of nodes_named."""

    node_id: str
    name: str
    type: str


@dataclass(frozen=True)
class TenantRow:
    """A row of list_tenants: a tenant the caller may act for."""

    tenant_id: uuid.UUID
    name: str
    created_at: datetime


@dataclass(frozen=True)
class SimulationMatch:
    """A row of resolve_simulation: a simulation a name or MiroFish id names, and how."""

    simulation_id: uuid.UUID
    name: str | None
    mirofish_id: str | None
    graph_id: str | None
    matched_by: str  # 'name', 'mirofish_id' or 'graph_id'


@dataclass(frozen=True)
class SimulationRow:
    """A row of list_simulations."""

    simulation_id: uuid.UUID
    name: str | None
    mirofish_id: str | None
    published: bool
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Change:
    """A row of changes_since: one committed change of the tenant's feed."""

    change_id: int
    seq: int
    simulation_id: uuid.UUID | None
    kind: str
    op: str
    attempt_id: uuid.UUID | None
    ids: list[str] | None
    counts: dict[str, Any]
    detail: dict[str, Any]
    recorded_at: datetime
    recorded_by: str


@dataclass(frozen=True)
class WarmRow:
    """A row of warm: a part of a simulation read into memory, how much, and in what unit
    (rows, pages, or why an index was not loaded)."""

    part: str
    amount: int | None
    unit: str


@dataclass(frozen=True)
class HealthRow:
    """A row of health: one metric of a tenant, simulation or agent."""

    section: str
    tenant_id: uuid.UUID | None
    simulation_id: uuid.UUID | None
    agent_id: int | None
    metric: str
    value: float | None
    ok: bool | None
    detail: dict[str, Any]


@dataclass(frozen=True)
class SweepRow:
    """A row of sweep: what retention or compaction did to a simulation."""

    tenant_id: uuid.UUID
    simulation_id: uuid.UUID
    action: str
    detail: dict[str, Any]


@dataclass(frozen=True)
class QuotaRow:
    """A row of quotas: a kind ('simulations' or a record kind), the tenant's cap on it (None:
    no cap), what the tenant holds now, and who set the cap when."""

    kind: str
    max_rows: int | None
    used: int
    updated_at: datetime | None
    updated_by: str | None


@dataclass(frozen=True)
class CompactCounts:
    """What compact_episodes did."""

    clumps: int
    episodes: int
    dropped: int


@dataclass(frozen=True)
class AnnPlanRow:
    """A row of ann_plan: what `swarm-memory index` would do for one simulation's index."""

    sim_no: int
    index_name: str
    episodes: int
    action: str


@dataclass(frozen=True)
class FactsAnnPlanRow:
    """A row of ann_plan_facts: what `swarm-memory index` would do for one simulation's
    index over its facts."""

    sim_no: int
    index_name: str
    facts: int
    action: str


@dataclass(frozen=True)
class EntitiesAnnPlanRow:
    """A row of ann_plan_entities: what `swarm-memory index` would do for one simulation's
    pair of indexes over its entities (name and summary vectors)."""

    sim_no: int
    index_name: str
    entities: int
    action: str


@dataclass(frozen=True)
class ImportAttempt:
    """A row of import_attempts."""

    attempt_id: uuid.UUID
    state: str
    declared: dict[str, int] | None
    staged: dict[str, int] | None
    result: dict[str, Any] | None
    skip_dangling: bool
    error: str | None
    started_at: datetime
    finished_at: datetime | None
    seconds: float


@dataclass(frozen=True)
class StagedCounts:
    """stage_rows: rows the attempt holds by kind after the call."""

    nodes: int
    edges: int
    episodes: int
    profiles: int


@dataclass(frozen=True)
class ImportProblem:
    """A row of validate_import: what is wrong (dangling_edge, count_mismatch, ...; a
    skipped_edge is not a problem but a dangling edge the attempt leaves out)."""

    problem: str
    kind: str
    item_id: str | None
    detail: str


@dataclass(frozen=True)
class PromoteCounts:
    """A row of commit_import: what the promote did to one kind."""

    kind: str
    inserted: int
    updated: int
    unchanged: int
    deleted: int
    skipped: int


@dataclass(frozen=True)
class CommittedHash:
    """A row of committed_hashes: the content hash of a committed row's embedded text."""

    kind: str
    item_id: str
    content_hash: bytes


@dataclass(frozen=True)
class EmbeddingModel:
    """A row of list_models: an embedding model the installation knows."""

    model: str
    dimensions: int
    normalized: bool
    query_prefix: str
    passage_prefix: str
    package: str
    languages: list[str]
    note: str | None


@dataclass(frozen=True)
class ModelOf:
    """model_of: the model of a tenant or simulation and what names it (simulation,
    vectors, tenant, default)."""

    model: str
    named_by: str
    dimensions: int
    normalized: bool
    query_prefix: str
    passage_prefix: str
    package: str


@dataclass(frozen=True)
class ReembedText:
    """A row of reembed_texts: a text still needing a vector of the model, by content hash."""

    content_hash: bytes
    text: str


@dataclass(frozen=True)
class SwitchedRows:
    """A row of switch_model: the rows of a kind whose vectors it switched."""

    kind: str
    switched: int


@dataclass(frozen=True)
class CachedVector:
    """A row of cached_vectors: the tenant's cached vector of a content hash."""

    content_hash: bytes
    embedding: np.ndarray


@dataclass(frozen=True)
class AuditRow:
    """A row of rls_audit."""

    table_name: str
    rls_enabled: bool
    rls_forced: bool
    policies: list[str]
    ok: bool
    problem: str | None


# -- Reports and predictions (V0014): row shapes ------------------------------------------


@dataclass(frozen=True)
class ReportRow:
    """A row of reports: a MiroFish report (meta.json) with its section and prediction
    counts; started_at is MiroFish's created_at."""

    report_id: str
    mirofish_simulation_id: str | None
    graph_id: str | None
    title: str | None
    summary: str | None
    status: str
    simulation_requirement: str | None
    started_at: datetime | None
    completed_at: datetime | None
    error: str | None
    sections: int
    predictions: int
    metadata: dict[str, Any]
    source: str


@dataclass(frozen=True)
class ReportSection:
    """A row of report_sections: one section_NN.md as written."""

    section_index: int
    title: str
    markdown: str


@dataclass(frozen=True)
class ReportLogLine:
    """A row of report_log: one line of agent_log.jsonl."""

    line_no: int
    action: str | None
    entry: dict[str, Any]


@dataclass(frozen=True)
class ReportHit:
    """A row of search_reports: a chunk of a report section, by similarity (1 - cosine distance)."""

    report_id: str
    section_index: int
    section_title: str
    chunk_index: int
    content: str
    similarity: float


@dataclass(frozen=True)
class PredictionRow:
    """A row of predictions, with its recorded outcome (None while none is)."""

    prediction_id: str
    report_id: str | None
    section_index: int | None
    claim: str
    horizon: str | None
    confidence: Decimal | None
    metadata: dict[str, Any]
    source: str
    outcome: str | None
    note: str | None
    observed_at: datetime | None
    recorded_at: datetime | None
    recorded_by: str | None


@dataclass(frozen=True)
class OutcomeRow:
    """A row of record_outcome: the outcome as recorded."""

    prediction_id: str
    outcome: str
    note: str | None
    observed_at: datetime | None
    recorded_at: datetime
    recorded_by: str


@dataclass(frozen=True)
class StagingColumn:
    """A column of a staging table as the database defines it."""

    name: str
    type: str  # format_type(): 'text', 'integer', 'jsonb', 'text[]', 'vector', ...
    type_oid: int


@dataclass(frozen=True)
class StagingTable:
    """One of the session's staging tables (pg_temp.stage_<kind>), read from the catalog
    after memory.open_staging(): the columns a loader writes (generated ones fill
    themselves), in table order. The importer restates none of them."""

    kind: str
    name: str
    columns: tuple[StagingColumn, ...]

    def copy_statement(self) -> sql.Composed:
        return sql.SQL("COPY {} ({}) FROM STDIN (FORMAT BINARY)").format(
            sql.Identifier("pg_temp", self.name),
            sql.SQL(", ").join(sql.Identifier(c.name) for c in self.columns),
        )


@dataclass(frozen=True)
class SnapshotMade:
    """A snapshot made (or found, on a replay: `created` false)."""

    name: str
    known_at: datetime
    round: int | None
    created: bool


@dataclass(frozen=True)
class Snapshot:
    """A live snapshot of a simulation: the record time it freezes and its round."""

    name: str
    known_at: datetime
    round: int | None
    note: str | None
    created_at: datetime
    created_by: str


@dataclass(frozen=True)
class ForkCounts:
    """The rows a fork copied of each kind."""

    nodes: int
    edges: int
    episodes: int
    profiles: int
