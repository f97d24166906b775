"""Watching a memory and keeping it: `changes` (a tenant's change feed), `health` and `sweep`
(retention and compaction), `forget` (episodes or an agent, with all their copies)."""

from __future__ import annotations

import argparse
import json

from swarm_memory.commands.common import (
    Subcommands,
    confirmed,
    memory,
    resolve_simulation,
    resolve_tenant,
)
from swarm_memory.render import add_json_flag, print_json_rows, table

__all__ = ["add_commands"]


def cmd_changes(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        changes = mem.changes_since(tenant, args.cursor, args.limit)
    if args.json:
        return print_json_rows(changes)
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


def cmd_health(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant) if args.tenant else None
        report = mem.health(tenant, args.recall_sample)
    alert = 1 if any(h.ok is False for h in report) else 0
    if args.json:
        print_json_rows(report)
        return alert
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
    return alert


def cmd_sweep(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant) if args.tenant else None
        swept = mem.sweep(tenant)
    if args.json:
        return print_json_rows(swept)
    rows = [(str(r.tenant_id)[:8], r.simulation_id, r.action, json.dumps(r.detail)) for r in swept]
    print(table(rows, ["tenant", "simulation", "action", "detail"]))
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    """Forget episodes by id, or an agent (memory.forget_episodes, memory.forget_agent),
    after confirmation: they, the facts only they supported and every copy of their text."""
    if (args.agent is None) == (not args.episode):
        raise ValueError("name the episodes (--episode ID, repeated) or one agent (--agent N)")
    with memory(args) as mem:
        tenant = resolve_tenant(mem, args.tenant)
        simulation = resolve_simulation(mem, tenant, args.simulation)
        what = (
            f"agent {args.agent}" + (f" on {args.platform}" if args.platform else "")
            if args.agent is not None
            else f"{len(args.episode)} episodes"
        )
        if not confirmed(
            args,
            f"forget {what} of simulation {simulation}, the facts only they supported and "
            "every copy of their text? This cannot be undone",
        ):
            return 1
        if args.agent is not None:
            c = mem.forget_agent(tenant, simulation, args.agent, args.platform)
        else:
            c = mem.forget_episodes(tenant, simulation, args.episode)
    if args.json:
        return print_json_rows([c])
    print(
        f"forgot {c.episodes} episodes and {c.profiles} profiles; {c.facts_removed} facts "
        f"removed (no other support), {c.facts_kept} kept without them; {c.history} history "
        f"versions and {c.vectors} cached vectors removed. A re-import leaves them out and says "
        "so; the bytes leave the files at the next VACUUM FULL of the tables (docs/forgetting.md)"
    )
    return 0


def add_commands(sub: Subcommands) -> None:
    s = sub.add_parser("changes", help="a tenant's change feed after a cursor")
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument("--cursor", type=int, default=None, help="the last change id handled")
    s.add_argument("--limit", type=int, default=100)
    add_json_flag(s)
    s.set_defaults(func=cmd_changes)

    s = sub.add_parser("health", help="sizes, index state and recall, feed head, latency")
    s.add_argument("--tenant", help="UUID or name (default: every tenant this role may see)")
    s.add_argument("--recall-sample", type=int, default=10, help="queries for the recall check")
    add_json_flag(s)
    s.set_defaults(func=cmd_health)

    s = sub.add_parser(
        "forget", help="forget episodes or an agent, with the facts only they supported"
    )
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument("--simulation", required=True, help="UUID, name or MiroFish id")
    s.add_argument("--episode", action="append", default=[], help="an episode id (repeatable)")
    s.add_argument("--agent", type=int, help="an agent id: all its episodes and profiles")
    s.add_argument("--platform", help="with --agent: only this platform's")
    s.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    add_json_flag(s)
    s.set_defaults(func=cmd_forget)

    s = sub.add_parser("sweep", help="apply retention and compaction policies (memory_admin)")
    s.add_argument("--tenant", help="UUID or name (default: every tenant)")
    add_json_flag(s)
    s.set_defaults(func=cmd_sweep)
