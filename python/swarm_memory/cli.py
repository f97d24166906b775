"""swarm-memory command line.

Every command talks to PostgreSQL through the SQL API. `--dsn` (or SWARM_MEMORY_DSN) points
it at any PostgreSQL; without one it starts (or finds running) the embedded server in
`--datadir` and connects to it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from swarm_memory import reports_cli, server
from swarm_memory.client import Memory
from swarm_memory.errors import SwarmMemoryError
from swarm_memory.render import audit_table, print_import_report, table


def _uuid(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a UUID: {text!r}") from None


def _as_uuid(text: str | uuid.UUID) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(text))
    except ValueError:
        return None


# The simulation a name or MiroFish id names when no simulation has it yet: the same name
# under the same tenant always gives the same id, so a first import by name and every later
# command by that name meet.
SIMULATION_NAMESPACE = uuid.UUID("5b0c6a53-3f0e-4d1b-9a51-2f9d0c7e6a10")


def resolve_tenant(mem: Memory, tenant: str | uuid.UUID) -> uuid.UUID:
    """A tenant given as a UUID or by name (among the tenants the caller may act for)."""
    as_id = _as_uuid(tenant)
    if as_id is not None:
        return as_id
    found = [t.tenant_id for t in mem.list_tenants() if t.name == tenant]
    if not found:
        raise ValueError(
            f"no tenant named {tenant!r} that this role may act for; "
            "`swarm-memory tenants` lists them"
        )
    return found[0]


def resolve_simulation(
    mem: Memory, tenant_id: uuid.UUID, simulation: str | uuid.UUID, *, create: bool = False
) -> uuid.UUID:
    """A simulation given as a UUID, by name or by MiroFish id. With `create` (an import), a
    name no simulation has yet gives a new, stable id."""
    as_id = _as_uuid(simulation)
    if as_id is not None:
        return as_id
    found = {
        s.simulation_id
        for s in mem.list_simulations(tenant_id)
        if simulation in (s.name, s.mirofish_id)
    }
    if len(found) > 1:
        raise ValueError(
            f"{len(found)} simulations are named {simulation!r}; give its UUID "
            f"(`swarm-memory simulations --tenant {tenant_id}` lists them)"
        )
    if found:
        return found.pop()
    if create:
        return uuid.uuid5(SIMULATION_NAMESPACE, f"{tenant_id}/{simulation}")
    raise ValueError(
        f"no simulation named {simulation!r}; `swarm-memory simulations --tenant "
        f"{tenant_id}` lists them"
    )


def _resolved(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Run a command with its --tenant and --simulation turned into UUIDs."""

    def run(args: argparse.Namespace) -> int:
        given = args.simulation
        with _memory(args) as mem:
            args.tenant = resolve_tenant(mem, args.tenant)
            if given is not None:
                args.simulation = resolve_simulation(
                    mem, args.tenant, given, create=func is cmd_import
                )
        if func is cmd_import and _as_uuid(given) is None and not args.name:
            args.name = given  # a simulation addressed by name is created with that name
        return func(args)

    return run


def resolve_dsn(args: argparse.Namespace) -> str:
    dsn = args.dsn or os.environ.get("SWARM_MEMORY_DSN")
    if not dsn:
        dsn = server.start(args.datadir)
    return server.as_role(dsn, args.user) if args.user else dsn


def _memory(args: argparse.Namespace) -> Memory:
    return Memory(resolve_dsn(args))


def cmd_db(args: argparse.Namespace) -> int:
    if args.action == "up":
        print(server.start(args.datadir))
    elif args.action == "down":
        print("stopped" if server.stop(args.datadir) else "not running")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from swarm_memory.migrate import migrate

    result = migrate(resolve_dsn(args))
    applied = ", ".join(f"V{v:04d}" for v in result.applied_versions) or "none pending"
    print(
        f"versioned migrations applied: {applied}; repeatable files applied: "
        f"{result.repeatable_files}"
    )
    return 0


