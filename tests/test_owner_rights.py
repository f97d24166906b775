"""Owner rights are reached by nothing a session controls (docs/trust-model.md).

The class test finds every SECURITY DEFINER function of schema memory in the catalog and
calls it, as each role that may, from a hostile session: temporary types, domains, functions
and operators planted under every name the schema's function bodies use, search_path
putting pg_temp first, a prepared statement of the kind an index search once reused, and
settings that change how text, times, numbers and searches are read. Any planted object
that runs raises (and warns first, so that a definer swallowing the error is still seen);
the answer must equal the one a clean session gets. A new definer is covered by itself; one
whose parameters the test cannot fill fails with the name to add to ARGS.

The vectors are synthetic unit vectors (numpy, fixed seeds), not model output: the test is
about who runs what, not about the quality of embeddings.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import uuid

import numpy as np
import psycopg
import pytest
from helpers import function_file, seed_simulation
from psycopg.types.json import Jsonb
from swarm_memory import ann, audit

TRAP = "PLANTED-CODE-RAN"
ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$")

# Settings a caller may set in its own session that change how text, times, numbers, words
# and index searches are read, or how a PL/pgSQL function is compiled.
HOSTILE_SETTINGS = {
    "DateStyle": "SQL, DMY",
    "TimeZone": "Asia/Kolkata",
    "IntervalStyle": "sql_standard",
    "extra_float_digits": "-15",
    "standard_conforming_strings": "off",
    "array_nulls": "off",
    "default_text_search_config": "pg_catalog.german",
    "gin_fuzzy_search_limit": "1",
    "pg_trgm.similarity_threshold": "0.99",
    "pg_trgm.word_similarity_threshold": "0.99",
    "hnsw.ef_search": "1",
    "hnsw.iterative_scan": "off",
    "ivfflat.probes": "1",
    "enable_hashjoin": "off",
    "enable_mergejoin": "off",
    "plan_cache_mode": "force_custom_plan",
    "work_mem": "64kB",
    "bytea_output": "escape",
}

OPERATORS = ["=", "<>", "<", ">", "<=", ">=", "~", "~*", "!~", "||", "@@", "@>", "<@", "&&",
             "<=>", "<->", "<#>", "+", "-", "*", "/", "%"]  # fmt: skip
OPERAND_TYPES = ["anyelement", "text", "uuid", "int4", "int8"]


def names_in_bodies(conn: psycopg.Connection) -> list[str]:
    """Every identifier the function bodies of schema memory use (lower-cased)."""
    bodies = conn.execute(
        "SELECT p.prosrc FROM pg_catalog.pg_proc AS p WHERE p.pronamespace = 'memory'::regnamespace"
    ).fetchall()
    words: set[str] = set()
    for (body,) in bodies:
        words |= {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", body)}
    return sorted(w for w in words if len(w) < 60)


def plant(conn: psycopg.Connection, names: list[str]) -> None:
    """Plant in this session: traps under every name, pg_temp first, hostile settings."""
    conn.execute("SET client_min_messages = warning")
    conn.execute(
        f"""CREATE FUNCTION pg_temp.trap() RETURNS boolean LANGUAGE plpgsql AS $t$
        BEGIN
            RAISE WARNING '{TRAP} as %', current_user;
            RAISE EXCEPTION '{TRAP} as %', current_user USING ERRCODE = 'P0666';
        END $t$"""
    )
    conn.execute(
        "CREATE FUNCTION pg_temp.trap1(anyelement) RETURNS boolean LANGUAGE sql"
        " AS $t$ SELECT pg_temp.trap() $t$"
    )
    for t in OPERAND_TYPES:
        conn.execute(
            f"CREATE FUNCTION pg_temp.trap2(a {t}, b {t}) RETURNS boolean LANGUAGE sql"
            " AS $t$ SELECT pg_temp.trap() $t$"
        )
    conn.execute(
        """CREATE FUNCTION pg_temp.plant(p_names pg_catalog.text[], p_operators pg_catalog.text[],
                                        p_types pg_catalog.text[])
        RETURNS pg_catalog.void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $p$
        DECLARE n pg_catalog.text; t pg_catalog.text; o pg_catalog.text; base pg_catalog.text;
        BEGIN
            FOREACH n IN ARRAY p_names LOOP
                -- a domain over the type of that name where one exists (so that a statement
                -- naming it still plans), else over text
                SELECT format('%I.%I', ns.nspname, y.typname) INTO base
                  FROM pg_catalog.pg_type AS y JOIN pg_catalog.pg_namespace AS ns ON ns.oid = y.typnamespace
                 WHERE y.typname = n AND ns.nspname IN ('pg_catalog', 'public') AND y.typtype IN ('b', 'e', 'r', 'm')
                 ORDER BY ns.nspname = 'pg_catalog' DESC LIMIT 1;
                BEGIN
                    EXECUTE format('CREATE DOMAIN pg_temp.%I AS %s CHECK (pg_temp.trap1(VALUE))', n, COALESCE(base, 'pg_catalog.text'));
                EXCEPTION WHEN OTHERS THEN NULL;
                END;
                BEGIN
                    EXECUTE format('CREATE FUNCTION pg_temp.%I() RETURNS pg_catalog.bool LANGUAGE sql AS $b$ SELECT pg_temp.trap() $b$', n);
                    EXECUTE format('CREATE FUNCTION pg_temp.%I(pg_catalog.anyelement) RETURNS pg_catalog.bool LANGUAGE sql AS $b$ SELECT pg_temp.trap() $b$', n);
                    EXECUTE format('CREATE FUNCTION pg_temp.%I(pg_catalog.text) RETURNS pg_catalog.bool LANGUAGE sql AS $b$ SELECT pg_temp.trap() $b$', n);
                    EXECUTE format('CREATE FUNCTION pg_temp.%I(pg_catalog.anyelement, pg_catalog.anyelement) RETURNS pg_catalog.bool LANGUAGE sql AS $b$ SELECT pg_temp.trap() $b$', n);
                EXCEPTION WHEN OTHERS THEN NULL;
                END;
            END LOOP;
            FOREACH o IN ARRAY p_operators LOOP
                FOREACH t IN ARRAY p_types LOOP
                    BEGIN
                        EXECUTE format('CREATE OPERATOR pg_temp.%s (LEFTARG = pg_catalog.%s, RIGHTARG = pg_catalog.%s, FUNCTION = pg_temp.trap2)', o, t, t);
                    EXCEPTION WHEN OTHERS THEN NULL;
                    END;
                END LOOP;
            END LOOP;
        END $p$"""
    )
    # in batches: each object created takes a lock until its transaction ends
    for i in range(0, len(names), 50):
        conn.execute("SELECT pg_temp.plant(%s, %s, %s)", (names[i : i + 50], [], []))
    conn.execute("SELECT pg_temp.plant(%s, %s, %s)", ([], OPERATORS, OPERAND_TYPES))
    planted = conn.execute(
        "SELECT count(*) FROM pg_catalog.pg_type AS t"
        " WHERE t.typnamespace = pg_catalog.pg_my_temp_schema() AND t.typtype = 'd'"
    ).fetchone()[0]
    assert planted > 0.9 * len(names)  # the plant itself worked
    for name, value in HOSTILE_SETTINGS.items():
        conn.execute("SELECT pg_catalog.set_config(%s, %s, false)", (name, value))
    conn.execute("SET search_path = pg_temp, memory, public, pg_catalog")


class Warnings:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.seen: list[str] = []
        conn.add_notice_handler(lambda d: self.seen.append(d.message_primary or ""))

    def traps(self) -> list[str]:
        return [m for m in self.seen if TRAP in m]


def _normal(value: object, now: dt.datetime) -> object:
    """An answer compared across sessions: times of this transaction masked; a time written
    into JSON read back as the instant it is (the session's TimeZone chooses only how the
    caller sees an instant, as it does for any query of its own)."""
    if isinstance(value, str) and ISO_TIME.match(value):
        value = dt.datetime.fromisoformat(value)
    if (
        isinstance(value, dt.datetime)
        and value.tzinfo
        and abs((value - now).total_seconds()) < 3600
    ):
        return "now"
    if isinstance(value, list | tuple):
        return type(value)(_normal(v, now) for v in value)
    if isinstance(value, dict):
        return {k: _normal(v, now) for k, v in value.items()}
    return value


def _first_difference(a: object, b: object) -> object:
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):
            if x != y:
                return _first_difference(x, y)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):
            if x != y:
                return _first_difference(x, y)
    return (a, b)


def unplant(conn: psycopg.Connection) -> None:
    """Drop the planted objects a hundred at a time: a session ending drops its temporary
    objects in one transaction, whose locks would overflow the server's lock table."""
    conn.execute("RESET ALL")
    conn.execute(
        """CREATE FUNCTION pg_temp.drop_some(p_max pg_catalog.int4) RETURNS pg_catalog.int4
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $d$
        DECLARE s pg_catalog.text; k pg_catalog.int4 := 0;
        BEGIN
            FOR s IN SELECT format('DROP OPERATOR %s', o.oid::pg_catalog.regoperator)
                       FROM pg_catalog.pg_operator AS o
                      WHERE o.oprnamespace = pg_catalog.pg_my_temp_schema() LIMIT p_max LOOP
                EXECUTE s; k := k + 1;
            END LOOP;
            IF k = 0 THEN
                FOR s IN SELECT format('DROP DOMAIN pg_temp.%I CASCADE', y.typname) FROM pg_catalog.pg_type AS y
                          WHERE y.typnamespace = pg_catalog.pg_my_temp_schema() AND y.typtype = 'd'
                          LIMIT p_max LOOP
                    EXECUTE s; k := k + 1;
                END LOOP;
            END IF;
            IF k = 0 THEN
                FOR s IN SELECT format('DROP FUNCTION %s', f.oid::pg_catalog.regprocedure)
                           FROM pg_catalog.pg_proc AS f
                          WHERE f.pronamespace = pg_catalog.pg_my_temp_schema() AND f.proname <> 'drop_some'
                          LIMIT p_max LOOP
                    EXECUTE s; k := k + 1;
                END LOOP;
            END IF;
            RETURN k;
        END $d$"""
    )
    while conn.execute("SELECT pg_temp.drop_some(100)").fetchone()[0]:
        pass


