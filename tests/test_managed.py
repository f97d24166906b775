"""Managed PostgreSQL: everything after the provider's one step, done by a role that is not
a superuser, on a second embedded server of its own.

The provider's step, as the superuser: pgvector installed in schema public, and a role
`dba` with LOGIN CREATEROLE and CREATE on the database (no SUPERUSER, no BYPASSRLS). Then,
as `dba` only: migrate twice, a tenant, a writer login made by `swarm-memory role create`,
the example run imported, searched, indexed through memory.ann_index, and audited.

The import embeds with the real model (all-MiniLM-L6-v2, the default): the simulation's
vectors are recorded as that model's (V0022), and a vector of any other origin would be a
lie about them.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from swarm_memory import migrate, server
from swarm_memory.cli import main
from swarm_memory.client import Memory
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run

ROOT = Path(__file__).resolve().parents[1]
DATADIR = ROOT / ".cache" / "pgdata-managed"
EXAMPLE = ROOT / "examples" / "mirofish_run"


@pytest.fixture(scope="module")
def managed() -> Iterator[str]:
    """A fresh second server where the provider's steps are done; yields the superuser DSN
    of its database `app`; stops the server at the end."""
    server.stop(DATADIR)
    shutil.rmtree(DATADIR, ignore_errors=True)
    dsn = server.start(DATADIR)
    try:
        with psycopg.connect(dsn, autocommit=True) as su:
            su.execute("CREATE DATABASE app")
            su.execute("CREATE ROLE dba LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS")
            su.execute("GRANT CREATE ON DATABASE app TO dba")
        app = _dbname(dsn, "app")
        with psycopg.connect(app, autocommit=True) as su:
            su.execute("CREATE EXTENSION vector WITH SCHEMA public")
        yield app
    finally:
        server.stop(DATADIR)


def _dbname(dsn: str, name: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    info = conninfo_to_dict(dsn)
    info["dbname"] = name
    return make_conninfo(**info)


def test_a_createrole_dba_migrates_administers_imports_indexes_and_audits(managed, capsys):
    dba = server.as_role(managed, "dba")
    with psycopg.connect(dba) as conn:
        assert conn.execute(
            "SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user"
        ).fetchone() == (False,)

    first = migrate.migrate(dba)
    assert first.applied_versions == list(range(1, migrate.latest_version() + 1))
    second = migrate.migrate(dba)  # hnsw.* in a function's SET clause, owned objects
    assert second.applied_versions == [] and second.repeatable_files > 0

    with psycopg.connect(managed, autocommit=True) as su:
        owners = su.execute(
            "SELECT DISTINCT c.relowner::regrole::text FROM pg_class c"
            " WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind IN ('r', 'S')"
            " UNION SELECT DISTINCT p.proowner::regrole::text FROM pg_proc p"
            " WHERE p.pronamespace = 'memory'::regnamespace"
        ).fetchall()
        assert owners == [("memory_owner",)]
        # The deploy gave back what it took: dba neither has memory_owner's privileges nor
        # may SET ROLE to it (ADMIN OPTION, which CREATEROLE gave it, remains).
        assert su.execute(
            "SELECT pg_has_role('dba', 'memory_owner', 'USAGE'),"
            "       pg_has_role('dba', 'memory_owner', 'SET')"
        ).fetchone() == (False, False)

    # The DBA administers: it holds memory_admin's privileges by a grant to itself.
    with psycopg.connect(dba, autocommit=True) as conn:
        conn.execute("GRANT memory_admin TO dba")
    assert main(["--dsn", dba, "tenant", "create", "acme"]) == 0
    tenant = uuid.UUID(capsys.readouterr().out.strip())
    os.environ["SWARM_MEMORY_TEST_GW_PASSWORD"] = "not-a-secret"
    try:
        assert (
            main(
                [
                    "--dsn",
                    dba,
                    "role",
                    "create",
                    "gw_acme",
                    "--writer",
                    "--tenant",
                    str(tenant),
                    "--password-env",
                    "SWARM_MEMORY_TEST_GW_PASSWORD",
                ]
            )
            == 0
        )
    finally:
        del os.environ["SWARM_MEMORY_TEST_GW_PASSWORD"]
    with psycopg.connect(managed, autocommit=True) as su:
        login, password, inherit, set_ = su.execute(
            "SELECT r.rolcanlogin, r.rolpassword LIKE 'SCRAM-SHA-256$%%', m.inherit_option,"
            "       m.set_option"
            "  FROM pg_authid r JOIN pg_auth_members m ON m.member = r.oid"
            " WHERE r.rolname = 'gw_acme' AND m.roleid = 'memory_writer'::regrole"
        ).fetchone()
        assert (login, password, inherit, set_) == (True, True, True, False)
    gw = server.as_role(managed, "gw_acme")

    sim = uuid.uuid4()
    embedder = Embedder()  # the real model: the simulation's vectors are of its model (V0022)
    report = import_run(gw, tenant, sim, EXAMPLE, embedder=embedder)
    with Memory(gw) as mem:
        stats = mem.simulation_stats(tenant, sim)
        assert (stats.nodes, stats.edges, stats.episodes) == (33, 46, 339), report
        with psycopg.connect(managed) as su:
            (content,) = su.execute(
                "SELECT content FROM memory.episodes WHERE simulation_id = %s"
                " AND content IS NOT NULL ORDER BY episode_id LIMIT 1",
                (sim,),
            ).fetchone()
        exact = mem.search_episodes(tenant, sim, embedder.encode_one(content), 5)
        assert exact[0].content == content and exact[0].similarity == pytest.approx(
            1, abs=1e-4
        )  # batch vs one-text encoding

    # The per-simulation index, without a superuser: memory.ann_index as memory_owner.
    assert main(["--dsn", dba, "index", "--min-rows", "100"]) == 0
    assert "1 built" in capsys.readouterr().out
    with psycopg.connect(managed) as su:
        (name,) = su.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'memory'"
            " AND indexname LIKE 'episodes\\_ann\\_%%'"
        ).fetchone()
        (sim_no,) = su.execute(
            "SELECT sim_no FROM memory.simulations WHERE simulation_id = %s", (sim,)
        ).fetchone()
    assert name == f"episodes_ann_{sim_no}"
    with Memory(gw) as mem:
        indexed = mem.search_episodes(tenant, sim, embedder.encode_one(content), 5)
    assert [h.episode_id for h in indexed] == [h.episode_id for h in exact]
    assert main(["--dsn", dba, "index", "--min-rows", "100"]) == 0
    assert "1 kept" in capsys.readouterr().out

    with psycopg.connect(dba) as conn:
        problems = conn.execute(
            "SELECT table_name, problem FROM memory.rls_audit() WHERE NOT ok"
        ).fetchall()
    assert problems == []

    # And the next deploy still works, with the data in place.
    assert migrate.migrate(dba).applied_versions == []


def test_a_second_dba_is_told_the_one_grant_it_needs(managed, capsys):
    """The group roles are the cluster's: a second CREATEROLE administrator deploying a
    database of its own, after the first made them, holds no ADMIN OPTION on them. Its
    migrate stops with 42501 and names the GRANT a superuser runs; after that GRANT it
    migrates, twice."""
    with psycopg.connect(managed, autocommit=True) as su:
        su.execute("CREATE DATABASE first")
        su.execute("GRANT CREATE ON DATABASE first TO dba")
        su.execute("CREATE DATABASE second")
        su.execute("CREATE ROLE dba2 LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS")
        su.execute("GRANT CREATE ON DATABASE second TO dba2")
    for name in ("first", "second"):
        with psycopg.connect(_dbname(managed, name), autocommit=True) as su:
            su.execute("CREATE EXTENSION vector WITH SCHEMA public")
    migrate.migrate(server.as_role(_dbname(managed, "first"), "dba"))  # the roles exist now
    dba2 = server.as_role(_dbname(managed, "second"), "dba2")

    assert main(["--dsn", dba2, "migrate"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    grant = (
        "GRANT memory_owner, memory_reader, memory_writer, memory_admin TO dba2"
        " WITH ADMIN TRUE, INHERIT FALSE, SET FALSE"
    )
    assert line.startswith("error [42501]: ") and grant in line, line

    with psycopg.connect(managed, autocommit=True) as su:
        su.execute(grant)
    assert migrate.migrate(dba2).applied_versions == list(range(1, migrate.latest_version() + 1))
    assert migrate.migrate(dba2).applied_versions == []
    with psycopg.connect(_dbname(managed, "second")) as su:
        assert su.execute(
            "SELECT DISTINCT c.relowner::regrole::text FROM pg_class c"
            " WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind = 'r'"
        ).fetchall() == [("memory_owner",)]
