"""A simulation through time: `history` (the versions of a row across imports), `evidence`
(what a fact rests on) and `timeline` (what happened to an entity)."""

from __future__ import annotations

import argparse

from swarm_memory.commands.common import Subcommands, day, memory, resolve_node, resolved, scoped
from swarm_memory.render import add_json_flag, print_json_rows, table

__all__ = ["add_commands"]


def cmd_history(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        rows = mem.history(args.tenant, args.simulation, args.kind, args.row_id)
    if args.json:
        return print_json_rows(rows)
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


def cmd_evidence(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        rows = mem.evidence(args.tenant, args.simulation, args.edge_id)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    r.kind,
                    r.episode_id
                    if r.kind == "mention" or r.resolved
                    else f"{r.episode_id} (not held)",
                    day(r.occurred_at),
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
    with memory(args) as mem:
        node_id = resolve_node(mem, args.tenant, args.simulation, args.node_id)
        rows = mem.timeline(args.tenant, args.simulation, node_id, args.limit)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (day(r.at), r.event, r.edge_id or r.episode_id, r.other_name, r.content)
                for r in rows
            ],
            ["at", "event", "id", "other", "text"],
            width=60,
        )
    )
    return 0


def add_commands(sub: Subcommands) -> None:
    s = scoped(sub, "history", "the versions of a node, edge or episode across imports")
    s.add_argument("kind", choices=["node", "edge", "episode"])
    s.add_argument("row_id", metavar="ID")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_history))

    s = scoped(
        sub, "evidence", "the evidence behind a fact: source episodes and actions naming both ends"
    )
    s.add_argument("edge_id", metavar="EDGE_ID")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_evidence))

    s = scoped(sub, "timeline", "what happened to an entity, in time order")
    s.add_argument("node_id", metavar="NODE", help="a node's id, or its name")
    s.add_argument("--limit", type=int, default=100)
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_timeline))
