"""The API's writes on a Citus cluster (issue 15): every upsert and the staged import, by a
granted writer, against the same calls on one node (the coordinator's database without the
extension). Runs after test_cluster.py and test_grow.py (files in name order): the rows it
writes go to simulations of its own, and tenant A's shard group is by then isolated on a
shard of its own and its shards rebalanced over three workers, so the writes are made where
a grown cluster put them.

What holds as on one node: each call is atomic and its replay changes nothing; readers see
the last committed state until a promote commits; an importer killed mid-load and run again
gives the rows of one clean import; the tenant's policies hold on the worker (another
tenant's writer is refused, 42501)."""

from __future__ import annotations

import json
import uuid

import psycopg
import pytest
import world
from swarm_memory.client import Memory
from swarm_memory.importer import begin, import_run, parse, stage
from swarm_memory.progress import Progress
from world import TENANT_A, Cluster

pytestmark = pytest.mark.usefixtures("citus")

RUN = world.ROOT / "examples" / "mirofish_run"
VECTOR = [round(((i * 37) % 101) / 101 - 0.5, 4) for i in range(384)]

# A first batch, then a batch that changes one item: (function, argument name, batches).
UPSERTS = {
    "nodes": [
        [
            {"id": "w-n1", "name": "Ana Ruiz", "type": "Person", "summary": "runs the bakery"},
            {"id": "w-n2", "name": "Riverside Road", "type": "Location"},
        ],
        [{"id": "w-n1", "name": "Ana Ruiz", "type": "Person", "summary": "runs the corner bakery"}],
    ],
    "edges": [
        [
            {
                "id": "w-e1",
                "type": "LOCATED_ON",
                "source_id": "w-n1",
                "target_id": "w-n2",
                "fact": "Ana's bakery is on Riverside Road",
                "valid_at": "2025-05-01T00:00:00Z",
            }
        ],
        [
            {
                "id": "w-e1",
                "type": "LOCATED_ON",
                "source_id": "w-n1",
                "target_id": "w-n2",
                "fact": "Ana's bakery stands on Riverside Road",
                "valid_at": "2025-05-01T00:00:00Z",
            }
        ],
    ],
    "episodes": [
        [
            {
                "id": "w-ep1",
                "agent_id": 7,
                "agent_name": "ana",
                "platform": "twitter",
                "round": 1,
                "action_type": "CREATE_POST",
                "content": "Closing Riverside Road will hurt the bakery",
                "embedding": VECTOR,
            },
            {
                "id": "w-ep2",
                "agent_id": 8,
                "agent_name": "li",
                "platform": "reddit",
                "round": 1,
                "action_type": "CREATE_POST",
                "content": "关闭河滨路对小商店不利",
            },
        ],
        [
            {
                "id": "w-ep2",
                "agent_id": 8,
                "agent_name": "li",
                "platform": "reddit",
                "round": 2,
                "action_type": "CREATE_POST",
                "content": "关闭河滨路对小商店不利",
            }
        ],
    ],
    "profiles": [
        [{"agent_id": 7, "platform": "twitter", "name": "Ana", "bio": "baker"}],
        [{"agent_id": 7, "platform": "twitter", "name": "Ana", "bio": "baker, 20 years"}],
    ],
    "predictions": [
        [{"id": "w-p1", "claim": "Footfall on Riverside Road falls", "confidence": 0.6}],
        [{"id": "w-p1", "claim": "Footfall on Riverside Road falls", "confidence": 0.7}],
    ],
}
# What each kind's committed rows are compared by (no times, no surrogate numbers).
STORED = {
    "nodes": "node_id, name, type, labels, summary, attributes, embedding::text, source",
    "edges": "edge_id, type, source_id, target_id, fact, valid_at, invalid_at, source",
    "episodes": "episode_id, agent_id, platform, round, content, embedding::text,"
    " embedding_model, content_hash, source",
    "profiles": "platform, agent_id, name, bio, persona, source",
    "predictions": "prediction_id, claim, confidence, source",
    "reports": "report_id, source",
    "report_sections": "report_id, section_index, source",
}


def _both(citus: Cluster) -> list[tuple[str, str]]:
    """The cluster and the one node: the writer's DSN and the superuser's (who reads back)."""
    return [
        (citus.dsn("citus_app_a"), citus.dsn()),
        (citus.single_dsn("citus_app_a"), citus.single_dsn()),
    ]


