"""Tenants and who may act for them: `tenant`, `tenants`, `simulations`, `role`, `quota` and
`audit`."""

from __future__ import annotations

import argparse
import os
import uuid

from swarm_memory.commands.common import (
    Subcommands,
    as_uuid,
    confirmed,
    memory,
    resolve_dsn,
    resolve_simulation,
    resolve_tenant,
    uuid_arg,
)
from swarm_memory.render import add_json_flag, audit_table, print_json_rows, table

__all__ = ["ROLE_CONNECTION_LIMIT", "ROLE_STATEMENT_TIMEOUT", "add_commands"]


def cmd_tenant(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        if args.action == "create":
            tenant = mem.create_tenant(args.name, args.id)
            for role in args.grant or []:
                mem.grant_tenant(role, tenant)
            print(tenant)
        elif args.action == "grant":
            mem.grant_tenant(args.role, resolve_tenant(mem, args.tenant))
        elif args.action == "revoke":
            mem.revoke_tenant(args.role, resolve_tenant(mem, args.tenant))
        elif args.action == "delete":
            tenant = resolve_tenant(mem, args.tenant)
            named = {t.tenant_id: t.name for t in mem.list_tenants()}.get(tenant)
            question = (
                f"delete tenant {named or args.tenant} ({tenant}) with all its simulations, "
                "rows and grants?"
            )
            if not confirmed(args, question):
                return 1
            return _tenant_delete(args, tenant)
    return 0


def _tenant_delete(args: argparse.Namespace, tenant: uuid.UUID) -> int:
    """memory.delete_tenant, then the tenant's indexes dropped CONCURRENTLY (ann.delete_tenant)."""
    import psycopg

    from swarm_memory import ann
    from swarm_memory.errors import translate

    try:
        counts, dropped = ann.delete_tenant(resolve_dsn(args), tenant)
    except psycopg.Error as exc:
        raise translate(exc) from exc
    print(
        f"deleted tenant {tenant}: "
        + ", ".join(f"{n} {name}" for name, n in counts.items())
        + f"; {len(dropped)} search indexes dropped"
    )
    return 0


def cmd_tenants(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        tenants = mem.list_tenants()
    if args.json:
        return print_json_rows(tenants)
    rows = [(t.name, t.tenant_id, f"{t.created_at:%Y-%m-%d %H:%M}") for t in tenants]
    print(table(rows, ["name", "tenant", "created"]))
    return 0


def cmd_simulations(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        simulations = mem.list_simulations(tenant)
    if args.json:
        return print_json_rows(simulations)
    rows = [
        (
            s.name or "",
            s.mirofish_id or "",
            s.simulation_id,
            "yes" if s.published else "not yet",
            f"{s.updated_at:%Y-%m-%d %H:%M}",
        )
        for s in simulations
    ]
    print(table(rows, ["name", "mirofish id", "simulation", "committed", "updated"]))
    return 0


def cmd_simulation(args: argparse.Namespace) -> int:
    """Rename a simulation (memory.upsert_simulation with the new name) or delete it with
    everything in it (memory.delete_simulation), after confirmation."""
    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        simulation = resolve_simulation(mem, tenant, args.simulation)
        held = {s.simulation_id: s for s in mem.list_simulations(tenant)}
        if simulation not in held:
            raise ValueError(
                f"no simulation {args.simulation} in tenant {args.tenant}; "
                f"`swarm-memory simulations --tenant {args.tenant}` lists them"
            )
        label = f"{held[simulation].name or '(no name)'} ({simulation})"
        if args.action == "rename":
            new = args.new_name.strip()
            if not new or as_uuid(new) is not None:
                raise ValueError(f"not a name a simulation can be addressed by: {args.new_name!r}")
            taken = [s for s in held.values() if s.name == new and s.simulation_id != simulation]
            if taken:
                raise ValueError(
                    f"simulation {new} ({taken[0].simulation_id}) already has that name in "
                    f"tenant {args.tenant}; two would answer to it"
                )
            if not held[simulation].published:
                raise ValueError(f"simulation {label} has no committed import yet: rename it after")
            if not confirmed(args, f"rename simulation {label} to {new}?"):
                return 1
            mem.upsert_simulation(tenant, simulation, new)
            print(f"renamed simulation {simulation} to {new}")
        else:
            if not confirmed(args, f"delete simulation {label} with everything in it?"):
                return 1
            c = mem.delete_simulation(tenant, simulation)
            print(
                f"deleted simulation {label}: {c.nodes} nodes, {c.edges} edges, "
                f"{c.episodes} episodes, {c.profiles} profiles, {c.reports} reports, "
                f"{c.predictions} predictions (its search indexes go at the next "
                "`swarm-memory index`)"
            )
    return 0


# What `role create` gives a login role unless told otherwise. statement_timeout bounds any
# one call of the role: a reader's calls take milliseconds, so a minute stops only a runaway;
# a writer's include the commit of a staged import, which for a large run takes most of a
# minute, so five minutes. The connection limit bounds what one gateway can take of
# max_connections (100 by default): 20 is five client pools of the default size (4).
ROLE_STATEMENT_TIMEOUT = {"memory_reader": "60s", "memory_writer": "5min"}
ROLE_CONNECTION_LIMIT = 20
_TIMEOUT_UNITS_MS = {"ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}


def _statement_timeout(text: str) -> str | None:
    """A role's statement_timeout as PostgreSQL reads it (a number, milliseconds, or with a
    unit ms, s, min, h, d); None for 0 or 'none': the role gets no setting of its own."""
    import re

    value = text.strip().lower()
    if value == "none":
        return None
    match = re.fullmatch(r"(\d+)\s*(ms|s|min|h|d)?", value)
    if match is None:
        raise ValueError(
            f"--statement-timeout: not a duration: {text!r} (e.g. 60s, 5min, 500ms; 0 or none: "
            "no timeout of the role's own)"
        )
    number, unit = int(match.group(1)), match.group(2) or "ms"
    if number == 0:
        return None
    if number * _TIMEOUT_UNITS_MS[unit] > 2_147_483_647:
        raise ValueError(f"--statement-timeout: {text!r} is over PostgreSQL's limit (24 days)")
    return f"{number}{unit}"


def _connection_limit(text: str) -> int:
    """A role's CONNECTION LIMIT: 1 to 10000, or 0 or 'none' for no limit (-1)."""
    value = text.strip().lower()
    if value in ("none", "0"):
        return -1
    if not value.isdigit() or not 1 <= int(value) <= 10_000:
        raise ValueError(
            f"--connection-limit: not a number of connections from 1 to 10000: {text!r} "
            "(0 or none: no limit)"
        )
    return int(value)


def _create_login_role(
    conn,  # noqa: ANN001 - a psycopg connection
    name: str,
    password: str,
    group: str,
    timeout: str | None,
    limit: int,
) -> None:
    from psycopg import sql

    # The server's password_encryption decides the algorithm; the password itself never
    # travels or reaches a log, only its verifier (Citus carries the verifier to the workers).
    verifier = conn.pgconn.encrypt_password(password.encode(), name.encode(), None).decode()
    conn.execute(
        sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} CONNECTION LIMIT {}").format(
            sql.Identifier(name), sql.Literal(verifier), sql.Literal(limit)
        )
    )
    if timeout is not None:
        conn.execute(
            sql.SQL("ALTER ROLE {} SET statement_timeout = {}").format(
                sql.Identifier(name), sql.Literal(timeout)
            )
        )
    conn.execute(
        sql.SQL("GRANT {} TO {} WITH INHERIT TRUE, SET FALSE").format(
            sql.Identifier(group), sql.Identifier(name)
        )
    )


def _grant_tenants(conn, name: str, tenants: list[uuid.UUID]) -> None:  # noqa: ANN001
    for tenant in tenants:
        conn.execute("SELECT memory.grant_tenant(%s, %s)", (name, tenant))


def cmd_role(args: argparse.Namespace) -> int:
    """A login role for a gateway, the way the trust model expects: the group role's
    privileges (INHERIT; a grant counts for roles with the granted role's privileges) and
    the tenant granted to the login role itself, never to the shared group role; its
    statement_timeout and connection limit bound what one gateway can take of the server."""
    import getpass

    import psycopg
    from psycopg import sql

    from swarm_memory.errors import translate
    from swarm_memory.migrate import is_distributed

    group = "memory_writer" if args.writer else "memory_reader"
    timeout = _statement_timeout(args.statement_timeout or ROLE_STATEMENT_TIMEOUT[group])
    limit = _connection_limit(args.connection_limit or str(ROLE_CONNECTION_LIMIT))
    with memory(args) as mem:  # a tenant's name resolved before a password is asked for
        tenants = [resolve_tenant(mem, t) for t in args.tenant]
    if args.password_env:
        password = os.environ.get(args.password_env)
        if password is None:
            raise ValueError(f"environment variable {args.password_env} is not set")
    else:
        password = getpass.getpass(f"password for role {args.name}: ")
    try:
        cluster = is_distributed(resolve_dsn(args))
        with psycopg.connect(resolve_dsn(args), autocommit=True) as conn:
            with conn.transaction():
                _create_login_role(conn, args.name, password, group, timeout, limit)
                if not cluster:
                    _grant_tenants(conn, args.name, tenants)
            if cluster:
                # On a Citus cluster grant_tenant asks every node for the role's OID over
                # connections of their own, which see the role only once its creation has
                # committed on every node: the role first, then its tenants; a grant that
                # fails takes the role away again, so nothing is left half made.
                try:
                    with conn.transaction():
                        _grant_tenants(conn, args.name, tenants)
                except psycopg.Error:
                    with conn.transaction():
                        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(args.name)))
                    raise
    except psycopg.Error as exc:
        raise translate(exc) from exc
    print(
        f"role {args.name}: login, {group}, tenants {', '.join(map(str, tenants))}, "
        f"statement_timeout {timeout or 'none'}, "
        f"connection limit {'none' if limit < 0 else limit}"
    )
    return 0


