"""A thin client over the SQL API: one method per SQL function, frozen dataclasses back.

Every method takes the tenant explicitly and sends one `SELECT memory.fn(...)`; the database
does the checking. Pass `conn=` to run a call on your own connection (and so inside your
transaction); otherwise the call takes a connection from the pool, in autocommit.

Vectors travel one way: as pgvector's binary type, through the adapter that `configure()`
registers on every connection the client makes (the pool's, and `connect()`'s) and, on first
use, on a caller's connection. A query vector may be a numpy array, a `pgvector.Vector` or a
sequence of floats; inside the JSON items of the upserts an embedding may be a numpy array
too. Every database error leaves a method as one of `swarm_memory.errors` (see translate()).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

import numpy as np
import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.rows import class_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from swarm_memory.errors import InvalidInput, NotSupported, translate

UUIDLike = uuid.UUID | str
Connection = psycopg.Connection[Any]
T = TypeVar("T")


# -- what the SQL functions return, one dataclass per row shape ----------------------------


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
    score, and why it is there."""

    kind: str
    id: str
    text: str | None
    score: float
    ranks: dict[str, dict[str, float]]
    why: str


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
    """A row of evidence: a source episode of a fact, or an action naming both its entities."""

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


# -- adapters --------------------------------------------------------------------------------


def configure(conn: psycopg.Connection) -> None:
    """Register pgvector's adapter on a connection: numpy arrays and `Vector`s go as the
    binary `vector` type. A database without pgvector gets nothing registered."""
    with suppress(psycopg.ProgrammingError):  # no vector type (a database not migrated yet)
        register_vector(conn)


def _ensure_vector(conn: psycopg.Connection) -> None:
    if conn.adapters.types.get("vector") is None:
        configure(conn)


def _vector(value: Any) -> Any:
    """A query vector as something the adapter sends binary; None stays NULL."""
    if value is None or isinstance(value, Vector):
        return value
    try:
        array = np.asarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"a query vector must be a sequence of numbers: {exc}") from None
    if array.ndim != 1:
        raise InvalidInput(f"a query vector must be one-dimensional, not of shape {array.shape}")
    return array


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Vector):
        return value.to_list()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, default=_plain)


def _json(value: Any) -> Jsonb:
    """A jsonb parameter; numpy arrays inside (embeddings) become JSON arrays."""
    return Jsonb(value, dumps=_dumps)


@contextmanager
def _translated() -> Iterator[None]:
    try:
        yield
    except psycopg.Error as exc:
        raise translate(exc) from exc


# The API functions whose first argument is not a tenant, or a tenant that may be NULL
# (health: every tenant); every other function takes the tenant first.
_NOT_TENANT_FIRST = frozenset(
    {
        "ann_index",
        "ann_index_entities",
        "ann_index_facts",
        "ann_plan",
        "ann_plan_entities",
        "ann_plan_facts",
        "create_tenant",
        "grant_tenant",
        "health",
        "list_models",
        "list_tenants",
        "open_staging",
        "revoke_tenant",
        "rls_audit",
        "route",
        "set_route_rule",
    }
)
_CALL = re.compile(r"memory\.([a-z_]+)\(%s")


def _refuse_null_tenant(query: str, params: Sequence[Any]) -> None:
    """A NULL tenant is refused before it is sent (22004, as the functions refuse it): on a
    Citus cluster a delegated call whose tenant is NULL crashes the coordinator's backend,
    and every session of the coordinator with it (README "Scaling out")."""
    m = _CALL.search(query)
    if m and params and params[0] is None and m.group(1) not in _NOT_TENANT_FIRST:
        raise InvalidInput(
            f"p_tenant_id must not be NULL (memory.{m.group(1)})",
            "22004",
            hint="pass the id of the tenant to act for",
        )


