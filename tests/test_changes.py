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
