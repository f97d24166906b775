"""Migrations: pgmigrate for versioned files, plus the repeatable objects on every run.

pgmigrate reads `migrations.yml` from a base directory that holds `migrations/`. The project
keeps its configuration in `pgmigrate.yml` and its versioned files in `sql/`, so each run
builds a throw-away base directory: `migrations.yml` written from `pgmigrate.yml` (its afterAll
folders spelled out file by file), `migrations/V*.sql` -> `sql/V*.sql`, `sql` -> `sql`.
pgmigrate.yml stays the one source of truth.

Repeatable objects (functions, policies, ownership) are pgmigrate afterAll callbacks. pgmigrate
runs those only when a versioned migration is pending; when none is, `migrate()` applies the
same files itself in one transaction. Either way every deploy re-applies them, and a second
run changes nothing.

Managed PostgreSQL: the deploying role need not be a superuser (README, "Managed
PostgreSQL"). Two things make a non-superuser's second migrate work like the first: each
deploy session loads pgvector's library first (`LOAD_VECTOR`), because a function's `SET
hnsw.ef_search` names a placeholder parameter until the library is loaded, and only a
superuser may name a placeholder; and on an existing database the deploying role takes
memory_owner's privileges for the deploy (`GRANT memory_owner TO current_user WITH INHERIT
TRUE, SET TRUE`, which its ADMIN OPTION allows) and gives them back at the end, since only
the owner's privileges alter the owner's tables and functions. sql/finalize/ownership.sql
takes and gives back the same grant on a first deploy, when memory_owner appears mid-way.
The group roles are the cluster's: a second administrator deploying another database where
the first one created them holds no ADMIN OPTION on them, and the deploy stops with 42501;
`migrate()` then names the one GRANT a superuser must run (`_missing_admin_option`).

`migrate(dsn, target=N)` stops at version N (the upgrade test walks the releases one by one
this way). The re-applied files are written for the latest schema, so a migrate that stops
short of it applies the versioned files only.

Released migrations are frozen: `sql/frozen.txt` holds the sha256 of each (`make freeze`
adds the ones not listed yet), and `sql/schema.sql` is the normalised `pg_dump
--schema-only` of a fresh migrate (`make schema` writes it). tests/test_migrations.py checks
both.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import logging
import os
import re
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import yaml

from swarm_memory.sqlfiles import PROJECT_ROOT, split_statements


@dataclass(frozen=True)
class MigrateResult:
    applied_versions: list[int]
    repeatable_files: int


def _config() -> dict:
    path = PROJECT_ROOT / "pgmigrate.yml"
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}


def _versioned_files() -> list[Path]:
    return sorted((PROJECT_ROOT / "sql").glob("V*__*.sql"), key=version_of)


def version_of(path: Path) -> int:
    """The version of a versioned file: V0004__Walk_indexes.sql -> 4."""
    return int(path.name[1:].split("__", 1)[0])


def latest_version() -> int:
    files = _versioned_files()
    return version_of(files[-1]) if files else 0


def _callback_files(config: dict) -> list[Path]:
    """The afterAll files in deploy order. A folder gives its .sql files, those of its
    subfolders included, by path (sql/functions: core/ before wings/, each family's files
    by name); its READMEs and its pgTAP files (a `tests` folder) are not deployed."""
    files: list[Path] = []
    for entry in (config.get("callbacks") or {}).get("afterAll") or []:
        path = PROJECT_ROOT / entry
        if path.is_dir():
            files.extend(
                sorted(
                    (p for p in path.rglob("*.sql") if "tests" not in p.relative_to(path).parts),
                    key=lambda p: p.relative_to(path).parts,
                )
            )
        else:
            files.append(path)
    return files


def _bridge(base: Path) -> None:
    # pgmigrate reads a callback folder's entries without descending into subfolders, and
    # would run a README as SQL: it is given the same files migrate() applies itself, one by
    # one, in a migrations.yml written from pgmigrate.yml
    config = _config()
    config["callbacks"] = {
        **(config.get("callbacks") or {}),
        "afterAll": [str(f.relative_to(PROJECT_ROOT)) for f in _callback_files(config)],
    }
    (base / "migrations.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    (base / "migrations").mkdir()
    for f in _versioned_files():
        (base / "migrations" / f.name).symlink_to(f)
    (base / "sql").symlink_to(PROJECT_ROOT / "sql")


def _libpq_dsn(dsn: str) -> str:
    # psycopg2 (used by pgmigrate) takes the same libpq strings and URIs as psycopg 3.
    return dsn


def pending_versions(dsn: str, target: int | None = None) -> list[int]:
    """Versions not applied yet (up to `target` when given)."""
    config = _config()
    schema = config.get("schema", "public")
    all_versions = [
        version_of(f) for f in _versioned_files() if target is None or version_of(f) <= target
    ]
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


# Loads pgvector's library into the deploy's session when the extension is installed: after
# it, hnsw.* are real parameters that any role may name in a function's SET clause.
LOAD_VECTOR = (
    "DO $load$ BEGIN IF pg_catalog.to_regtype('public.vector') IS NOT NULL THEN"
    " PERFORM '[1]'::public.vector; END IF; END $load$"
)


def _session(config: dict) -> list[str]:
    return [*(config.get("session") or []), LOAD_VECTOR]


@contextlib.contextmanager
def _owner_privileges(dsn: str) -> Iterator[None]:
    """For a deploy by a non-superuser on a database that has memory_owner: hold the
    owner's privileges for the deploy (a grant to itself, which ADMIN OPTION on the role it
    created allows) and revoke that grant afterwards, whether the deploy worked or not."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        superuser, exists, holds = conn.execute(
            "SELECT r.rolsuper, to_regrole('memory_owner') IS NOT NULL,"
            " to_regrole('memory_owner') IS NOT NULL"
            " AND pg_has_role(current_user, 'memory_owner', 'USAGE')"
            "  FROM pg_roles AS r WHERE r.rolname = current_user"
        ).fetchone()
        if not superuser and exists and not holds:
            conn.execute(
                psycopg.sql.SQL("GRANT memory_owner TO {} WITH INHERIT TRUE, SET TRUE").format(
                    psycopg.sql.Identifier(conn.info.user)
                )
            )
    try:
        yield
    finally:
        if not superuser:
            with psycopg.connect(dsn, autocommit=True) as conn:
                _give_back_owner(conn)