def cmd_tenant(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
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
            return _tenant_delete(args, resolve_tenant(mem, args.tenant))
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
    with _memory(args) as mem:
        rows = [(t.name, t.tenant_id, f"{t.created_at:%Y-%m-%d %H:%M}") for t in mem.list_tenants()]
    print(table(rows, ["name", "tenant", "created"]))
    return 0


def cmd_simulations(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        rows = [
            (
                s.name or "",
                s.mirofish_id or "",
                s.simulation_id,
                "yes" if s.published else "not yet",
                f"{s.updated_at:%Y-%m-%d %H:%M}",
            )
            for s in mem.list_simulations(tenant)
        ]
    print(table(rows, ["name", "mirofish id", "simulation", "committed", "updated"]))
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant) if args.tenant else None
        report = mem.health(tenant, args.recall_sample)
    rows = [
        (
            h.section,
            str(h.tenant_id or "")[:8],
            str(h.simulation_id or "")[:8],
            "" if h.agent_id is None else h.agent_id,
            h.metric,
            "" if h.value is None else f"{h.value:,.4g}",
            {True: "ok", False: "ALERT", None: ""}[h.ok],
            json.dumps(h.detail, ensure_ascii=False)[:80],
        )
        for h in report
    ]
    print(
        table(rows, ["section", "tenant", "simulation", "agent", "metric", "value", "", "detail"])
    )
    return 1 if any(h.ok is False for h in report) else 0


def cmd_changes(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        changes = mem.changes_since(tenant, args.cursor, args.limit)
    rows = [
        (
            c.change_id,
            c.seq,
            str(c.simulation_id or "")[:8],
            c.kind,
            c.op,
            json.dumps(c.counts),
            "" if c.ids is None else ",".join(c.ids)[:40],
        )
        for c in changes
    ]
    print(table(rows, ["change", "seq", "simulation", "kind", "op", "counts", "ids"]))
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant) if args.tenant else None
        rows = [
            (str(r.tenant_id)[:8], r.simulation_id, r.action, json.dumps(r.detail))
            for r in mem.sweep(tenant)
        ]
    print(table(rows, ["tenant", "simulation", "action", "detail"]))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from swarm_memory.importer import import_run
    from swarm_memory.progress import Progress

    report = import_run(
        resolve_dsn(args),
        args.tenant,
        args.simulation,
        args.run_dir,
        graph_path=args.graph,
        name=args.name,
        skip_dangling=args.skip_dangling,
        skip_bad_lines=args.skip_bad_lines,
        batch_size=args.batch_size,
        progress=Progress(quiet=args.quiet),
        timezone=args.timezone,
        allow_empty=args.allow_empty,
        embed_all_actions=args.embed_all_actions,
    )
    print_import_report(report)
    if report.recommendation:
        print(f"model: {report.model}; recommendation: {report.recommendation}")
    return 0


def cmd_attempts(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        rows = mem.import_attempts(args.tenant, args.simulation)
    print(
        table(
            [
                (
                    a.attempt_id,
                    a.state,
                    a.started_at.strftime("%Y-%m-%d %H:%M:%S"),
                    f"{a.seconds:.1f}",
                    a.result or a.staged or a.declared,
                    a.error,
                )
                for a in rows
            ],
            ["attempt", "state", "started", "seconds", "counts", "error"],
            width=60,
        )
    )
    return 0


# What `role create` gives a login role unless told otherwise. statement_timeout bounds any
# one call of the role: a reader's calls take milliseconds, so a minute stops only a runaway;
# a writer's include the commit of a staged import (45 s for a 200,000-episode run here), so
# five minutes. The connection limit bounds what one gateway can take of max_connections
# (100 by default): 20 is five client pools of the default size (4).
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


def cmd_role(args: argparse.Namespace) -> int:
    """A login role for a gateway, the way the trust model expects: the group role's
    privileges (INHERIT; a grant counts for roles with the granted role's privileges) and
    the tenant granted to the login role itself, never to the shared group role; its
    statement_timeout and connection limit bound what one gateway can take of the server."""
    import getpass

    import psycopg
    from psycopg import sql

    from swarm_memory.errors import translate

    group = "memory_writer" if args.writer else "memory_reader"
    timeout = _statement_timeout(args.statement_timeout or ROLE_STATEMENT_TIMEOUT[group])
    limit = _connection_limit(args.connection_limit or str(ROLE_CONNECTION_LIMIT))
    if args.password_env:
        password = os.environ.get(args.password_env)
        if password is None:
            raise ValueError(f"environment variable {args.password_env} is not set")
    else:
        password = getpass.getpass(f"password for role {args.name}: ")
    try:
        with psycopg.connect(resolve_dsn(args)) as conn, conn.transaction():
            # The server's password_encryption decides the algorithm; the password itself
            # never travels or reaches a log, only its verifier.
            verifier = conn.pgconn.encrypt_password(
                password.encode(), args.name.encode(), None
            ).decode()
            conn.execute(
                sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} CONNECTION LIMIT {}").format(
                    sql.Identifier(args.name), sql.Literal(verifier), sql.Literal(limit)
                )
            )
            if timeout is not None:
                conn.execute(
                    sql.SQL("ALTER ROLE {} SET statement_timeout = {}").format(
                        sql.Identifier(args.name), sql.Literal(timeout)
                    )
                )
            conn.execute(
                sql.SQL("GRANT {} TO {} WITH INHERIT TRUE, SET FALSE").format(
                    sql.Identifier(group), sql.Identifier(args.name)
                )
            )
            for tenant in args.tenant:
                conn.execute("SELECT memory.grant_tenant(%s, %s)", (args.name, tenant))
    except psycopg.Error as exc:
        raise translate(exc) from exc
    print(
        f"role {args.name}: login, {group}, tenants {', '.join(map(str, args.tenant))}, "
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
    with _memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        if args.action == "set":
            mem.set_quota(tenant, args.kind, cap)
        rows = mem.quotas(tenant)
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


def cmd_index(args: argparse.Namespace) -> int:
    import psycopg

    from swarm_memory import ann
    from swarm_memory.errors import translate

    log = (lambda m: None) if args.quiet else print
    try:
        episodes = ann.build(resolve_dsn(args), args.min_rows, log=log)
        facts = ann.build_facts(resolve_dsn(args), args.min_rows, log=log)
        entities = ann.build_entities(resolve_dsn(args), args.min_rows, log=log)
    except psycopg.Error as exc:
        raise translate(exc) from exc
    for label, what, actions in (
        ("ANN indexes", "episodes", episodes),
        ("fact indexes", "facts", facts),
        ("entity index pairs", "entities", entities),
    ):
        count = {
            k: sum(a.action == k for a in actions) for k in ("built", "rebuilt", "kept", "dropped")
        }
        print(
            f"{label}: {count['built']} built, {count['rebuilt']} rebuilt, {count['kept']} kept,"
            f" {count['dropped']} dropped (simulations with at least {args.min_rows} embedded {what})"
        )
    return 0


def cmd_nodes(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        nodes = mem.nodes_by_type(args.tenant, args.simulation, args.type, args.limit)
    print(
        table(
            [(n.type, n.name, n.node_id, n.summary) for n in nodes],
            ["type", "name", "id", "summary"],
            width=60,
        )
    )
    return 0


def resolve_node(mem: Memory, tenant_id: uuid.UUID, simulation_id: uuid.UUID, node: str) -> str:
    """A node given by id or, failing that, by name (in any case); several with the name are
    refused, listing their ids."""
    from swarm_memory.errors import NotFound

    try:
        return mem.get_node(tenant_id, simulation_id, node).node_id
    except NotFound:
        named = mem.nodes_named(tenant_id, simulation_id, node)
        if len(named) == 1:
            return named[0].node_id
        if not named:
            raise
        ids = ", ".join(f"{n.node_id} ({n.type})" for n in named[:10])
        raise ValueError(f"{len(named)} nodes are named {node!r}: {ids}; give its id") from None


def cmd_neighbors(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        node_id = resolve_node(mem, args.tenant, args.simulation, args.node_id)
        rows = mem.neighbors(
            args.tenant,
            args.simulation,
            node_id,
            args.depth,
            args.edge_type,
            args.direction,
            as_of=args.as_of,
            known_at=args.known_at,
            include_ended=args.include_ended,
            limit=args.limit,
        )
    print(
        table(
            [(r.depth, r.name, r.type, r.edge_type, r.state, r.fact) for r in rows],
            ["depth", "name", "type", "via", "state", "fact"],
            width=70,
        )
    )
    return 0


def cmd_facts(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        node_id = (
            resolve_node(mem, args.tenant, args.simulation, args.node_id) if args.node_id else None
        )
        rows = mem.facts(args.tenant, args.simulation, node_id, args.state, args.as_of, args.limit)
    print(
        table(
            [
                (
                    r.source_name,
                    r.type,
                    r.target_name,
                    r.state,
                    _day(r.valid_at),
                    _day(r.invalid_at),
                    r.fact,
                )
                for r in rows
            ],
            ["from", "type", "to", "state", "valid", "until", "fact"],
            width=60,
        )
    )
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        rows = mem.history(args.tenant, args.simulation, args.kind, args.row_id)
    print(
        table(
            [
                (
                    r.version,
                    r.recorded_from.isoformat(timespec="seconds"),
                    r.recorded_to.isoformat(timespec="seconds") if r.recorded_to else "",
                    r.change,
                    r.data.get("fact") or r.data.get("content") or r.data.get("name") or "",
                )
                for r in rows
            ],
            ["version", "from", "to", "change", "text"],
            width=60,
        )
    )
    return 0


# -- evidence and timeline (V0016) ----------------------------------------------------------


def _rounds(text: str) -> tuple[int | None, int | None]:
    """A round range A:B (inclusive); either end may be left out (A: or :B); one number N is N:N."""
    first, sep, last = text.partition(":")
    try:
        low = int(first) if first.strip() else None
        high = (int(last) if last.strip() else None) if sep else low
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a round range A:B: {text!r}") from None
    return low, high


def cmd_evidence(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        rows = mem.evidence(args.tenant, args.simulation, args.edge_id)
    print(
        table(
            [
                (
                    r.kind,
                    r.episode_id
                    if r.kind == "mention" or r.resolved
                    else f"{r.episode_id} (not held)",
                    _day(r.occurred_at),
                    r.agent_name,
                    r.matched,
                    r.content,
                )
                for r in rows
            ],
            ["kind", "episode", "at", "agent", "matched", "content"],
            width=60,
        )
    )
    return 0


def cmd_timeline(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        node_id = resolve_node(mem, args.tenant, args.simulation, args.node_id)
        rows = mem.timeline(args.tenant, args.simulation, node_id, args.limit)
    print(
        table(
            [
                (_day(r.at), r.event, r.edge_id or r.episode_id, r.other_name, r.content)
                for r in rows
            ],
            ["at", "event", "id", "other", "text"],
            width=60,
        )
    )
    return 0


def _day(value: datetime | None) -> str:
    return value.isoformat(timespec="minutes") if value is not None else ""


def cmd_search(args: argparse.Namespace) -> int:
    from swarm_memory.embed import embedder_for

    with _memory(args) as mem:
        # the question in the simulation's model (V0022), with its query prefix
        model = mem.model_of(args.tenant, args.simulation).model
        query = embedder_for(model).encode_query(args.question)
        hits = mem.search_episodes(
            args.tenant,
            args.simulation,
            query,
            args.top_k,
            args.agent,
            round_from=args.rounds[0] if args.rounds else None,
            round_to=args.rounds[1] if args.rounds else None,
            since=args.since,
            until=args.until,
            collapse=args.collapse,
            model=model,
        )
    rows = [
        (f"{h.similarity:.3f}", h.platform, h.round, h.agent_name, h.action_type, h.content)
        for h in hits
    ]
    head = ["sim", "platform", "round", "agent", "action", "content"]
    if args.collapse:
        rows = [(*r, h.copies, h.agents) for r, h in zip(rows, hits, strict=True)]
        head += ["copies", "agents"]
    print(table(rows, head, width=80))
    return 0


def cmd_words(args: argparse.Namespace) -> int:
    """The words arm: full-text and name search, no model loaded."""
    with _memory(args) as mem:
        hits = mem.search_words(args.tenant, args.simulation, args.text, args.top_k)
    print(
        table(
            [(f"{h.score:.3f}", h.kind, h.id, h.matched, h.text) for h in hits],
            ["score", "kind", "id", "matched", "text"],
            width=80,
        )
    )
    return 0


def cmd_remember(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        episode_id = mem.remember(
            args.tenant,
            args.simulation,
            args.text,
            agent_id=args.agent_id,
            agent_name=args.agent_name,
            platform=args.platform,
            action_type=args.action_type,
        )
    print(f"remembered as episode {episode_id} (source api: no import removes it)")
    return 0


def cmd_profiles(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        rows = mem.profiles(args.tenant, args.simulation, args.platform, args.agent_id)
    print(
        table(
            [(p.platform, p.agent_id, p.name or "", p.username or "", p.bio or "") for p in rows],
            ["platform", "agent", "name", "username", "bio"],
            width=60,
        )
    )
    return 0


def cmd_episodes(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        rows = mem.episodes(
            args.tenant,
            args.simulation,
            agent_id=args.agent,
            platform=args.platform,
            action_type=args.action_type,
            round_from=args.round_from,
            round_to=args.round_to,
            limit=args.limit,
            after=args.after,
        )
    print(
        table(
            [(e.round, e.platform, e.agent_name, e.action_type, e.content) for e in rows],
            ["round", "platform", "agent", "action", "content"],
            width=80,
        )
    )
    if len(rows) == args.limit:
        print(f"next page: --after {rows[-1].episode_id}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from swarm_memory.mirofish.export import export_run

    c = export_run(
        resolve_dsn(args), args.tenant, args.simulation, args.out_dir, overwrite=args.overwrite
    )
    print(
        f"exported {c.nodes} nodes, {c.edges} edges, {c.episodes} actions, {c.events} events, "
        f"{c.profiles} profiles to {args.out_dir}: {', '.join(c.files) or 'nothing to write'}"
    )
    if c.left_out:
        print(f"{c.left_out} episodes written outside imports (or on another platform) left out")
    if c.zoned_times:
        print(
            f"{c.zoned_times} naive times were read in another zone than UTC: import with that --timezone"
        )
    for n, what in (
        (
            c.unmatched_ids,
            "actions imported before raw timestamps were kept get new ids on re-import",
        ),
        (c.relabelled, "nodes got their type as first label"),
        (c.renumbered, "Twitter profiles are renumbered by row"),
    ):
        if n:
            print(f"{n} {what}")
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        s = mem.simulation_stats(args.tenant, args.simulation)
    for key in (
        "simulation_id",
        "name",
        "nodes",
        "edges",
        "episodes",
        "profiles",
        "node_types",
        "edge_types",
        "platforms",
        "agents",
        "rounds",
        "first_at",
        "last_at",
    ):
        print(f"{key:>14}: {getattr(s, key)}")
    return 0


def cmd_distribute(args: argparse.Namespace) -> int:
    from swarm_memory.distribute import CitusMissing, distribute

    try:
        steps = distribute(resolve_dsn(args))
    except CitusMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for step in steps:
        print(f"{step.step}: {step.object}")
    print(f"distributed: {len(steps)} changes" if steps else "distributed: nothing to change")
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        rows = mem.list_models()
        print(
            table(
                [(m.model, m.dimensions, ",".join(m.languages), m.package) for m in rows],
                ["model", "dims", "languages", "package"],
            )
        )
        if args.tenant is not None:
            tenant = resolve_tenant(mem, args.tenant)
            of = mem.model_of(tenant)
            print(f"tenant {tenant}: {of.model} ({of.named_by})")
            if args.simulation is not None:
                sim = resolve_simulation(mem, tenant, args.simulation)
                of = mem.model_of(tenant, sim)
                print(f"simulation {sim}: {of.model} ({of.named_by})")
    return 0


def cmd_reembed(args: argparse.Namespace) -> int:
    from swarm_memory.progress import Progress
    from swarm_memory.reembed import reembed

    with _memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        sims = [resolve_simulation(mem, tenant, s) for s in args.simulation] or None
    report = reembed(
        resolve_dsn(args),
        tenant,
        args.model,
        sims,
        batch_size=args.batch_size,
        wait=args.wait,
        progress=Progress(quiet=args.quiet),
    )
    for s in report.simulations:
        switched = ", ".join(f"{k} {v}" for k, v in s.switched.items() if v) or "nothing"
        print(
            f"simulation {s.simulation_id}: {s.embedded} texts embedded, switched: {switched}"
            + (f" (waited {s.waited:.1f} s for an import)" if s.waited else "")
        )
    rate = report.embedded / report.seconds if report.seconds else 0.0
    print(
        f"re-embedded {len(report.simulations)} simulations with {report.model}: "
        f"{report.embedded} texts in {report.seconds:.1f} s ({rate:.0f} texts/s), "
        f"{report.switched} rows switched"
    )
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    import psycopg

    from swarm_memory import audit
    from swarm_memory.client import AuditRow

    with _memory(args) as mem:
        rows = mem.rls_audit()
    # the functions compared here with the manifest this package ships, not the database's
    with psycopg.connect(resolve_dsn(args), autocommit=True) as conn:
        reported = {r.table_name for r in rows}
        rows += [
            AuditRow(subject, None, None, [], False, problem)
            for subject, problem in audit.code_problems(conn)
            if subject not in reported
        ]
    print(audit_table(rows))
    return 0 if all(r.ok for r in rows) else 1


def cmd_demo(args: argparse.Namespace) -> int:
    from swarm_memory.demo import run_demo

    code = run_demo(resolve_dsn(args), Path(args.run_dir))
    if not (args.dsn or os.environ.get("SWARM_MEMORY_DSN")):
        print(
            f"\nThe embedded PostgreSQL is still running (data in {args.datadir}); "
            "`make db-stop` or `swarm-memory db down` stops it."
        )
    return code


def cmd_warm(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        rows = [
            (w.part, "" if w.amount is None else f"{w.amount:,}", w.unit)
            for w in mem.warm(args.tenant, args.simulation)
        ]
    print(table(rows, ["part", "read", "unit"]))
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    options: dict[str, object] = {}
    if args.arms:
        options["arms"] = [a.strip() for a in args.arms.split(",") if a.strip()]
    options.update(args.options or {})
    with _memory(args) as mem:
        rows = mem.recall(
            args.tenant,
            args.simulation,
            args.question,
            None,
            args.top_k,
            options,
            embed=not args.words_only,
        )
    print(
        table(
            [(f"{r.score:.4f}", r.kind, r.text, r.why) for r in rows],
            ["score", "kind", "text", "arms"],
            width=60,
        )
    )
    return 0


def _json_object(text: str) -> dict[str, object]:
    """A JSON object given on the command line."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"not a JSON object: {text!r}")
    return value


def cmd_paths(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        source = resolve_node(mem, args.tenant, args.simulation, args.source)
        target = resolve_node(mem, args.tenant, args.simulation, args.target)
        rows = mem.paths(args.tenant, args.simulation, source, target, args.max_depth)
    if not rows:
        print(f"no chain of current facts within {args.max_depth} steps")
    for r in rows:
        print(f"{r.path_no}. " + " -> ".join(r.names))
        for fact in r.facts:
            print(f"     {fact or ''}")
    return 0


def cmd_route(args: argparse.Namespace) -> int:
    with _memory(args) as mem:
        route = mem.route(args.question)
    phrases = ", ".join(f"{s['phrase']} ({s['target']})" for s in route.signals)
    print(f"{route.target}: {phrases or 'no signal'}")
    return 0


def cmd_embed(args: argparse.Namespace) -> int:
    from swarm_memory.embed import embedder_for

    # a question's vector in the model named (its query prefix where it has one; the
    # default model has none): `swarm-memory models` names a simulation's model
    vector = embedder_for(args.model).encode_query(args.text)
    print("[" + ",".join(f"{float(x):.6g}" for x in vector) + "]")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="swarm-memory", description=__doc__.splitlines()[0])
    p.add_argument(
        "--dsn", help="PostgreSQL to use (default: $SWARM_MEMORY_DSN, else the embedded server)"
    )
    p.add_argument(
        "--datadir",
        default=str(server.DEFAULT_DATADIR),
        help="data directory of the embedded server (default: %(default)s)",
    )
    p.add_argument(
        "--user",
        help="connect as this role instead of the DSN's (its password, if any, comes from "
        "PGPASSWORD or ~/.pgpass: the DSN's password belongs to the DSN's role)",
    )
    p.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("db", help="start or stop the embedded PostgreSQL")
    s.add_argument("action", choices=["up", "down"])
    s.set_defaults(func=cmd_db)

    s = sub.add_parser("migrate", help="apply migrations and re-apply functions and policies")
    s.set_defaults(func=cmd_migrate)

    s = sub.add_parser("tenant", help="create tenants and manage grants (memory_admin)")
    tsub = s.add_subparsers(dest="action", required=True)
    t = tsub.add_parser("create")
    t.add_argument("name")
    t.add_argument("--id", type=_uuid)
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
    s.set_defaults(func=cmd_tenant)

    s = sub.add_parser("tenants", help="the tenants this role may act for")
    s.set_defaults(func=cmd_tenants)

    s = sub.add_parser("simulations", help="the simulations of a tenant")
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.set_defaults(func=cmd_simulations)

    s = sub.add_parser("health", help="sizes, index state and recall, feed head, latency")
    s.add_argument("--tenant", help="UUID or name (default: every tenant this role may see)")
    s.add_argument("--recall-sample", type=int, default=10, help="queries for the recall check")
    s.set_defaults(func=cmd_health)

    s = sub.add_parser("changes", help="a tenant's change feed after a cursor")
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument("--cursor", type=int, default=None, help="the last change id handled")
    s.add_argument("--limit", type=int, default=100)
    s.set_defaults(func=cmd_changes)

    s = sub.add_parser("sweep", help="apply retention and compaction policies (memory_admin)")
    s.add_argument("--tenant", help="UUID or name (default: every tenant)")
    s.set_defaults(func=cmd_sweep)

    def scoped(name: str, help_: str) -> argparse.ArgumentParser:
        s = sub.add_parser(name, help=help_)
        s.add_argument("--tenant", required=True, help="UUID or name")
        s.add_argument("--simulation", required=True, help="UUID, name or MiroFish id")
        return s

    s = scoped("import", "import a MiroFish run directory")
    s.add_argument("run_dir")
    s.add_argument("--graph", help="graph export JSON (default: RUN_DIR/graph.json)")
    s.add_argument("--name")
    s.add_argument("--skip-dangling", action="store_true")
    s.add_argument("--skip-bad-lines", action="store_true")
    s.add_argument(
        "--timezone",
        default="UTC",
        help="IANA zone of the run's naive timestamps (MiroFish writes local times without a "
        "zone); default UTC",
    )
    s.add_argument(
        "--allow-empty",
        action="store_true",
        help="import a file that yields no rows (a graph export without nodes and edges, an empty "
        "actions.jsonl): the import then removes what the simulation held of that kind",
    )
    s.add_argument(
        "--embed-all-actions",
        action="store_true",
        help="embed actions without text of their own too (DO_NOTHING, TREND, MUTE, searches)",
    )
    s.add_argument("--quiet", action="store_true")
    s.add_argument("--batch-size", type=int, default=5000)
    s.set_defaults(func=_resolved(cmd_import))

    s = scoped("attempts", "the import attempts of a simulation")
    s.set_defaults(func=_resolved(cmd_attempts))

    s = scoped("nodes", "entities by type")
    s.add_argument("--type")
    s.add_argument("--limit", type=int, default=100)
    s.set_defaults(func=_resolved(cmd_nodes))

    s = scoped("neighbors", "neighbourhood walk from a node")
    s.add_argument("node_id", metavar="NODE", help="a node's id, or its name")
    s.add_argument("--depth", type=int, default=1)
    s.add_argument("--edge-type", action="append")
    s.add_argument("--direction", default="both", choices=["out", "in", "both"])
    s.add_argument(
        "--as-of",
        metavar="TIME",
        help="world time: follow the facts current then (default now; 'infinity': the latest state)",
    )
    s.add_argument(
        "--known-at",
        metavar="TIME",
        help="record time: the graph as the memory held it then (default now)",
    )
    s.add_argument(
        "--include-ended", action="store_true", help="follow ended, expired and future facts too"
    )
    s.add_argument(
        "--limit", type=int, help="at most this many nodes, nearest first (default: no bound)"
    )
    s.set_defaults(func=_resolved(cmd_neighbors))

    s = scoped("facts", "facts of a simulation or a node, current or historical")
    s.add_argument(
        "node_id", metavar="NODE", nargs="?", help="a node's id, or its name (default: every node)"
    )
    s.add_argument("--state", default="current", choices=["current", "historical", "future", "all"])
    s.add_argument("--as-of", metavar="TIME", help="world time (default now)")
    s.add_argument("--limit", type=int, default=100)
    s.set_defaults(func=_resolved(cmd_facts))

    s = scoped("history", "the versions of a node, edge or episode across imports")
    s.add_argument("kind", choices=["node", "edge", "episode"])
    s.add_argument("row_id", metavar="ID")
    s.set_defaults(func=_resolved(cmd_history))

    s = scoped("recall", "hybrid recall: meaning, words and the graph, fused")
    s.add_argument("question")
    s.add_argument("--top-k", type=int, default=10)
    s.add_argument(
        "--arms", help="comma-separated: episodes,facts,entities,words,graph (default: routed)"
    )
    s.add_argument(
        "--options",
        metavar="JSON",
        type=_json_object,
        help='recall options, e.g. \'{"weights": {"words": 2}}\'',
    )
    s.add_argument(
        "--words-only", action="store_true", help="do not embed the question (words and graph arms)"
    )
    s.set_defaults(func=_resolved(cmd_recall))

    s = scoped("warm", "load a simulation's rows, postings and indexes into memory")
    s.set_defaults(func=_resolved(cmd_warm))

    s = scoped("paths", "the shortest chains of current facts between two entities")
    s.add_argument("source", metavar="FROM", help="a node's id, or its name")
    s.add_argument("target", metavar="TO", help="a node's id, or its name")
    s.add_argument("--max-depth", type=int, default=4)
    s.set_defaults(func=_resolved(cmd_paths))

    s = sub.add_parser("route", help="where recall sends a question (graph, vector, hybrid)")
    s.add_argument("question")
    s.set_defaults(func=cmd_route)

    s = sub.add_parser("embed", help="print the vector of a text, as a literal psql accepts")
    s.add_argument("text")
    s.add_argument(
        "--model",
        help="the model of the simulation the vector is for (default: the default model);"
        " pass the same name as recall's model option",
    )
    s.set_defaults(func=cmd_embed)

    s = scoped("search", "semantic search over episodes")
    s.add_argument("question")
    s.add_argument("--top-k", type=int, default=10)
    s.add_argument("--agent", type=int)
    s.add_argument(
        "--rounds", type=_rounds, metavar="A:B", help="rounds A to B, inclusive (A: or :B open)"
    )
    s.add_argument("--from", dest="since", metavar="TIME", help="actions at or after TIME")
    s.add_argument("--to", dest="until", metavar="TIME", help="actions before TIME")
    s.add_argument(
        "--collapse",
        action="store_true",
        help="near-identical hits as one row, with the copies and agents behind it",
    )
    s.set_defaults(func=_resolved(cmd_search))

    s = scoped("words", "full-text search over episodes, facts and entities (no model)")
    s.add_argument("text", metavar="TEXT")
    s.add_argument("--top-k", type=int, default=10)
    s.set_defaults(func=_resolved(cmd_words))

    s = scoped(
        "evidence", "the evidence behind a fact: source episodes and actions naming both ends"
    )
    s.add_argument("edge_id", metavar="EDGE_ID")
    s.set_defaults(func=_resolved(cmd_evidence))

    s = scoped("timeline", "what happened to an entity, in time order")
    s.add_argument("node_id", metavar="NODE", help="a node's id, or its name")
    s.add_argument("--limit", type=int, default=100)
    s.set_defaults(func=_resolved(cmd_timeline))

    s = scoped("remember", "add one memory (an episode written outside imports), embedded")
    s.add_argument("text")
    s.add_argument("--agent-id", type=int)
    s.add_argument("--agent-name")
    s.add_argument("--platform")
    s.add_argument("--action-type", default="MEMORY")
    s.set_defaults(func=_resolved(cmd_remember))

    s = scoped("profiles", "the agents' profiles")
    s.add_argument("--platform")
    s.add_argument("--agent-id", type=int)
    s.set_defaults(func=_resolved(cmd_profiles))

    s = scoped("episodes", "what the agents did, in order, a page at a time")
    s.add_argument("--agent", type=int)
    s.add_argument("--platform")
    s.add_argument("--action-type")
    s.add_argument("--round-from", type=int)
    s.add_argument("--round-to", type=int)
    s.add_argument("--limit", type=int, default=50)
    s.add_argument("--after", help="the last episode id of the previous page")
    s.set_defaults(func=_resolved(cmd_episodes))

    s = scoped("export", "write a simulation back in MiroFish's formats")
    s.add_argument("out_dir")
    s.add_argument("--overwrite", action="store_true", help="replace a run's files in OUT_DIR")
    s.set_defaults(func=_resolved(cmd_export))

    s = scoped("stats", "what a simulation holds")
    s.set_defaults(func=_resolved(cmd_stats))

    # Reports and predictions (V0014): swarm_memory.reports_cli
    def bind(
        handler: Callable[[argparse.Namespace, Memory], int],
    ) -> Callable[[argparse.Namespace], int]:
        def run(args: argparse.Namespace) -> int:
            with _memory(args) as mem:
                return handler(args, mem)

        return _resolved(run)

    reports_cli.add_commands(scoped, bind)

    s = sub.add_parser("role", help="create a login role for a tenant (CREATEROLE, memory_admin)")
    rsub = s.add_subparsers(dest="action", required=True)
    r = rsub.add_parser("create")
    r.add_argument("name")
    kind = r.add_mutually_exclusive_group(required=True)
    kind.add_argument("--reader", action="store_true", help="memory_reader: reads")
    kind.add_argument("--writer", action="store_true", help="memory_writer: reads and writes")
    r.add_argument("--tenant", type=_uuid, action="append", required=True, help="repeatable")
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
    q = qsub.add_parser("list", help="the caps beside what the tenant holds now")
    q.add_argument("--tenant", required=True, help="UUID or name")
    s.set_defaults(func=cmd_quota)

    s = sub.add_parser(
        "index", help="build per-simulation ANN indexes after imports (memory_admin)"
    )
    s.add_argument("--min-rows", type=int, default=2000)
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_index)

    s = sub.add_parser(
        "distribute", help="distribute the schema over a Citus cluster (superuser, coordinator)"
    )
    s.set_defaults(func=cmd_distribute)

    s = sub.add_parser("models", help="the embedding models, and a tenant's or simulation's")
    s.add_argument("--tenant")
    s.add_argument("--simulation")
    s.set_defaults(func=cmd_models)

    s = sub.add_parser(
        "reembed", help="re-embed a tenant's simulations with another model, online, resumable"
    )
    s.add_argument("--tenant", required=True)
    s.add_argument("--model", required=True)
    s.add_argument("--simulation", action="append", default=[], help="only this one (repeatable)")
    s.add_argument("--batch-size", type=int, default=256)
    s.add_argument(
        "--wait", type=float, default=60.0, help="seconds to wait for an import to finish"
    )
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_reembed)

    s = sub.add_parser("audit", help="row-level security audit of every table (memory_admin)")
    s.set_defaults(func=cmd_audit)

    s = sub.add_parser("demo", help="the walkthrough on the example simulation")
    s.add_argument(
        "--run-dir", default=str(Path(__file__).resolve().parents[2] / "examples" / "mirofish_run")
    )
    s.set_defaults(func=cmd_demo)
    return p


# The SQL functions a hint names, as the command that does the same from here.
CLI_HINTS = {
    "memory.grant_tenant(role, tenant)": "`swarm-memory tenant grant ROLE TENANT`",
    "memory.create_tenant()": "`swarm-memory tenant create NAME`",
    "memory.upsert_simulation()": "`swarm-memory import`",
    "memory.begin_import()": "`swarm-memory import`",
    "memory.import_attempts()": "`swarm-memory attempts`",
    "memory.ann_plan()": "`swarm-memory index`",
    "memory.set_quota()": "`swarm-memory quota set --tenant T --kind K --max N`",
    "neighbors()": "`swarm-memory neighbors`",
}


def cli_hint(hint: str) -> str:
    """A hint of the SQL API, naming the CLI command where it names a function."""
    for function, command in CLI_HINTS.items():
        hint = hint.replace(function, command)
    return hint


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. A refusal, a bad file or a server that cannot be reached is one line
    on stderr and exit code 2; --debug shows the traceback instead."""
    import psycopg

    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (SwarmMemoryError, ValueError, OSError, psycopg.Error) as exc:
        if args.debug:
            raise
        if isinstance(exc, SwarmMemoryError) and exc.hint:
            exc.hint = cli_hint(exc.hint)
        code = getattr(exc, "sqlstate", None)
        print(f"error{f' [{code}]' if code else ''}: {_one_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
