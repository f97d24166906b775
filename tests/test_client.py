"""The Python driver's contract, against the real database: every SQLSTATE the SQL API raises
leaves a Memory method as its exception class (never as a raw psycopg error), every read
returns its frozen dataclass with every column the SQL function returns, and vectors go as
pgvector's binary type whatever form the caller holds them in.

The SQL behaviour itself (which call raises what, with which message) is pgTAP's; here the
calls only serve to make the server raise each code for real."""

from __future__ import annotations

import dataclasses
import re
import uuid
from pathlib import Path

import numpy as np
import psycopg
import pytest
import swarm_memory.client
from pgvector import Vector
from psycopg import sql
from swarm_memory import (
    AuditRow,
    Chain,
    CommittedHash,
    Conflict,
    CountMismatch,
    DatabaseError,
    DeleteCounts,
    EpisodeHit,
    Fact,
    FactHit,
    ImportAttempt,
    ImportProblem,
    InvalidInput,
    Memory,
    Neighbor,
    NeighborId,
    Node,
    NodeDetail,
    NodeHit,
    NotFound,
    PanoramaRow,
    PromoteCounts,
    Recalled,
    Route,
    SimulationMatch,
    SimulationStats,
    StagedCounts,
    StateError,
    SummaryRow,
    SwarmMemoryError,
    TenantAccessDenied,
    Timeout,
    UnknownReference,
    UpsertCounts,
    Version,
)
from swarm_memory.client import (  # reports and predictions (V0014)
    AnnPlanRow,
    CachedVector,
    EdgeDetail,
    EmbeddingModel,
    EntityMatch,  # the words arm (V0017)
    EpisodeRow,
    Evidence,  # evidence and timeline (V0016)
    EvidenceLinks,
    GraphEdge,
    GraphNode,
    ModelOf,
    NodeRef,
    OutcomeRow,
    PredictionRow,
    ProfileRow,
    ReembedText,
    ReportHit,
    ReportLogLine,
    ReportRow,
    ReportSection,
    SimulationRow,
    SwitchedRows,
    TenantDeleteCounts,
    TenantRow,
    TimelineEvent,
    WordHit,
)
from swarm_memory.errors import (
    ConcurrentImport,
    LimitExceeded,
    NotSupported,
    QuotaExceeded,
    error_class,
)

ROOT = Path(__file__).resolve().parents[1]

# The exception class of every SQLSTATE the API raises or documents.
EXPECTED = {
    "42501": TenantAccessDenied,  # insufficient_privilege
    "P0002": NotFound,  # no_data_found
    "42704": NotFound,  # undefined_object: grant_tenant to a role that does not exist
    "22004": InvalidInput,  # null_value_not_allowed
    "22023": InvalidInput,  # invalid_parameter_value
    "22P02": InvalidInput,  # invalid_text_representation: a malformed uuid
    "22000": InvalidInput,  # data_exception: pgvector refuses NaN
    "23503": UnknownReference,  # foreign_key_violation
    "23505": Conflict,  # unique_violation
    "40001": ConcurrentImport,  # serialization_failure: another import committed meanwhile
    "21000": CountMismatch,  # cardinality_violation: staged counts are not the declared
    "54000": LimitExceeded,  # program_limit_exceeded: over a cap of memory._limit()
    "53400": QuotaExceeded,  # configuration_limit_exceeded: over a tenant's quota (V0038)
    "55000": StateError,  # object_not_in_prerequisite_state
    "55P03": Timeout,  # lock_not_available
    "57014": Timeout,  # query_canceled
    "0A000": NotSupported,  # feature_not_supported: a model of another dimension
    "09000": DatabaseError,  # triggered_action_exception: memory._index_words misplaced (internal)
}


def vec(seed: int, dim: int = 384) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def raised_codes(conn: psycopg.Connection) -> set[str]:
    """Every ERRCODE the API's functions raise, as the SQLSTATE plpgsql gives it (a condition
    name can be ambiguous: null_value_not_allowed is 22004 there, 39004 in psycopg)."""
    names = set()
    for path in (ROOT / "sql" / "functions").rglob("*.sql"):
        names |= set(re.findall(r"ERRCODE\s*=\s*'(\w+)'", path.read_text(encoding="utf-8")))
    codes = set()
    for name in names:
        block = sql.SQL("DO $$BEGIN RAISE EXCEPTION 'x' USING ERRCODE = {}; END$$").format(
            sql.Literal(name)
        )
        with pytest.raises(psycopg.Error) as exc:
            conn.execute(block)
        codes.add(exc.value.sqlstate)
    return codes