def _give_back_owner(conn: psycopg.Connection) -> None:
    """Revoke memory_owner from the current role where the role granted it to itself."""
    if conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_auth_members AS m"
        " WHERE m.roleid = to_regrole('memory_owner') AND m.member = m.grantor"
        " AND m.member = (SELECT oid FROM pg_roles WHERE rolname = current_user))"
    ).fetchone()[0]:
        conn.execute(
            psycopg.sql.SQL("REVOKE memory_owner FROM {}").format(
                psycopg.sql.Identifier(conn.info.user)
            )
        )


def is_distributed(dsn: str) -> bool:
    """Whether the database's memory schema is distributed over a Citus cluster."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return bool(
            conn.execute(
                "SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL"
                " AND to_regclass('memory.simulations') IS NOT NULL"
            ).fetchone()[0]
            and conn.execute(
                "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition"
                " WHERE logicalrelid = 'memory.simulations'::regclass)"
            ).fetchone()[0]
        )


def apply_repeatables(dsn: str, cluster: bool = False) -> int:
    """Apply the afterAll callback files of pgmigrate.yml in one transaction (on a Citus
    cluster, sql/policies/generate.sql gives the policies the form Citus takes)."""
    config = _config()
    files = _callback_files(config)
    with psycopg.connect(dsn) as conn, conn.transaction():
        for stmt in _session(config):
            conn.execute(stmt)
        if cluster:
            # the statement triggers (word postings, history) on distributed tables, as
            # sql/citus/distribute.sql creates them (a superuser setting)
            conn.execute("SET LOCAL citus.enable_unsafe_triggers = on")
        for f in files:
            text = f.read_text(encoding="utf-8")
            for stmt in split_statements(text) if cluster else [text]:
                conn.execute(stmt)
    return len(files)


def migrate(dsn: str, target: int | None = None) -> MigrateResult:
    """Bring the database at `dsn` to the latest schema and re-apply repeatable objects.

    With `target`, stop at that version; the repeatable objects, written for the latest
    schema, are applied only when the target reaches it.
    """
    if target is not None and target >= latest_version():
        target = None
    try:
        with _owner_privileges(dsn):
            return _migrate(dsn, target)
    except (psycopg.errors.InsufficientPrivilege, RuntimeError) as exc:  # pgmigrate's errors
        missing = _missing_admin_option(dsn)
        if not missing:
            raise
        from swarm_memory.errors import TenantAccessDenied

        role, roles = missing
        raise TenantAccessDenied(
            f"role {role} may not grant the group roles {roles}, which another role created"
            " in this cluster: a deploy grants them (to each other, and memory_owner to the"
            " deploying role for the deploy)",
            "42501",
            hint=f"a superuser runs once: GRANT {roles} TO {role}"
            " WITH ADMIN TRUE, INHERIT FALSE, SET FALSE",
        ) from exc


# The group roles of V0001 (memory._group_roles() once migrated): created by the first
# deploy in the cluster; any later deploying role must hold each WITH ADMIN OPTION.
GROUP_ROLES = ("memory_owner", "memory_reader", "memory_writer", "memory_admin")


def _missing_admin_option(dsn: str) -> tuple[str, str] | None:
    """(the current role, the group roles it lacks ADMIN OPTION on, comma-separated) when
    it is no superuser and some group role exists without it: the managed PostgreSQL case
    of a second administrator deploying into a cluster where the first made the roles."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        role, missing = conn.execute(
            "SELECT quote_ident(current_user), string_agg(quote_ident(g), ', ' ORDER BY o)"
            "  FROM unnest(%s::text[]) WITH ORDINALITY AS r(g, o)"
            " WHERE to_regrole(g) IS NOT NULL"
            "   AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
            "   AND NOT pg_has_role(current_user, g, 'MEMBER WITH ADMIN OPTION')",
            (list(GROUP_ROLES),),
        ).fetchone()
    return (role, missing) if missing else None


