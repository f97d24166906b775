"""Races on one node, each reproduced with two connections or processes: a command that
meets another one at work on the same thing waits for it or says clearly whom it met.

- `reembed` resumed while a killed run's switch still holds the simulation's row;
- `index` rerun while a killed run's CREATE INDEX CONCURRENTLY still runs;
- an import whose simulation is deleted while it runs;
- a retention sweep and an import beginning at the same time.

The data is the small MiroFish run of test_reembed (the example run's graph and posts),
embedded with the real models.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
import uuid

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from swarm_memory import Memory, StateError
from swarm_memory.embed import E5_MODEL_NAME, MODEL_NAME
from swarm_memory.importer import import_run
from swarm_memory.progress import Progress
from swarm_memory.reembed import compute
from test_reembed import small_run


def _cli(dsn: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "swarm_memory.cli", "--dsn", dsn, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _until(check, what: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _waits_for(su: psycopg.Connection, waiter_pid: int, holder_pid: int) -> bool:
    (pids,) = su.execute("SELECT pg_blocking_pids(%s)", (waiter_pid,)).fetchone()
    return holder_pid in pids


@pytest.fixture
def imported(world, tmp_path, minilm):  # type: ignore[no-untyped-def]
    """sim_a holds the small run, embedded with all-MiniLM-L6-v2."""
    import_run(
        world.dsn("app_a"),
        world.tenant_a,
        world.sim_a,
        small_run(tmp_path / "run"),
        embedder=minilm,
    )
    return world


# -- reembed ----------------------------------------------------------------------------


def _switch_held(world, connect, e5) -> psycopg.Connection:  # type: ignore[no-untyped-def]
    """Every text cached under e5, then a switch begun in a transaction left open: as a
    killed re-embed's switch, still running on the server, holds the simulation's row."""
    with Memory(world.dsn("app_a")) as mem:
        compute(mem, world.tenant_a, world.sim_a, E5_MODEL_NAME, e5)
    held = connect("app_a", autocommit=False)
    held.execute(
        "SELECT * FROM memory.switch_model(%s, %s, %s)",
        (world.tenant_a, world.sim_a, E5_MODEL_NAME),
    ).fetchall()
    return held


def test_a_resumed_reembed_names_the_switch_that_holds_it_and_gives_up_at_wait(
    imported, connect, e5
):
    w = imported
    held = _switch_held(w, connect, e5)
    started = time.monotonic()
    proc = _cli(
        w.dsn("app_a"),
        "reembed",
        "--tenant",
        str(w.tenant_a),
        "--model",
        E5_MODEL_NAME,
        "--wait",
        "3",
    )
    out, err = proc.communicate(timeout=120)
    took = time.monotonic() - started
    assert proc.returncode == 2, (out, err)
    assert "error [55P03]:" in err, err
    pid = held.info.backend_pid
    assert f"backend {pid}" in err and "switch_model" in err, err
    assert "pg_terminate_backend" in err and str(pid) in err.split("hint:", 1)[1], err
    assert "waiting up to" in err, "it said whom it waited for while it waited"
    # at --wait, not at the switch's own lock_timeout
    assert "gave up after waiting 3 s" in err, err
    assert took >= 3
    held.rollback()
    with Memory(w.dsn("app_a")) as mem:
        assert mem.model_of(w.tenant_a, w.sim_a).model == MODEL_NAME, "nothing switched"


def test_a_resumed_reembed_waits_for_a_killed_switch_to_end(imported, connect, e5):
    w = imported
    held = _switch_held(w, connect, e5)
    pid = held.info.backend_pid
    su = connect()
    proc = _cli(
        w.dsn("app_a"),
        "reembed",
        "--tenant",
        str(w.tenant_a),
        "--model",
        E5_MODEL_NAME,
        "--wait",
        "60",
    )
    try:
        _until(
            lambda: (
                su.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY (pg_blocking_pids(pid))",
                    (pid,),
                ).fetchone()[0]
                > 0
            ),
            "the resumed re-embed waits for the held switch",
        )
        time.sleep(1.0)
        # the killed run's backend ends (its switch rolled back): the resumed one switches
        su.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, (out, err)
    assert "waiting up to" in err and f"backend {pid}" in err, err
    assert f"for backend {pid}, which held the simulation" in out, out
    with Memory(w.dsn("app_a")) as mem:
        assert mem.model_of(w.tenant_a, w.sim_a).model == E5_MODEL_NAME


# -- index ------------------------------------------------------------------------------


def test_a_rerun_index_waits_for_a_killed_runs_build_or_names_it(imported, connect):
    """A run of `swarm-memory index` killed while its CREATE INDEX CONCURRENTLY waits for
    an old snapshot (a repeatable-read transaction left open): its backend goes on. A rerun
    names it and gives up at --wait (55P03); another waits, and once the old build has
    ended plans again and keeps the index it built."""
    w = imported
    su = connect()
    old = connect("reader_a", autocommit=False)
    old.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
    old.execute("SELECT count(*) FROM memory.list_simulations(%s)", (w.tenant_a,)).fetchone()
    killed = _cli(w.dsn(), "index", "--min-rows", "10")
    refused = waiting = None

    def building() -> list[tuple]:
        return su.execute(
            "SELECT pid FROM pg_stat_activity WHERE query ~ 'CREATE INDEX CONCURRENTLY'"
            " AND wait_event_type = 'Lock'"
        ).fetchall()

    try:
        _until(lambda: building(), "the first run's build waits for the old snapshot")
        ((builder,),) = building()
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=30)
        time.sleep(0.5)
        assert su.execute(
            "SELECT state FROM pg_stat_activity WHERE pid = %s", (builder,)
        ).fetchone() == ("active",), "the killed run's build goes on"

        started = time.monotonic()
        refused = _cli(w.dsn(), "index", "--min-rows", "10", "--wait", "2")
        out, err = refused.communicate(timeout=120)
        assert refused.returncode == 2, (out, err)
        assert "error [55P03]:" in err and f"backend {builder}" in err, err
        assert "CREATE INDEX CONCURRENTLY" in err and "pg_terminate_backend" in err, err
        assert "waiting up to" in out, out
        assert time.monotonic() - started >= 2

        rerun = make_conninfo(w.dsn(), application_name="rerun")
        waiting = _cli(rerun, "index", "--min-rows", "10", "--wait", "120")
        _until(
            lambda: (
                su.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'rerun'"
                    " AND query ~ 'pg_stat_progress_create_index'"
                ).fetchone()[0]
                > 0
            ),
            "the rerun looks for the killed run's build",
        )
        old.rollback()  # the old snapshot goes: the killed run's build ends
        out, err = waiting.communicate(timeout=300)
    finally:
        old.rollback()
        for proc in (killed, refused, waiting):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
    assert waiting.returncode == 0, (out, err)
    assert f"backend {builder}" in out, out
    # the killed run's build finished the index: valid, and the rerun kept it
    assert "ANN indexes: 0 built, 0 rebuilt, 1 kept" in out, out
    assert su.execute(
        "SELECT bool_and(i.indisvalid) FROM pg_index AS i JOIN pg_class AS c"
        " ON c.oid = i.indexrelid WHERE c.relname ~ '^episodes_ann_'"
    ).fetchone() == (True,)


# -- an import whose simulation goes ------------------------------------------------------


class _DeleteAt(Progress):
    """A quiet progress that deletes the simulation (through memory.delete_simulation, on a
    connection of its own) when the import starts or finishes `phase`."""

    def __init__(self, dsn: str, tenant: uuid.UUID, sim: uuid.UUID, at: str) -> None:
        super().__init__(quiet=True)
        self._args = (dsn, tenant, sim)
        self._at = at

    def _delete(self, at: str) -> None:
        if at == self._at:
            dsn, tenant, sim = self._args
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute("SELECT * FROM memory.delete_simulation(%s, %s)", (tenant, sim))

    def start(self, phase: str, total: int, unit: str = "rows") -> None:
        self._delete(f"start {phase}")
        super().start(phase, total, unit)

    def finish(self, note: str = "") -> None:
        self._delete(f"finish {self._phase}")
        super().finish(note)


# before staging (stage_rows), before validate_import, and before the promote's
# transaction (set_model names the simulation, then commit_import)
@pytest.mark.parametrize("at", ["start load", "start validate", "finish validate"])
def test_an_import_whose_simulation_is_deleted_meanwhile_says_so(imported, tmp_path, minilm, at):
    w = imported
    run = small_run(tmp_path / "again")
    with pytest.raises(StateError) as gone:
        import_run(
            w.dsn("app_a"),
            w.tenant_a,
            w.sim_a,
            run,
            embedder=minilm,
            progress=_DeleteAt(w.dsn("app_a"), w.tenant_a, w.sim_a, at),
        )
    assert gone.value.sqlstate == "55000"
    assert "was deleted while the import ran" in str(gone.value), str(gone.value)
    assert "upsert_simulation" not in str(gone.value)
    with Memory(w.dsn("app_a")) as mem:
        assert w.sim_a not in [s.simulation_id for s in mem.list_simulations(w.tenant_a)]
    # run again, the import creates the simulation anew
    again = import_run(w.dsn("app_a"), w.tenant_a, w.sim_a, run, embedder=minilm)
    assert again.results["episodes"].inserted > 0


# -- a sweep and an import beginning --------------------------------------------------------


def _aged(su: psycopg.Connection, tenant: uuid.UUID, sims: list[uuid.UUID]) -> None:
    for days, sim in enumerate(sims):
        su.execute(
            "UPDATE memory.simulations SET updated_at = now() - make_interval(days => 60 - %s)"
            " WHERE tenant_id = %s AND simulation_id = %s",
            (days, tenant, sim),
        )


def test_an_import_begun_while_a_sweep_decides_waits_and_creates_its_simulation_anew(
    world, connect
):
    """The sweep has judged the simulation (no import) and deleted it, uncommitted: an
    import beginning now waits for the sweep's transaction and then creates the simulation
    anew; it is never begun on the row the sweep deletes."""
    w = world
    su = connect()
    _aged(su, w.tenant_a, [w.sim_a])
    admin = connect("admin", autocommit=False)
    admin.execute("SELECT memory.set_retention(%s, 30)", (w.tenant_a,))
    admin.commit()
    assert admin.execute(
        "SELECT simulation_id, action FROM memory.sweep(%s)", (w.tenant_a,)
    ).fetchall() == [(w.sim_a, "deleted")]
    importer = connect("app_a")
    begun: list = []
    thread = threading.Thread(
        target=lambda: begun.append(
            importer.execute(
                "SELECT memory.begin_import(%s, %s)", (w.tenant_a, w.sim_a)
            ).fetchone()[0]
        )
    )
    thread.start()
    _until(
        lambda: _waits_for(su, importer.info.backend_pid, admin.info.backend_pid),
        "begin_import waits for the sweep",
    )
    admin.commit()
    thread.join(timeout=60)
    assert begun, "begin_import returned once the sweep committed"
    assert su.execute(
        "SELECT s.published, a.state FROM memory.simulations AS s"
        " JOIN memory.import_attempts AS a USING (tenant_id, simulation_id)"
        " WHERE a.attempt_id = %s",
        (begun[0],),
    ).fetchone() == (False, "loading"), "a new simulation, its attempt loading"


def test_a_sweep_sees_an_import_begun_after_it_started(world, connect):
    """Three old simulations: W with an import loading (so the sweep reads the sessions),
    X whose row another transaction holds (the sweep's delete waits there), Y. While the
    sweep waits, a new session begins an import of Y: the sweep, reaching Y, judges it
    under Y's lock with the sessions read afresh and keeps it; W is kept, X deleted."""
    w = world
    app = connect("app_a")
    x, y = uuid.uuid4(), uuid.uuid4()
    for sim in (x, y):
        app.execute("SELECT memory.upsert_simulation(%s, %s, 'old')", (w.tenant_a, sim))
    su = connect()
    _aged(su, w.tenant_a, [w.sim_a, x, y])
    connect("admin").execute("SELECT memory.set_retention(%s, 30)", (w.tenant_a,))
    loading = connect("app_a")
    loading.execute("SELECT memory.begin_import(%s, %s)", (w.tenant_a, w.sim_a))
    blocker = connect(autocommit=False)
    blocker.execute(
        "SELECT 1 FROM memory.simulations WHERE tenant_id = %s AND simulation_id = %s"
        " FOR KEY SHARE",
        (w.tenant_a, x),
    )

    sweeper = connect("admin")
    swept: list = []
    thread = threading.Thread(
        target=lambda: swept.extend(
            sweeper.execute(
                "SELECT simulation_id, action FROM memory.sweep(%s)", (w.tenant_a,)
            ).fetchall()
        )
    )
    thread.start()
    _until(
        lambda: _waits_for(su, sweeper.info.backend_pid, blocker.info.backend_pid),
        "the sweep waits at X",
    )
    late = connect("app_a")  # a session the sweep's first look at the sessions did not see
    late.execute("SELECT memory.begin_import(%s, %s)", (w.tenant_a, y))
    blocker.commit()
    thread.join(timeout=60)
    assert sorted(swept) == sorted(
        [(w.sim_a, "kept_importing"), (x, "deleted"), (y, "kept_importing")]
    )


def test_a_sweep_keeps_a_simulation_an_import_is_beginning_and_does_not_wait(world, connect):
    """begin_import inside a transaction not yet committed holds the simulation's lock:
    the sweep neither waits for it nor deletes under it; it keeps the simulation."""
    w = world
    su = connect()
    _aged(su, w.tenant_a, [w.sim_a])
    admin = connect("admin")
    admin.execute("SELECT memory.set_retention(%s, 30)", (w.tenant_a,))
    importer = connect("app_a", autocommit=False)
    importer.execute("SELECT memory.begin_import(%s, %s)", (w.tenant_a, w.sim_a))
    admin.execute("SET lock_timeout = '5s'")  # a wait would fail the sweep, not hang it
    assert admin.execute(
        "SELECT simulation_id, action FROM memory.sweep(%s)", (w.tenant_a,)
    ).fetchall() == [(w.sim_a, "kept_importing")]
    importer.commit()
    assert admin.execute(
        "SELECT simulation_id, action FROM memory.sweep(%s)", (w.tenant_a,)
    ).fetchall() == [(w.sim_a, "kept_importing")], "its import loads"