def test_every_sqlstate_the_functions_raise_has_its_class(connect):
    codes = raised_codes(connect())
    assert {"42501", "P0002", "22004", "22023", "23503", "21000", "55000"} <= codes
    assert codes <= set(EXPECTED), f"map these in swarm_memory.errors: {codes - set(EXPECTED)}"
    for code, cls in EXPECTED.items():
        assert error_class(code) is cls, code
    # class 22 as a whole is bad input; anything outside the contract is a DatabaseError
    assert error_class("22003") is InvalidInput
    assert error_class("XX000") is DatabaseError and error_class(None) is DatabaseError
    assert issubclass(UnknownReference, InvalidInput) and issubclass(CountMismatch, StateError)
    assert issubclass(LimitExceeded, InvalidInput)


@pytest.fixture
def mem_a(world):
    with Memory(world.dsn("app_a")) as mem:
        yield mem


@pytest.fixture
def graph(world, mem_a):
    mem_a.upsert_nodes(
        world.tenant_a,
        world.sim_a,
        [
            {"id": "alice", "name": "Alice", "type": "Person", "embedding": vec(1)},
            {"id": "bob", "name": "Bob", "type": "Person", "embedding": vec(2).tolist()},
        ],
    )
    mem_a.upsert_edges(
        world.tenant_a,
        world.sim_a,
        [{"id": "e1", "type": "KNOWS", "source_id": "alice", "target_id": "bob", "fact": "f"}],
    )
    mem_a.upsert_episodes(
        world.tenant_a,
        world.sim_a,
        [
            {
                "id": "ep1",
                "agent_id": 1,
                "agent_name": "Alice",
                "platform": "twitter",
                "round": 0,
                "action_type": "CREATE_POST",
                "content": "hello",
                "embedding": vec(3),
            }
        ],
    )
    return world


def raises(cls: type[SwarmMemoryError], state: str | None, call) -> SwarmMemoryError:
    with pytest.raises(SwarmMemoryError) as exc:
        call()
    err = exc.value
    assert type(err) is cls, (type(err), err)
    assert err.sqlstate == state, (err.sqlstate, err)
    assert isinstance(err.__cause__, psycopg.Error)  # raised from the database error
    assert not isinstance(err, psycopg.Error)
    return err


def test_each_sqlstate_leaves_the_driver_as_its_class(graph, connect):
    w = graph
    with (
        Memory(w.dsn("app_a")) as a,
        Memory(w.dsn("app_b")) as b,
        Memory(w.dsn("admin")) as admin,
    ):
        raises(TenantAccessDenied, "42501", lambda: b.nodes_by_type(w.tenant_a, w.sim_a, None))
        raises(NotFound, "P0002", lambda: a.get_node(w.tenant_a, w.sim_a, "carol"))
        raises(NotFound, "42704", lambda: admin.grant_tenant("no_such_role", w.tenant_a))
        raises(InvalidInput, "22004", lambda: a.get_node(w.tenant_a, None, "alice"))  # type: ignore[arg-type]
        raises(
            InvalidInput,
            "22023",
            lambda: a.neighbors(w.tenant_a, w.sim_a, "alice", 1, None, "upward"),
        )
        raises(InvalidInput, "22P02", lambda: a.validate_import(w.tenant_a, "not-a-uuid"))
        err = raises(
            LimitExceeded,
            "54000",
            lambda: a.neighbors(w.tenant_a, w.sim_a, "alice", 1, ["T"] * 1001, "both"),
        )
        assert "list_elements" in str(err) and err.hint
        nan = vec(1)
        nan[0] = np.nan
        err = raises(InvalidInput, "22000", lambda: a.search_nodes(w.tenant_a, w.sim_a, nan))
        assert "NaN" in str(err)
        err = raises(
            UnknownReference,
            "23503",
            lambda: a.upsert_edges(
                w.tenant_a,
                w.sim_a,
                [{"id": "e9", "type": "T", "source_id": "alice", "target_id": "zed"}],
            ),
        )
        assert "zed" in str(err) and err.hint
        admin.create_tenant("taken-name")
        raises(Conflict, "23505", lambda: admin.create_tenant("taken-name", uuid.uuid4()))

        conn = connect("app_a")
        attempt = a.begin_import(w.tenant_a, uuid.uuid4(), {"nodes": 2}, conn=conn)
        err = raises(
            CountMismatch, "21000", lambda: a.commit_import(w.tenant_a, attempt, conn=conn)
        )
        assert str(attempt) in str(err) and err.hint
        a.abort_import(w.tenant_a, attempt, "test", conn=conn)
        err = raises(StateError, "55000", lambda: a.stage_rows(w.tenant_a, attempt, {}, conn=conn))
        assert str(attempt) in str(err)
        fresh = connect("app_a")  # a session that never opened its staging tables
        other = a.begin_import(w.tenant_a, uuid.uuid4(), conn=fresh)
        err = raises(StateError, "55000", lambda: a.stage_rows(w.tenant_a, other, {}, conn=fresh))
        assert "open_staging" in (err.hint or "")


