"""Tenant isolation across sessions: what pgTAP cannot show inside one transaction.

Every other isolation property (grants, refusals, row-level security, forged settings, the
same ids in two tenants) is tested in pgTAP: sql/tests/004_grants_and_isolation.sql and
010_admin.sql.
"""

from __future__ import annotations

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
