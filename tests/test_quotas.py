"""Per-tenant quotas from the driver and the command line, and the limits `role create` sets.

The SQL contract of quotas (refusals, boundary, nothing written, who sees a cap) is pgTAP's
034_quotas; here: two concurrent writers at a cap (the cap's row lock), another tenant never
waiting on it, the client's methods and exception, `swarm-memory quota set|list`, and the
statement_timeout and connection limit of the login roles `swarm-memory role create` makes.
"""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid

import psycopg
import pytest
from psycopg.types.json import Jsonb
from swarm_memory.cli import cli_hint, main
from swarm_memory.client import Memory, QuotaRow
from swarm_memory.errors import QuotaExceeded


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def nodes(*ids: str) -> Jsonb:
    return Jsonb([{"id": i, "name": i} for i in ids])


# --- quotas ---------------------------------------------------------------------------------


def test_client_sets_and_lists_quotas_and_raises_quota_exceeded(world):
    with Memory(world.dsn("admin")) as admin, Memory(world.dsn("app_a")) as app:
        admin.set_quota(world.tenant_a, "nodes", 2)
        rows = admin.quotas(world.tenant_a)
        assert all(type(r) is QuotaRow for r in rows)
        assert dataclasses.is_dataclass(rows[0]) and QuotaRow.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert [r.kind for r in rows][:5] == [
            "simulations",
            "nodes",
            "edges",
            "episodes",
            "profiles",
        ]
        capped = {r.kind: (r.max_rows, r.used) for r in rows if r.max_rows is not None}
        assert capped == {"nodes": (2, 0)}
        assert next(r for r in rows if r.kind == "nodes").updated_by == "admin"

        app.upsert_nodes(world.tenant_a, world.sim_a, [{"id": "n1", "name": "n1"}])
        with pytest.raises(QuotaExceeded) as exc:
            app.upsert_nodes(
                world.tenant_a,
                world.sim_a,
                [{"id": "n2", "name": "n2"}, {"id": "n3", "name": "n3"}],
            )
        assert exc.value.sqlstate == "53400"
        assert str(world.tenant_a) in str(exc.value) and "3 nodes" in str(exc.value)
        assert "memory.set_quota()" in (exc.value.hint or "")
        assert "swarm-memory quota set" in cli_hint(exc.value.hint or "")
        # the tenant's own roles read their caps
        assert {r.kind: r.used for r in app.quotas(world.tenant_a)}["nodes"] == 1

        admin.set_quota(world.tenant_a, "nodes", None)
        counts = app.upsert_nodes(
            world.tenant_a, world.sim_a, [{"id": "n2", "name": "n2"}, {"id": "n3", "name": "n3"}]
        )
        assert counts.inserted == 2


def _waiting_on_a_lock(conn: psycopg.Connection, pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = conn.execute(
            "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)
        ).fetchone()
        if row and row[0] == "Lock":
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("first_commits", [True, False])
def test_two_writers_at_a_cap_count_one_after_the_other(world, connect, first_commits):
    """The first writer reaches the cap and holds the cap's row lock until it ends; the
    second waits for it, then counts what the first committed: refused if it committed,
    admitted if it rolled back. Neither slips past the cap."""
    connect("admin").execute("SELECT memory.set_quota(%s, 'nodes', 2)", (world.tenant_a,))
    first = connect("app_a", autocommit=False)
    second = connect("app_a")
    watcher = connect()
    first.execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        (world.tenant_a, world.sim_a, nodes("a", "b")),
    )
    outcome: list[object] = []

    def write() -> None:
        try:
            second.execute(
                "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
                (world.tenant_a, world.sim_a, nodes("c")),
            )
            outcome.append("ok")
        except psycopg.Error as exc:
            outcome.append(exc.sqlstate)

    thread = threading.Thread(target=write)
    thread.start()
    assert _waiting_on_a_lock(watcher, second.info.backend_pid), "the second writer did not wait"
    first.commit() if first_commits else first.rollback()
    thread.join(30)
    assert outcome == (["53400"] if first_commits else ["ok"])
    stored = watcher.execute(
        "SELECT count(*) FROM memory.nodes WHERE tenant_id = %s", (world.tenant_a,)
    ).fetchone()[0]
    assert stored == (2 if first_commits else 1)


def test_another_tenant_never_waits_on_a_cap_lock(world, connect):
    admin = connect("admin")
    admin.execute("SELECT memory.set_quota(%s, 'nodes', 10)", (world.tenant_a,))
    admin.execute("SELECT memory.set_quota(%s, 'nodes', 10)", (world.tenant_b,))
    holder = connect("app_a", autocommit=False)
    holder.execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)", (world.tenant_a, world.sim_a, nodes("a"))
    )
    other = connect("app_b")
    other.execute("SET lock_timeout = '2s'")
    started = time.monotonic()
    other.execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)", (world.tenant_b, world.sim_b, nodes("b"))
    )
    assert time.monotonic() - started < 1.5
    holder.rollback()