def test_waits_that_run_out_are_timeouts(world, connect, mem_a):
    holder = connect(autocommit=False)
    holder.execute("LOCK TABLE memory.simulations IN ACCESS EXCLUSIVE MODE")
    try:
        conn = connect("app_a")
        conn.execute("SET lock_timeout = '200ms'")
        raises(
            Timeout, "55P03", lambda: mem_a.simulation_stats(world.tenant_a, world.sim_a, conn=conn)
        )
        conn.execute("SET lock_timeout = 0")
        conn.execute("SET statement_timeout = '200ms'")
        raises(
            Timeout, "57014", lambda: mem_a.simulation_stats(world.tenant_a, world.sim_a, conn=conn)
        )
    finally:
        holder.rollback()
    assert mem_a.simulation_stats(world.tenant_a, world.sim_a).simulation_id == world.sim_a


def test_a_connection_that_fails_is_a_database_error(world):
    dsn = psycopg.conninfo.make_conninfo(world.dsn("app_a"), user="no_such_login_role")
    with pytest.raises(DatabaseError) as exc:
        Memory(dsn).connect()
    assert isinstance(exc.value.__cause__, psycopg.OperationalError)
    assert "no_such_login_role" in str(exc.value)


def test_a_malformed_query_vector_is_invalid_input_before_any_call(world, mem_a):
    for bad in (["a", "b"], [[0.1, 0.2], [0.3, 0.4]]):
        with pytest.raises(InvalidInput) as exc:
            mem_a.search_nodes(world.tenant_a, world.sim_a, bad)
        assert exc.value.sqlstate is None and "query vector" in str(exc.value)
    # NULL where the vector is required is the server's 22004, like any other NULL
    raises(InvalidInput, "22004", lambda: mem_a.search_nodes(world.tenant_a, world.sim_a, None))


# -- every read returns its dataclass with every column ------------------------------------

