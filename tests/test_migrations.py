"""The migrations as released: frozen by hash, the schema they build kept as a snapshot, and
upgrades that end where a fresh migrate does.

- sql/frozen.txt lists the sha256 of every released migration: an edited or removed one fails,
  and so does a versioned file not listed yet (`make freeze` lists it once it is released).
- sql/schema.sql is the normalised schema of a fresh migrate (`make schema` writes it).
- Migrating one version at a time, from the first to the latest, gives the schema of a fresh
  migrate; so does upgrading a database of the previous release (its files as git holds them
  at the commit that froze it) with today's files.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import tarfile
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from swarm_memory import migrate


def versions() -> list[int]:
    return [migrate.version_of(f) for f in migrate._versioned_files()]


@pytest.fixture(scope="module")
def server_dsn(postgresql_noproc) -> str:
    p = postgresql_noproc
    return make_conninfo(host=p.host, port=int(p.port), user=p.user, dbname="postgres")


@pytest.fixture
def fresh_db(server_dsn) -> Iterator[Callable[[], str]]:
    """fresh_db() -> the DSN of a new empty database, dropped after the test."""
    names: list[str] = []

    def _fresh() -> str:
        name, dsn = migrate.fresh_database(server_dsn)
        names.append(name)
        return dsn

    yield _fresh
    for name in names:
        migrate.drop_database(server_dsn, name)


@pytest.fixture(scope="module")
def fresh_schema(server_dsn) -> str:
    """The normalised schema of a fresh migrate of today's files."""
    name, dsn = migrate.fresh_database(server_dsn)
    try:
        result = migrate.migrate(dsn)
        assert result.applied_versions == versions()
        return migrate.schema_dump(dsn)
    finally:
        migrate.drop_database(server_dsn, name)


def diff(expected: str, actual: str, expected_name: str, actual_name: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        expected_name,
        actual_name,
    )
    return "".join(lines)


# --- frozen migrations ---------------------------------------------------------------------


def test_released_migrations_are_frozen():
    problems = migrate.frozen_problems()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def project_copy(tmp_path, monkeypatch) -> Path:
    """A copy of the project's migration sources; migrate reads it instead of the repo."""
    copy = tmp_path / "project"
    copy.mkdir()
    shutil.copy(migrate.PROJECT_ROOT / "pgmigrate.yml", copy / "pgmigrate.yml")
    shutil.copytree(migrate.PROJECT_ROOT / "sql", copy / "sql")
    monkeypatch.setattr(migrate, "PROJECT_ROOT", copy)
    return copy


def test_the_freeze_catches_an_edited_a_removed_and_an_unlisted_migration(project_copy):
    sql = project_copy / "sql"
    (sql / "frozen.txt").unlink(missing_ok=True)
    assert migrate.freeze() == [f.name for f in migrate._versioned_files()]
    assert migrate.frozen_problems() == []
    first, second = migrate._versioned_files()[:2]

    first.write_text(first.read_text() + "\n-- an afterthought\n")
    second.unlink()
    new = sql / f"V{max(versions()) + 1:04d}__Next_change.sql"
    new.write_text("SELECT 1;\n")
    problems = migrate.frozen_problems()
    assert len(problems) == 3, problems
    edited, removed, unlisted = problems
    assert first.name in edited and "edited" in edited and "new migration" in edited
    assert second.name in removed and "gone" in removed
    assert new.name in unlisted and "make freeze" in unlisted

    # make freeze lists the new file and never re-hashes an edited released one
    assert migrate.freeze() == [new.name]
    assert [p for p in migrate.frozen_problems() if new.name in p] == []
    assert any(first.name in p and "edited" in p for p in migrate.frozen_problems())


# --- the schema snapshot -------------------------------------------------------------------


def test_schema_snapshot_matches_a_fresh_migrate(fresh_schema):
    path = migrate.PROJECT_ROOT / migrate.SCHEMA_FILE
    kept = path.read_text(encoding="utf-8") if path.exists() else ""
    built = migrate._SCHEMA_HEADER + "\n" + fresh_schema
    if kept != built:
        pytest.fail(
            f"{migrate.SCHEMA_FILE} differs from the schema of a fresh migrate "
            f"(- kept, + migrated). If the change is intended, run `make schema` and commit "
            f"{migrate.SCHEMA_FILE} with it.\n"
            + diff(kept, built, migrate.SCHEMA_FILE, "fresh migrate"),
            pytrace=False,
        )


def test_schema_dump_leaves_out_what_varies_between_dumps(fresh_schema):
    assert "\\restrict" not in fresh_schema and "\\unrestrict" not in fresh_schema
    assert "Dumped from" not in fresh_schema and "SET statement_timeout" not in fresh_schema
    assert migrate._config()["schema"] not in fresh_schema  # the bookkeeping schema
    assert "CREATE TABLE memory.nodes" in fresh_schema


# --- upgrades ------------------------------------------------------------------------------


def test_one_version_at_a_time_ends_where_a_fresh_migrate_does(fresh_db, fresh_schema):
    dsn = fresh_db()
    *earlier, latest = versions()
    for v in earlier:
        result = migrate.migrate(dsn, target=v)
        assert result.applied_versions == [v]
        assert result.repeatable_files == 0  # written for the latest schema only
    assert migrate.pending_versions(dsn) == [latest]
    result = migrate.migrate(dsn)
    assert result.applied_versions == [latest] and result.repeatable_files > 0
    stepped = migrate.schema_dump(dsn)
    assert stepped == fresh_schema, diff(fresh_schema, stepped, "fresh migrate", "step by step")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(migrate.PROJECT_ROOT), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _frozen_at(commit: str) -> set[str]:
    try:
        text = _git("show", f"{commit}:{migrate.FROZEN_FILE}")
    except subprocess.CalledProcessError:
        return set()
    return {line.split()[1] for line in text.splitlines() if line and not line.startswith("#")}