def _quota_max(text: str) -> int | None:
    """A cap as `quota set --max` takes it: a number from 0, or 'none' to remove the cap."""
    value = text.strip().lower()
    if value == "none":
        return None
    if not value.isdigit():
        raise ValueError(f"--max: not a number from 0, or none: {text!r}")
    return int(value)


def cmd_quota(args: argparse.Namespace) -> int:
    """Set or list a tenant's quotas (memory.set_quota, memory.quotas)."""
    cap = _quota_max(args.max) if args.action == "set" else None
    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        if args.action == "set":
            mem.set_quota(tenant, args.kind, cap)
        rows = mem.quotas(tenant)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    q.kind,
                    "none" if q.max_rows is None else q.max_rows,
                    q.used,
                    q.updated_by or "",
                    "" if q.updated_at is None else f"{q.updated_at:%Y-%m-%d %H:%M}",
                )
                for q in rows
            ],
            ["kind", "max", "used", "set by", "set at"],
        )
    )
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    import psycopg

    from swarm_memory import audit
    from swarm_memory.client import AuditRow

    with memory(args) as mem:
        rows = mem.rls_audit()
    # the functions compared here with the manifest this package ships, not the database's
    with psycopg.connect(resolve_dsn(args), autocommit=True) as conn:
        reported = {r.table_name for r in rows}
        rows += [
            AuditRow(subject, None, None, [], False, problem)
            for subject, problem in audit.code_problems(conn)
            if subject not in reported
        ]
    verdict = 0 if all(r.ok for r in rows) else 1
    if args.json:
        print_json_rows(rows)
        return verdict
    print(audit_table(rows))
    return verdict


