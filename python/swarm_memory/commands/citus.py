"""Scaling out: `distribute` (the schema over a Citus cluster, from its coordinator)."""

from __future__ import annotations

import argparse
import sys

from swarm_memory.commands.common import Subcommands, resolve_dsn

__all__ = ["add_commands"]


def cmd_distribute(args: argparse.Namespace) -> int:
    from swarm_memory.distribute import CitusMissing, distribute

    try:
        steps = distribute(resolve_dsn(args), shard_count=args.shard_count)
    except CitusMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for step in steps:
        print(f"{step.step}: {step.object}")
    print(f"distributed: {len(steps)} changes" if steps else "distributed: nothing to change")
    return 0


def add_commands(sub: Subcommands) -> None:
    s = sub.add_parser(
        "distribute", help="distribute the schema over a Citus cluster (superuser, coordinator)"
    )
    s.add_argument(
        "--shard-count",
        type=int,
        default=128,
        help="shards of each distributed table, set at the first distribution only (default: 128;"
        " a tenant moves between workers a shard group at a time)",
    )
    s.set_defaults(func=cmd_distribute)
