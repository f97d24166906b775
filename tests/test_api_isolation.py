"""Tenant isolation: every API function and every table, as a role granted another tenant,
as a role granted nothing, and with a forged `memory.tenant_id` session setting.

Both tenants hold data of the same shape (and partly the same upstream ids), so a leak would
show up as a row or a count that belongs to the other tenant. Vectors are synthetic numpy
unit vectors (fixed seeds), not model output.
"""

from __future__ import annotations

import contextlib
import uuid

import numpy as np
import psycopg
import pytest
from psycopg.types.json import Jsonb

TABLES = ["tenants", "tenant_grants", "simulations", "nodes", "edges", "episodes", "profiles"]
DATA_TABLES = TABLES[2:]


def vec(seed: int) -> list[float]:
    v = np.random.default_rng(seed).normal(size=384)
    return [float(x) for x in v / np.linalg.norm(v)]


def vec_text(seed: int) -> str:
    return "[" + ",".join(repr(x) for x in vec(seed)) + "]"


def load(conn, tenant, sim, tag: str, extra_node: str) -> None:
    """Same ids in both tenants (shared-1, shared-2) plus one id only this tenant has."""
    nodes = [
        {"id": "shared-1", "name": f"{tag} one", "type": "Person", "embedding": vec(1)},
        {"id": "shared-2", "name": f"{tag} two", "type": "Person", "embedding": vec(2)},
        {"id": extra_node, "name": f"{tag} own", "type": "Person", "embedding": vec(3)},
    ]
    conn.execute("SELECT * FROM memory.upsert_nodes(%s, %s, %s)", (tenant, sim, Jsonb(nodes)))
    edges = [
        {
            "id": "e1",
            "type": "KNOWS",
            "source_id": "shared-1",
            "target_id": "shared-2",
            "fact": f"{tag} fact",
        },
        {"id": "e2", "type": "KNOWS", "source_id": "shared-2", "target_id": extra_node},
    ]
    conn.execute("SELECT * FROM memory.upsert_edges(%s, %s, %s)", (tenant, sim, Jsonb(edges)))
    episodes = [
        {
            "id": f"{tag}-ep{i}",
            "agent_id": i,
            "action_type": "CREATE_POST",
            "platform": tag,
            "content": f"{tag} says {i}",
            "embedding": vec(10 + i),
        }
        for i in range(3)
    ]
    conn.execute("SELECT * FROM memory.upsert_episodes(%s, %s, %s)", (tenant, sim, Jsonb(episodes)))
    conn.execute(
        "SELECT * FROM memory.upsert_profiles(%s, %s, %s)",
        (tenant, sim, Jsonb([{"agent_id": 1, "platform": tag, "name": tag}])),
    )


@pytest.fixture
def loaded(world, connect):
    load(connect("app_a"), world.tenant_a, world.sim_a, "A", "only-in-a")
    load(connect("app_b"), world.tenant_b, world.sim_b, "B", "only-in-b")
    return world


def all_tables(su) -> list[str]:
    """Every table of schema memory, including any added after the seven of V0001."""
    rows = su.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n"
        " ON n.oid = c.relnamespace WHERE n.nspname = 'memory'"
        " AND c.relkind IN ('r', 'p') ORDER BY 1"
    ).fetchall()
    names = [r[0] for r in rows]
    assert set(TABLES) <= set(names)
    return names


def everything(su) -> dict[str, list[tuple]]:
    return {
        t: su.execute(f"SELECT * FROM memory.{t} ORDER BY 1, 2").fetchall() for t in all_tables(su)
    }