def _migrate(dsn: str, target: int | None) -> MigrateResult:
    pending = pending_versions(dsn, target)
    cluster = is_distributed(dsn)
    if pending and not cluster:
        _pgmigrate(dsn, target, callbacks=None if target is None else "")
        repeatables = len(_callback_files(_config())) if target is None else 0
        return MigrateResult(pending, repeatables)
    # Nothing pending (the repeatable objects alone, so that an edited function reaches the
    # database), or a database distributed over Citus: there the versioned files go without
    # pgmigrate's callbacks, the repeatable objects in the cluster's form, and `distribute`
    # runs again (new tables and functions, and what distribution changes in the schema:
    # README "Scaling out").
    if pending:
        _pgmigrate(dsn, target, callbacks="")
    repeatables = apply_repeatables(dsn, cluster) if target is None else 0
    if cluster and target is None:
        from swarm_memory.distribute import distribute

        distribute(dsn)
    return MigrateResult(pending, repeatables)


def _pgmigrate(dsn: str, target: int | None, callbacks: str | None) -> None:
    """Apply the pending versioned files with pgmigrate (callbacks None: the configured
    afterAll ones; '': none)."""
    import pgmigrate

    logging.getLogger("pgmigrate").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="swarm-memory-migrate-") as tmp:
        base = Path(tmp)
        _bridge(base)
        args = argparse.Namespace(
            base_dir=str(base),
            conn=_libpq_dsn(dsn),
            target="latest" if target is None else str(target),
            # '' replaces the configured callbacks: none short of the latest version
            callbacks=callbacks,
            session=_session(_config()),
        )
        config = pgmigrate.get_config(str(base), args)
        pgmigrate.migrate(config)


# --- released migrations: frozen by hash --------------------------------------------------

FROZEN_FILE = "sql/frozen.txt"
_FROZEN_HEADER = """\
# sha256 of every released migration (sha256sum format). A released migration is never
# edited: change the schema with a new sql/V*.sql. `make freeze` adds new files here.
"""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def frozen_hashes() -> dict[str, str]:
    """filename -> sha256 as listed in sql/frozen.txt."""
    path = PROJECT_ROOT / FROZEN_FILE
    if not path.exists():
        return {}
    hashes: dict[str, str] = {}
    for line in path.read_text(encoding="ascii").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, name = line.split(maxsplit=1)
            hashes[name.strip()] = digest
    return hashes


def frozen_problems() -> list[str]:
    """What breaks the freeze: an edited or removed released migration, an unlisted one."""
    frozen = frozen_hashes()
    files = {f.name: f for f in _versioned_files()}
    problems: list[str] = []
    for name, digest in frozen.items():
        if name not in files:
            problems.append(
                f"sql/{name} is a released migration (listed in {FROZEN_FILE}) and is gone: "
                "restore it; databases that applied it still record it"
            )
        elif _sha256(files[name]) != digest:
            problems.append(
                f"sql/{name} is a released migration and was edited (sha256 "
                f"{_sha256(files[name])[:12]}..., frozen {digest[:12]}...): restore it "
                "(git checkout) and make the change in a new migration "
                f"sql/V{latest_version() + 1:04d}__<what>.sql"
            )
    for name in files:
        if name not in frozen:
            problems.append(
                f"sql/{name} is not in {FROZEN_FILE}: when it is released, "
                "add its hash with `make freeze`"
            )
    return problems


