"""Migrations: pgmigrate for versioned files, plus the repeatable objects on every run.

pgmigrate reads `migrations.yml` from a base directory that holds `migrations/`. The project
keeps its configuration in `pgmigrate.yml` and its versioned files in `sql/`, so each run
builds a throw-away base directory of symbolic links: `migrations.yml` -> `pgmigrate.yml`,
`migrations/V*.sql` -> `sql/V*.sql`, `sql` -> `sql`. pgmigrate.yml stays the one source of
truth.

Repeatable objects (functions, policies, ownership) are pgmigrate afterAll callbacks. pgmigrate
runs those only when a versioned migration is pending; when none is, `migrate()` applies the
same files itself in one transaction. Either way every deploy re-applies them, and a second
run changes nothing.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg
import yaml

PROJECT_ROOT = Path(
    os.environ.get("SWARM_MEMORY_HOME", Path(__file__).resolve().parents[2])
).resolve()


@dataclass(frozen=True)
class MigrateResult:
    applied_versions: list[int]
    repeatable_files: int


def _config() -> dict:
    path = PROJECT_ROOT / "pgmigrate.yml"
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}


def _versioned_files() -> list[Path]:
    return sorted((PROJECT_ROOT / "sql").glob("V*__*.sql"))


def _callback_files(config: dict) -> list[Path]:
    files: list[Path] = []
    for entry in (config.get("callbacks") or {}).get("afterAll") or []:
        path = PROJECT_ROOT / entry
        if path.is_dir():
            files.extend(sorted(p for p in path.iterdir() if p.is_file()))
        else:
            files.append(path)
    return files


def _bridge(base: Path) -> None:
    (base / "migrations.yml").symlink_to(PROJECT_ROOT / "pgmigrate.yml")
    (base / "migrations").mkdir()
    for f in _versioned_files():
        (base / "migrations" / f.name).symlink_to(f)
    (base / "sql").symlink_to(PROJECT_ROOT / "sql")


def _libpq_dsn(dsn: str) -> str:
    # psycopg2 (used by pgmigrate) takes the same libpq strings and URIs as psycopg 3.
    return dsn


def pending_versions(dsn: str) -> list[int]:
    config = _config()
    schema = config.get("schema", "public")
    all_versions = [int(f.name[1:].split("__", 1)[0]) for f in _versioned_files()]
    with psycopg.connect(dsn, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT to_regclass(quote_ident(%s::text) || '.schema_version') IS NOT NULL", (schema,)
        ).fetchone()[0]
        applied: set[int] = set()
        if exists:
            rows = conn.execute(
                psycopg.sql.SQL("SELECT version FROM {}.schema_version").format(
                    psycopg.sql.Identifier(schema)
                )
            ).fetchall()
            applied = {int(r[0]) for r in rows}
    return [v for v in all_versions if v not in applied]


def apply_repeatables(dsn: str) -> int:
    """Apply the afterAll callback files of pgmigrate.yml in one transaction."""
    config = _config()
    files = _callback_files(config)
    with psycopg.connect(dsn) as conn, conn.transaction():
        for stmt in config.get("session") or []:
            conn.execute(stmt)
        for f in files:
            conn.execute(f.read_text(encoding="utf-8"))
    return len(files)


def migrate(dsn: str) -> MigrateResult:
    """Bring the database at `dsn` to the latest schema and re-apply repeatable objects."""
    import pgmigrate

    pending = pending_versions(dsn)
    if not pending:
        return MigrateResult([], apply_repeatables(dsn))
    logging.getLogger("pgmigrate").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="swarm-memory-migrate-") as tmp:
        base = Path(tmp)
        _bridge(base)
        args = argparse.Namespace(base_dir=str(base), conn=_libpq_dsn(dsn), target="latest")
        config = pgmigrate.get_config(str(base), args)
        pgmigrate.migrate(config)
    return MigrateResult(pending, len(_callback_files(_config())))
