"""A simulation through time: `history` (the versions of a row across imports), `evidence`
(what a fact rests on), `timeline` (what happened to an entity), `snapshot` (named, frozen
record times) and `fork` (a new simulation from another's memory at a round)."""

from __future__ import annotations

import argparse
import uuid

from swarm_memory.commands.common import Subcommands, day, memory, resolve_node, resolved, scoped
from swarm_memory.render import add_json_flag, print_json_record, print_json_rows, table

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
        rows = mem.timeline(args.tenant, args.simulation, node_id, args.limit, round=args.round)
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


def cmd_snapshot(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        if args.action == "create":
            made = mem.create_snapshot(
                args.tenant, args.simulation, args.name, args.round, args.note
            )
            if args.json:
                return print_json_record(made)
            verb = "created" if made.created else "exists"
            at = f" at round {made.round}" if made.round is not None else ""
            print(f"snapshot {made.name} {verb}: the memory as of {made.known_at.isoformat()}{at}")
            return 0
        if args.action == "drop":
            dropped = mem.drop_snapshot(args.tenant, args.simulation, args.name)
            print(f"snapshot {args.name} {'dropped' if dropped else 'was not there'}")
            return 0
        rows = mem.snapshots(args.tenant, args.simulation)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    r.name,
                    r.known_at.isoformat(timespec="seconds"),
                    "" if r.round is None else r.round,
                    r.created_by,
                    r.note or "",
                )
                for r in rows
            ],
            ["name", "known at", "round", "by", "note"],
            width=60,
        )
    )
    return 0


def cmd_fork(args: argparse.Namespace) -> int:
    new_id = args.id or uuid.uuid4()
    with memory(args) as mem:
        counts = mem.fork_simulation(args.tenant, args.simulation, new_id, args.round, args.name)
    if args.json:
        return print_json_record(counts)
    print(
        f"forked {args.simulation} into {new_id}: {counts.nodes} nodes, {counts.edges} edges, "
        f"{counts.episodes} episodes, {counts.profiles} profiles"
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
    s.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="the events up to the end of round N of the simulation",
    )
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_timeline))

    s = sub.add_parser("snapshot", help="named, frozen snapshots of a simulation")
    ssub = s.add_subparsers(dest="action", required=True)
    k = scoped(ssub, "create", "freeze the simulation as it is now under a name")
    k.add_argument("name", metavar="NAME")
    k.add_argument("--round", type=int, metavar="N", help="read it at round N by default")
    k.add_argument("--note")
    add_json_flag(k)
    k.set_defaults(func=resolved(cmd_snapshot))
    k = scoped(ssub, "list", "the simulation's snapshots")
    add_json_flag(k)
    k.set_defaults(func=resolved(cmd_snapshot))
    k = scoped(ssub, "drop", "drop a snapshot by name")
    k.add_argument("name", metavar="NAME")
    k.set_defaults(func=resolved(cmd_snapshot))

    s = scoped(sub, "fork", "a new simulation that starts as this one's memory after a round")
    s.add_argument("--round", type=int, metavar="N", help="after round N (default: as it is now)")
    s.add_argument("--name", help="the fork's name (default: the source's)")
    s.add_argument("--id", type=uuid.UUID, help="the fork's UUID (default: a new one)")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_fork))
