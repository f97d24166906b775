"""The admin API: create_tenant, grant_tenant, revoke_tenant and rls_audit."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from swarm_memory import Conflict, InvalidInput, Memory, NotFound


def grants(su, tenant) -> list[tuple]:
    return su.execute(
        "SELECT role_name, granted_by FROM memory.tenant_grants WHERE tenant_id = %s ORDER BY 1",
        (tenant,),
    ).fetchall()


def test_create_tenant(world, connect):
    admin, su = connect("admin"), connect()
    new = admin.execute("SELECT memory.create_tenant('tenant-c')").fetchone()[0]
    assert isinstance(new, uuid.UUID)
    assert new not in (world.tenant_a, world.tenant_b)
    assert su.execute(
        "SELECT name FROM memory.tenants WHERE tenant_id = %s", (new,)
    ).fetchone() == ("tenant-c",)
    # repeating the call returns the same tenant and adds nothing
    assert admin.execute("SELECT memory.create_tenant('tenant-c')").fetchone()[0] == new
    assert admin.execute("SELECT memory.create_tenant('tenant-c', %s)", (new,)).fetchone()[0] == new
    assert su.execute("SELECT count(*) FROM memory.tenants").fetchone() == (3,)
    # an explicit id is used as given
    chosen = uuid.uuid4()
    assert (
        admin.execute("SELECT memory.create_tenant('tenant-d', %s)", (chosen,)).fetchone()[0]
        == chosen
    )


def test_create_tenant_conflicts_and_nulls(world, connect):
    admin, su = connect("admin"), connect()
    before = su.execute("SELECT * FROM memory.tenants ORDER BY 1").fetchall()
    with pytest.raises(psycopg.errors.UniqueViolation) as exc:  # name taken by another id
        admin.execute("SELECT memory.create_tenant('tenant-a', %s)", (uuid.uuid4(),))
    assert "tenant-a" in exc.value.diag.message_primary and exc.value.diag.message_hint
    with pytest.raises(psycopg.errors.UniqueViolation) as exc:  # id taken under another name
        admin.execute("SELECT memory.create_tenant('tenant-new', %s)", (world.tenant_a,))
    assert str(world.tenant_a) in exc.value.diag.message_primary
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        admin.execute("SELECT memory.create_tenant(NULL)")
    with pytest.raises(psycopg.Error) as exc:
        admin.execute("SELECT memory.create_tenant('')")
    assert exc.value.sqlstate.startswith("22")
    assert su.execute("SELECT * FROM memory.tenants ORDER BY 1").fetchall() == before


def test_create_and_grant_a_new_tenant_end_to_end(world, connect):
    admin = connect("admin")
    new = admin.execute("SELECT memory.create_tenant('tenant-e')").fetchone()[0]
    sim = uuid.uuid4()
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        connect("nobody").execute("SELECT memory.upsert_simulation(%s, %s)", (new, sim))
    admin.execute("SELECT memory.grant_tenant('nobody', %s)", (new,))
    conn = connect("nobody")
    conn.execute("SELECT memory.upsert_simulation(%s, %s, 'e')", (new, sim))
    assert conn.execute(
        "SELECT name FROM memory.simulation_stats(%s, %s)", (new, sim)
    ).fetchone() == ("e",)


def test_grant_tenant(world, connect):
    admin, su = connect("admin"), connect()
    assert grants(su, world.tenant_b) == [("app_b", "admin")]
    admin.execute("SELECT memory.grant_tenant('reader_a', %s)", (world.tenant_b,))
    admin.execute("SELECT memory.grant_tenant('reader_a', %s)", (world.tenant_b,))  # idempotent
    assert grants(su, world.tenant_b) == [("app_b", "admin"), ("reader_a", "admin")]
    rows = (
        connect("reader_a")
        .execute("SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (world.tenant_b, world.sim_b))
        .fetchall()
    )
    assert rows == []


def test_grant_tenant_errors(world, connect):
    admin, su = connect("admin"), connect()
    before = su.execute("SELECT * FROM memory.tenant_grants ORDER BY 1, 2").fetchall()
    with pytest.raises(psycopg.errors.UndefinedObject) as exc:
        admin.execute("SELECT memory.grant_tenant('no_such_role_x', %s)", (world.tenant_a,))
    assert "no_such_role_x" in exc.value.diag.message_primary and exc.value.diag.message_hint
    ghost = uuid.uuid4()
    with pytest.raises(psycopg.errors.NoDataFound) as exc:
        admin.execute("SELECT memory.grant_tenant('app_b', %s)", (ghost,))
    assert str(ghost) in exc.value.diag.message_primary
    for args in (("NULL", "%s"), ("'app_b'", "NULL")):
        with pytest.raises(psycopg.errors.NullValueNotAllowed):
            admin.execute(
                f"SELECT memory.grant_tenant({args[0]}, {args[1]})",
                (world.tenant_a,) if "%s" in args else (),
            )
        with pytest.raises(psycopg.errors.NullValueNotAllowed):
            admin.execute(
                f"SELECT memory.revoke_tenant({args[0]}, {args[1]})",
                (world.tenant_a,) if "%s" in args else (),
            )
    assert su.execute("SELECT * FROM memory.tenant_grants ORDER BY 1, 2").fetchall() == before


def test_revoke_tenant(world, connect):
    admin, su = connect("admin"), connect()
    admin.execute("SELECT memory.revoke_tenant('reader_a', %s)", (world.tenant_a,))
    assert grants(su, world.tenant_a) == [("app_a", "admin")]
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        connect("reader_a").execute(
            "SELECT * FROM memory.get_node(%s, %s, 'x')", (world.tenant_a, world.sim_a)
        )
    # revoking what is not there changes nothing
    admin.execute("SELECT memory.revoke_tenant('reader_a', %s)", (world.tenant_a,))
    admin.execute("SELECT memory.revoke_tenant('no_such_role_x', %s)", (uuid.uuid4(),))
    assert grants(su, world.tenant_a) == [("app_a", "admin")]


def test_admin_functions_through_the_client(world):
    with Memory(world.dsn("admin")) as mem:
        t = mem.create_tenant("client-tenant")
        assert mem.create_tenant("client-tenant") == t
        with pytest.raises(Conflict) as exc:
            mem.create_tenant("client-tenant", uuid.uuid4())
        assert exc.value.sqlstate == "23505"
        with pytest.raises(NotFound):
            mem.grant_tenant("app_a", uuid.uuid4())
        with pytest.raises(InvalidInput):
            mem.create_tenant(None)  # type: ignore[arg-type]
        mem.grant_tenant("app_a", t)
        mem.revoke_tenant("app_a", t)
        audit = mem.rls_audit()
        assert audit and all(row.ok for row in audit)


# -- rls_audit --------------------------------------------------------------------------


def audit(conn) -> dict[str, tuple]:
    return {r[0]: r[1:] for r in conn.execute("SELECT * FROM memory.rls_audit()").fetchall()}


def test_rls_audit_reports_every_table_ok(world, connect):
    su = connect()
    tables = {
        r[0]
        for r in su.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p')"
        )
    }
    report = audit(connect("admin"))
    assert set(report) == tables
    assert {
        "tenants",
        "tenant_grants",
        "simulations",
        "nodes",
        "edges",
        "episodes",
        "profiles",
    } <= tables
    for table, (enabled, forced, policies, ok, problem) in report.items():
        assert (enabled, forced, ok, problem) == (True, True, True, None), table
        expected = sorted(
            r[0]
            for r in su.execute(
                "SELECT polname FROM pg_policy WHERE polrelid = %s::regclass", (f"memory.{table}",)
            )
        )
        assert policies == expected and policies, table
    assert "readers_see_rows_of_the_granted_call_tenant" in report["nodes"][2]


def test_rls_audit_finds_rls_disabled_or_not_forced(world, connect):
    su = connect()
    su.execute("ALTER TABLE memory.nodes NO FORCE ROW LEVEL SECURITY")
    su.execute("ALTER TABLE memory.edges DISABLE ROW LEVEL SECURITY")
    report = audit(connect("admin"))
    assert report["nodes"][:2] == (True, False) and report["nodes"][3] is False
    assert "not forced" in report["nodes"][4]
    assert report["edges"][0] is False and report["edges"][3] is False
    assert "disabled" in report["edges"][4]
    assert report["episodes"][3] is True


def test_rls_audit_finds_missing_and_true_policies(world, connect):
    su = connect()
    for (pol,) in su.execute(
        "SELECT polname FROM pg_policy WHERE polrelid = 'memory.profiles'::regclass"
    ).fetchall():
        su.execute(f'DROP POLICY "{pol}" ON memory.profiles')
    su.execute("CREATE POLICY anyone_sees_everything ON memory.episodes FOR SELECT USING (true)")
    su.execute("CREATE POLICY anyone_adds ON memory.simulations FOR INSERT WITH CHECK (true)")
    report = audit(connect("admin"))
    assert report["profiles"][2] == [] and report["profiles"][3] is False
    assert "no policy" in report["profiles"][4]
    assert report["episodes"][3] is False
    assert "anyone_sees_everything" in report["episodes"][4]
    assert report["simulations"][3] is False and "anyone_adds" in report["simulations"][4]
    assert report["nodes"][3] is True


def test_rls_audit_finds_a_bypassrls_role_that_reaches_the_tables(world, connect):
    # Roles are cluster-wide and other test sessions share the server: the roles made here
    # hold privileges in this test's database only (never membership of memory_reader etc.).
    su = connect()
    tag = uuid.uuid4().hex[:12]
    role, group = f"bypass_{tag}", f"group_{tag}"
    su.execute(f'CREATE ROLE "{role}" BYPASSRLS NOLOGIN')
    su.execute(f'CREATE ROLE "{group}" NOLOGIN')
    try:
        assert all(r[3] for r in audit(connect("admin")).values())  # no privilege yet
        su.execute(f'GRANT SELECT ON memory.edges TO "{role}"')
        report = audit(connect("admin"))
        assert report["edges"][3] is False and role in report["edges"][4]
        assert report["nodes"][3] is True
        # through a group role as well
        su.execute(f'REVOKE SELECT ON memory.edges FROM "{role}"')
        su.execute(f'GRANT DELETE ON memory.nodes TO "{group}"')
        su.execute(f'GRANT "{group}" TO "{role}"')
        report = audit(connect("admin"))
        assert report["nodes"][3] is False and role in report["nodes"][4]
        assert report["edges"][3] is True
    finally:
        su.execute(f'REVOKE ALL ON ALL TABLES IN SCHEMA memory FROM "{role}", "{group}"')
        su.execute(f'DROP ROLE "{role}"')
        su.execute(f'DROP ROLE "{group}"')
