"""Retention under faults on one node: a sweep's delete does work in proportion to what it
deletes while readers and an index build run beside it, and a killed import never rerun
keeps its simulation from retention no longer than its session lives.

The episodes are the example run's actions (real MiroFish text), repeated with their round
and agent, without vectors: a sweep reads none."""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "examples" / "mirofish_run"


def _texts() -> list[str]:
    out = []
    for path in sorted(RUN.glob("*/actions.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            content = (row.get("action_args") or {}).get("content")
            if content:
                out.append(content)
    return out


def _fill(conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID, n: int) -> None:
    texts = _texts()
    items = [
        {
            "id": f"ep-{i}",
            "agent_id": i % 20,
            "agent_name": f"agent {i % 20}",
            "platform": "twitter",
            "round": i // 50,
            "action_type": "CREATE_POST",
            # the round makes every text its own document, as in a long run
            "content": f"{texts[i % len(texts)]} (round {i // 50})",
        }
        for i in range(n)
    ]
    for start in range(0, n, 2000):
        conn.execute(
            "SELECT * FROM memory.upsert_episodes(%s, %s, %s)",
            (tenant, sim, json.dumps(items[start : start + 2000])),
        )


def _plans(notices: list[str]) -> list[dict]:
    """The plans auto_explain sent as notices (JSON format)."""
    out = []
    for message in notices:
        if "plan:" in message:
            out.append(json.loads(message.split("plan:", 1)[1])["Plan"])
    return out


def _nodes(plan: dict):  # type: ignore[no-untyped-def]
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def test_a_sweep_deletes_postings_by_key_beside_readers_and_an_index_build(world, connect):
    """The retention delete of a 6,000-episode simulation, with a work_mem small enough that
    the delete's transition table spills, while readers search its words and another
    simulation's index is built CONCURRENTLY: no statement that deletes postings reads the
    transition table (a plan that joined it could read it again for every posting), each
    transition table is scanned once, and the shared buffers the deletes touch stay within
    a small multiple of the postings deleted."""
    app = connect("app_a")
    _fill(app, world.tenant_a, world.sim_a, 6000)
    other = uuid.uuid4()
    app.execute("SELECT memory.upsert_simulation(%s, %s, 'kept')", (world.tenant_a, other))
    _fill(app, world.tenant_a, other, 300)
    owner = connect()
    (postings,) = owner.execute(
        "SELECT count(*) FROM memory.word_postings WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    ).fetchone()
    assert postings > 6000 * 5
    # the simulation to go is old by the policy's clock; the other one was written just now
    owner.execute(
        "UPDATE memory.simulations SET updated_at = now() - interval '40 days'"
        " WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    )
    connect("admin").execute("SELECT memory.set_retention(%s, 30)", (world.tenant_a,))

    stop = threading.Event()
    errors: list[BaseException] = []
    reads = [0]

    def reader() -> None:
        try:
            with world.connect("reader_a") as conn:
                while not stop.is_set():
                    for sim in (world.sim_a, other):
                        conn.execute(
                            "SELECT count(*) FROM memory.search_words(%s, %s, 'River Road shops')",
                            (world.tenant_a, sim),
                        ).fetchone()
                    reads[0] += 1
        except psycopg.Error as exc:  # the simulation going is an answer, not a failure
            if exc.sqlstate != "P0002":
                errors.append(exc)

    def index_build() -> None:
        try:
            with world.connect() as conn:
                while not stop.is_set():
                    conn.execute(
                        "CREATE INDEX CONCURRENTLY IF NOT EXISTS sweep_beside_build"
                        " ON memory.word_postings (row_key)"
                    )
                    conn.execute("DROP INDEX CONCURRENTLY IF EXISTS memory.sweep_beside_build")
        except psycopg.Error as exc:
            errors.append(exc)

    threads = [threading.Thread(target=reader), threading.Thread(target=index_build)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    notices: list[str] = []
    sweeper = connect()
    sweeper.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    for setting in (
        "LOAD 'auto_explain'",
        "SET auto_explain.log_min_duration = 0",
        "SET auto_explain.log_nested_statements = on",
        "SET auto_explain.log_analyze = on",
        "SET auto_explain.log_buffers = on",
        "SET auto_explain.log_format = 'json'",
        "SET auto_explain.log_level = 'notice'",
        "SET work_mem = '64kB'",
        "SET ROLE admin",
    ):
        sweeper.execute(setting)
    swept = sweeper.execute(
        "SELECT simulation_id, action FROM memory.sweep(%s)", (world.tenant_a,)
    ).fetchall()
    stop.set()
    for t in threads:
        t.join()
    assert not errors
    assert reads[0] > 0
    assert swept == [(world.sim_a, "deleted")]

    plans = _plans(notices)
    deletes = [
        p
        for p in plans
        if p.get("Node Type") == "ModifyTable"
        and p.get("Operation") == "Delete"
        and p.get("Relation Name") == "word_postings"
    ]
    assert deletes, "the sweep deleted postings"
    for plan in deletes:
        types = {n["Node Type"] for n in _nodes(plan)}
        assert "Named Tuplestore Scan" not in types, types
    scans = [n for p in plans for n in _nodes(p) if n["Node Type"] == "Named Tuplestore Scan"]
    assert scans, "the old rows were read"
    assert all(n["Actual Loops"] == 1 for n in scans), [n["Actual Loops"] for n in scans]
    spilled = sum(n.get("Temp Read Blocks", 0) for n in scans)
    touched = sum(p.get("Shared Hit Blocks", 0) + p.get("Shared Read Blocks", 0) for p in deletes)
    print(
        f"\n{postings} postings deleted: {touched} shared buffers touched by the deletes,"
        f" {spilled} temp blocks read from {len(scans)} transition-table scans,"
        f" {reads[0]} reader rounds beside"
    )
    assert touched < 4 * postings
    # the other simulation and its postings stay
    assert owner.execute(
        "SELECT count(*) > 0 FROM memory.word_postings WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, other),
    ).fetchone() == (True,)
    assert owner.execute(
        "SELECT count(*) FROM memory.word_postings WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    ).fetchone() == (0,)


def _age(conn: psycopg.Connection, world) -> None:  # type: ignore[no-untyped-def]
    conn.execute(
        "UPDATE memory.simulations SET updated_at = now() - interval '40 days'"
        " WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    )


def test_a_killed_import_keeps_its_simulation_only_while_its_session_lives(world, connect):
    """An attempt left 'loading' by a killed importer: while its backend lives the sweep
    keeps the simulation (kept_importing); once pg_terminate_backend has ended it, the next
    sweep deletes the simulation, though no one reran the import."""
    owner = connect()
    _fill(connect("app_a"), world.tenant_a, world.sim_a, 10)
    importer = connect("app_a")
    (attempt,) = importer.execute(
        "SELECT memory.begin_import(%s, %s)", (world.tenant_a, world.sim_a)
    ).fetchone()
    pid = importer.info.backend_pid
    _age(owner, world)
    admin = connect("admin")
    admin.execute("SELECT memory.set_retention(%s, 30)", (world.tenant_a,))
    assert admin.execute(
        "SELECT simulation_id, action FROM memory.sweep(%s)", (world.tenant_a,)
    ).fetchall() == [(world.sim_a, "kept_importing")]

    owner.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
    # the attempt row still says 'loading': nobody reran the import
    assert owner.execute(
        "SELECT state FROM memory.import_attempts WHERE attempt_id = %s", (attempt,)
    ).fetchone() == ("loading",)
    assert admin.execute(
        "SELECT simulation_id, action FROM memory.sweep(%s)", (world.tenant_a,)
    ).fetchall() == [(world.sim_a, "deleted")]
    assert owner.execute(
        "SELECT count(*) FROM memory.simulations WHERE simulation_id = %s", (world.sim_a,)
    ).fetchone() == (0,)


@pytest.fixture(autouse=True)
def _no_leftover_index(world):  # type: ignore[no-untyped-def]
    yield
    with world.connect() as conn:
        conn.execute("DROP INDEX IF EXISTS memory.sweep_beside_build")