READS = {
    "nodes_by_type": Node,
    "get_node": NodeDetail,
    "neighbors": Neighbor,
    "neighbor_ids": NeighborId,
    "facts": Fact,
    "search_facts": FactHit,
    "route": Route,
    "recall": Recalled,
    "paths": Chain,
    "panorama": PanoramaRow,
    "entity_summary": SummaryRow,
    "history": Version,
    "search_episodes": EpisodeHit,
    "search_nodes": NodeHit,
    "simulation_stats": SimulationStats,
    "fork_simulation": swarm_memory.client.ForkCounts,
    "create_snapshot": swarm_memory.client.SnapshotMade,
    "snapshots": swarm_memory.client.Snapshot,
    "import_attempts": ImportAttempt,
    "validate_import": ImportProblem,
    "commit_import": PromoteCounts,
    "committed_hashes": CommittedHash,
    "cached_vectors": CachedVector,
    "stage_rows": StagedCounts,
    "delete_simulation": DeleteCounts,
    "delete_tenant": TenantDeleteCounts,
    "rls_audit": AuditRow,
    "upsert_edges": UpsertCounts,
    "ann_plan": AnnPlanRow,
    "ann_plan_facts": swarm_memory.client.FactsAnnPlanRow,
    "ann_plan_entities": swarm_memory.client.EntitiesAnnPlanRow,
    "list_tenants": TenantRow,
    "nodes_named": NodeRef,
    "profiles": ProfileRow,
    "episodes": EpisodeRow,
    "get_edge": EdgeDetail,
    "graph_nodes": GraphNode,
    "graph_edges": GraphEdge,
    "list_simulations": SimulationRow,
    "resolve_simulation": SimulationMatch,
    # Reports and predictions (V0014)
    "reports": ReportRow,
    "report_sections": ReportSection,
    "report_log": ReportLogLine,
    "search_reports": ReportHit,
    "predictions": PredictionRow,
    "record_outcome": OutcomeRow,
    # Evidence and timeline (V0016)
    "evidence": Evidence,
    "timeline": TimelineEvent,
    "link_evidence": EvidenceLinks,
    # The words arm (V0017)
    "search_words": WordHit,
    # V0021: the change feed, retention, compaction and health
    "changes_since": swarm_memory.client.Change,
    "health": swarm_memory.client.HealthRow,
    "sweep": swarm_memory.client.SweepRow,
    "sweep_tenant": swarm_memory.client.SweepRow,
    "health_tenant": swarm_memory.client.HealthRow,
    "warm": swarm_memory.client.WarmRow,
    "compact_episodes": swarm_memory.client.CompactCounts,
    "forget_episodes": swarm_memory.client.ForgetCounts,
    "forget_agent": swarm_memory.client.ForgetCounts,
    "match_entities": EntityMatch,
    # Embedding models and re-embedding (V0022)
    "list_models": EmbeddingModel,
    "model_of": ModelOf,
    "reembed_texts": ReembedText,
    "switch_model": SwitchedRows,
    # Per-tenant quotas (V0038)
    "quotas": swarm_memory.client.QuotaRow,
    # The zep wing: the keys of swarm-memory serve and its graphs (V0043)
    "api_keys": swarm_memory.client.zep.ApiKeyRow,
    "revoke_api_key": swarm_memory.client.zep.RevokedKey,
    "api_key_role": swarm_memory.client.zep.KeyRole,
    "zep_graphs": swarm_memory.client.zep.ZepGraphRow,
    "zep_graph": swarm_memory.client.zep.ZepGraph,
    # its writes and the extraction queue (V0044)
    "zep_create_graph": swarm_memory.client.zep.ZepCreatedGraph,
    "zep_delete_graph": swarm_memory.client.zep.ZepDeletedGraph,
    "zep_claim_episodes": swarm_memory.client.zep.ClaimedEpisode,
    # The identity wing: one identity across runs, the diff of two runs (V0046)
    "link_runs": swarm_memory.client.identity.LinkCounts,
    "identity_links": swarm_memory.client.identity.IdentityLink,
    "decide_link": swarm_memory.client.identity.LinkDecision,
    "identity": swarm_memory.client.identity.IdentityMember,
    "identity_facts": swarm_memory.client.identity.IdentityFact,
    "diff": swarm_memory.client.identity.DiffRow,
}


def out_columns(conn: psycopg.Connection) -> dict[str, list[str]]:
    """The result columns of every public function of schema memory that returns a table."""
    rows = conn.execute(
        "SELECT p.proname, array_agg(u.name ORDER BY u.ord)"
        "  FROM pg_proc AS p, unnest(p.proargnames, p.proargmodes::text[])"
        "       WITH ORDINALITY AS u(name, mode, ord)"
        " WHERE p.pronamespace = 'memory'::regnamespace AND p.proname !~ '^_'"
        "   AND u.mode = 't' GROUP BY p.proname"
        " UNION ALL"  # SETOF a composite type (memory.edge_detail): the type's attributes
        " SELECT p.proname, array_agg(a.attname::text ORDER BY a.attnum)"
        "  FROM pg_proc AS p JOIN pg_type AS t ON t.oid = p.prorettype"
        "  JOIN pg_attribute AS a ON a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped"
        " WHERE p.pronamespace = 'memory'::regnamespace AND p.proname !~ '^_'"
        "   AND p.proretset AND p.proargmodes IS NULL GROUP BY p.proname"
    ).fetchall()
    return dict(rows)


def test_every_api_function_has_a_method_and_every_row_its_dataclass(world, connect):
    su = connect()
    functions = {
        name
        for (name,) in su.execute(
            "SELECT proname FROM pg_proc"
            " WHERE pronamespace = 'memory'::regnamespace AND proname !~ '^_'"
        ).fetchall()
    }
    assert functions - set(dir(Memory)) == set(), "SQL functions without a Memory method"
    columns = out_columns(su)
    tables = {name for name in columns if not name.startswith("upsert_")}
    assert tables <= set(READS), f"row shapes without a dataclass: {tables - set(READS)}"
    for name, cls in READS.items():
        fields = [f.name for f in dataclasses.fields(cls)]
        assert fields == columns[name], name
    for name in ("upsert_nodes", "upsert_episodes", "upsert_profiles", "upsert_predictions"):
        fields = [f.name for f in dataclasses.fields(UpsertCounts)]
        assert fields[: len(columns[name])] == columns[name], name


