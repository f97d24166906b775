"""The audit of code: every function of schema memory against what the release installed.

A function's fingerprint is its signature, its security (definer or invoker), its owner, its
configuration (the SET clauses, plan_cache_mode left out: a Citus cluster resets it), its
EXECUTE privileges (grantee=privilege, the owner's own left out) and the md5 of its
definition (language, kind, volatility, strictness, leakproofness, parallel safety,
arguments, result and body). FINGERPRINT_SQL is that rule's one home: `make schema` writes
it, with the fingerprints of a fresh migrate, into sql/finalize/installed_functions.sql
(memory._function_fingerprints() and memory._installed_functions(), which rls_audit()
compares), and `swarm-memory audit` runs it itself against the manifest this package ships,
so a database whose functions and manifest were both rewritten is still caught.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MANIFEST_FILE = "sql/finalize/installed_functions.sql"
# the manifest function cannot hold its own fingerprint; the CLI checks its body instead
MANIFEST_FUNCTION = "memory._installed_functions()"
# functions a Citus cluster adds (swarm-memory distribute): absent on one node
CLUSTER_FILES = ("sql/citus/cluster_audit.sql",)

FINGERPRINT_SQL = """\
SELECT p.oid::pg_catalog.regprocedure::text AS signature,
       CASE WHEN p.prosecdef THEN 'definer' ELSE 'invoker' END AS security,
       pg_catalog.pg_get_userbyid(p.proowner)::text AS owner,
       pg_catalog.array_to_string(ARRAY(
           SELECT c FROM pg_catalog.unnest(p.proconfig) AS c
            WHERE c NOT LIKE 'plan\\_cache\\_mode=%' ORDER BY c), ', ') AS config,
       CASE WHEN p.proacl IS NULL THEN 'PUBLIC=EXECUTE (default)'
            ELSE pg_catalog.array_to_string(ARRAY(
                SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC'
                            ELSE pg_catalog.pg_get_userbyid(a.grantee)::text END || '=' || a.privilege_type
                  FROM pg_catalog.aclexplode(p.proacl) AS a
                 WHERE a.grantee OPERATOR(pg_catalog.<>) p.proowner ORDER BY 1), ', ') END AS acl,
       pg_catalog.md5(pg_catalog.concat_ws(E'\\n', l.lanname, p.prokind, p.provolatile, p.proisstrict,
                                           p.proleakproof, p.proparallel,
                                           pg_catalog.pg_get_function_arguments(p.oid),
                                           pg_catalog.pg_get_function_result(p.oid),
                                           p.prosrc, p.prosqlbody::text)) AS body_md5
  FROM pg_catalog.pg_proc AS p
  JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
  JOIN pg_catalog.pg_language AS l ON l.oid = p.prolang
 WHERE n.nspname = 'memory'"""


@dataclass(frozen=True)
class Fingerprint:
    signature: str
    security: str
    owner: str
    config: str
    acl: str
    body_md5: str
    cluster_only: bool = False

    def differences(self, installed: Fingerprint) -> list[str]:
        """What differs from the installed form, in words a DBA acts on."""
        out = []
        if self.body_md5 != installed.body_md5:
            out.append("its definition")
        for field in ("security", "owner", "config", "acl"):
            now, then = getattr(self, field), getattr(installed, field)
            if now != then:
                label = {"config": "configuration", "acl": "privileges"}.get(field, field)
                out.append(f"{label} {now or '(none)'}, installed {then or '(none)'}")
        return out


def fingerprints(conn: psycopg.Connection) -> dict[str, Fingerprint]:
    """The live fingerprints of schema memory's functions (search_path pinned, so that
    signatures name their types' schemas as the manifest does)."""
    with conn.transaction():
        conn.execute("SET LOCAL search_path = pg_catalog, pg_temp")
        rows = conn.execute(FINGERPRINT_SQL).fetchall()
    return {r[0]: Fingerprint(*r) for r in rows}


# --- the manifest: sql/finalize/installed_functions.sql ------------------------------------


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


_HEADER = """\
-- The functions the release installs, as make schema found them in a fresh migrate
-- (swarm_memory.audit): memory.rls_audit() compares every function of the schema with them.
-- Generated: edit the functions, then run make schema. Do not edit by hand.
"""


def manifest_sql(rows: list[Fingerprint]) -> str:
    """The text of the manifest file for these fingerprints."""
    values = ",\n".join(
        "        ("
        + ", ".join(
            [
                _literal(r.signature),
                _literal(r.security),
                _literal(r.owner),
                _literal(r.config),
                _literal(r.acl),
                _literal(r.body_md5),
                "true" if r.cluster_only else "false",
            ]
        )
        + ")"
        for r in sorted(rows, key=lambda r: r.signature)
    )
    fingerprint_body = FINGERPRINT_SQL.replace("\n", "\n    ")
    return f"""{_HEADER}
-- Every function of schema memory as it stands (rule: swarm_memory.audit.FINGERPRINT_SQL).
CREATE OR REPLACE FUNCTION memory._function_fingerprints()
RETURNS TABLE (signature text, security text, owner text, config text, acl text, body_md5 text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    {fingerprint_body}
$fn$;

COMMENT ON FUNCTION memory._function_fingerprints() IS 'Internal: every function of schema memory with its security, owner, configuration, privileges and the md5 of its definition';
GRANT EXECUTE ON FUNCTION memory._function_fingerprints() TO memory_admin;

-- What the release installed (cluster_only: added by swarm-memory distribute).
CREATE OR REPLACE FUNCTION memory._installed_functions()
RETURNS TABLE (signature text, security text, owner text, config text, acl text, body_md5 text,
               cluster_only boolean)
LANGUAGE sql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    VALUES
{values}
$fn$;

COMMENT ON FUNCTION memory._installed_functions() IS 'Internal: the fingerprints of the functions the release installed (generated by make schema)';
GRANT EXECUTE ON FUNCTION memory._installed_functions() TO memory_admin;
"""