class Memory:
    """Client of the swarm-memory SQL API over a psycopg connection pool.

    The pool opens on the first call that needs it: a client used only with `conn=` (the
    importer) opens none.
    """

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 4) -> None:
        self.dsn = dsn
        self._min_size = min_size
        self._max_size = max_size
        self._pool: ConnectionPool | None = None
        self._lock = threading.Lock()

    @property
    def pool(self) -> ConnectionPool:
        with self._lock:
            if self._pool is None:
                # One direct connection first: a server that is down or a role that cannot log
                # in fails here at once with its cause, instead of the pool retrying in the
                # background until its 30 s timeout.
                with _translated():
                    psycopg.connect(self.dsn, connect_timeout=10).close()
                self._pool = ConnectionPool(
                    self.dsn,
                    min_size=self._min_size,
                    max_size=self._max_size,
                    kwargs={"autocommit": True},
                    configure=configure,
                    open=True,
                )
            return self._pool

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self, *, autocommit: bool = True) -> psycopg.Connection:
        """A connection of its own, set up like the pool's, for a session that outlives one
        call: a staged import lives as long as the session that began it."""
        with _translated():
            conn = psycopg.connect(self.dsn, autocommit=autocommit)
            configure(conn)
            return conn

    @contextmanager
    def _conn(self, conn: psycopg.Connection | None) -> Iterator[psycopg.Connection]:
        if conn is not None:
            yield conn
        else:
            with self.pool.connection() as pooled:
                yield pooled

    def _rows(
        self, query: str, params: Sequence[Any], conn: psycopg.Connection | None
    ) -> list[tuple[Any, ...]]:
        _refuse_null_tenant(query, params)
        with _translated(), self._conn(conn) as c:
            return c.execute(query, params).fetchall()

    def _records(
        self,
        cls: type[T],
        query: str,
        params: Sequence[Any],
        conn: psycopg.Connection | None,
        *,
        vectors: bool = False,
    ) -> list[T]:
        """The rows of `query` as `cls`, built by column name: a column the dataclass lacks
        (or a field the function does not return) fails the call."""
        _refuse_null_tenant(query, params)
        with _translated(), self._conn(conn) as c:
            if vectors:
                _ensure_vector(c)
            with c.cursor(row_factory=class_row(cls)) as cur:
                return cur.execute(query, params).fetchall()

    def _one(self, cls: type[T], query: str, params: Sequence[Any], conn: Connection | None) -> T:
        return self._records(cls, query, params, conn)[0]

    # -- admin ------------------------------------------------------------------------

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

    # -- writes -----------------------------------------------------------------------

    def upsert_simulation(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        name: str | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        conn: Connection | None = None,
    ) -> None:
        self._rows(
            "SELECT memory.upsert_simulation(%s, %s, %s, %s)",
            (tenant_id, simulation_id, name, _json(metadata or {})),
            conn,
        )

    def upsert_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        nodes: Sequence[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
            (tenant_id, simulation_id, _json(list(nodes))),
            conn,
        )

    def upsert_edges(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        edges: Sequence[dict[str, Any]],
        skip_dangling: bool = False,
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_edges(%s, %s, %s, %s)",
            (tenant_id, simulation_id, _json(list(edges)), skip_dangling),
            conn,
        )

    def upsert_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        episodes: Sequence[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_episodes(%s, %s, %s)",
            (tenant_id, simulation_id, _json(list(episodes))),
            conn,
        )

    def remember(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        content: str,
        *,
        agent_id: int | None = None,
        agent_name: str | None = None,
        platform: str | None = None,
        action_type: str = "MEMORY",
        occurred_at: datetime | None = None,
        metadata: dict[str, Any] | None = None,
        embedder: Any = None,
        conn: Connection | None = None,
    ) -> str:
        """Add one episode written outside an import, embedded here (with the simulation's
        model unless `embedder` says otherwise). It is stored with source 'api', so no import
        removes it. Its id derives from who said what, where and as what, so remembering the
        same thing twice changes nothing. Returns the episode id."""
        from swarm_memory.embed import embedder_for  # the model loads only for callers that embed

        embedder = embedder or embedder_for(
            self.model_of(tenant_id, simulation_id, conn=conn).model
        )
        key = json.dumps(
            [agent_id, platform, action_type, content], ensure_ascii=False, separators=(",", ":")
        )
        episode_id = "memory:" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        item: dict[str, Any] = {
            "id": episode_id,
            "agent_id": agent_id,
            "agent_name": agent_name,
            "platform": platform,
            "action_type": action_type,
            "content": content,
            "metadata": metadata or {},
            "occurred_at": occurred_at.isoformat() if occurred_at else None,
            "embedding": embedder.encode_one(content),
            "embedding_model": embedder.model_name,
        }
        self.upsert_episodes(tenant_id, simulation_id, [item], conn=conn)
        return episode_id

    def upsert_profiles(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        profiles: Sequence[dict[str, Any]],
        *,
        conn: Connection | None = None,
    ) -> UpsertCounts:
        return self._one(
            UpsertCounts,
            "SELECT * FROM memory.upsert_profiles(%s, %s, %s)",
            (tenant_id, simulation_id, _json(list(profiles))),
            conn,
        )

    def delete_simulation(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> DeleteCounts:
        return self._one(
            DeleteCounts,
            "SELECT * FROM memory.delete_simulation(%s, %s)",
            (tenant_id, simulation_id),
            conn,
        )

    # -- reads ------------------------------------------------------------------------

    def nodes_by_type(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        type: str | None,
        limit: int = 100,
        *,
        conn: Connection | None = None,
    ) -> list[Node]:
        return self._records(
            Node,
            "SELECT * FROM memory.nodes_by_type(%s, %s, %s, %s)",
            (tenant_id, simulation_id, type, limit),
            conn,
        )

    def get_node(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        *,
        conn: Connection | None = None,
    ) -> NodeDetail:
        return self._one(
            NodeDetail,
            "SELECT * FROM memory.get_node(%s, %s, %s)",
            (tenant_id, simulation_id, node_id),
            conn,
        )

    def neighbors(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        depth: int | None = 1,
        edge_types: Sequence[str] | None = None,
        direction: str = "both",
        *,
        as_of: datetime | str | None = None,
        known_at: datetime | str | None = None,
        include_ended: bool = False,
        limit: int | None = None,
        conn: Connection | None = None,
    ) -> list[Neighbor]:
        """The walk along the facts current at `as_of` (world time, None: now; "infinity":
        the latest state), as the memory held them at `known_at` (record time, None: now);
        `include_ended` follows every fact, a current one winning where several reach a node;
        `limit` keeps the nearest `limit` nodes (None: no bound), a prefix of the unbounded walk."""
        return self._records(
            Neighbor,
            "SELECT * FROM memory.neighbors(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                node_id,
                depth,
                list(edge_types) if edge_types is not None else None,
                direction,
                as_of,
                known_at,
                include_ended,
                limit,
            ),
            conn,
        )

    def search_episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Any,
        top_k: int | None = 10,
        agent_id: int | None = None,
        *,
        round_from: int | None = None,
        round_to: int | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        collapse: bool = False,
        model: str | None = None,
        conn: Connection | None = None,
    ) -> list[EpisodeHit]:
        """Episodes nearest `query` (a 384-dimensional vector: numpy array or floats), within
        rounds round_from..round_to (inclusive) and the time window [since, until) if given;
        with `collapse`, near-identical hits (cosine >= 0.99) as one row each, with the
        number of copies and of agents behind it. `model`, the query vector's model, is
        refused (InvalidInput) when it is not the simulation's."""
        return self._records(
            EpisodeHit,
            "SELECT * FROM memory.search_episodes(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                _vector(query),
                top_k,
                agent_id,
                round_from,
                round_to,
                since,
                until,
                collapse,
                model,
            ),
            conn,
            vectors=True,
        )

    def search_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Any,
        top_k: int | None = 10,
        type: str | None = None,
        by: str = "name",
        *,
        model: str | None = None,
        conn: Connection | None = None,
    ) -> list[NodeHit]:
        """Nodes nearest `query` (a 384-dimensional vector: numpy array or floats), by the
        vector of their name (`by="name"`), of their summary ("summary"), the nearer
        ("both"), or the summary's where there is one and the name's otherwise ("meaning",
        as recall's entities arm). `model`, the query vector's model, is refused (InvalidInput) when it is not
        the simulation's; None checks nothing."""
        return self._records(
            NodeHit,
            "SELECT * FROM memory.search_nodes(%s, %s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, _vector(query), top_k, type, by, model),
            conn,
            vectors=True,
        )

    # -- the words arm (V0017) ----------------------------------------------------------------

    def search_words(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query_text: str,
        top_k: int | None = 10,
        kinds: Sequence[str] | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[WordHit]:
        """Full-text search over episodes, facts and entities (English stemmed, Chinese as
        character bigrams, names by trigrams); the text is words, never query syntax."""
        return self._records(
            WordHit,
            "SELECT * FROM memory.search_words(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, query_text, top_k, None if kinds is None else list(kinds)),
            conn,
        )

    def match_entities(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        text: str,
        limit: int | None = 10,
        *,
        conn: Connection | None = None,
    ) -> list[EntityMatch]:
        """Entities whose names `text` names or nearly names (misspelt, inside a sentence,
        Chinese inside Chinese), best first."""
        return self._records(
            EntityMatch,
            "SELECT * FROM memory.match_entities(%s, %s, %s, %s)",
            (tenant_id, simulation_id, text, limit),
            conn,
        )

    def simulation_stats(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> SimulationStats:
        return self._one(
            SimulationStats,
            "SELECT * FROM memory.simulation_stats(%s, %s)",
            (tenant_id, simulation_id),
            conn,
        )

    # -- staged imports (swarm_memory.importer drives them) ---------------------------------

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
                    counts = cur.execute(
                        "SELECT * FROM memory.stage_rows(%s, %s)", (tenant_id, attempt_id)
                    ).fetchone()
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

    def profiles(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        platform: str | None = None,
        agent_id: int | None = None,
        *,
        conn: Connection | None = None,
    ) -> list[ProfileRow]:
        return self._records(
            ProfileRow,
            "SELECT * FROM memory.profiles(%s, %s, %s, %s)",
            (tenant_id, simulation_id, platform, agent_id),
            conn,
        )

    def episodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        *,
        agent_id: int | None = None,
        platform: str | None = None,
        action_type: str | None = None,
        round_from: int | None = None,
        round_to: int | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 100,
        after: str | None = None,
        conn: Connection | None = None,
    ) -> list[EpisodeRow]:
        """A page of a simulation's episodes in the order they happened; pass the last
        episode_id of a page as `after` for the next."""
        return self._records(
            EpisodeRow,
            "SELECT * FROM memory.episodes(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                tenant_id,
                simulation_id,
                agent_id,
                platform,
                action_type,
                round_from,
                round_to,
                since,
                until,
                limit,
                after,
            ),
            conn,
        )

    def facts(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str | None = None,
        state: str = "current",
        as_of: datetime | str | None = None,
        limit: int | None = 100,
        *,
        conn: Connection | None = None,
    ) -> list[Fact]:
        """Facts of a simulation or a node in a state ('current', 'historical', 'future',
        'all') at a world time (None: now)."""
        return self._records(
            Fact,
            "SELECT * FROM memory.facts(%s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, state, as_of, limit),
            conn,
        )

    def history(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        kind: str,
        row_id: str,
        *,
        conn: Connection | None = None,
    ) -> list[Version]:
        """The versions of a node, edge or episode (kind 'node', 'edge' or 'episode'),
        oldest first, the last the one held now unless it was removed."""
        return self._records(
            Version,
            "SELECT * FROM memory.history(%s, %s, %s, %s)",
            (tenant_id, simulation_id, kind, row_id),
            conn,
        )

    def evidence(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        edge_id: str,
        *,
        conn: Connection | None = None,
    ) -> list[Evidence]:
        """The evidence behind a fact: its source episodes, then the actions naming both ends."""
        return self._records(
            Evidence,
            "SELECT * FROM memory.evidence(%s, %s, %s)",
            (tenant_id, simulation_id, edge_id),
            conn,
        )

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

    def timeline(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        limit: int | None = 100,
        *,
        conn: Connection | None = None,
    ) -> list[TimelineEvent]:
        """What happened to an entity in time order: facts that began or ended, actions naming it."""
        return self._records(
            TimelineEvent,
            "SELECT * FROM memory.timeline(%s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, limit),
            conn,
        )

    def search_facts(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        query: Any,
        top_k: int | None = 10,
        state: str = "current",
        as_of: datetime | str | None = None,
        *,
        model: str | None = None,
        conn: Connection | None = None,
    ) -> list[FactHit]:
        """Facts nearest `query` (a 384-dimensional vector), current ones by default; `model`
        as for search_nodes."""
        return self._records(
            FactHit,
            "SELECT * FROM memory.search_facts(%s, %s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, _vector(query), top_k, state, as_of, model),
            conn,
        )

    def route(self, question: str, *, conn: Connection | None = None) -> Route:
        return self._one(Route, "SELECT * FROM memory.route(%s)", (question,), conn)

    def set_route_rule(
        self, phrase: str, target: str | None, *, conn: Connection | None = None
    ) -> bool:
        """Add or change a routing phrase ('graph' or 'vector'), or remove it (None)."""
        return self._rows("SELECT memory.set_route_rule(%s, %s)", (phrase, target), conn)[0][0]

    def recall(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        question: str | None,
        vector: Any = None,
        top_k: int | None = 10,
        options: dict[str, Any] | None = None,
        *,
        embed: bool = True,
        embedder: Any = None,
        conn: Connection | None = None,
    ) -> list[Recalled]:
        """Hybrid recall: meaning, words and the graph fused by reciprocal rank. The question
        is embedded here (with the simulation's model and its query prefix unless `embedder`
        says otherwise) when no `vector` is given, unless `embed=False` (words and graph
        alone)."""
        options = dict(options or {})
        if vector is None and question and question.strip() and embed:
            from swarm_memory.embed import embedder_for  # the model loads only when embedding

            embedder = embedder or embedder_for(
                self.model_of(tenant_id, simulation_id, conn=conn).model
            )
            vector = embedder.encode_query(question)
            # the database refuses the vector if the simulation's vectors are of another model
            if getattr(embedder, "model_name", None):
                options.setdefault("model", embedder.model_name)
        return self._records(
            Recalled,
            "SELECT * FROM memory.recall(%s, %s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, question, _vector(vector), top_k, _json(options or {})),
            conn,
        )

    def panorama(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        question: str | None,
        vector: Any = None,
        limit: int | None = 30,
        *,
        conn: Connection | None = None,
    ) -> list[PanoramaRow]:
        """Every entity and fact about a question, current and historical (pass the
        question's vector for the arms of meaning)."""
        return self._records(
            PanoramaRow,
            "SELECT * FROM memory.panorama(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, question, _vector(vector), limit),
            conn,
        )

    def entity_summary(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        node_id: str,
        limit: int | None = 10,
        *,
        conn: Connection | None = None,
    ) -> list[SummaryRow]:
        """An entity, its current facts, its neighbours and the episodes that name it."""
        return self._records(
            SummaryRow,
            "SELECT * FROM memory.entity_summary(%s, %s, %s, %s)",
            (tenant_id, simulation_id, node_id, limit),
            conn,
        )

    def paths(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        from_id: str,
        to_id: str,
        max_depth: int | None = 4,
        *,
        conn: Connection | None = None,
    ) -> list[Chain]:
        return self._records(
            Chain,
            "SELECT * FROM memory.paths(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, from_id, to_id, max_depth),
            conn,
        )

    def episode_vector(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        episode_id: str,
        *,
        conn: Connection | None = None,
    ) -> Any:
        """An episode's stored vector (numpy array), or None if it has none."""
        return self._rows(
            "SELECT memory.episode_vector(%s, %s, %s)", (tenant_id, simulation_id, episode_id), conn
        )[0][0]

    def get_edge(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        edge_id: str,
        *,
        conn: Connection | None = None,
    ) -> EdgeDetail:
        return self._one(
            EdgeDetail,
            "SELECT * FROM memory.get_edge(%s, %s, %s)",
            (tenant_id, simulation_id, edge_id),
            conn,
        )

    def graph_nodes(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        *,
        limit: int = 1000,
        after: str | None = None,
        conn: Connection | None = None,
    ) -> list[GraphNode]:
        """A page of a simulation's nodes ordered by id; pass the last node_id of a page as
        `after` for the next."""
        return self._records(
            GraphNode,
            "SELECT * FROM memory.graph_nodes(%s, %s, %s, %s)",
            (tenant_id, simulation_id, limit, after),
            conn,
        )

    def graph_edges(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        *,
        limit: int = 1000,
        after: str | None = None,
        conn: Connection | None = None,
    ) -> list[GraphEdge]:
        """A page of a simulation's edges ordered by id, each with every field get_edge
        gives; pass the last edge_id of a page as `after` for the next."""
        return self._records(
            GraphEdge,
            "SELECT * FROM memory.graph_edges(%s, %s, %s, %s)",
            (tenant_id, simulation_id, limit, after),
            conn,
        )

    def nodes_named(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        name: str,
        *,
        conn: Connection | None = None,
    ) -> list[NodeRef]:
        """The entities with a name, in any case."""
        return self._records(
            NodeRef,
            "SELECT * FROM memory.nodes_named(%s, %s, %s)",
            (tenant_id, simulation_id, name),
            conn,
        )

    def list_tenants(self, *, conn: Connection | None = None) -> list[TenantRow]:
        """The tenants the caller may act for (every tenant for memory_admin)."""
        return self._records(TenantRow, "SELECT * FROM memory.list_tenants()", (), conn)

    def list_simulations(
        self, tenant_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[SimulationRow]:
        """The simulations of a tenant, with their names and MiroFish ids."""
        return self._records(
            SimulationRow, "SELECT * FROM memory.list_simulations(%s)", (tenant_id,), conn
        )

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

    def warm(
        self, tenant_id: UUIDLike, simulation_id: UUIDLike, *, conn: Connection | None = None
    ) -> list[WarmRow]:
        """Load a simulation's rows, word postings and (where pg_prewarm is installed) its
        own indexes into memory, after a restart or a load, so that its first questions do
        not each wait for their pages (memory.warm)."""
        return self._records(
            WarmRow, "SELECT * FROM memory.warm(%s, %s)", (tenant_id, simulation_id), conn
        )

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
            c.execute(
                "SELECT memory.set_retention(%s, %s, %s::real, %s)",
                (tenant_id, keep_days, compact_similarity, compact_drop),
            )

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

    def ann_plan(
        self,
        min_rows: int = 2000,
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[AnnPlanRow]:
        """What building the per-simulation search indexes would do (memory_admin)."""
        return self._records(
            AnnPlanRow,
            "SELECT * FROM memory.ann_plan(%s, %s, %s)",
            (min_rows, m, ef_construction),
            conn,
        )

    def _index_action(
        self,
        fn: str,
        sim_no: int,
        action: str,
        m: int,
        ef_construction: int,
        run: bool,
        conn: Connection | None,
    ) -> list[str]:
        """One action of an index plan by memory.ann_index, ann_index_facts or
        ann_index_entities (fn): the statements, in order."""
        rows = self._rows(
            f"SELECT * FROM memory.{fn}(%s, %s, %s, %s, %s)",
            (sim_no, action, m, ef_construction, run),
            conn,
        )
        return [r[0] for r in rows]

    def ann_index(
        self,
        sim_no: int,
        action: str,
        m: int = 32,
        ef_construction: int = 128,
        run: bool = True,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Carry out one action of ann_plan (memory_admin); returns its statements. With
        run=True they run in the database as memory_owner (a plain CREATE INDEX)."""
        return self._index_action("ann_index", sim_no, action, m, ef_construction, run, conn)

    def ann_plan_facts(
        self,
        min_rows: int = 2000,
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[FactsAnnPlanRow]:
        """What building the per-simulation indexes over facts would do (memory_admin)."""
        return self._records(
            FactsAnnPlanRow,
            "SELECT * FROM memory.ann_plan_facts(%s, %s, %s)",
            (min_rows, m, ef_construction),
            conn,
        )

    def ann_index_facts(
        self,
        sim_no: int,
        action: str,
        m: int = 32,
        ef_construction: int = 128,
        run: bool = True,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Carry out one action of ann_plan_facts (memory_admin); returns its statements."""
        return self._index_action("ann_index_facts", sim_no, action, m, ef_construction, run, conn)

    def ann_plan_entities(
        self,
        min_rows: int = 2000,
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[EntitiesAnnPlanRow]:
        """What building the per-simulation index pairs over entities would do (memory_admin)."""
        return self._records(
            EntitiesAnnPlanRow,
            "SELECT * FROM memory.ann_plan_entities(%s, %s, %s)",
            (min_rows, m, ef_construction),
            conn,
        )

    def ann_index_entities(
        self,
        sim_no: int,
        action: str,
        m: int = 32,
        ef_construction: int = 128,
        run: bool = True,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Carry out one action of ann_plan_entities (memory_admin); returns its statements."""
        return self._index_action(
            "ann_index_entities", sim_no, action, m, ef_construction, run, conn
        )

    def ann_index_tenant(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        action: str = "build",
        m: int = 32,
        ef_construction: int = 128,
        *,
        conn: Connection | None = None,
    ) -> list[str]:
        """Build, rebuild or drop a simulation's index by tenant and id (memory_admin): on a
        Citus cluster on the tenant's shard, on its worker. Returns the statements run."""
        rows = self._rows(
            "SELECT * FROM memory.ann_index_tenant(%s, %s, %s, %s, %s)",
            (tenant_id, simulation_id, action, m, ef_construction),
            conn,
        )
        return [r[0] for r in rows]

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
            row = c.execute(
                "SELECT memory.cache_vectors(%s, %s, %s::bytea[], %s::public.vector[])",
                (tenant_id, embedding_model, list(hashes), [_vector(v) for v in vectors]),
            ).fetchone()
        assert row is not None
        return int(row[0])

    # -- Embedding models and re-embedding (V0022) ---------------------------------------

    def list_models(self, *, conn: Connection | None = None) -> list[EmbeddingModel]:
        """The embedding models the installation knows."""
        return self._records(EmbeddingModel, "SELECT * FROM memory.list_models()", (), conn)

    def model_of(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike | None = None,
        *,
        conn: Connection | None = None,
    ) -> ModelOf:
        """The model of a tenant's new simulations (no simulation) or of a simulation's
        vectors, what names it, and how to embed for it."""
        return self._one(
            ModelOf, "SELECT * FROM memory.model_of(%s, %s)", (tenant_id, simulation_id), conn
        )

    def set_model(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        model: str,
        *,
        conn: Connection | None = None,
    ) -> str:
        """Name a simulation's model (StateError while it holds vectors of another model)."""
        return self._rows(
            "SELECT memory.set_model(%s, %s, %s)", (tenant_id, simulation_id, model), conn
        )[0][0]

    def set_tenant_model(
        self, tenant_id: UUIDLike, model: str | None, *, conn: Connection | None = None
    ) -> str:
        """Name the model of a tenant's new simulations (None: the default)."""
        return self._rows("SELECT memory.set_tenant_model(%s, %s)", (tenant_id, model), conn)[0][0]

    def reembed_texts(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        model: str,
        limit: int | None = 10000,
        *,
        conn: Connection | None = None,
    ) -> list[ReembedText]:
        """The texts of a simulation that still need a vector of `model` (not in the
        tenant's vector cache), at most `limit`: a re-embed's work list."""
        return self._records(
            ReembedText,
            "SELECT * FROM memory.reembed_texts(%s, %s, %s, %s)",
            (tenant_id, simulation_id, model, limit),
            conn,
        )

    def switch_model(
        self,
        tenant_id: UUIDLike,
        simulation_id: UUIDLike,
        model: str,
        *,
        conn: Connection | None = None,
    ) -> list[SwitchedRows]:
        """Switch a simulation's vectors to `model` atomically, from the vector cache; rows
        switched by kind. StateError (55000) while it imports or some text lacks a vector."""
        return self._records(
            SwitchedRows,
            "SELECT * FROM memory.switch_model(%s, %s, %s)",
            (tenant_id, simulation_id, model),
            conn,
        )

    # -- Reports and predictions (V0014) -------------------------------------------------

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
