"""Runs over time: `link` (one identity across a tenant's runs), `links`, `decide` (a
person's verdict on a link), `identity` (an entity's facts in every run) and `diff` (what
changed between two runs)."""

from __future__ import annotations

import argparse
import json

from swarm_memory.commands.common import Subcommands, day, memory, resolve_node, resolved, scoped
from swarm_memory.render import add_json_flag, print_json_rows, table

__all__ = ["add_commands"]


def cmd_link(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        rows = mem.link_runs(args.tenant, args.simulation, args.other, args.min_score)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (r.other_name or r.other_simulation_id, r.linked, r.added, r.changed, r.dropped)
                for r in rows
            ],
            ["against", "linked", "added", "changed", "dropped"],
        )
    )
    return 0


def cmd_links(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        rows = mem.identity_links(args.tenant, args.simulation, args.other, args.all)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    r.name,
                    r.type,
                    r.other_name,
                    f"{r.score:.2f}",
                    r.decision,
                    "" if r.active else "no",
                    r.other_node_id,
                )
                for r in rows
            ],
            ["entity", "type", "other", "score", "decision", "counts", "other id"],
            width=40,
        )
    )
    return 0


def cmd_decide(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        node = resolve_node(mem, args.tenant, args.simulation, args.node)
        other_sim = mem.simulation(args.tenant, args.other)
        other = resolve_node(mem, args.tenant, other_sim, args.other_node)
        row = mem.decide_link(args.tenant, args.simulation, node, other_sim, other, args.decision)
    if args.json:
        return print_json_rows([row])
    print(f"{row.node_a} ~ {row.node_b}: {row.decision}")
    return 0


def cmd_identity(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        node = resolve_node(mem, args.tenant, args.simulation, args.node)
        rows = mem.identity_facts(args.tenant, args.simulation, node)
        if not rows and not args.json:
            members = mem.identity(args.tenant, args.simulation, node)
            print(
                table(
                    [(m.run, m.simulation_name, m.name, m.type) for m in members],
                    ["run", "simulation", "name", "type"],
                )
            )
            return 0
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    r.run,
                    r.simulation_name,
                    r.type,
                    r.direction,
                    r.other_name,
                    r.state,
                    day(r.valid_at),
                    r.fact,
                )
                for r in rows
            ],
            ["run", "simulation", "type", "dir", "other", "state", "valid from", "fact"],
            width=50,
        )
    )
    return 0


def _evidence(side: dict | None) -> str:
    if side is None:
        return ""
    if "facts" in side:
        return " | ".join(
            f"{f['type']}: {f.get('fact') or ''} ({f['state']})" for f in side["facts"]
        )
    if "posts" in side:
        return f"{side['episodes']} actions: " + " | ".join(side.get("posts") or [])
    return side.get("summary") or side.get("name") or json.dumps(side, ensure_ascii=False)


def cmd_diff(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        rows = mem.diff(args.tenant, args.run_a, args.run_b, args.agent_similarity, args.posts)
    if args.json:
        return print_json_rows(rows)
    if not rows:
        print("no changes")
        return 0
    print(
        table(
            [
                (
                    r.kind,
                    r.change,
                    r.subject,
                    "" if r.score is None else f"{r.score:.2f}",
                    _evidence(r.a),
                    _evidence(r.b),
                )
                for r in rows
            ],
            ["kind", "change", "what", "score", "in run a", "in run b"],
            width=48,
        )
    )
    return 0


def add_commands(sub: Subcommands) -> None:
    s = scoped(
        sub, "link", "link a simulation's entities with the tenant's other runs (one identity)"
    )
    s.add_argument("--other", help="only this simulation (UUID or name); default: every other one")
    s.add_argument("--min-score", type=float, help="least score of a link, 0 to 1 (default 0.6)")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_link))

    s = scoped(sub, "links", "the links of a simulation's entities to other runs' entities")
    s.add_argument("--other", help="only links to this simulation (UUID or name)")
    s.add_argument("--all", action="store_true", help="refused and no longer found links too")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_links))

    s = scoped(
        sub,
        "decide",
        "confirm, refuse or withdraw the verdict on a link between two runs' entities",
    )
    s.add_argument("node", metavar="NODE", help="an entity of --simulation: id or name")
    s.add_argument("other", metavar="OTHER_SIMULATION", help="UUID or name")
    s.add_argument("other_node", metavar="OTHER_NODE", help="an entity of the other simulation")
    s.add_argument("decision", choices=["confirmed", "refused", "auto"])
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_decide))

    s = scoped(sub, "identity", "an entity's facts in every run it is linked into, in run order")
    s.add_argument("node", metavar="NODE", help="a node's id, or its name")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_identity))

    s = sub.add_parser("diff", help="what changed between two runs: entities, facts, agents")
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument("run_a", metavar="RUN_A", help="the earlier run: UUID, name or MiroFish id")
    s.add_argument("run_b", metavar="RUN_B", help="the later run")
    s.add_argument(
        "--agent-similarity", type=float, default=0.95,
        help="an agent has moved when the meaning of its actions is less alike than this (cosine)",
    )  # fmt: skip
    s.add_argument("--posts", type=int, default=3, help="posts shown as evidence for an agent")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_diff), simulation=None)
