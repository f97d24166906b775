"""Watching a memory and keeping it: `changes` (a tenant's change feed), `health` and `sweep`
(retention and compaction)."""

from __future__ import annotations

import argparse
import json

from swarm_memory.commands.common import Subcommands, memory, resolve_tenant
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

    s = sub.add_parser("sweep", help="apply retention and compaction policies (memory_admin)")
    s.add_argument("--tenant", help="UUID or name (default: every tenant)")
    add_json_flag(s)
    s.set_defaults(func=cmd_sweep)