_ROW = re.compile(
    r"^        \('((?:[^']|'')*)', '(definer|invoker)', '((?:[^']|'')*)', '((?:[^']|'')*)',"
    r" '((?:[^']|'')*)', '([0-9a-f]{32})', (true|false)\),?$",
    re.MULTILINE,
)


def manifest_path() -> Path:
    return PROJECT_ROOT / MANIFEST_FILE


def shipped() -> dict[str, Fingerprint]:
    """The manifest this package ships, read from its file."""
    text = manifest_path().read_text(encoding="utf-8")
    out = {}
    for m in _ROW.finditer(text):
        sig, sec, owner, config, acl, md5, cluster = (g.replace("''", "'") for g in m.groups())
        out[sig] = Fingerprint(sig, sec, owner, config, acl, md5, cluster == "true")
    return out


def _prosrc_of_manifest() -> str:
    """The body memory._installed_functions() has when installed from the shipped file."""
    text = manifest_path().read_text(encoding="utf-8")
    tail = text.split("CREATE OR REPLACE FUNCTION memory._installed_functions()", 1)[1]
    return tail.split("AS $fn$", 1)[1].split("$fn$", 1)[0]


def code_problems(conn: psycopg.Connection) -> list[tuple[str, str]]:
    """(subject, problem) for every function of schema memory that differs from the manifest
    this package ships, computed here rather than by any function of the database."""
    live = fingerprints(conn)
    installed = shipped()
    problems: list[tuple[str, str]] = []
    for sig in sorted(set(live) | set(installed)):
        now, then = live.get(sig), installed.get(sig)
        subject = f"function {sig}"
        if sig == MANIFEST_FUNCTION:
            with conn.transaction():
                conn.execute("SET LOCAL search_path = pg_catalog, pg_temp")
                row = conn.execute(
                    "SELECT p.prosrc FROM pg_catalog.pg_proc AS p"
                    " WHERE p.oid = 'memory._installed_functions()'::pg_catalog.regprocedure"
                ).fetchone()
            if row is None or row[0] != _prosrc_of_manifest():
                problems.append(
                    (
                        subject,
                        f"the manifest of installed functions differs from the one this package"
                        f" ships ({MANIFEST_FILE}): run migrate with this package",
                    )
                )
            continue
        if then is None and now is not None:
            problems.append(
                (
                    subject,
                    f"function {sig} is not one the release installs: it runs with its owner's"
                    f" rights; DROP FUNCTION {sig}",
                )
            )
        elif now is None and then is not None:
            if not then.cluster_only:
                problems.append(
                    (
                        subject,
                        f"installed function {sig} is missing: run migrate, which re-creates it",
                    )
                )
        elif now is not None and then is not None and now.differences(then):
            problems.append(
                (
                    subject,
                    f"function {sig} differs from what the release installed"
                    f" ({'; '.join(now.differences(then))}): run migrate, which re-creates it,"
                    " and find out who changed it",
                )
            )
    return problems


def write_manifest(dsn: str) -> Path:
    """Write the manifest of the database at `dsn` (a fresh migrate) to its file, and install
    it there, so that a schema snapshot taken next holds the manifest written."""
    from swarm_memory.sqlfiles import split_statements

    def install(conn: psycopg.Connection, text: str) -> None:
        conn.execute("SET check_function_bodies = off")
        for statement in split_statements(text):
            conn.execute(statement)
        # as a deploy leaves them: owned by memory_owner, PUBLIC's EXECUTE revoked
        ownership = (PROJECT_ROOT / "sql/finalize/ownership.sql").read_text(encoding="utf-8")
        for statement in split_statements(ownership):
            conn.execute(statement)

    with psycopg.connect(dsn, autocommit=True) as conn:
        # this release's memory._function_fingerprints() first (its own fingerprint counts)
        install(conn, manifest_sql([]))
        for rel in CLUSTER_FILES:
            # created here only to be fingerprinted, then dropped again
            install(conn, (PROJECT_ROOT / rel).read_text(encoding="utf-8"))
        cluster = _cluster_signatures(conn)
        rows = [
            Fingerprint(**{**fp.__dict__, "cluster_only": fp.signature in cluster})
            for fp in fingerprints(conn).values()
            if fp.signature != MANIFEST_FUNCTION
        ]
        for sig in sorted(cluster):
            conn.execute(f"DROP FUNCTION {sig}")
        text = manifest_sql(rows)
        install(conn, text)
        conn.execute("SELECT pg_catalog.count(*) FROM memory._installed_functions()")
    path = manifest_path()
    path.write_text(text, encoding="utf-8")
    return path


def _cluster_signatures(conn: psycopg.Connection) -> set[str]:
    names = set()
    for rel in CLUSTER_FILES:
        text = (PROJECT_ROOT / rel).read_text(encoding="utf-8")
        names |= set(re.findall(r"CREATE OR REPLACE FUNCTION memory\.(\w+)\(", text))
    live = fingerprints(conn)
    return {sig for sig in live if re.sub(r"^memory\.(\w+)\(.*", r"\1", sig) in names}
