"""Reading a simulation: `nodes`, `neighbors`, `facts`, `paths`, `profiles`, `episodes`,
`stats` and `warm`."""

from __future__ import annotations

import argparse

from swarm_memory.commands.common import (
    Subcommands,
    day,
    memory,
    resolve_node,
    resolved,
    scoped,
    typed,
)
from swarm_memory.render import add_json_flag, print_json_record, print_json_rows, table

__all__ = ["add_commands"]


def cmd_nodes(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        nodes = mem.nodes_by_type(args.tenant, args.simulation, args.type, args.limit)
    if args.json:
        return print_json_rows(nodes)
    print(
        table(
            [(n.type, n.name, n.node_id, n.summary) for n in nodes],
            ["type", "name", "id", "summary"],
            width=60,
        )
    )
    return 0


def cmd_neighbors(args: argparse.Namespace) -> int:
    if args.ids and args.format != "table":
        raise ValueError("neighbors --ids answers ids only and draws no picture: drop --format")
    with memory(args) as mem:
        node_id = resolve_node(mem, args.tenant, args.simulation, args.node_id)
        # the walk's arguments, the same for its lean form and its full rows
        walk = (args.tenant, args.simulation, node_id, args.depth, args.edge_type, args.direction)
        clocks = {
            "as_of": args.as_of,
            "known_at": args.known_at,
            "include_ended": args.include_ended,
            "limit": args.limit,
            "round": args.round,
            "snapshot": args.snapshot,
        }
        if args.ids:  # the lean walk: ids, depth and the edge that reached each node
            ids = mem.neighbor_ids(*walk, **clocks)
            if args.json:
                return print_json_rows(ids)
            print(table([(r.depth, r.node_id, r.edge_id) for r in ids], ["depth", "id", "via"]))
            return 0
        rows = mem.neighbors(*walk, **clocks)
        if args.format != "table":  # a picture (docs/pictures.md); its module loads the web stack
            from swarm_memory import pictures

            return pictures.print_neighbourhood(args, mem, node_id, rows)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [(r.depth, r.name, r.type, r.edge_type, r.state, r.fact) for r in rows],
            ["depth", "name", "type", "via", "state", "fact"],
            width=70,
        )
    )
    return 0


def cmd_facts(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        node_id = (
            resolve_node(mem, args.tenant, args.simulation, args.node_id) if args.node_id else None
        )
        rows = mem.facts(
            args.tenant,
            args.simulation,
            node_id,
            args.state,
            args.as_of,
            args.limit,
            round=args.round,
            snapshot=args.snapshot,
            known_at=args.known_at,
        )
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    r.source_name,
                    r.type,
                    r.target_name,
                    r.state,
                    day(r.valid_at),
                    day(r.invalid_at),
                    r.fact,
                )
                for r in rows
            ],
            ["from", "type", "to", "state", "valid", "until", "fact"],
            width=60,
        )
    )
    return 0


def cmd_paths(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        source = resolve_node(mem, args.tenant, args.simulation, args.source)
        target = resolve_node(mem, args.tenant, args.simulation, args.target)
        rows = mem.paths(args.tenant, args.simulation, source, target, args.max_depth)
    if args.json:
        return print_json_rows(rows)
    if not rows:
        print(f"no chain of current facts within {args.max_depth} steps")
    for r in rows:
        print(f"{r.path_no}. " + " -> ".join(r.names))
        for fact in r.facts:
            print(f"     {fact or ''}")
    return 0


def cmd_profiles(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        rows = mem.profiles(args.tenant, args.simulation, args.platform, args.agent_id)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [(p.platform, p.agent_id, p.name or "", p.username or "", p.bio or "") for p in rows],
            ["platform", "agent", "name", "username", "bio"],
            width=60,
        )
    )
    return 0


def cmd_episodes(args: argparse.Namespace) -> int:
    with memory(args) as mem:
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
    if args.json:  # the next page's cursor is the last row's episode_id
        return print_json_rows(rows)
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


def cmd_stats(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        s = mem.simulation_stats(args.tenant, args.simulation)
    if args.json:
        return print_json_record(s)
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


def cmd_warm(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        warmed = mem.warm(args.tenant, args.simulation)
    if args.json:
        return print_json_rows(warmed)
    rows = [(w.part, "" if w.amount is None else f"{w.amount:,}", w.unit) for w in warmed]
    print(table(rows, ["part", "read", "unit"]))
    return 0


def _add_clock_flags(s: argparse.ArgumentParser) -> None:
    """--round and --snapshot, the simulation's own clock and a frozen record time."""
    s.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="the memory as it stood after round N of the simulation (instead of --as-of)",
    )
    s.add_argument(
        "--snapshot",
        metavar="NAME",
        help="read a named snapshot (swarm-memory snapshot create): its record time and round",
    )


def add_commands(sub: Subcommands) -> None:
    s = scoped(sub, "nodes", "entities by type")
    s.add_argument("--type")
    s.add_argument("--limit", type=int, default=100)
    add_json_flag(s)
    s.set_defaults(func=resolved(typed(cmd_nodes)))

    s = scoped(sub, "neighbors", "neighbourhood walk from a node")
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
    _add_clock_flags(s)
    s.add_argument(
        "--include-ended", action="store_true", help="follow ended, expired and future facts too"
    )
    s.add_argument(
        "--limit", type=int, help="at most this many nodes, nearest first (default: no bound)"
    )
    s.add_argument(
        "--ids",
        action="store_true",
        help="ids only: each node's id, depth and the edge that reached it (the lean walk)",
    )
    s.add_argument(
        "--format",
        default="table",
        choices=["table", "dot", "svg"],  # pictures.FORMATS, named here to keep starting light
        help="a table, or a picture: Graphviz DOT or SVG (docs/pictures.md)",
    )
    add_json_flag(s)
    s.set_defaults(func=resolved(typed(cmd_neighbors)))

    s = scoped(sub, "facts", "facts of a simulation or a node, current or historical")
    s.add_argument(
        "node_id", metavar="NODE", nargs="?", help="a node's id, or its name (default: every node)"
    )
    s.add_argument("--state", default="current", choices=["current", "historical", "future", "all"])
    s.add_argument("--as-of", metavar="TIME", help="world time (default now)")
    s.add_argument(
        "--known-at",
        metavar="TIME",
        help="record time: the facts as the memory held them then (default now)",
    )
    _add_clock_flags(s)
    s.add_argument("--limit", type=int, default=100)
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_facts))

    s = scoped(sub, "paths", "the shortest chains of current facts between two entities")
    s.add_argument("source", metavar="FROM", help="a node's id, or its name")
    s.add_argument("target", metavar="TO", help="a node's id, or its name")
    s.add_argument("--max-depth", type=int, default=4)
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_paths))

    s = scoped(sub, "profiles", "the agents' profiles")
    s.add_argument("--platform")
    s.add_argument("--agent-id", type=int)
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_profiles))

    s = scoped(sub, "episodes", "what the agents did, in order, a page at a time")
    s.add_argument("--agent", type=int)
    s.add_argument("--platform")
    s.add_argument("--action-type")
    s.add_argument("--round-from", type=int)
    s.add_argument("--round-to", type=int)
    s.add_argument("--limit", type=int, default=50)
    s.add_argument("--after", help="the last episode id of the previous page")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_episodes))

    s = scoped(sub, "stats", "what a simulation holds")
    add_json_flag(s, single=True)
    s.set_defaults(func=resolved(cmd_stats))

    s = scoped(sub, "warm", "load a simulation's rows, postings and indexes into memory")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_warm))
