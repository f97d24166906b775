"""Import liveness that cannot be borrowed (issue 9, point 6).

An import attempt is alive while the backend that began it is: memory.begin_import records
the backend's pid and start time, and memory._attempt_alive asks whether that pid still holds
the attempt's advisory lock (and, where the caller may see it, started at the recorded time).
Any role can read the lock's key from pg_locks and queue on it; when the importer dies, the
queued session gets the lock, under its own pid: the attempt must show as failed all the
same. These need several sessions at once, so they live here and not in pgTAP.
"""

from __future__ import annotations

import threading
import time
import uuid

import psycopg
import pytest

LOCK_CLASS = 1398230321  # memory._attempt_lock_class(), checked below
WAIT = 30.0
SESSION_ENDED = "session ended"


def state_of(
    conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID, attempt: uuid.UUID
) -> tuple:
    """(state, error) of an attempt as memory.import_attempts reports it to conn's role."""
    row = conn.execute(
        "SELECT state, error FROM memory.import_attempts(%s, %s) WHERE attempt_id = %s",
        (tenant, sim, attempt),
    ).fetchone()
    assert row is not None, f"attempt {attempt} not listed"
    return row


def attempt_locks(conn: psycopg.Connection) -> list[tuple]:
    """The import-attempt advisory locks of this database as any role sees them in pg_locks:
    (pid, key as the signed integer pg_advisory_lock takes, granted)."""
    return conn.execute(
        "SELECT l.pid, (CASE WHEN l.objid::bigint >= 2147483648 THEN l.objid::bigint - 4294967296"
        "                    ELSE l.objid::bigint END)::integer, l.granted"
        "  FROM pg_locks AS l JOIN pg_database AS d ON d.oid = l.database"
        " WHERE l.locktype = 'advisory' AND d.datname = current_database()"
        "   AND l.classid = %s::oid AND l.objsubid = 2",
        (LOCK_CLASS,),
    ).fetchall()


def wait_until(predicate, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.05)


@pytest.fixture
def importer(world, connect):
    """An import attempt of tenant A begun by app_a on its own session: (conn, pid, attempt)."""
    conn = connect("app_a")
    attempt = conn.execute(
        "SELECT memory.begin_import(%s, %s)", (world.tenant_a, world.sim_a)
    ).fetchone()[0]
    pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    return conn, pid, attempt


def test_the_lock_class_is_the_one_home(connect, world):
    with connect() as conn:
        assert conn.execute("SELECT memory._attempt_lock_class()").fetchone()[0] == LOCK_CLASS


def test_the_attempt_records_its_backend(world, connect, importer):
    conn, pid, attempt = importer
    admin = connect()
    recorded = admin.execute(
        "SELECT a.backend_pid, a.backend_start = s.backend_start"
        "  FROM memory.import_attempts AS a JOIN pg_stat_activity AS s ON s.pid = a.backend_pid"
        " WHERE a.attempt_id = %s",
        (attempt,),
    ).fetchone()
    assert recorded == (pid, True)
    assert state_of(conn, world.tenant_a, world.sim_a, attempt)[0] == "loading"


def test_a_role_that_cannot_see_the_backend_start_still_sees_a_live_attempt(
    world, connect, importer
):
    """reader_a may not read app_a's backend_start (pg_stat_activity hides it): liveness then
    rests on pid and lock holder, and the live attempt is still loading."""
    _, pid, attempt = importer
    reader = connect("reader_a")
    hidden = reader.execute(
        "SELECT backend_start IS NULL FROM pg_stat_activity WHERE pid = %s", (pid,)
    ).fetchone()
    assert hidden == (True,)
    assert state_of(reader, world.tenant_a, world.sim_a, attempt)[0] == "loading"


def test_a_lock_taken_over_by_another_role_does_not_keep_a_dead_attempt_alive(
    world, connect, importer
):
    """Tenant B's writer reads the key from pg_locks and queues on it; the importer's session
    is terminated; B gets the lock and keeps it. The attempt is failed for import_attempts,
    for a reader, and for the next begin_import, which records it failed."""
    conn, importer_pid, attempt = importer
    [(holder, key, granted)] = attempt_locks(connect("app_b"))
    assert (holder, granted) == (importer_pid, True)

    hijacker = connect("app_b")
    hijacker_pid = hijacker.execute("SELECT pg_backend_pid()").fetchone()[0]
    acquired = threading.Event()

    def queue_on_the_lock() -> None:
        hijacker.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_CLASS, key))
        acquired.set()

    thread = threading.Thread(target=queue_on_the_lock, daemon=True)
    thread.start()
    watcher = connect()
    wait_until(
        lambda: (hijacker_pid, key, False) in attempt_locks(watcher), "app_b queues on the lock"
    )
    # Queued behind a live importer: the attempt is alive.
    assert state_of(connect("app_a"), world.tenant_a, world.sim_a, attempt)[0] == "loading"

    assert watcher.execute("SELECT pg_terminate_backend(%s, 10000)", (importer_pid,)).fetchone()[0]
    assert acquired.wait(WAIT), "app_b never got the lock"
    thread.join(WAIT)
    assert attempt_locks(watcher) == [(hijacker_pid, key, True)]  # B holds it, and keeps it

    state, error = state_of(connect("app_a"), world.tenant_a, world.sim_a, attempt)
    assert state == "failed" and SESSION_ENDED in error
    assert state_of(connect("reader_a"), world.tenant_a, world.sim_a, attempt)[0] == "failed"

    # The next attempt fails the dead one for good and drops its staged rows.
    again = connect("app_a")
    again.execute("SELECT memory.begin_import(%s, %s)", (world.tenant_a, world.sim_a))
    stored = watcher.execute(
        "SELECT state, error FROM memory.import_attempts WHERE attempt_id = %s", (attempt,)
    ).fetchone()
    assert stored[0] == "failed" and SESSION_ENDED in stored[1]
    # It can no longer be committed.
    with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState):
        again.execute("SELECT * FROM memory.commit_import(%s, %s)", (world.tenant_a, attempt))


def test_a_backend_with_the_pid_but_another_start_is_not_the_importer(world, connect, importer):
    """A pid is reused by a later backend: where the caller may see backend_start, the start
    time tells them apart. Simulated by moving the recorded start (the pid still holds the
    lock): the importer's own role sees the difference and reports the attempt failed."""
    conn, _, attempt = importer
    connect().execute(
        "UPDATE memory.import_attempts SET backend_start = backend_start - interval '1 second'"
        " WHERE attempt_id = %s",
        (attempt,),
    )
    assert state_of(connect("app_a"), world.tenant_a, world.sim_a, attempt)[0] == "failed"
    conn.execute("SELECT 1")  # the importer itself is still connected