def previous_release() -> str | None:
    """The commit that froze the release before today's: the newest commit whose
    sql/frozen.txt lists fewer migrations than today's. SWARM_MEMORY_UPGRADE_FROM names
    another commit to upgrade from."""
    if os.environ.get("SWARM_MEMORY_UPGRADE_FROM"):
        return _git("rev-parse", os.environ["SWARM_MEMORY_UPGRADE_FROM"]).strip()
    today = set(migrate.frozen_hashes())
    for commit in _git("log", "--format=%H", "--", migrate.FROZEN_FILE).split():
        frozen = _frozen_at(commit)
        if frozen and frozen < today:
            return commit
    return None


def test_upgrade_from_the_previous_release_ends_where_a_fresh_migrate_does(
    fresh_db, fresh_schema, monkeypatch
):
    if shutil.which("git") is None or not (migrate.PROJECT_ROOT / ".git").exists():
        pytest.skip("needs the project's git history")
    if _git("rev-parse", "--is-shallow-repository").strip() == "true":
        pytest.skip("a shallow clone holds no earlier release")
    release = previous_release()
    if release is None:
        pytest.skip(f"no release before the first one frozen in {migrate.FROZEN_FILE}")
    dsn = fresh_db()
    today = migrate.PROJECT_ROOT
    with tempfile.TemporaryDirectory(prefix="swarm-memory-release-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(today), "archive", "--format=tar", release, "pgmigrate.yml", "sql"],
            check=True,
            capture_output=True,
        ).stdout
        tar_path = Path(tmp) / "release.tar"
        tar_path.write_bytes(archive)
        with tarfile.open(tar_path) as tar:
            tar.extractall(Path(tmp) / "release", filter="data")
        monkeypatch.setattr(migrate, "PROJECT_ROOT", Path(tmp) / "release")
        migrate.migrate(dsn)  # the database as the previous release left it
    monkeypatch.setattr(migrate, "PROJECT_ROOT", today)
    migrate.migrate(dsn)
    upgraded = migrate.schema_dump(dsn)
    assert upgraded == fresh_schema, (
        f"upgrading a database of release {release[:12]} differs from a fresh migrate "
        "(an old object left behind needs dropping by a new versioned migration):\n"
        + diff(fresh_schema, upgraded, "fresh migrate", f"upgraded from {release[:12]}")
    )


def test_v0034_moves_earlier_entities_vectors_into_their_rows(fresh_db, monkeypatch):
    """An entity written before V0034 with both vectors had one of them in TOAST (a row of
    3,088 bytes of vectors passes the 2 kB threshold); the upgrade writes it again inline,
    the same values, without a version in the history, a word indexed or a change fed.
    The database before it: V0033 with today's functions and triggers (V0034 changes none)."""
    dsn = fresh_db()
    migrate.migrate(dsn, target=33)
    # today's repeatables (the policies of tables a later version adds are left out)
    migrate.apply_repeatables(dsn)
    rng = np.random.default_rng(34)
    vectors = [rng.standard_normal(384).astype(np.float32) for _ in range(3)]
    literal = ["[" + ",".join(repr(float(x)) for x in v) + "]" for v in vectors]
    tenant, sim = uuid.uuid4(), uuid.uuid4()
    with psycopg.connect(dsn, autocommit=True) as c:
        c.execute("INSERT INTO memory.tenants (tenant_id, name) VALUES (%s, 'v0034')", (tenant,))
        c.execute(
            "INSERT INTO memory.simulations (tenant_id, simulation_id) VALUES (%s, %s)",
            (tenant, sim),
        )
        c.execute(
            "INSERT INTO memory.nodes (tenant_id, simulation_id, node_id, name, type, summary,"
            " embedding, embedding_model, summary_embedding) VALUES"
            " (%(t)s, %(s)s, 'both', '北京日报', 'MediaOutlet', '报道交通', %(a)s, 'm', %(b)s),"
            " (%(t)s, %(s)s, 'name only', 'Li Wei', 'Person', NULL, %(c)s, 'm', NULL),"
            " (%(t)s, %(s)s, 'none', 'Beijing', 'Location', NULL, NULL, NULL, NULL)",
            {"t": tenant, "s": sim, "a": literal[0], "b": literal[1], "c": literal[2]},
        )
        toasted = "pg_column_toast_chunk_id(embedding) IS NOT NULL OR pg_column_toast_chunk_id(summary_embedding) IS NOT NULL"
        query = f"SELECT node_id, embedding::text, summary_embedding::text, updated_at, {toasted} FROM memory.nodes ORDER BY node_id"
        before = c.execute(query).fetchall()
        assert [r[4] for r in before] == [True, False, False]  # the premise: one went to TOAST
        counts = "SELECT (SELECT count(*) FROM memory.row_history), (SELECT count(*) FROM memory.word_postings), (SELECT count(*) FROM memory.changes)"
        written = c.execute(counts).fetchone()
    migrate.migrate(dsn)
    with psycopg.connect(dsn, autocommit=True) as c:
        after = c.execute(query).fetchall()
        assert [r[4] for r in after] == [False, False, False]
        assert [r[:4] for r in after] == [r[:4] for r in before]
        assert c.execute(counts).fetchone() == written