def call(conn: psycopg.Connection, sql: str, params: tuple) -> tuple[str, object]:
    """Run one call in a transaction rolled back after; ('ok', rows) or ('error', SQLSTATE)."""
    now = dt.datetime.now(dt.UTC)
    try:
        with conn.transaction(force_rollback=True), conn.cursor(binary=True) as cur:
            cur.execute(sql, params)
            rows = cur.fetchall() if cur.description else []
        return "ok", sorted((_normal(tuple(r), now) for r in rows), key=repr)
    except psycopg.Error as exc:
        return "error", exc.sqlstate


# --- the world every definer is called in ----------------------------------------------------


def clustered(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, 384)).astype(np.float32)
    v = centres[rng.integers(0, 40, n)] + 0.35 * rng.standard_normal((n, 384)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def load_indexed_episodes(world, connect) -> None:
    """2,400 embedded episodes in tenant A's simulation and its episodes index, so that the
    definers' index paths (health's sampled recall, warm, the builds) run."""
    vectors = clustered(2400, 1)
    writer = connect("app_a")
    for start in range(0, len(vectors), 600):
        items = [
            {
                "id": f"e{i}",
                "action_type": "CREATE_POST",
                "agent_id": 1 + i % 7,
                "content": f"post {i}",
                "embedding": vectors[i].tolist(),
            }
            for i in range(start, min(len(vectors), start + 600))
        ]
        writer.execute(
            "SELECT memory.upsert_episodes(%s, %s, %s::jsonb)",
            (world.tenant_a, world.sim_a, json.dumps(items)),
        )
    ann.build(world.dsn(), min_rows=2000, m=8, ef_construction=32)


@pytest.fixture
def stocked(world, connect):
    """Tenant A with a seeded simulation (nodes, edges, a profile, 2,400 indexed episodes)
    and tenant B's."""
    seed_simulation(connect("app_a"), world.tenant_a, world.sim_a, "alpha", "a-only")
    seed_simulation(connect("app_b"), world.tenant_b, world.sim_b, "beta", "b-only")
    load_indexed_episodes(world, connect)
    return world


def _sim_no(world, sim: uuid.UUID) -> int:
    with world.connect() as conn:
        return conn.execute(
            "SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (sim,)
        ).fetchone()[0]


def definers(conn: psycopg.Connection) -> list[tuple[str, str, list[str], list[str], str]]:
    """(name, signature, argument names, argument types, result) of every definer."""
    return conn.execute(
        """SELECT p.proname::text, p.oid::regprocedure::text,
                  COALESCE(p.proargnames[1:p.pronargs], '{}')::text[],
                  ARRAY(SELECT pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(y.typname)
                          FROM pg_catalog.unnest(p.proargtypes) WITH ORDINALITY AS t(oid, i)
                          JOIN pg_catalog.pg_type AS y ON y.oid = t.oid
                          JOIN pg_catalog.pg_namespace AS n ON n.oid = y.typnamespace
                         ORDER BY t.i)::text[],
                  pg_catalog.format_type(p.prorettype, NULL)
             FROM pg_catalog.pg_proc AS p
            WHERE p.pronamespace = 'memory'::regnamespace AND p.prosecdef
            ORDER BY 1, 2"""
    ).fetchall()


def args_for(world, name: str, arg_names: list[str], tenant: uuid.UUID | None = None) -> list:
    """Values for a definer's arguments by name (ARGS), for tenant A's simulation."""
    tenant = tenant or world.tenant_a
    sim = world.sim_a if tenant == world.tenant_a else world.sim_b
    with world.connect() as conn:
        reader_oid = conn.execute("SELECT 'reader_a'::regrole::oid").fetchone()[0]
    values = {
        "p_tenant_id": tenant,
        "p_simulation_id": sim,
        "p_sim_no": _sim_no(world, sim),
        "p_min_rows": 1,
        "p_kind": "nodes" if name == "_prune" else "episodes",
        "p_action": "clump" if name == "_clump_build" else "build",
        "p_m": 8,
        "p_ef_construction": 32,
        "p_run": True,
        "p_similarity": 0.99,
        "p_drop": False,
        "p_role_oid": reader_oid,
        "p_attempt_ids": [uuid.UUID(int=7)],
        "p_attempt_id": uuid.UUID(int=7),
        "p_platforms": None,
        "p_sample": 1,
        "p_recall_sample": 1,
        "p_op": "upsert",
        "p_ids": ["shared-1"],
        "p_counts": Jsonb({"nodes": 1}),
        "p_detail": Jsonb({}),
        "p_now": dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
        "p_keep_days": 30,
        "p_compact_similarity": None,
        "p_compact_drop": False,
        "p_phrase": "who spoke for",
        "p_target": "graph",
        "p_max": None,  # memory.set_quota: clears a cap the tenant does not have
        # memory._forget: an episode's key (md5 of its id), no agent
        "p_episode_keys": [uuid.UUID(hashlib.md5(b"shared-1").hexdigest())],
        "p_agent_id": None,
        "p_platform": None,
    }
    missing = [a for a in arg_names if a not in values]
    assert not missing, f"memory.{name}: add a value for {missing} to args_for"
    return [values[a] for a in arg_names]


# Roles that may call a definer, by the group role holding EXECUTE.
CALLERS = {"memory_reader": "reader_a", "memory_writer": "app_a", "memory_admin": "admin"}
# Definers whose answer carries a number drawn from a sequence (it advances in a rolled back
# transaction too): only the outcome and its SQLSTATE are compared.
DRAWS_NUMBERS = {"_record_change", "_clump_build"}


def _unsampled(outcome: tuple[str, object]) -> tuple[str, object]:
    kind, rows = outcome
    if kind != "ok":
        return outcome
    return kind, [r[:5] + (None, None) + r[7:] if r[4] == "recall_at_10" else r for r in rows]


def callers_of(conn: psycopg.Connection, signature: str) -> list[str]:
    return [
        login
        for group, login in CALLERS.items()
        if conn.execute(
            "SELECT has_function_privilege(%s, %s::regprocedure, 'EXECUTE')", (group, signature)
        ).fetchone()[0]
    ]


def the_call(world, name: str, arg_names: list[str], types: list[str], result: str):
    """The SQL and parameters of one call; a trigger function is called by the write that
    fires it."""
    if result == "trigger":
        items = [{"id": "planted-1", "name": "planted", "type": "Person",
                  "summary": "a node written from a hostile session"}]  # fmt: skip
        return (
            "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
            (world.tenant_a, world.sim_a, Jsonb(items)),
            ["app_a"],
        )
    params = args_for(world, name, arg_names)
    # each argument cast to its type, schema-qualified (the hostile session's path is pg_temp first)
    marks = ", ".join(f"%s::{t}" for t in types)
    return f"SELECT * FROM memory.{name}({marks})", tuple(params), None


def test_every_definer_is_deaf_to_what_the_session_planted(stocked, connect):
    world = stocked
    catalog = connect()
    found = definers(catalog)
    names = names_in_bodies(catalog)
    assert len(found) >= 20  # the catalog query finds them

    sessions: dict[tuple[str, bool], tuple[psycopg.Connection, Warnings]] = {}

    def session(role: str, hostile: bool):
        if (role, hostile) not in sessions:
            conn = connect(role)
            conn.prepare_threshold = None  # the driver prepares nothing of its own
            seen = Warnings(conn)
            if hostile:
                plant(conn, names)
                conn.execute(
                    "PREPARE memory_planted(pg_temp.uuid) AS SELECT $1::pg_temp.uuid IS NOT NULL"
                )
            sessions[(role, hostile)] = (conn, seen)
        return sessions[(role, hostile)]

    checked = []
    try:
        _call_every_definer(world, catalog, found, session, checked)
    finally:
        for (_login, hostile), (conn, _seen) in sessions.items():
            if hostile:
                unplant(conn)
    # every definer was called by every role that may call it
    assert {s for s, _ in checked} == {sig for _, sig, *_ in found}


def _call_every_definer(world, catalog, found, session, checked) -> None:
    for name, signature, arg_names, _types, result in found:
        sql, params, roles = the_call(world, name, arg_names, _types, result)
        if roles is None:
            roles = callers_of(catalog, signature)
        if not roles:
            # no tenant role may call it: nothing of a session reaches it directly
            for login in CALLERS.values():
                conn, _ = session(login, True)
                outcome = call(conn, sql, params)
                assert outcome == ("error", "42501"), (signature, login, outcome)
            checked.append((signature, "none"))
            continue
        for login in roles:
            clean, _ = session(login, False)
            hostile, seen = session(login, True)
            expected = call(clean, sql, params)
            # what the call left in a session, prepared again in the hostile one, whose
            # search_path makes every unqualified type name in it a planted domain
            for stmt_name, statement in clean.execute(
                "SELECT name, statement FROM pg_prepared_statements WHERE name <> 'memory_planted'"
            ).fetchall():
                if hostile.execute(
                    "SELECT 1 FROM pg_prepared_statements WHERE name = %s", (stmt_name,)
                ).fetchone():
                    hostile.execute(f'DEALLOCATE "{stmt_name}"')
                hostile.execute(statement)
            before = hostile.execute(
                "SELECT name, statement FROM pg_prepared_statements"
            ).fetchall()
            got = call(hostile, sql, params)
            assert not seen.traps(), (signature, login, seen.traps())
            if name in DRAWS_NUMBERS:
                expected, got = expected[0], got[0]
            if name == "_health_tenant":
                # its recall check asks about episodes drawn at random: its value varies
                expected, got = _unsampled(expected), _unsampled(got)
            assert got == expected, (signature, login, _first_difference(expected, got))
            after = hostile.execute("SELECT name, statement FROM pg_prepared_statements").fetchall()
            assert after == before, signature  # a definer neither prepares nor deallocates
            checked.append((signature, login))


def test_a_session_narrowed_with_set_role_is_narrowed_in_every_definer(stocked, connect):
    """A login holding tenants A and B (and memory_admin), narrowed with SET ROLE to B's
    role, is refused every definer acting on A: the grant is the current role's."""
    world = stocked
    admin = connect("admin")
    root = connect()
    for role in ("gw_narrow_a", "gw_narrow_b"):
        root.execute(f"DROP ROLE IF EXISTS {role}")
    root.execute("DROP ROLE IF EXISTS gw_narrow")
    root.execute("CREATE ROLE gw_narrow_a IN ROLE memory_writer")
    root.execute("CREATE ROLE gw_narrow_b IN ROLE memory_writer")
    root.execute("CREATE ROLE gw_narrow LOGIN IN ROLE gw_narrow_a, gw_narrow_b, memory_admin")
    admin.execute("SELECT memory.grant_tenant('gw_narrow_a', %s)", (world.tenant_a,))
    admin.execute("SELECT memory.grant_tenant('gw_narrow_b', %s)", (world.tenant_b,))
    try:
        login = connect("gw_narrow")
        # control: as itself it acts for A
        assert (
            login.execute(
                "SELECT count(*) FROM memory.nodes_by_type(%s, %s, NULL)",
                (world.tenant_a, world.sim_a),
            ).fetchone()[0]
            == 3
        )
        login.execute("SET ROLE gw_narrow_b")
        tried = []
        for name, signature, arg_names, _types, result in definers(root):
            if (
                result == "trigger"
                or "p_tenant_id" not in arg_names
                and "p_sim_no" not in arg_names
            ):
                continue
            sql, params, _ = the_call(world, name, arg_names, _types, result)
            outcome = call(login, sql, params)
            assert outcome == ("error", "42501"), (signature, outcome)
            tried.append(name)
        assert {"_delete_simulation", "_prune", "_health_tenant", "_link_evidence",
                "_discard_staged", "_skip_dangling", "delete_tenant"} <= set(tried)  # fmt: skip
        # and the public functions, for the record
        assert call(
            login, "SELECT * FROM memory.delete_simulation(%s, %s)", (world.tenant_a, world.sim_a)
        ) == (
            "error",
            "42501",
        )
        login.execute("RESET ROLE")
        assert (
            call(login, "SELECT * FROM memory._health_tenant(%s, 0)", (world.tenant_a,))[0] == "ok"
        )
    finally:
        root.execute("REASSIGN OWNED BY gw_narrow TO postgres")
        root.execute("DROP OWNED BY gw_narrow")
        for role in ("gw_narrow", "gw_narrow_a", "gw_narrow_b"):
            root.execute(f"DROP ROLE IF EXISTS {role}")


# --- finding 1: the planted prepared statement ------------------------------------------------


def test_a_reader_planting_the_index_search_statement_runs_nothing_as_the_owner(world, connect):
    """The reproduction: a reader whose simulation has an episodes index asks for health
    once and reads what its session then holds (the index searches' statements, when they
    were kept prepared); it deallocates each and prepares its exact text again under
    search_path pg_temp first, with temporary domains named uuid and timestamptz whose checks
    call its own function, then asks for health again, whose sampled recall runs the index
    search with the owner's rights. Nothing is left in the session to plant, and nothing
    planted runs."""
    load_indexed_episodes(world, connect)
    reader = connect("reader_a")
    reader.prepare_threshold = None  # the driver prepares nothing of its own
    seen = Warnings(reader)
    clean = call(reader, "SELECT * FROM memory.health(%s, 1)", (world.tenant_a,))
    assert clean[0] == "ok"
    assert any(r[4] == "recall_at_10" for r in clean[1]), clean  # the index search ran
    held = reader.execute("SELECT name, statement FROM pg_prepared_statements").fetchall()
    assert held == []  # the memory leaves no statement in a session

    reader.execute("SET client_min_messages = warning")
    reader.execute(
        f"""CREATE FUNCTION pg_temp.payload(text) RETURNS boolean LANGUAGE plpgsql AS $p$
        BEGIN RAISE WARNING '{TRAP} as %', current_user; RETURN true; END $p$"""
    )
    for name in ("uuid", "timestamptz", "text"):
        reader.execute(
            f"CREATE DOMAIN pg_temp.{name} AS pg_catalog.{name}"
            " CHECK (pg_temp.payload(VALUE::pg_catalog.text))"
        )
    reader.execute("SET search_path = pg_temp, pg_catalog")
    for name, statement in held:
        reader.execute(f'DEALLOCATE "{name}"')
        reader.execute(statement)
    got = call(reader, "SELECT * FROM memory.health(%s, 1)", (world.tenant_a,))
    assert not seen.traps()
    assert _unsampled(got) == _unsampled(clean)  # its recall check draws at random


# --- findings 1 (the quiet variant) and 4: the audit sees code and grant maps -----------------


def audit_problems(conn: psycopg.Connection) -> dict[str, str]:
    return {
        r[0]: r[1]
        for r in conn.execute(
            "SELECT table_name, problem FROM memory.rls_audit() WHERE NOT ok"
        ).fetchall()
    }


def test_a_rewritten_grant_check_is_flagged_by_the_audit_and_the_cli(world, connect):
    """What someone with the owner's rights did quietly: _holds_grant and _current_tenant_id
    rewritten to admit anyone. rls_audit() names both; swarm-memory audit too, even when the
    manifest in the database was rewritten to bless them."""
    admin = connect("admin")
    assert audit_problems(admin) == {}
    assert audit.code_problems(admin) == []
    root = connect()
    root.execute(
        """CREATE OR REPLACE FUNCTION memory._holds_grant(p_tenant_id uuid) RETURNS boolean
        LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER SET search_path = pg_catalog, pg_temp
        AS $fn$ SELECT true $fn$"""
    )
    root.execute(
        """CREATE OR REPLACE FUNCTION memory._current_tenant_id() RETURNS uuid
        LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER SET search_path = pg_catalog, pg_temp
        AS $fn$ SELECT NULLIF(pg_catalog.current_setting('memory.tenant_id', true), '')::uuid $fn$"""
    )
    problems = audit_problems(admin)
    for sig in ("memory._holds_grant(uuid)", "memory._current_tenant_id()"):
        assert "its definition" in problems[f"function {sig}"]
    cli = dict(audit.code_problems(admin))
    assert {"function memory._holds_grant(uuid)", "function memory._current_tenant_id()"} <= set(
        cli
    )

    # a grant to a shared role, a new definer, a changed owner and configuration
    root.execute("GRANT EXECUTE ON FUNCTION memory._delete_grant(uuid, oid) TO memory_reader")
    root.execute(
        "ALTER FUNCTION memory._prune(text, uuid, uuid, uuid, text[]) SET search_path = public"
    )
    root.execute(
        "CREATE FUNCTION memory.helper() RETURNS int LANGUAGE sql SECURITY DEFINER AS 'SELECT 1'"
    )
    problems = audit_problems(admin)
    assert "memory_reader=EXECUTE" in problems["function memory._delete_grant(uuid,oid)"]
    assert "configuration" in problems["function memory._prune(text,uuid,uuid,uuid,text[])"]
    assert "not one the release installs" in problems["function memory.helper()"]

    # the manifest in the database rewritten to match: the CLI still compares with the package
    root.execute(
        """CREATE OR REPLACE FUNCTION memory._installed_functions()
        RETURNS TABLE (signature text, security text, owner text, config text, acl text,
                       body_md5 text, cluster_only boolean)
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
        AS $fn$ SELECT f.*, false FROM memory._function_fingerprints() AS f $fn$"""
    )
    assert not any(k.startswith("function ") for k in audit_problems(admin))
    cli = dict(audit.code_problems(admin))
    assert {
        "function memory._holds_grant(uuid)",
        "function memory._current_tenant_id()",
        "function memory._installed_functions()",
        "function memory.helper()",
    } <= set(cli)


def test_a_node_role_map_on_one_node_is_flagged(world, connect):
    """An administrator's UPDATE of a grant's node_role_oids to a shared group role let every
    reader read the tenant, unseen; on one node any map at all is flagged, and so is a map
    naming a dropped role."""
    admin = connect("admin")
    assert audit_problems(admin) == {}
    admin.execute(
        "UPDATE memory.tenant_grants SET node_role_oids = jsonb_build_object('0', 'memory_reader'::regrole::oid)"
        " WHERE tenant_id = %s AND role_name = 'reader_a'",
        (world.tenant_a,),
    )
    problems = audit_problems(admin)
    flagged = [p for k, p in problems.items() if k.startswith(f"grant of tenant {world.tenant_a}")]
    assert flagged and "single node" in flagged[0]
    admin.execute(
        'UPDATE memory.tenant_grants SET node_role_oids = \'{"0": "4000000000"}\''
        " WHERE tenant_id = %s AND role_name = 'reader_a'",
        (world.tenant_a,),
    )
    assert any(k.startswith(f"grant of tenant {world.tenant_a}") for k in audit_problems(admin))
    admin.execute(
        "UPDATE memory.tenant_grants SET node_role_oids = NULL WHERE tenant_id = %s",
        (world.tenant_a,),
    )
    assert audit_problems(admin) == {}


def test_every_definer_says_what_session_state_it_reads(world, connect):
    """sql/README.md's rule: a SECURITY DEFINER function's file says, in a 'Session state:'
    comment, what of the caller's session it reads."""
    root = connect()
    missing = []
    for name, *_ in definers(root):
        path = function_file(name)
        if not re.search(r"^-- Session state: \S", path.read_text(encoding="utf-8"), re.M):
            missing.append(name)
    assert missing == []