def assert_filled(obj: object, cls: type, *nullable: str) -> None:
    assert type(obj) is cls
    assert dataclasses.is_dataclass(obj) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    for f in dataclasses.fields(cls):
        if f.name not in nullable:
            assert getattr(obj, f.name) is not None, (cls.__name__, f.name)


def test_reads_return_their_dataclasses_filled(graph, mem_a, connect):
    w = graph
    node = mem_a.get_node(w.tenant_a, w.sim_a, "alice")
    assert_filled(node, NodeDetail, "summary")
    assert node.embedding_model and node.updated_at >= node.created_at
    assert isinstance(node, Node)
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.name = "x"  # type: ignore[misc]
    [listed] = [n for n in mem_a.nodes_by_type(w.tenant_a, w.sim_a, "Person") if n.node_id == "bob"]
    assert_filled(listed, Node, "summary")
    [hop] = mem_a.neighbors(w.tenant_a, w.sim_a, "alice")
    assert_filled(hop, Neighbor, "valid_at", "invalid_at")  # the fixture's facts carry no time
    assert hop.node_id == "bob" and hop.path[-1] == "bob" and hop.edge_id == "e1"
    [hit] = mem_a.search_episodes(w.tenant_a, w.sim_a, vec(3), 1)
    assert_filled(hit, EpisodeHit, "occurred_at")
    assert hit.similarity == pytest.approx(1.0, abs=1e-5)
    best = mem_a.search_nodes(w.tenant_a, w.sim_a, vec(2), 1)[0]
    assert_filled(best, NodeHit, "summary")
    assert best.node_id == "bob"
    stats = mem_a.simulation_stats(w.tenant_a, w.sim_a)
    assert_filled(stats, SimulationStats, "first_at", "last_at")
    with Memory(w.dsn("admin")) as admin:
        audit = admin.rls_audit()
    assert all(type(r) is AuditRow for r in audit) and all(r.ok for r in audit)

    # the staged-import family, on one session
    conn = connect("app_a")
    sim = uuid.uuid4()
    attempt = mem_a.begin_import(w.tenant_a, sim, {"nodes": 2, "edges": 1}, True, conn=conn)
    tables = mem_a.open_staging(conn=conn)
    assert {"nodes", "edges", "episodes", "profiles"} <= set(tables)
    nodes, edges = tables["nodes"], tables["edges"]

    def row(table, **values):
        return tuple(values.get(c.name) for c in table.columns)

    staged = mem_a.stage_rows(
        w.tenant_a,
        attempt,
        {
            nodes: [
                row(
                    nodes,
                    node_id="a",
                    position=0,
                    name="A",
                    type="T",
                    labels=[],
                    attributes={},
                    embedding=vec(5),
                    content_hash=b"hash-a",
                ),
                row(
                    nodes,
                    node_id="b",
                    position=1,
                    name="B",
                    type="T",
                    labels=[],
                    attributes={},
                    embedding=vec(6),
                    content_hash=b"hash-b",
                ),
            ],
            edges: [
                row(
                    edges,
                    edge_id="x",
                    position=0,
                    type="R",
                    source_id="a",
                    target_id="zed",
                    attributes={},
                )
            ],
        },
        conn=conn,
    )
    assert staged == StagedCounts(2, 1, 0, 0)
    [problem] = mem_a.validate_import(w.tenant_a, attempt, conn=conn)
    assert problem == ImportProblem("skipped_edge", "edges", "x", problem.detail)
    assert "zed" in problem.detail
    result = mem_a.commit_import(w.tenant_a, attempt, conn=conn)
    assert result["nodes"] == PromoteCounts("nodes", 2, 0, 0, 0, 0)
    assert result["edges"] == PromoteCounts("edges", 0, 0, 0, 0, 1)
    [latest] = mem_a.import_attempts(w.tenant_a, sim)[:1]
    assert_filled(latest, ImportAttempt, "staged", "error")
    assert latest.state == "committed"
    hashes = mem_a.committed_hashes(w.tenant_a, sim)
    assert sorted(hashes, key=lambda h: h.item_id) == [
        CommittedHash("nodes", "a", b"hash-a"),
        CommittedHash("nodes", "b", b"hash-b"),
    ]
    deleted = mem_a.delete_simulation(w.tenant_a, sim)
    assert deleted == DeleteCounts(2, 0, 0, 0, 0, 0)