def api_calls(tenant, sim) -> list[tuple[str, str, tuple]]:
    """(name, sql, params) for every tenant-scoped API function, with valid arguments."""
    return [
        ("upsert_simulation", "SELECT memory.upsert_simulation(%s, %s, 'renamed')", (tenant, sim)),
        (
            "upsert_nodes",
            "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
            (tenant, sim, Jsonb([{"id": "shared-1", "name": "hijacked"}])),
        ),
        (
            "upsert_edges",
            "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
            (
                tenant,
                sim,
                Jsonb(
                    [{"id": "e1", "type": "X", "source_id": "shared-2", "target_id": "shared-1"}]
                ),
            ),
        ),
        (
            "upsert_episodes",
            "SELECT * FROM memory.upsert_episodes(%s, %s, %s)",
            (tenant, sim, Jsonb([{"id": "A-ep0", "action_type": "HIJACK"}])),
        ),
        (
            "upsert_profiles",
            "SELECT * FROM memory.upsert_profiles(%s, %s, %s)",
            (tenant, sim, Jsonb([{"agent_id": 1, "platform": "A", "name": "hijacked"}])),
        ),
        ("delete_simulation", "SELECT * FROM memory.delete_simulation(%s, %s)", (tenant, sim)),
        ("nodes_by_type", "SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (tenant, sim)),
        ("get_node", "SELECT * FROM memory.get_node(%s, %s, 'shared-1')", (tenant, sim)),
        ("neighbors", "SELECT * FROM memory.neighbors(%s, %s, 'shared-1', 20)", (tenant, sim)),
        (
            "search_episodes",
            "SELECT * FROM memory.search_episodes(%s, %s, %s::public.vector)",
            (tenant, sim, vec_text(10)),
        ),
        (
            "search_nodes",
            "SELECT * FROM memory.search_nodes(%s, %s, %s::public.vector)",
            (tenant, sim, vec_text(1)),
        ),
        ("simulation_stats", "SELECT * FROM memory.simulation_stats(%s, %s)", (tenant, sim)),
    ]


FUNCTIONS = [c[0] for c in api_calls(None, None)]
SIM_FUNCTIONS = [f for f in FUNCTIONS if f != "upsert_simulation"]


def call(conn, name: str, tenant, sim):
    sql, params = next((s, p) for n, s, p in api_calls(tenant, sim) if n == name)
    return conn.execute(sql, params).fetchall()


# -- positive control: the same calls work for the granted tenant ---------------------


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_function_works_for_the_granted_tenant(loaded, connect, name):
    role = (
        "reader_a"
        if name
        in (
            "nodes_by_type",
            "get_node",
            "neighbors",
            "search_episodes",
            "search_nodes",
            "simulation_stats",
        )
        else "app_a"
    )
    rows = call(connect(role), name, loaded.tenant_a, loaded.sim_a)
    assert rows


# -- another tenant's grant, no grant, an unknown tenant: 42501 -----------------------


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("role", ["app_b", "nobody"])
def test_every_function_refuses_a_tenant_the_role_is_not_granted(loaded, connect, name, role):
    su = connect()
    before = everything(su)
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as exc:
        call(connect(role), name, loaded.tenant_a, loaded.sim_a)
    assert str(loaded.tenant_a) in exc.value.diag.message_primary
    assert exc.value.diag.message_hint
    assert everything(su) == before


@pytest.mark.parametrize("name", FUNCTIONS)
def test_unknown_tenant_is_refused_exactly_like_a_foreign_one(loaded, connect, name):
    conn = connect("app_b")
    ghost = uuid.uuid4()
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as foreign:
        call(conn, name, loaded.tenant_a, loaded.sim_a)
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as unknown:
        call(conn, name, ghost, loaded.sim_a)
    assert foreign.value.diag.message_primary.replace(
        str(loaded.tenant_a), "T"
    ) == unknown.value.diag.message_primary.replace(str(ghost), "T")


def test_null_tenant_is_22004(loaded, connect):
    for name in FUNCTIONS:
        with pytest.raises(psycopg.errors.NullValueNotAllowed):
            call(connect("app_a"), name, None, loaded.sim_a)


BAD_ARGUMENTS = [
    ("SELECT * FROM memory.upsert_nodes(%s, NULL, NULL)", ()),
    ('SELECT * FROM memory.upsert_nodes(%s, %s, \'{"not": "an array"}\')', ("sim",)),
    ("SELECT * FROM memory.upsert_nodes(%s, %s, '[]')", ("ghost",)),
    (
        "SELECT * FROM memory.upsert_edges(%s, %s, "
        '\'[{"id": "x", "type": "T", "source_id": "ghost", "target_id": "g"}]\')',
        ("sim",),
    ),
    ("SELECT * FROM memory.upsert_episodes(%s, %s, '[{}]')", ("sim",)),
    ("SELECT * FROM memory.upsert_profiles(%s, %s, '[1]')", ("sim",)),
    ("SELECT memory.upsert_simulation(%s, NULL)", ()),
    ("SELECT memory.upsert_simulation(%s, %s, NULL, '[1]')", ("sim",)),
    ("SELECT * FROM memory.neighbors(%s, %s, 'no-such-node')", ("sim",)),
    ("SELECT * FROM memory.neighbors(%s, %s, 'shared-1', 1, NULL, 'sideways')", ("sim",)),
    ("SELECT * FROM memory.get_node(%s, %s, NULL)", ("sim",)),
    ("SELECT * FROM memory.get_node(%s, %s, 'shared-1')", ("ghost",)),
    ("SELECT * FROM memory.search_nodes(%s, %s, '[0,0,0]')", ("sim",)),
    ("SELECT * FROM memory.search_episodes(%s, %s, NULL)", ("sim",)),
    ("SELECT * FROM memory.delete_simulation(%s, %s)", ("ghost",)),
    ("SELECT * FROM memory.simulation_stats(%s, NULL)", ()),
]


@pytest.mark.parametrize(("sql", "extra"), BAD_ARGUMENTS)
def test_grant_is_checked_before_any_argument(loaded, connect, sql, extra):
    """A caller without a grant learns nothing from its arguments: always 42501."""
    su = connect()
    before = everything(su)
    values = {"sim": loaded.sim_a, "ghost": uuid.uuid4()}
    params = (loaded.tenant_a, *(values[x] for x in extra))
    for role in ("nobody", "app_b"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connect(role).execute(sql, params)
    # and the granted role does get past the grant to the argument's own error
    with pytest.raises(psycopg.Error) as exc:
        connect("app_a").execute(sql, params)
    assert exc.value.sqlstate != "42501"
    assert everything(su) == before


@pytest.mark.parametrize(
    "name",
    [
        "upsert_simulation",
        "upsert_nodes",
        "upsert_edges",
        "upsert_episodes",
        "upsert_profiles",
        "delete_simulation",
    ],
)
def test_reader_cannot_write(loaded, connect, name):
    su = connect()
    before = everything(su)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(connect("reader_a"), name, loaded.tenant_a, loaded.sim_a)
    assert everything(su) == before


ADMIN_CALLS = [
    ("SELECT memory.create_tenant('evil')", ()),
    ("SELECT memory.grant_tenant(current_user, %s)", ("a",)),
    ("SELECT memory.revoke_tenant('app_a', %s)", ("a",)),
    ("SELECT * FROM memory.rls_audit()", ()),
]


@pytest.mark.parametrize(("sql", "args"), ADMIN_CALLS)
@pytest.mark.parametrize("role", ["app_a", "app_b", "reader_a", "nobody"])
def test_only_admins_run_admin_functions(loaded, connect, sql, args, role):
    su = connect()
    before = everything(su)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        connect(role).execute(sql, tuple(loaded.tenant_a for _ in args))
    assert everything(su) == before


def test_admin_cannot_read_or_write_tenant_data(loaded, connect):
    admin = connect("admin")
    for name in FUNCTIONS:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            call(admin, name, loaded.tenant_a, loaded.sim_a)
    for table in DATA_TABLES:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            admin.execute(f"SELECT * FROM memory.{table}")


# -- another tenant's simulation or node: P0002, as if it did not exist ---------------


@pytest.mark.parametrize("name", SIM_FUNCTIONS)
def test_foreign_simulation_is_p0002_exactly_like_a_missing_one(loaded, connect, name):
    su = connect()
    before = everything(su)
    conn = connect("app_b")
    ghost = uuid.uuid4()
    with pytest.raises(psycopg.errors.NoDataFound) as foreign:
        call(conn, name, loaded.tenant_b, loaded.sim_a)
    with pytest.raises(psycopg.errors.NoDataFound) as missing:
        call(conn, name, loaded.tenant_b, ghost)
    assert foreign.value.diag.message_primary.replace(
        str(loaded.sim_a), "S"
    ) == missing.value.diag.message_primary.replace(str(ghost), "S")
    assert foreign.value.diag.message_hint == missing.value.diag.message_hint
    assert everything(su) == before


@pytest.mark.parametrize("fn", ["get_node", "neighbors"])
def test_foreign_node_is_p0002_exactly_like_a_missing_one(loaded, connect, fn):
    conn = connect("app_b")
    sql = f"SELECT * FROM memory.{fn}(%s, %s, %s)"
    with pytest.raises(psycopg.errors.NoDataFound) as foreign:
        conn.execute(sql, (loaded.tenant_b, loaded.sim_b, "only-in-a"))
    with pytest.raises(psycopg.errors.NoDataFound) as missing:
        conn.execute(sql, (loaded.tenant_b, loaded.sim_b, "only-in-c"))
    assert foreign.value.diag.message_primary.replace(
        "only-in-a", "N"
    ) == missing.value.diag.message_primary.replace("only-in-c", "N")


def test_reads_return_only_the_callers_rows(loaded, connect):
    conn = connect("app_b")
    t, s = loaded.tenant_b, loaded.sim_b
    names = {r[1] for r in conn.execute("SELECT * FROM memory.nodes_by_type(%s, %s, NULL)", (t, s))}
    assert names == {"B one", "B two", "B own"}
    assert conn.execute(
        "SELECT name FROM memory.get_node(%s, %s, 'shared-1')", (t, s)
    ).fetchall() == [("B one",)]
    walk = conn.execute(
        "SELECT node_id, fact FROM memory.neighbors(%s, %s, 'shared-1', 20)", (t, s)
    ).fetchall()
    assert walk == [("shared-2", "B fact"), ("only-in-b", None)]
    hits = conn.execute(
        "SELECT episode_id FROM memory.search_episodes(%s, %s, %s::public.vector, 100)",
        (t, s, vec_text(10)),
    ).fetchall()
    assert sorted(h[0] for h in hits) == ["B-ep0", "B-ep1", "B-ep2"]
    hits = conn.execute(
        "SELECT node_id, name FROM memory.search_nodes(%s, %s, %s::public.vector, 100)",
        (t, s, vec_text(1)),
    ).fetchall()
    assert sorted(hits) == [("only-in-b", "B own"), ("shared-1", "B one"), ("shared-2", "B two")]
    stats = conn.execute(
        "SELECT nodes, edges, episodes, profiles, platforms FROM memory.simulation_stats(%s, %s)",
        (t, s),
    ).fetchone()
    assert stats == (3, 2, 3, 1, {"B": 3})


def test_same_simulation_id_in_two_tenants_stays_two_simulations(loaded, connect):
    su = connect()
    a_before = {
        t: [r for r in rows if r[0] == loaded.tenant_a]
        for t, rows in everything(su).items()
        if t in DATA_TABLES
    }
    b = connect("app_b")
    b.execute(
        "SELECT memory.upsert_simulation(%s, %s, 'B copy', %s)",
        (loaded.tenant_b, loaded.sim_a, Jsonb({"b": True})),
    )
    load(b, loaded.tenant_b, loaded.sim_a, "B2", "only-in-b2")
    assert b.execute(
        "SELECT * FROM memory.delete_simulation(%s, %s)", (loaded.tenant_b, loaded.sim_a)
    ).fetchone() == (3, 2, 3, 1)
    a_after = {
        t: [r for r in rows if r[0] == loaded.tenant_a]
        for t, rows in everything(su).items()
        if t in DATA_TABLES
    }
    assert a_after == a_before
    assert connect("reader_a").execute(
        "SELECT name, nodes FROM memory.simulation_stats(%s, %s)", (loaded.tenant_a, loaded.sim_a)
    ).fetchone() == ("sim-a", 3)


# -- edges cannot reach another tenant's nodes: 23503 ---------------------------------


def test_edge_aimed_at_another_tenants_node_is_23503(loaded, connect):
    su = connect()
    before = everything(su)
    conn = connect("app_b")
    with pytest.raises(psycopg.errors.ForeignKeyViolation) as exc:
        conn.execute(
            "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
            (
                loaded.tenant_b,
                loaded.sim_b,
                Jsonb(
                    [{"id": "x", "type": "T", "source_id": "shared-1", "target_id": "only-in-a"}]
                ),
            ),
        )
    assert "only-in-a" in exc.value.diag.message_primary
    # skipping treats it like any unknown node
    assert conn.execute(
        "SELECT * FROM memory.upsert_edges(%s, %s, %s, true)",
        (
            loaded.tenant_b,
            loaded.sim_b,
            Jsonb([{"id": "x", "type": "T", "source_id": "shared-1", "target_id": "only-in-a"}]),
        ),
    ).fetchone() == (0, 0, 0, 1)
    assert everything(su) == before


def test_direct_edge_insert_cannot_reference_another_tenants_rows(loaded, connect):
    conn = connect("app_b")
    conn.execute("SELECT set_config('memory.tenant_id', %s, false)", (str(loaded.tenant_b),))
    insert = (
        "INSERT INTO memory.edges (tenant_id, simulation_id, edge_id, type, source_id,"
        " target_id) VALUES (%s, %s, 'x', 'T', %s, %s)"
    )
    # positive control: a proper edge of B goes in
    conn.execute(insert, (loaded.tenant_b, loaded.sim_b, "shared-1", "only-in-b"))
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        conn.execute(
            insert.replace("'x'", "'y'"), (loaded.tenant_b, loaded.sim_b, "shared-1", "only-in-a")
        )
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        conn.execute(
            insert.replace("'x'", "'z'"), (loaded.tenant_b, loaded.sim_a, "shared-1", "shared-2")
        )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(
            insert.replace("'x'", "'w'"), (loaded.tenant_a, loaded.sim_a, "shared-1", "shared-2")
        )


# -- direct table access --------------------------------------------------------------


def forge(conn, tenant, local: bool = False) -> None:
    conn.execute("SELECT set_config('memory.tenant_id', %s, %s)", (str(tenant), local))


def test_positive_control_own_tenant_rows_are_visible_with_the_setting(loaded, connect):
    conn = connect("app_b")
    assert conn.execute("SELECT count(*) FROM memory.nodes").fetchone() == (0,)
    forge(conn, loaded.tenant_b)
    for table, n in [
        ("simulations", 1),
        ("nodes", 3),
        ("edges", 2),
        ("episodes", 3),
        ("profiles", 1),
        ("tenants", 1),
    ]:
        rows = conn.execute(f"SELECT tenant_id FROM memory.{table}").fetchall()
        assert rows == [(loaded.tenant_b,)] * n, table


@pytest.mark.parametrize("role", ["app_b", "nobody"])
@pytest.mark.parametrize("how", ["none", "set_config", "set_config_local", "SET"])
def test_direct_select_sees_nothing_of_another_tenant(loaded, connect, role, how):
    conn = connect(role, autocommit=False)
    if how == "set_config":
        forge(conn, loaded.tenant_a)
    elif how == "set_config_local":
        forge(conn, loaded.tenant_a, local=True)
    elif how == "SET":
        conn.execute(f"SET memory.tenant_id = '{loaded.tenant_a}'")
    for table in all_tables(connect()):
        rows = conn.execute(f"SELECT tenant_id FROM memory.{table}").fetchall()
        assert (loaded.tenant_a,) not in rows, table
        if table != "tenant_grants":  # a role sees its own grants, nothing else
            assert rows == [], table
    assert conn.execute("SELECT memory._current_tenant_id()").fetchone() == (None,)
    conn.rollback()


def test_setting_after_a_legitimate_call_gives_nothing(loaded, connect):
    conn = connect("app_b", autocommit=False)
    assert conn.execute(
        "SELECT count(*) FROM memory.nodes_by_type(%s, %s, NULL)", (loaded.tenant_b, loaded.sim_b)
    ).fetchone() == (3,)
    # the call made B the tenant of the transaction; B's rows are visible directly now
    assert conn.execute("SELECT count(*) FROM memory.nodes").fetchone() == (3,)
    forge(conn, loaded.tenant_a, local=True)
    assert conn.execute("SELECT count(*) FROM memory.nodes").fetchone() == (0,)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT memory._enter_tenant(%s)", (loaded.tenant_a,))
    conn.rollback()


INSERTS = {
    "tenants": ("INSERT INTO memory.tenants (tenant_id, name) VALUES (%(t)s, 'evil')"),
    "tenant_grants": (
        "INSERT INTO memory.tenant_grants (tenant_id, role_name) VALUES (%(t)s, current_user)"
    ),
    "simulations": (
        "INSERT INTO memory.simulations (tenant_id, simulation_id)"
        " VALUES (%(t)s, gen_random_uuid())"
    ),
    "nodes": (
        "INSERT INTO memory.nodes (tenant_id, simulation_id, node_id, name, type)"
        " VALUES (%(t)s, %(s)s, 'evil', 'evil', 'T')"
    ),
    "edges": (
        "INSERT INTO memory.edges (tenant_id, simulation_id, edge_id, type, source_id,"
        " target_id) VALUES (%(t)s, %(s)s, 'evil', 'T', 'shared-1', 'shared-2')"
    ),
    "episodes": (
        "INSERT INTO memory.episodes (tenant_id, simulation_id, episode_id, action_type)"
        " VALUES (%(t)s, %(s)s, 'evil', 'T')"
    ),
    "profiles": (
        "INSERT INTO memory.profiles (tenant_id, simulation_id, platform, agent_id)"
        " VALUES (%(t)s, %(s)s, 'evil', 99)"
    ),
}
UPDATES = {
    "tenants": "UPDATE memory.tenants SET name = name || 'x' WHERE tenant_id = %(t)s",
    "tenant_grants": "UPDATE memory.tenant_grants SET role_name = current_user"
    " WHERE tenant_id = %(t)s",
    "simulations": "UPDATE memory.simulations SET name = 'evil' WHERE tenant_id = %(t)s",
    "nodes": "UPDATE memory.nodes SET name = 'evil' WHERE tenant_id = %(t)s",
    "edges": "UPDATE memory.edges SET fact = 'evil' WHERE tenant_id = %(t)s",
    "episodes": "UPDATE memory.episodes SET content = 'evil' WHERE tenant_id = %(t)s",
    "profiles": "UPDATE memory.profiles SET bio = 'evil' WHERE tenant_id = %(t)s",
}


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("role", ["app_b", "nobody"])
@pytest.mark.parametrize("forged", [False, True])
def test_direct_writes_cannot_touch_another_tenant(loaded, connect, table, role, forged):
    su = connect()
    before = everything(su)
    conn = connect(role)
    if forged:
        forge(conn, loaded.tenant_a)
    params = {"t": loaded.tenant_a, "s": loaded.sim_a}
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(INSERTS[table], params)
    statements = [
        UPDATES[table],
        f"DELETE FROM memory.{table} WHERE tenant_id = %(t)s",
        f"DELETE FROM memory.{table}",
    ]
    for sql in statements:
        if table in ("tenants", "tenant_grants"):
            # only administrators may change these tables at all
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql, params)
        else:
            assert conn.execute(sql, params).rowcount == 0
    assert everything(su) == before


@pytest.mark.parametrize("role", ["app_b", "nobody"])
def test_every_table_refuses_generic_writes_to_another_tenant(loaded, connect, role):
    """Every table of the schema, also those added after V0001: copy a row of tenant A
    back in, change A's rows, delete them; with and without a forged setting."""
    su = connect()
    before = everything(su)
    conn = connect(role)
    for forged in (False, True):
        if forged:
            forge(conn, loaded.tenant_a)
        for table in all_tables(su):
            sample = su.execute(
                f"SELECT to_jsonb(t) FROM memory.{table} AS t WHERE tenant_id = %s LIMIT 1",
                (loaded.tenant_a,),
            ).fetchone()
            if sample is not None:
                # every column but the generated ones (surrogate keys computed from the ids)
                cols = ", ".join(
                    r[0]
                    for r in su.execute(
                        "SELECT quote_ident(attname) FROM pg_attribute"
                        " WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped"
                        " AND attgenerated = '' ORDER BY attnum",
                        (f"memory.{table}",),
                    ).fetchall()
                )
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(
                        f"INSERT INTO memory.{table} ({cols})"
                        f" SELECT {cols} FROM jsonb_populate_record(NULL::memory.{table}, %s)",
                        (Jsonb(sample[0]),),
                    )
            for sql in (
                f"UPDATE memory.{table} SET tenant_id = tenant_id WHERE tenant_id = %s",
                f"DELETE FROM memory.{table} WHERE tenant_id = %s",
            ):
                # no privilege on the table at all is just as good as no row reached
                with contextlib.suppress(psycopg.errors.InsufficientPrivilege):
                    assert conn.execute(sql, (loaded.tenant_a,)).rowcount == 0, (table, sql)
    assert everything(su) == before


@pytest.mark.parametrize("table", DATA_TABLES)
def test_own_rows_cannot_be_moved_to_another_tenant(loaded, connect, table):
    su = connect()
    before = everything(su)
    conn = connect("app_b")
    forge(conn, loaded.tenant_b)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(f"UPDATE memory.{table} SET tenant_id = %s", (loaded.tenant_a,))
    assert everything(su) == before


# -- grants and revokes ---------------------------------------------------------------


def test_revoke_takes_access_away_and_grant_gives_it_back(loaded, connect):
    admin = connect("admin")
    admin.execute("SELECT memory.revoke_tenant('app_a', %s)", (loaded.tenant_a,))
    for name in FUNCTIONS:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            call(connect("app_a"), name, loaded.tenant_a, loaded.sim_a)
    # the other grant for the tenant is untouched
    assert call(connect("reader_a"), "nodes_by_type", loaded.tenant_a, loaded.sim_a)
    admin.execute("SELECT memory.grant_tenant('app_a', %s)", (loaded.tenant_a,))
    assert call(connect("app_a"), "nodes_by_type", loaded.tenant_a, loaded.sim_a)


def test_revoke_in_the_middle_of_a_session(loaded, connect):
    conn = connect("app_a")
    assert call(conn, "get_node", loaded.tenant_a, loaded.sim_a)
    forge(conn, loaded.tenant_a)
    assert conn.execute("SELECT count(*) FROM memory.nodes").fetchone() == (3,)
    connect("admin").execute("SELECT memory.revoke_tenant('app_a', %s)", (loaded.tenant_a,))
    assert conn.execute("SELECT count(*) FROM memory.nodes").fetchone() == (0,)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(conn, "get_node", loaded.tenant_a, loaded.sim_a)


def test_grant_to_a_group_role_covers_its_members(loaded, connect):
    admin = connect("admin")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(connect("nobody"), "nodes_by_type", loaded.tenant_b, loaded.sim_b)
    admin.execute("SELECT memory.grant_tenant('memory_writer', %s)", (loaded.tenant_b,))
    for role in ("nobody", "app_a"):  # both are members of memory_writer
        rows = call(connect(role), "nodes_by_type", loaded.tenant_b, loaded.sim_b)
        assert {r[1] for r in rows} == {"B one", "B two", "B own"}
    with pytest.raises(psycopg.errors.InsufficientPrivilege):  # reader_a is not
        call(connect("reader_a"), "nodes_by_type", loaded.tenant_b, loaded.sim_b)
    admin.execute("SELECT memory.revoke_tenant('memory_writer', %s)", (loaded.tenant_b,))
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        call(connect("nobody"), "nodes_by_type", loaded.tenant_b, loaded.sim_b)


def test_role_granted_two_tenants_sees_one_per_call(loaded, connect):
    connect("admin").execute("SELECT memory.grant_tenant('app_a', %s)", (loaded.tenant_b,))
    conn = connect("app_a", autocommit=False)
    a = call(conn, "nodes_by_type", loaded.tenant_a, loaded.sim_a)
    assert {r[1] for r in a} == {"A one", "A two", "A own"}
    b = call(conn, "nodes_by_type", loaded.tenant_b, loaded.sim_b)
    assert {r[1] for r in b} == {"B one", "B two", "B own"}
    # in the same transaction the later call's tenant is the one in force
    assert {r[0] for r in conn.execute("SELECT tenant_id FROM memory.nodes")} == {loaded.tenant_b}
    with pytest.raises(psycopg.errors.NoDataFound):
        call(conn, "get_node", loaded.tenant_b, loaded.sim_a)
    conn.rollback()