def _stored(dsn: str, tenant: uuid.UUID, sim: uuid.UUID) -> dict[str, list[tuple]]:
    """A simulation's committed rows by kind, its word postings and its history, as the
    superuser reads them (no time, no attempt, no surrogate number)."""
    out: dict[str, list[tuple]] = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        for kind, cols in STORED.items():
            out[kind] = conn.execute(
                f"SELECT {cols} FROM memory.{kind} WHERE tenant_id = %s AND simulation_id = %s"
                " ORDER BY 1, 2",
                (tenant, sim),
            ).fetchall()
        out["word_postings"] = conn.execute(
            "SELECT word, kind, row_key, tf, weight FROM memory.word_postings"
            " WHERE tenant_id = %s AND simulation_id = %s ORDER BY 1, 2, 3",
            (tenant, sim),
        ).fetchall()
        out["row_history"] = conn.execute(
            "SELECT kind, row_id, change, data - 'updated_at' - 'created_at' - 'sim_no'"
            " FROM memory.row_history"
            " WHERE tenant_id = %s AND simulation_id = %s ORDER BY 1, 2, 3, 4::text",
            (tenant, sim),
        ).fetchall()
    return out


def _rows(dsn: str, sql: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def _named(cur: psycopg.Cursor) -> list:
    """A cursor's rows as objects with its column names."""
    from types import SimpleNamespace

    names = [d.name for d in cur.description]
    return [SimpleNamespace(**dict(zip(names, row, strict=True))) for row in cur.fetchall()]


def _upsert(dsn: str, kind: str, sim: uuid.UUID, items: list[dict]) -> tuple:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(
            f"SELECT * FROM memory.upsert_{kind}(%s, %s, %s)", (TENANT_A, sim, json.dumps(items))
        ).fetchone()


def test_a_granted_writer_upserts_a_simulation_on_the_cluster(citus: Cluster) -> None:
    """upsert_simulation records its change (the feed's head, whose time comes from the
    proposed row: Citus refuses now() in ON CONFLICT DO UPDATE SET)."""
    sim = uuid.uuid4()
    heads = []
    for dsn in (citus.dsn("citus_app_a"), citus.single_dsn("citus_app_a")):
        with psycopg.connect(dsn, autocommit=True) as conn:
            for name in ("writes", "writes", "renamed"):
                conn.execute("SELECT memory.upsert_simulation(%s, %s, %s)", (TENANT_A, sim, name))
            # a call is delegated to the tenant's worker when it is the whole statement
            changes = conn.execute("SELECT * FROM memory.changes_since(%s)", (TENANT_A,))
            heads.append([(c.kind, c.op) for c in _named(changes) if c.simulation_id == sim])
            sims = _named(conn.execute("SELECT * FROM memory.list_simulations(%s)", (TENANT_A,)))
            assert [s.name for s in sims if s.simulation_id == sim] == ["renamed"]
    assert heads[0] == heads[1] == [("simulation", "upsert")] * 2  # the replay recorded nothing


@pytest.mark.parametrize("kind", list(UPSERTS))
def test_a_granted_writer_upserts_on_the_cluster_as_on_one_node(citus: Cluster, kind: str) -> None:
    """Each upsert on the tenant's worker: the counts of a first batch, its replay (nothing
    changes) and a changed item, and the stored rows, word postings and history, are those
    of one node."""
    sim = uuid.uuid4()
    results, stored = [], []
    for dsn, su in _both(citus):
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("SELECT memory.upsert_simulation(%s, %s, 'writes')", (TENANT_A, sim))
        if kind == "edges":
            _upsert(dsn, "nodes", sim, UPSERTS["nodes"][0])
        first, change = UPSERTS[kind]
        results.append([_upsert(dsn, kind, sim, b) for b in (first, first, change, change)])
        stored.append(_stored(su, TENANT_A, sim))
    on_cluster, on_one_node = results
    assert on_cluster == on_one_node
    inserted = len(first)
    assert on_cluster[0][:3] == (inserted, 0, 0)
    assert on_cluster[1][:3] == (0, 0, inserted)
    assert on_cluster[2][:3] == (0, 1, 0) and on_cluster[3][:3] == (0, 0, 1)
    assert stored[0] == stored[1]
    assert stored[0][kind]
    if kind in ("nodes", "edges", "episodes"):
        assert stored[0]["word_postings"] and stored[0]["row_history"]


def test_another_tenants_writer_is_refused_on_the_cluster(citus: Cluster) -> None:
    with (
        psycopg.connect(citus.dsn("citus_app_b"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute(
            "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
            (TENANT_A, world.SIM_A, json.dumps(UPSERTS["nodes"][0])),
        ).fetchall()


def _results(report) -> dict[str, tuple]:  # noqa: ANN001 - an ImportReport
    return {
        k: (v.inserted, v.updated, v.unchanged, v.deleted, v.skipped)
        for k, v in report.results.items()
    }


def test_a_granted_writer_imports_a_run_on_the_cluster_as_on_one_node(citus: Cluster) -> None:
    """The staged import of the example run: the promote's counts and the stored rows (with
    their word postings) are those of one node, and a second import of the same run changes
    nothing."""
    sim = uuid.uuid4()
    reports, stored = [], []
    for dsn, su in _both(citus):
        first = import_run(dsn, TENANT_A, sim, RUN)
        again = import_run(dsn, TENANT_A, sim, RUN)
        reports.append((_results(first), _results(again)))
        stored.append(_stored(su, TENANT_A, sim))
    assert reports[0] == reports[1]
    first, again = reports[0]
    assert first["episodes"][0] > 300 and first["nodes"][0] == 33
    assert all(v[0] == v[1] == v[3] == 0 for v in again.values()), again
    assert stored[0] == stored[1]


# The report agent's reads over an imported run, each as a reader of the tenant: (SQL, what
# it is given beyond tenant and simulation: "node" and "other" are entity ids, "edge" a fact's).
READS = {
    "get_edge": ("SELECT * FROM memory.get_edge(%s, %s, %s)", ("edge",)),
    "graph_edges": ("SELECT * FROM memory.graph_edges(%s, %s)", ()),
    "facts of a node": ("SELECT * FROM memory.facts(%s, %s, %s, 'all')", ("node",)),
    "facts": ("SELECT * FROM memory.facts(%s, %s)", ()),
    "entity_summary": ("SELECT * FROM memory.entity_summary(%s, %s, %s)", ("node",)),
    "panorama": (
        "SELECT kind, id, text, state, round(score::numeric, 6)"
        " FROM memory.panorama(%s, %s, 'Daniel Reyes and River Road', NULL)",
        (),
    ),
    "paths": ("SELECT * FROM memory.paths(%s, %s, %s, %s)", ("node", "other")),
    "timeline": ("SELECT * FROM memory.timeline(%s, %s, %s)", ("node",)),
    "search_words": (
        "SELECT kind, id, round(score::numeric, 5)"
        " FROM memory.search_words(%s, %s, 'River Road closure traffic', 10)",
        (),
    ),
    "recall by text": (
        "SELECT kind, id, round(score::numeric, 6), why"
        " FROM memory.recall(%s, %s, 'Daniel Reyes and River Road', NULL, 10)",
        (),
    ),
}


def test_the_report_agents_reads_answer_on_the_cluster_as_on_one_node(citus: Cluster) -> None:
    """Every read the report agent makes (facts, an entity's summary, panorama, paths, the
    words arm, recall by text; an edge with its detail), over the example run imported into a
    simulation of its own: the same rows on the cluster (which plans each call:
    memory._use_custom_plans) as on one node (which runs the generic plans of facts and of the
    words' and graph's arms), and the same again when asked a second time in a session. An
    edge's detail is built from the row of memory.edges, which on a worker is a shard's."""
    sim = uuid.uuid4()
    answers = []
    for dsn, su in _both(citus):
        import_run(dsn, TENANT_A, sim, RUN)
        ids = {
            "node": "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND simulation_id = %s"
            " AND name = 'Daniel Reyes'",
            "other": "SELECT node_id FROM memory.nodes WHERE tenant_id = %s AND simulation_id = %s"
            " AND name = 'Millbrook Bridge'",
            "edge": "SELECT min(edge_id) FROM memory.edges WHERE tenant_id = %s AND simulation_id = %s",
        }
        ids = {k: _rows(su, q, (TENANT_A, sim))[0][0] for k, q in ids.items()}
        reader = dsn.replace("citus_app_a", "citus_reader_a")
        mine = {}
        with psycopg.connect(reader, autocommit=True) as conn:
            for name, (sql, given) in READS.items():
                params = (TENANT_A, sim, *(ids[g] for g in given))
                first = conn.execute(sql, params).fetchall()
                assert conn.execute(sql, params).fetchall() == first, name
                mine[name] = first
        answers.append(mine)
    on_cluster, on_one_node = answers
    assert all(on_cluster[name] for name in READS), [n for n in READS if not on_cluster[n]]
    assert len(on_cluster["search_words"]) == len(on_cluster["recall by text"]) == 10
    assert {r[0] for r in on_cluster["recall by text"]} >= {"entity", "episode"}
    for name in READS:
        assert on_cluster[name] == on_one_node[name], name


def test_readers_see_the_last_committed_state_until_the_promote_commits(citus: Cluster) -> None:
    """An import staged and validated, its promote made inside a transaction left open:
    a reader (another role, another session) reads the old rows until it commits."""
    sim = uuid.uuid4()
    dsn = citus.dsn("citus_app_a")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT memory.upsert_simulation(%s, %s, 'before')", (TENANT_A, sim))
    _upsert(dsn, "nodes", sim, UPSERTS["nodes"][0])
    parsed = parse(RUN, None, False, Progress(quiet=True))
    parsed.episodes = []  # the graph alone: no model needed
    parsed.profiles = []
    parsed.reports = None

    def read() -> list[str]:
        with psycopg.connect(citus.dsn("citus_reader_a"), autocommit=True) as reader:
            cur = reader.execute(
                "SELECT * FROM memory.nodes_by_type(%s, %s, NULL, 1000)", (TENANT_A, sim)
            )
            return sorted(r.node_id for r in _named(cur))

    before = read()
    assert before == ["w-n1", "w-n2"]
    with Memory(dsn) as mem, mem.connect() as conn:
        attempt = begin(mem, conn, TENANT_A, sim, parsed, name="r", skip_dangling=True)
        stage(mem, conn, TENANT_A, attempt, parsed.rows, 5000)
        assert read() == before
        assert [p.problem for p in mem.validate_import(TENANT_A, attempt, conn=conn)] == []
        with conn.transaction():
            counts = mem.commit_import(TENANT_A, attempt, conn=conn)
            assert counts["nodes"].inserted == 33
            assert read() == before  # the promote has not committed
        after = read()
    assert len(after) == 35 and set(before) <= set(after)  # upserted rows stay (source api)


def _staged(dsn: str, attempt: uuid.UUID) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return sum(
            conn.execute(
                f"SELECT count(*) FROM memory.staged_{kind} WHERE tenant_id = %s AND attempt_id = %s",
                (TENANT_A, attempt),
            ).fetchone()[0]
            for kind in ("nodes", "edges", "episodes", "profiles")
        )


def test_an_importer_killed_mid_load_and_run_again_equals_a_clean_import(citus: Cluster) -> None:
    """The importer's session ends with half the rows staged (its backend on the coordinator
    terminated, as a killed importer's would end): the attempt is not promoted, the next
    import fails it and drops its staged rows on the worker, and the result equals a clean
    import's (the same run into a fresh simulation)."""
    killed_sim, clean_sim = uuid.uuid4(), uuid.uuid4()
    dsn = citus.dsn("citus_app_a")
    parsed = parse(RUN, None, False, Progress(quiet=True))
    parsed.episodes = []
    parsed.profiles = []
    parsed.reports = None
    mem = Memory(dsn)
    conn = mem.connect()
    attempt = begin(mem, conn, TENANT_A, killed_sim, parsed, name="killed", skip_dangling=True)
    stage(mem, conn, TENANT_A, attempt, {"nodes": parsed.rows["nodes"][:20]}, 5000)
    assert _staged(citus.dsn(), attempt) == 20
    with psycopg.connect(citus.dsn(), autocommit=True) as su:
        su.execute("SELECT pg_terminate_backend(%s::integer)", (conn.info.backend_pid,))
    conn.close()
    mem.close()
    with psycopg.connect(citus.dsn(), autocommit=True) as su:
        assert su.execute(
            "SELECT published FROM memory.simulations WHERE simulation_id = %s", (killed_sim,)
        ).fetchone() == (False,)
    rerun = import_run(dsn, TENANT_A, killed_sim, RUN)
    clean = import_run(dsn, TENANT_A, clean_sim, RUN)
    assert _results(rerun) == _results(clean)
    assert _stored(citus.dsn(), TENANT_A, killed_sim) == _stored(citus.dsn(), TENANT_A, clean_sim)
    assert _staged(citus.dsn(), attempt) == 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.execute("SELECT * FROM memory.import_attempts(%s, %s)", (TENANT_A, killed_sim))
        states = {a.attempt_id: a.state for a in _named(cur)}
    assert states[attempt] == "failed"
    assert sorted(states.values()) == ["committed", "failed"]


def test_a_session_releases_the_locks_of_its_ended_attempts(citus: Cluster) -> None:
    """A promote on the tenant's worker cannot release the attempt's advisory lock, held by
    the importer's session on the coordinator: the session's next begin_import does."""
    sim = uuid.uuid4()
    with Memory(citus.dsn("citus_app_a")) as mem, mem.connect() as conn:
        held = (
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
        )
        first = mem.begin_import(TENANT_A, sim, {"nodes": 0}, conn=conn)
        assert conn.execute(held).fetchone() == (1,)
        mem.commit_import(TENANT_A, first, conn=conn)
        assert conn.execute(held).fetchone() == (1,)  # the worker could not release it
        mem.begin_import(TENANT_A, sim, {"nodes": 0}, conn=conn)
        assert conn.execute(held).fetchone() == (1,)  # the new attempt's only


def test_an_import_begun_on_a_worker_fails_closed(citus: Cluster) -> None:
    """Attempts are judged alive on the coordinator: a worker refuses to begin one (0A000)."""
    worker = citus.workers[0]
    with (
        psycopg.connect(worker.dsn(citus.dbname, "citus_app_a"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.FeatureNotSupported) as refused,
    ):
        conn.execute("SELECT memory.begin_import(%s, %s)", (TENANT_A, uuid.uuid4()))
    assert "coordinator" in (refused.value.diag.message_hint or "")


def test_the_search_reads_run_on_the_tenants_shard_without_intermediate_results(
    citus: Cluster,
) -> None:
    """On the worker holding the tenant, the words arm, the names it finds, recall (its words
    and graph arms) and panorama plan every statement as one query on the tenant's shard:
    Citus writes no intermediate result and sends no subplan over a connection to the worker
    itself (a catalog joined with a distributed table, or a query a row, did: debug messages
    "generating subplan ..." and "Subplan ... will be sent to ..."). Over the example run
    imported through the API, as the tenant's reader."""
    sim = uuid.uuid4()
    import_run(citus.dsn("citus_app_a"), TENANT_A, sim, RUN)
    host, port = _rows(
        citus.dsn(),
        "SELECT p.nodename, p.nodeport FROM pg_dist_shard_placement AS p"
        " WHERE p.shardid = get_shard_id_for_distribution_column('memory.simulations', %s)",
        (TENANT_A,),
    )[0]
    # (the placement's node: a third worker once tests/citus/test_grow.py has rebalanced)
    worker = f"host={host} port={port} dbname={citus.dbname} user=citus_reader_a"
    calls = [
        "SELECT * FROM memory.search_words(%s, %s, 'River Road closure traffic', 10)",
        "SELECT * FROM memory.match_entities(%s, %s, 'Daniel Reyes and River Road')",
        "SELECT * FROM memory.recall(%s, %s, 'Will closing the riverside road hurt the shops?',"
        " NULL, 10)",
        "SELECT * FROM memory.panorama(%s, %s, 'Daniel Reyes and River Road', NULL)",
    ]
    with psycopg.connect(worker, autocommit=True) as conn:
        said: list[str] = []
        conn.add_notice_handler(lambda d: said.append(d.message_primary or ""))
        conn.execute("SET client_min_messages = debug1")
        for sql in calls:
            said.clear()
            assert conn.execute(sql, (TENANT_A, sim)).fetchall(), sql
            subplans = [m for m in said if "subplan" in m.lower()]
            assert subplans == [], (sql, subplans[:3])