def test_quota_commands_set_and_list_by_tenant_name(world, capsys):
    admin = world.dsn("admin")
    code, out, err = run(
        capsys,
        "--dsn",
        admin,
        "quota",
        "set",
        "--tenant",
        "tenant-a",
        "--kind",
        "simulations",
        "--max",
        "1",
    )
    assert code == 0, err
    lines = {line.split()[0]: line.split() for line in out.splitlines()[2:] if line.strip()}
    assert lines["simulations"][1:3] == ["1", "1"] and lines["nodes"][1:3] == ["none", "0"]

    with Memory(world.dsn("app_a")) as app, pytest.raises(QuotaExceeded):
        app.upsert_simulation(world.tenant_a, uuid.uuid4(), "one too many")

    code, out, err = run(capsys, "--dsn", admin, "quota", "list", "--tenant", str(world.tenant_a))
    assert code == 0, err
    assert "simulations" in out and "admin" in out

    code, out, err = run(
        capsys,
        "--dsn",
        admin,
        "quota",
        "set",
        "--tenant",
        "tenant-a",
        "--kind",
        "simulations",
        "--max",
        "none",
    )
    assert code == 0, err
    lines = {line.split()[0]: line.split() for line in out.splitlines()[2:] if line.strip()}
    assert lines["simulations"][1] == "none"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--kind", "nodes", "--max", "lots"], "--max"),
        (["--kind", "nodes", "--max", "-3"], "--max"),
        (["--kind", "vertices", "--max", "3"], "[22023]"),
    ],
)
def test_quota_set_refuses_bad_values_in_one_line(world, capsys, argv, needle):
    code, out, err = run(
        capsys, "--dsn", world.dsn("admin"), "quota", "set", "--tenant", "tenant-a", *argv
    )
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert out == ""


def test_a_writer_may_not_set_a_quota_from_the_cli(world, capsys):
    code, _, err = run(
        capsys,
        "--dsn",
        world.dsn("app_a"),
        "quota",
        "set",
        "--tenant",
        "tenant-a",
        "--kind",
        "nodes",
        "--max",
        "9",
    )
    assert code == 2 and "[42501]" in err


# --- role create ----------------------------------------------------------------------------


@pytest.fixture
def role_name(world, connect):
    """A fresh login role name; the role is dropped afterwards (roles are the cluster's)."""
    name = f"gw_{uuid.uuid4().hex[:10]}"
    yield name
    connect().execute(f'DROP ROLE IF EXISTS "{name}"')


def _limits(conn: psycopg.Connection, name: str) -> tuple[int | None, list[str]]:
    row = conn.execute("SELECT rolconnlimit FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
    settings = (
        conn.execute(
            "SELECT coalesce(s.setconfig, '{}') FROM pg_db_role_setting AS s"
            " WHERE s.setrole = %s::regrole AND s.setdatabase = 0",
            (name,),
        ).fetchone()
        if row
        else None
    )
    return (row[0] if row else None), (list(settings[0]) if settings else [])


@pytest.mark.parametrize(
    ("kind", "timeout", "ms"), [("--writer", "5min", "300000"), ("--reader", "60s", "60000")]
)
def test_role_create_sets_a_statement_timeout_and_a_connection_limit(
    world, connect, capsys, monkeypatch, role_name, kind, timeout, ms
):
    monkeypatch.setenv("GW_PASSWORD", "s3cret-for-the-test")
    code, out, err = run(
        capsys, "--dsn", world.dsn(), "role", "create", role_name, kind,
        "--tenant", str(world.tenant_a), "--password-env", "GW_PASSWORD",
    )  # fmt: skip
    assert code == 0, err
    assert f"statement_timeout {timeout}" in out and "connection limit 20" in out
    assert _limits(connect(), role_name) == (20, [f"statement_timeout={timeout}"])
    # a session of the role starts with it
    with psycopg.connect(world.dsn(role_name), password="s3cret-for-the-test") as conn:
        setting = "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'"
        assert conn.execute(setting).fetchone()[0] == ms


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            ["--statement-timeout", "500ms", "--connection-limit", "3"],
            (3, ["statement_timeout=500ms"]),
        ),
        (
            ["--statement-timeout", "90", "--connection-limit", "100"],
            (100, ["statement_timeout=90ms"]),
        ),
        (["--statement-timeout", "none", "--connection-limit", "0"], (-1, [])),
        (["--statement-timeout", "0", "--connection-limit", "none"], (-1, [])),
    ],
)
def test_role_create_options_change_or_lift_the_limits(
    world, connect, capsys, monkeypatch, role_name, options, expected
):
    monkeypatch.setenv("GW_PASSWORD", "pw")
    code, _, err = run(
        capsys, "--dsn", world.dsn(), "role", "create", role_name, "--writer",
        "--tenant", str(world.tenant_a), "--password-env", "GW_PASSWORD", *options,
    )  # fmt: skip
    assert code == 0, err
    assert _limits(connect(), role_name) == expected


@pytest.mark.parametrize(
    "options",
    [
        ["--statement-timeout", "10 parsecs"],
        ["--statement-timeout=-5s"],
        ["--statement-timeout", "30d"],  # over PostgreSQL's limit of about 24 days
        ["--connection-limit", "-5"],
        ["--connection-limit", "many"],
        ["--connection-limit", "20000"],
    ],
)
def test_role_create_refuses_bad_limits_in_one_line_and_creates_nothing(
    world, connect, capsys, monkeypatch, role_name, options
):
    monkeypatch.setenv("GW_PASSWORD", "pw")
    code, out, err = run(
        capsys, "--dsn", world.dsn(), "role", "create", role_name, "--reader",
        "--tenant", str(world.tenant_a), "--password-env", "GW_PASSWORD", *options,
    )  # fmt: skip
    assert (
        code == 2
        and err.startswith("error: " + options[0].split("=")[0])
        and len(err.strip().splitlines()) == 1
    )
    assert out == ""
    assert _limits(connect(), role_name) == (None, [])
