"""Tenant isolation across sessions: what pgTAP cannot show inside one transaction.

Every other isolation property (grants, refusals, row-level security, forged settings, the
same ids in two tenants) is tested in pgTAP: sql/tests/004_grants_and_isolation.sql and
010_admin.sql.
"""

from __future__ import annotations

import uuid

import psycopg
import pytest
from helpers import seed_simulation


def test_revoke_by_another_session_takes_effect_in_an_open_session(world, connect):
    """The grant is looked up on every call and by every policy, not remembered per session:
    a revoke committed by the administrator's session closes app_a's open session at once."""
    seed_simulation(connect("app_a"), world.tenant_a, world.sim_a, "A", "only-in-a")
    conn = connect("app_a")
    get_node = "SELECT * FROM memory.get_node(%s, %s, 'shared-1')"
    assert conn.execute(get_node, (world.tenant_a, world.sim_a)).fetchall()
    conn.execute("SELECT set_config('memory.tenant_id', %s, false)", (str(world.tenant_a),))
    assert conn.execute("SELECT count(*) FROM memory.nodes").fetchone() == (3,)
    connect("admin").execute("SELECT memory.revoke_tenant('app_a', %s)", (world.tenant_a,))
    assert conn.execute("SELECT count(*) FROM memory.nodes").fetchone() == (0,)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(get_node, (world.tenant_a, world.sim_a))


@pytest.fixture
def login_roles(world):
    """make(grants_sql) -> a fresh login role (a writer) with a unique name, dropped after the
    test: roles are cluster-wide. The SQL may name the role as {role}."""
    made: list[str] = []

    def _make(extra_sql: str = "") -> str:
        role = f"iso_{uuid.uuid4().hex[:12]}"
        with world.connect() as conn:
            conn.execute(f'CREATE ROLE "{role}" LOGIN IN ROLE memory_writer')
            if extra_sql:
                conn.execute(extra_sql.format(role=f'"{role}"'))
        made.append(role)
        return role

    yield _make
    with world.connect() as conn:
        for role in made:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (role,)
            )
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def test_set_role_to_a_granted_role_acts_as_that_role_everywhere(world, connect, login_roles):
    """A login session that may SET ROLE to app_a (but does not inherit it) is refused A as
    itself, and after SET ROLE app_a acts as app_a in every function, the SECURITY DEFINER
    ones included (memory._acting_role), until RESET ROLE."""
    seed_simulation(connect("app_a"), world.tenant_a, world.sim_a, "A", "only-in-a")
    role = login_roles("GRANT app_a TO {role} WITH INHERIT FALSE, SET TRUE")
    conn = connect(role)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(
            "SELECT * FROM memory.get_node(%s, %s, 'shared-1')", (world.tenant_a, world.sim_a)
        )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(
            "SELECT * FROM memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
        )
    conn.execute("SET ROLE app_a")
    assert conn.execute(
        "SELECT name FROM memory.get_node(%s, %s, 'shared-1')", (world.tenant_a, world.sim_a)
    ).fetchone() == ("A one",)
    assert conn.execute(
        "SELECT nodes FROM memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
    ).fetchone() == (3,)
    conn.execute("RESET ROLE")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM memory.simulation_stats(%s, %s)", (world.tenant_a, world.sim_a))


def test_a_grant_dies_with_its_role_across_sessions(world, connect, login_roles):
    """A role granted A, dropped and created again under the same name by another session:
    a new login as that name is refused A, sees nothing of it with a forged setting, and the
    audit reports the orphaned grant until the next grant_tenant removes it."""
    seed_simulation(connect("app_a"), world.tenant_a, world.sim_a, "A", "only-in-a")
    role = login_roles()
    connect("admin").execute("SELECT memory.grant_tenant(%s, %s)", (role, world.tenant_a))
    first = connect(role)
    assert first.execute(
        "SELECT count(*) FROM memory.nodes_by_type(%s, %s, NULL)", (world.tenant_a, world.sim_a)
    ).fetchone() == (3,)
    first.close()
    with world.connect() as su:
        su.execute(f'DROP ROLE "{role}"')
        su.execute(f'CREATE ROLE "{role}" LOGIN IN ROLE memory_writer')
    again = connect(role)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        again.execute(
            "SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (world.tenant_a, world.sim_a)
        )
    again.execute("SELECT set_config('memory.tenant_id', %s, false)", (str(world.tenant_a),))
    assert again.execute("SELECT count(*) FROM memory.nodes").fetchone() == (0,)
    admin = connect("admin")
    orphan = f"grant of tenant {world.tenant_a} to {role}"
    audit = dict(
        admin.execute("SELECT table_name, problem FROM memory.rls_audit() WHERE NOT ok").fetchall()
    )
    assert "was dropped" in audit[orphan]
    admin.execute("SELECT memory.grant_tenant('app_b', %s)", (world.tenant_b,))
    assert admin.execute(
        "SELECT count(*) FROM memory.rls_audit() WHERE table_name = %s", (orphan,)
    ).fetchone() == (0,)
