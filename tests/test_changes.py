"""The change feed (issue 14, item 4) under concurrency, restarts and imports.

Writers of two tenants commit upserts concurrently, each holding its transaction open for a
random moment after its write (so that, were changes numbered in call order rather than
commit order, a later-numbered change would commit first and a reader would step past the
earlier one). A consumer polls memory.changes_since, "crashes" at random points (its
unsaved progress lost, a new connection) and restarts from its last saved cursor: at the
end it has seen every change of its tenant exactly once, in seq order without a gap. An
import's promote is one change per kind it changed, an unchanged replay none; a NOTIFY
carries no ids; another tenant's writers never wait on a tenant's open change. The SQL
contract (ids, cursors, isolation, refusals) is pgTAP's: sql/tests/027_changes.sql."""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path

import psycopg
import pytest
from helpers import upsert
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"


def all_changes(conn: psycopg.Connection, tenant: uuid.UUID) -> list[tuple[int, int]]:
    """(change_id, seq) of every change of a tenant, read as the superuser (no RLS)."""
    return conn.execute(
        "SELECT change_id, seq FROM memory.changes WHERE tenant_id = %s ORDER BY change_id",
        (tenant,),
    ).fetchall()


def writer(dsn: str, tenant: uuid.UUID, sim: uuid.UUID, tag: str, n: int, seed: int) -> None:
    rng = random.Random(seed)
    with psycopg.connect(dsn) as conn:
        for i in range(n):
            with conn.transaction():
                upsert(
                    conn,
                    "upsert_nodes",
                    tenant,
                    sim,
                    [{"id": f"{tag}-{i}", "name": f"{tag} {i}", "type": "Person"}],
                )
                time.sleep(rng.random() * 0.01)  # commit late: order by call would break here


def test_consumer_restarted_at_random_points_sees_every_change_once(world, connect):
    admin = connect()
    n_writers, per_writer = 4, 40
    threads = [
        threading.Thread(
            target=writer,
            args=(world.dsn("app_a"), world.tenant_a, world.sim_a, f"w{k}", per_writer, k),
        )
        for k in range(n_writers)
    ] + [
        threading.Thread(
            target=writer, args=(world.dsn("app_b"), world.tenant_b, world.sim_b, "b", 30, 99)
        )
    ]
    for t in threads:
        t.start()

    rng = random.Random(7)
    saved_cursor: int | None = None  # what the consumer stored with its state
    saved_seen: list[tuple[int, int]] = []
    restarts = 0

    def writers_alive() -> bool:
        return any(t.is_alive() for t in threads)

    while True:
        done = not writers_alive()
        conn = psycopg.connect(world.dsn("reader_a"), autocommit=True)
        cursor, seen = saved_cursor, list(saved_seen)
        try:
            while True:
                rows = conn.execute(
                    "SELECT change_id, seq FROM memory.changes_since(%s, %s, %s)",
                    (world.tenant_a, cursor, rng.randint(1, 7)),
                ).fetchall()
                seen.extend(rows)
                if rows:
                    cursor = rows[-1][0]
                if rng.random() < 0.3:  # save progress (state and cursor together)
                    saved_cursor, saved_seen = cursor, list(seen)
                if rng.random() < 0.1:  # crash: unsaved progress is lost
                    restarts += 1
                    break
                if not rows:
                    if done:
                        saved_cursor, saved_seen = cursor, list(seen)
                        break
                    time.sleep(0.002)
                    done = not writers_alive()
        finally:
            conn.close()
        if done and saved_cursor == cursor and not writers_alive():
            # one last read after the writers finished: nothing may be left
            with psycopg.connect(world.dsn("reader_a"), autocommit=True) as last:
                rest = last.execute(
                    "SELECT change_id, seq FROM memory.changes_since(%s, %s)",
                    (world.tenant_a, saved_cursor),
                ).fetchall()
            if not rest:
                break
    for t in threads:
        t.join()

    expected = all_changes(admin, world.tenant_a)
    assert restarts > 0
    assert len(expected) == 1 + n_writers * per_writer  # the fixture's simulation + the writes
    assert saved_seen == expected  # every change once, in order
    seqs = [s for _, s in saved_seen]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(all_changes(admin, world.tenant_b)) == 31