def freeze() -> list[str]:
    """Add the versioned files not yet listed to sql/frozen.txt; return their names.

    Hashes already listed are never changed: an edited released migration stays a problem.
    """
    path = PROJECT_ROOT / FROZEN_FILE
    frozen = frozen_hashes()
    added = [f for f in _versioned_files() if f.name not in frozen]
    text = path.read_text(encoding="ascii") if path.exists() else _FROZEN_HEADER
    for f in added:
        text += f"{_sha256(f)}  {f.name}\n"
    path.write_text(text, encoding="ascii")
    return [f.name for f in added]


# --- the normalised schema snapshot --------------------------------------------------------

SCHEMA_FILE = "sql/schema.sql"
_SCHEMA_HEADER = """\
-- The schema of a fresh migrate: pg_dump --schema-only, normalised by
-- swarm_memory.migrate.schema_dump (no dump comments or settings, the migration bookkeeping
-- left out, one block per object, blocks sorted). Written by `make schema`; compared with a
-- fresh migrate by tests/test_migrations.py. Do not edit by hand.
"""
# pg_dump's header before each object: "-- Name: nodes; Type: TABLE; Schema: memory; Owner: ..."
_DUMP_ENTRY = re.compile(r"^--\n-- (?:Data for )?Name: (.*)\n--\n", re.MULTILINE)