def add_commands(sub: Subcommands) -> None:
    s = sub.add_parser("tenant", help="create tenants and manage grants (memory_admin)")
    tsub = s.add_subparsers(dest="action", required=True)
    t = tsub.add_parser("create")
    t.add_argument("name")
    t.add_argument("--id", type=uuid_arg)
    t.add_argument("--grant", action="append", metavar="ROLE")
    for action in ("grant", "revoke"):
        t = tsub.add_parser(action)
        t.add_argument("role")
        t.add_argument("tenant", help="UUID or name")
    t = tsub.add_parser(
        "delete",
        help="delete a tenant with all its rows, then drop its search indexes CONCURRENTLY",
    )
    t.add_argument("tenant", help="UUID or name")
    t.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    s.set_defaults(func=cmd_tenant)

    s = sub.add_parser("tenants", help="the tenants this role may act for")
    add_json_flag(s)
    s.set_defaults(func=cmd_tenants)

    s = sub.add_parser("simulations", help="the simulations of a tenant")
    s.add_argument("--tenant", required=True, help="UUID or name")
    add_json_flag(s)
    s.set_defaults(func=cmd_simulations)

    s = sub.add_parser("simulation", help="rename or delete a simulation")
    ssub = s.add_subparsers(dest="action", required=True)
    r = ssub.add_parser("rename", help="give a simulation another name")
    r.add_argument("simulation", help="UUID, name or MiroFish id")
    r.add_argument("new_name")
    d = ssub.add_parser("delete", help="delete a simulation with everything in it")
    d.add_argument("simulation", help="UUID, name or MiroFish id")
    for p in (r, d):
        p.add_argument("--tenant", required=True, help="UUID or name")
        p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    s.set_defaults(func=cmd_simulation)

    s = sub.add_parser("role", help="create a login role for a tenant (CREATEROLE, memory_admin)")
    rsub = s.add_subparsers(dest="action", required=True)
    r = rsub.add_parser("create")
    r.add_argument("name")
    kind = r.add_mutually_exclusive_group(required=True)
    kind.add_argument("--reader", action="store_true", help="memory_reader: reads")
    kind.add_argument("--writer", action="store_true", help="memory_writer: reads and writes")
    r.add_argument("--tenant", action="append", required=True, help="UUID or name; repeatable")
    r.add_argument(
        "--password-env", metavar="VAR", help="read the password from this variable (else prompt)"
    )
    r.add_argument(
        "--statement-timeout",
        metavar="DURATION",
        help="the role's statement_timeout (default: 60s for --reader, 5min for --writer; "
        "a bare number is milliseconds; 0 or none: no setting of the role's own)",
    )
    r.add_argument(
        "--connection-limit",
        metavar="N",
        help=f"the role's CONNECTION LIMIT (default: {ROLE_CONNECTION_LIMIT}; 0 or none: no limit)",
    )
    s.set_defaults(func=cmd_role)

    s = sub.add_parser(
        "quota", help="a tenant's caps on simulations and rows of each kind (memory_admin)"
    )
    qsub = s.add_subparsers(dest="action", required=True)
    q = qsub.add_parser("set", help="set a cap, or remove it with --max none")
    q.add_argument("--tenant", required=True, help="UUID or name")
    q.add_argument("--kind", required=True, help="simulations, or a record kind such as nodes")
    q.add_argument("--max", required=True, help="the most the tenant may hold; none: no cap")
    add_json_flag(q)
    q = qsub.add_parser("list", help="the caps beside what the tenant holds now")
    q.add_argument("--tenant", required=True, help="UUID or name")
    add_json_flag(q)
    s.set_defaults(func=cmd_quota)

    s = sub.add_parser("audit", help="row-level security audit of every table (memory_admin)")
    add_json_flag(s)
    s.set_defaults(func=cmd_audit)