# -- vectors: one way, binary -------------------------------------------------------------


def test_query_vectors_in_any_form_give_the_same_hits(graph, mem_a, connect):
    w = graph
    q = vec(1)
    want = mem_a.search_nodes(w.tenant_a, w.sim_a, q, 2)
    assert want[0].node_id == "alice"
    for form in (q.tolist(), tuple(q.tolist()), Vector(q.tolist()), q.astype(np.float64)):
        assert mem_a.search_nodes(w.tenant_a, w.sim_a, form, 2) == want
    # a caller's own connection gets the adapter on first use, and keeps its transaction
    raw = connect("app_a", autocommit=False)
    assert raw.adapters.types.get("vector") is None
    assert mem_a.search_nodes(w.tenant_a, w.sim_a, q, 2, conn=raw) == want
    assert raw.adapters.types.get("vector") is not None
    assert raw.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
    raw.rollback()


def test_pool_connections_carry_the_vector_adapter(world, mem_a):
    with mem_a.pool.connection() as conn:
        assert conn.adapters.types.get("vector") is not None
        sent = conn.execute("SELECT %s::text", (vec(1),)).fetchone()[0]
        assert sent.startswith("[") and len(sent.split(",")) == 384
    with mem_a.connect() as own:
        assert own.adapters.types.get("vector") is not None


def test_retention_and_compaction_take_a_similarity_as_a_python_float(world, mem_a):
    """The similarity is a real in SQL: a float (float8) parameter must still find the
    function (it did not before: `memory.compact_episodes(uuid, uuid, double precision,
    boolean) does not exist`)."""
    near = vec(1).copy()
    near[1] += 0.001
    mem_a.upsert_episodes(
        world.tenant_a,
        world.sim_a,
        [
            {
                "id": f"c{i}",
                "agent_id": 1,
                "platform": "twitter",
                "round": i,
                "action_type": "CREATE_POST",
                "content": f"same post {i}",
                "embedding": v,
            }
            for i, v in enumerate([vec(1), near])
        ],
    )
    counts = mem_a.compact_episodes(world.tenant_a, world.sim_a, 0.995)
    assert (counts.clumps, counts.episodes, counts.dropped) == (1, 1, 0)
    with Memory(world.dsn("admin")) as admin:
        admin.set_retention(world.tenant_a, 30, 0.995, False)
        assert admin.sweep(world.tenant_a) == []  # the same clump, compacted already
        admin.set_retention(world.tenant_a, 30, 0.995, True)
        swept = admin.sweep(world.tenant_a)
        assert [(r.tenant_id, r.action, r.detail["dropped"]) for r in swept] == [
            (world.tenant_a, "compacted", 1)
        ]
        # every tenant, one sweep_tenant call each: nothing left to do
        assert admin.sweep() == []


def test_a_null_tenant_is_refused_before_it_is_sent(world, mem_a, connect):
    """22004 from the client itself (its message names the function; the server's would
    not): on a Citus cluster a NULL tenant crashes the coordinator. The functions exempt
    are exactly those whose first argument is not the tenant, and health."""
    for call in (
        lambda: mem_a.nodes_by_type(None, world.sim_a, None),
        lambda: mem_a.search_episodes(None, world.sim_a, vec(1)),
        lambda: mem_a.upsert_nodes(None, world.sim_a, [{"id": "n", "name": "n"}]),
    ):
        with pytest.raises(InvalidInput) as refused:
            call()
        assert refused.value.sqlstate == "22004"
        assert str(refused.value).startswith("p_tenant_id must not be NULL (memory.")
    not_tenant_first = {
        name
        for (name,) in connect()
        .execute(
            "SELECT DISTINCT proname FROM pg_proc WHERE pronamespace = 'memory'::regnamespace"
            " AND proname !~ '^_' AND proargnames[1] IS DISTINCT FROM 'p_tenant_id'"
        )
        .fetchall()
    }
    assert not_tenant_first | {"health"} == swarm_memory.client._NOT_TENANT_FIRST