def schema_dump(dsn: str) -> str:
    """pg_dump --schema-only of `dsn`, normalised so that it depends only on the schema.

    Left out: the preamble (SET lines, the server version), pg_dump's comments, the random
    \\restrict / \\unrestrict keys of pg_dump 18, and the bookkeeping schema of pgmigrate.
    Each object's block is kept whole and the blocks are sorted by their pg_dump name, so that
    the order in which objects were created (a fresh migrate or an upgrade) does not matter.
    """
    from swarm_memory import server

    bookkeeping = _config().get("schema", "public")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    out = subprocess.run(
        [
            str(server.bin_dir() / "pg_dump"),
            "--schema-only",
            f"--exclude-schema={bookkeeping}",
            "-d",
            dsn,
        ],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    out = re.sub(r"^\\(un)?restrict .*\n", "", out, flags=re.MULTILINE)
    # settings pg_dump emits once, before the first table: whichever block that follows
    out = re.sub(r"^SET default_(tablespace|table_access_method) = .*;\n", "", out, flags=re.M)
    parts = _DUMP_ENTRY.split(out)
    # parts: [preamble, name1, block1, name2, block2, ...]
    blocks = []
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        body = re.sub(r"(\n--)?\n-- PostgreSQL database dump complete\n.*", "", body, flags=re.S)
        body = re.sub(r"\n{3,}", "\n\n", body.strip("\n"))
        blocks.append((_entry_key(name), name, body))
    blocks.sort()
    return "".join(f"-- {name}\n{body}\n\n" for _, name, body in blocks).rstrip("\n") + "\n"


def _entry_key(entry: str) -> tuple[str, str, int, str]:
    """Sort key of a dump entry ("nodes; Type: TABLE; Schema: memory; Owner: memory_owner"):
    an object, then its comment, then its privileges, objects by schema and name."""
    name, _, rest = entry.partition("; Type: ")
    kind = rest.split(";", 1)[0]
    schema = re.search(r"; Schema: ([^;]*)", entry)
    # "FUNCTION f(p_a uuid)", "f(uuid)" -> "f"; "COLUMN t.c" -> "t.c"
    obj = re.sub(r"\(.*", "", re.sub(r"^(?:[A-Z]+ )+", "", name))
    rank = {"COMMENT": 1, "ACL": 2}.get(kind, 0)
    return (schema.group(1) if schema else "", obj, rank, entry)


def schema_snapshot(dsn: str) -> str:
    """The text sql/schema.sql should hold for the database at `dsn`."""
    return _SCHEMA_HEADER + "\n" + schema_dump(dsn)


def fresh_database(server_dsn: str) -> tuple[str, str]:
    """Create an empty database on the server of `server_dsn`: (its name, its DSN)."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    name = f"swarm_schema_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_dsn, autocommit=True) as conn:
        conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))
    info = conninfo_to_dict(server_dsn)
    info["dbname"] = name
    return name, make_conninfo(**info)


def drop_database(server_dsn: str, name: str) -> None:
    with psycopg.connect(server_dsn, autocommit=True) as conn:
        conn.execute(
            psycopg.sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                psycopg.sql.Identifier(name)
            )
        )


def write_schema_snapshot(server_dsn: str) -> Path:
    """Migrate a fresh database on the server and write its snapshot to sql/schema.sql, and
    the manifest of its functions to sql/finalize/installed_functions.sql (swarm_memory.audit)."""
    from swarm_memory import audit

    name, dsn = fresh_database(server_dsn)
    try:
        migrate(dsn)
        # the manifest of installed functions first: the snapshot holds it
        audit.write_manifest(dsn)
        text = schema_snapshot(dsn)
    finally:
        drop_database(server_dsn, name)
    path = PROJECT_ROOT / SCHEMA_FILE
    path.write_text(text, encoding="utf-8")
    return path


# --- SQL lint: pgspot over what a deploy runs ------------------------------------------------


def deployed_sql_files() -> list[Path]:
    """Every SQL file a deploy runs, in its order: versioned files, then the afterAll folders."""
    return _versioned_files() + [f for f in _callback_files(_config()) if f.suffix == ".sql"]


def lint_sql(ignore: list[str], unreadable: list[str]) -> int:
    """pgspot (pinned in requirements.txt) over `deployed_sql_files()` as one script, so
    that what the migrations create (schema memory) is known to the files after them.

    `ignore`: accepted finding codes. `unreadable`: files pgspot cannot parse although
    PostgreSQL does; any other file it cannot parse fails the lint, and so does a listed file
    that it parses. Returns the number of problems (findings, unreadable files, stale entries).
    """
    from pgspot.state import Counter, State
    from pgspot.visitors import visit_sql

    args = argparse.Namespace(
        ignore=ignore,
        ignore_lang=[],
        summary_only=False,
        plpgsql=True,
        proc_without_search_path=[],
        sql_fn=[],
        append=True,
        explain=None,
        files=[],
    )
    counter = Counter(args)
    state = State(counter)
    problems = 0
    for path in deployed_sql_files():
        name = str(path.relative_to(PROJECT_ROOT))
        before = counter.errors + counter.warnings + counter.unknowns
        counter.sql = path.read_text(encoding="utf-8")
        out = io.StringIO()  # pgspot prints its findings: shown under the file's name
        with contextlib.redirect_stdout(out):
            try:
                visit_sql(state, counter.sql, toplevel=True)
            except Exception as exc:  # pgspot raises whatever its parser or visitor meets
                if name not in unreadable:
                    print(f"pgspot cannot read it: {exc}")
                    problems += 1
            else:
                if name in unreadable:
                    print("listed as unreadable by pgspot, but it reads it: take it off the list")
                    problems += 1
        problems += counter.errors + counter.warnings + counter.unknowns - before
        if out.getvalue():
            print(f"{name}:\n" + "".join(f"  {line}\n" for line in out.getvalue().splitlines()))
    print(f"pgspot: {problems} problem(s) in {len(deployed_sql_files())} files; ignored: {ignore}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m swarm_memory.migrate", description="tools for the migrations"
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("freeze", help=f"add the hashes of unlisted migrations to {FROZEN_FILE}")
    s = sub.add_parser("schema", help=f"write {SCHEMA_FILE} from a fresh migrate")
    s.add_argument("--datadir", default=".cache/pgdata", help="the embedded server's data")
    s = sub.add_parser("lint", help="pgspot over the migrations and the re-applied files")
    s.add_argument("--ignore", action="append", default=[], help="an accepted finding code")
    s.add_argument("--unreadable", action="append", default=[], help="a file pgspot can't parse")
    args = parser.parse_args(argv)
    if args.cmd == "lint":
        return 1 if lint_sql(args.ignore, args.unreadable) else 0
    if args.cmd == "freeze":
        added = freeze()
        print(f"{FROZEN_FILE}: added {', '.join(added)}" if added else f"{FROZEN_FILE}: up to date")
        problems = [p for p in frozen_problems() if "not in" not in p]
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    from swarm_memory import server

    path = write_schema_snapshot(server.start(args.datadir))
    print(f"wrote {path.relative_to(PROJECT_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