def test_commit_order_is_change_order(world, connect):
    """A change that took its id first but commits later is never passed over: the second
    writer's change waits for the first transaction, then takes the next id."""
    first = connect("app_a", autocommit=False)
    upsert(first, "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "x", "name": "x"}])
    result: dict[str, object] = {}

    def second() -> None:
        with psycopg.connect(world.dsn("app_a"), autocommit=True) as conn:
            upsert(conn, "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "y", "name": "y"}])
            result["done"] = True

    t = threading.Thread(target=second)
    t.start()
    t.join(0.5)
    reader = connect("reader_a")
    last = reader.execute(
        "SELECT max(change_id) FROM memory.changes_since(%s, NULL)", (world.tenant_a,)
    ).fetchone()[0]
    assert "done" not in result  # the second writer waits for the first to commit
    first.commit()
    t.join()
    after = reader.execute(
        "SELECT ids FROM memory.changes_since(%s, %s)", (world.tenant_a, last)
    ).fetchall()
    assert after == [(["x"],), (["y"],)]


def test_other_tenant_never_waits_on_an_open_change(world, connect):
    a = connect("app_a", autocommit=False)
    upsert(a, "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "x", "name": "x"}])
    b = connect("app_b")
    b.execute("SET lock_timeout = '1s'")
    assert (
        upsert(b, "upsert_nodes", world.tenant_b, world.sim_b, [{"id": "y", "name": "y"}])[0] == 1
    )
    a.rollback()
    reader = connect("reader_a")
    ids = reader.execute(
        "SELECT ids FROM memory.changes_since(%s, NULL) WHERE kind = 'nodes'", (world.tenant_a,)
    ).fetchall()
    assert ids == []  # the rolled-back change is not in the feed


def test_notify_wakes_listeners_without_ids(world, connect):
    listener = connect("reader_a")
    listener.execute("LISTEN memory_changes")
    writer_conn = connect("app_a")
    upsert(writer_conn, "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "x", "name": "x"}])
    notes = list(listener.notifies(timeout=5, stop_after=1))
    assert [(n.channel, n.payload) for n in notes] == [("memory_changes", "")]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def test_import_commit_is_one_change_per_kind(world, connect, embedder):
    reader = connect("reader_a")
    start = reader.execute(
        "SELECT max(change_id) FROM memory.changes_since(%s, NULL)", (world.tenant_a,)
    ).fetchone()[0]
    report = import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    rows = reader.execute(
        "SELECT kind, op, attempt_id, ids, counts, detail FROM memory.changes_since(%s, %s)",
        (world.tenant_a, start),
    ).fetchall()
    assert {r[1] for r in rows} == {"import"}
    assert {r[2] for r in rows} == {report.attempt_id}
    kinds = {r[0]: r[4] for r in rows}
    assert kinds["nodes"]["inserted"] == 33 and kinds["edges"]["inserted"] == 46
    assert kinds["episodes"]["inserted"] == 339
    assert all(r[3] is None and "replaced" in r[5] for r in rows)  # no ids: the scope
    last = max(
        reader.execute(
            "SELECT change_id FROM memory.changes_since(%s, %s)", (world.tenant_a, start)
        ).fetchall()
    )[0]
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    assert (
        reader.execute(
            "SELECT count(*) FROM memory.changes_since(%s, %s)", (world.tenant_a, last)
        ).fetchone()[0]
        == 0
    )  # an unchanged replay is no change


def test_a_session_s_temporary_functions_record_nothing(world, connect):
    """A writer's own PL/pgSQL in pg_temp, named like the memory's write paths or carrying a
    forged frame line, calling memory._record_change as a plain expression or by PERFORM:
    each is refused with 42501 and the feed stays as it was."""
    admin = connect()
    before = all_changes(admin, world.tenant_a)
    app = connect("app_a")
    names = [
        "plain",
        "memory._record_upsert",
        "x\nPL/pgSQL function memory.delete_tenant(uuid) line 36",
    ]
    for i, name in enumerate(names):
        body = (
            "BEGIN RETURN memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert'); END"
            if i % 2 == 0
            else "BEGIN PERFORM memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert'); RETURN 0; END"
        )
        app.execute(
            psycopg.sql.SQL(
                "CREATE FUNCTION pg_temp.{}(p_tenant_id uuid) RETURNS bigint LANGUAGE plpgsql AS {}"
            ).format(psycopg.sql.Identifier(name), psycopg.sql.Literal(body))
        )
        for path in ("pg_temp, pg_catalog", "pg_catalog"):
            app.execute(f"SET search_path = {path}")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(
                    psycopg.sql.SQL("SELECT pg_temp.{}(%s)").format(psycopg.sql.Identifier(name)),
                    (world.tenant_a,),
                )
            app.execute("DISCARD PLANS")
    assert all_changes(admin, world.tenant_a) == before
    # the write paths themselves still record
    upsert(app, "upsert_nodes", world.tenant_a, world.sim_a, [{"id": "t1", "name": "t1"}])
    assert len(all_changes(admin, world.tenant_a)) == len(before) + 1


def test_upgrade_keeps_each_tenant_above_its_largest_change_id(postgresql_noproc):
    """V0039 on a database whose feed was numbered by one sequence for every tenant: each
    tenant's next change is above the largest id it had (a consumer's saved cursor misses
    nothing), its seq goes on without a gap, the sequence is gone, and a tenant created
    afterwards counts from 1."""
    from psycopg.conninfo import make_conninfo
    from swarm_memory import migrate

    p = postgresql_noproc
    server_dsn = make_conninfo(host=p.host, port=int(p.port), user=p.user, dbname="postgres")
    name, dsn = migrate.fresh_database(server_dsn)
    try:
        before = max(v for v in map(migrate.version_of, migrate._versioned_files()) if v < 39)
        migrate.migrate(dsn, target=before)
        a, b, c, sim = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO memory.tenants (tenant_id, name) VALUES (%s, 'v39-a'), (%s, 'v39-b')",
                (a, b),
            )
            # the global sequence interleaves them: A 1, 3, 5 and B 2, 4
            for tenant, seq in [(a, 1), (b, 1), (a, 2), (b, 2), (a, 3)]:
                conn.execute(
                    "INSERT INTO memory.changes (tenant_id, seq, kind, op) VALUES (%s, %s, 'nodes', 'upsert')",
                    (tenant, seq),
                )
            conn.execute(
                "INSERT INTO memory.change_heads (tenant_id, changes, last_change_at)"
                " VALUES (%s, 3, now()), (%s, 2, now())",
                (a, b),
            )
            old = conn.execute(
                "SELECT tenant_id, max(change_id) FROM memory.changes GROUP BY tenant_id"
            ).fetchall()
            assert dict(old) == {a: 5, b: 4}
        migrate.migrate(dsn)

        def as_role(role: str) -> psycopg.Connection:
            return psycopg.connect(
                make_conninfo(host=p.host, port=int(p.port), user=role, dbname=name),
                autocommit=True,
            )

        with as_role("admin") as conn:
            conn.execute("SELECT memory.create_tenant('v39-c', %s)", (c,))
            for tenant in (a, b, c):
                conn.execute("SELECT memory.grant_tenant('app_a', %s)", (tenant,))
        with as_role("app_a") as conn:
            for i, tenant in enumerate((a, b, c, a)):
                conn.execute(
                    "SELECT memory.upsert_simulation(%s, %s, %s)", (tenant, sim, f"sim {i}")
                )
            feed = {
                t: conn.execute(
                    "SELECT change_id, seq FROM memory.changes_since(%s, NULL)", (t,)
                ).fetchall()
                for t in (a, b, c)
            }
            after_cursor = conn.execute(
                "SELECT change_id FROM memory.changes_since(%s, 5)", (a,)
            ).fetchall()
        assert feed[a] == [(1, 1), (3, 2), (5, 3), (6, 4), (7, 5)]
        assert feed[b] == [(2, 1), (4, 2), (5, 3)]
        assert feed[c] == [(1, 1)]
        assert after_cursor == [(6,), (7,)]  # a cursor saved before the upgrade misses nothing
        with psycopg.connect(dsn, autocommit=True) as conn:
            identity = conn.execute(
                "SELECT attidentity FROM pg_attribute"
                " WHERE attrelid = 'memory.changes'::regclass AND attname = 'change_id'"
            ).fetchone()[0]
            assert identity == ""
    finally:
        migrate.drop_database(server_dsn, name)
