"""swarm_memory.migrate against the real server: a second migrate changes nothing, and an
edited file of sql/functions reaches an existing database with the next migrate (no new
versioned migration), in one transaction."""

from __future__ import annotations

import re
import shutil
import uuid
from pathlib import Path

import psycopg
import pytest
from helpers import function_file
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.types.json import Jsonb
from swarm_memory import migrate

ROOT = Path(__file__).resolve().parents[1]


def schema_dump(dsn: str) -> str:
    """pg_dump --schema-only, normalised (swarm_memory.migrate.schema_dump)."""
    return migrate.schema_dump(dsn)


def test_second_migrate_changes_nothing(world, connect):
    conn = connect("app_a")
    conn.execute(
        "SELECT * FROM memory.upsert_nodes(%s, %s, %s)",
        (world.tenant_a, world.sim_a, Jsonb([{"id": "n", "name": "n"}])),
    )
    dsn = world.dsn()
    before = schema_dump(dsn)
    assert "CREATE FUNCTION memory.neighbors" in before
    assert "CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.nodes" in before
    data = connect().execute("SELECT * FROM memory.nodes").fetchall()
    for _ in range(2):
        result = migrate.migrate(dsn)
        assert result.applied_versions == []
        assert result.repeatable_files > 0
        assert schema_dump(dsn) == before
    assert connect().execute("SELECT * FROM memory.nodes").fetchall() == data
    # and the API still answers as before
    assert connect("reader_a").execute(
        "SELECT name FROM memory.get_node(%s, %s, 'n')", (world.tenant_a, world.sim_a)
    ).fetchone() == ("n",)


def test_migrate_restores_a_dropped_policy_and_a_changed_function(world, connect):
    dsn = world.dsn()
    before = schema_dump(dsn)
    su = connect()
    su.execute("DROP POLICY readers_see_rows_of_the_granted_call_tenant ON memory.episodes")
    su.execute("COMMENT ON FUNCTION memory.get_node(uuid, uuid, text) IS 'drifted'")
    assert schema_dump(dsn) != before
    migrate.migrate(dsn)
    assert schema_dump(dsn) == before


def test_fresh_database_migrates_then_stays_put(world, connect):
    su = connect()
    name = f"migrate_fresh_{uuid.uuid4().hex[:10]}"
    su.execute(f'CREATE DATABASE "{name}"')
    try:
        info = conninfo_to_dict(world.dsn())
        info["dbname"] = name
        dsn = make_conninfo(**info)
        first = migrate.migrate(dsn)
        versions = sorted(int(p.name[1:].split("__")[0]) for p in (ROOT / "sql").glob("V*__*.sql"))
        assert first.applied_versions == versions
        dump = schema_dump(dsn)
        assert "CREATE TABLE memory.nodes" in dump
        second = migrate.migrate(dsn)
        assert second.applied_versions == []
        assert schema_dump(dsn) == dump
        with psycopg.connect(dsn, autocommit=True) as conn:
            problems = conn.execute(
                "SELECT table_name, problem FROM memory.rls_audit() WHERE NOT ok"
            ).fetchall()
        assert problems == []
    finally:
        su.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def project_copy(tmp_path, monkeypatch) -> Path:
    """A copy of the project's migration sources; migrate() reads it instead of the repo."""
    copy = tmp_path / "project"
    copy.mkdir()
    shutil.copy(ROOT / "pgmigrate.yml", copy / "pgmigrate.yml")
    shutil.copytree(ROOT / "sql", copy / "sql")
    monkeypatch.setattr(migrate, "PROJECT_ROOT", copy)
    return copy


def comment_of_get_node(conn) -> str:
    return conn.execute(
        "SELECT obj_description('memory.get_node(uuid, uuid, text)'::regprocedure, 'pg_proc')"
    ).fetchone()[0]


def edit_get_node_comment(project: Path, new: str) -> None:
    path = function_file("get_node", project / "sql" / "functions")
    src = path.read_text()
    edited, n = re.subn(
        r"(COMMENT ON FUNCTION memory\.get_node\(uuid, uuid, text\) IS\s*)'[^']*'",
        lambda m: m.group(1) + f"'{new}'",
        src,
    )
    assert n == 1
    path.write_text(edited)


def test_edited_function_file_reaches_an_existing_database(world, connect, project_copy):
    su = connect()
    original = comment_of_get_node(su)
    marker = f"edited comment {uuid.uuid4().hex}"
    edit_get_node_comment(project_copy, marker)
    pending = migrate.pending_versions(world.dsn())
    assert pending == []  # nothing versioned is pending: only the function file changed
    result = migrate.migrate(world.dsn())
    assert result.applied_versions == []
    assert comment_of_get_node(su) == marker != original
    # the function itself still works for the granted reader
    with pytest.raises(psycopg.errors.NoDataFound):
        connect("reader_a").execute(
            "SELECT * FROM memory.get_node(%s, %s, 'x')", (world.tenant_a, world.sim_a)
        )


def test_repeatables_are_applied_in_one_transaction(world, connect, project_copy):
    su = connect()
    original = comment_of_get_node(su)
    edit_get_node_comment(project_copy, "should never arrive")
    # a later file that fails: nothing of this migrate may stay
    (project_copy / "sql" / "functions" / "zz_broken.sql").write_text(
        "CREATE OR REPLACE FUNCTION memory.zz_broken() RETURNS int LANGUAGE sql\n"
        "AS $$ SELECT 1 $$;\nSELECT no_such_function_anywhere();\n"
    )
    before = schema_dump(world.dsn())
    with pytest.raises(psycopg.Error):
        migrate.migrate(world.dsn())
    assert comment_of_get_node(su) == original
    assert su.execute("SELECT to_regproc('memory.zz_broken')").fetchone() == (None,)
    assert schema_dump(world.dsn()) == before
