"""What the command families share: the connection a command uses, tenants, simulations and
nodes given by name, and the subcommands scoped to a simulation."""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from swarm_memory import server

if TYPE_CHECKING:  # the client (psycopg) is imported when a command connects, not with --help
    from swarm_memory.client import Memory

__all__ = [
    "SIMULATION_NAMESPACE",
    "Handler",
    "Subcommands",
    "as_uuid",
    "bound",
    "confirmed",
    "day",
    "memory",
    "resolve_dsn",
    "resolve_node",
    "resolve_simulation",
    "resolve_tenant",
    "resolved",
    "scoped",
    "typed",
    "uuid_arg",
]

Handler = Callable[[argparse.Namespace], int]
# what ArgumentParser.add_subparsers() returns: each family's add_commands adds its commands
Subcommands = argparse._SubParsersAction


def uuid_arg(text: str) -> uuid.UUID:
    """A UUID given on the command line."""
    try:
        return uuid.UUID(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a UUID: {text!r}") from None


def as_uuid(text: str | uuid.UUID) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(text))
    except ValueError:
        return None


# The id of a simulation an import makes for a name no simulation has yet: the same name
# under the same tenant always gives the same id, so a first import by name and every later
# command by that name meet.
SIMULATION_NAMESPACE = uuid.UUID("5b0c6a53-3f0e-4d1b-9a51-2f9d0c7e6a10")


def resolve_tenant(mem: Memory, tenant: str | uuid.UUID) -> uuid.UUID:
    """A tenant given as a UUID or by name (among the tenants the caller may act for)."""
    return mem.tenant(tenant)


def resolve_simulation(mem: Memory, tenant_id: uuid.UUID, simulation: str | uuid.UUID) -> uuid.UUID:
    """A simulation given as a UUID, by name or by MiroFish id: an exact name first, and a
    reference several simulations answer to is refused listing them (Memory.simulation)."""
    return mem.simulation(tenant_id, simulation)


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


def resolve_dsn(args: argparse.Namespace) -> str:
    dsn = args.dsn or os.environ.get("SWARM_MEMORY_DSN")
    if not dsn:
        dsn = server.start(args.datadir)
    return server.as_role(dsn, args.user) if args.user else dsn


def memory(args: argparse.Namespace) -> Memory:
    from swarm_memory.client import Memory

    return Memory(resolve_dsn(args))


def resolved(func: Handler) -> Handler:
    """Run a command with its --tenant and --simulation turned into UUIDs."""

    def run(args: argparse.Namespace) -> int:
        with memory(args) as mem:
            args.tenant = resolve_tenant(mem, args.tenant)
            if args.simulation is not None:
                args.simulation = resolve_simulation(mem, args.tenant, args.simulation)
        return func(args)

    return run


def _known_type(given: str, known: list[str], what: str, simulation: uuid.UUID) -> str:
    """A type as the simulation spells it: exactly, else the one it has in another case."""
    if given in known:
        return given
    same = [t for t in known if t.casefold() == given.casefold()]
    if len(same) == 1:
        return same[0]
    if same:
        raise ValueError(f"{given!r} is {len(same)} {what}s of simulation {simulation}: {same}")
    listed = ", ".join(sorted(known)) or f"none (it holds no {what}s yet)"
    raise ValueError(f"no {what} {given!r} in simulation {simulation}; its {what}s: {listed}")


def typed(func: Handler) -> Handler:
    """Run a command with its --type (node types) and --edge-type (edge types) matched to the
    simulation's in any case (`--type person` finds Person); a type the simulation does not
    have is refused, listing those it has. Under `resolved`: --tenant and --simulation are
    UUIDs by then. No type given, no query."""

    def run(args: argparse.Namespace) -> int:
        node_types = getattr(args, "type", None)
        edge_types = getattr(args, "edge_type", None)
        if node_types is not None or edge_types:
            with memory(args) as mem:
                stats = mem.simulation_stats(args.tenant, args.simulation)
            if node_types is not None:
                args.type = _known_type(
                    node_types, list(stats.node_types), "node type", args.simulation
                )
            if edge_types:
                args.edge_type = [
                    _known_type(t, list(stats.edge_types), "edge type", args.simulation)
                    for t in edge_types
                ]
        return func(args)

    return run


def bound(handler: Callable[[argparse.Namespace, Memory], int]) -> Handler:
    """A handler of (args, Memory) as a resolved command: the Memory is opened for it."""

    def run(args: argparse.Namespace) -> int:
        with memory(args) as mem:
            return handler(args, mem)

    return resolved(run)


def confirmed(args: argparse.Namespace, question: str) -> bool:
    """Whether a command that deletes or renames may go on: --yes, or an answer of y at the
    terminal's prompt. Without a terminal to ask and without --yes it is refused, before
    anything changed."""
    if args.yes:
        return True
    if not sys.stdin.isatty():
        raise ValueError(f"not confirmed: {question} (no terminal to ask: pass --yes)")
    answer = input(f"{question} [y/N] ")
    if answer.strip().lower() in ("y", "yes"):
        return True
    print("nothing changed", file=sys.stderr)
    return False


def scoped(sub: Subcommands, name: str, help_: str) -> argparse.ArgumentParser:
    """A subcommand that acts on one simulation: --tenant and --simulation, both required."""
    s = sub.add_parser(name, help=help_)
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument("--simulation", required=True, help="UUID, name or MiroFish id")
    return s


def day(value: datetime | None) -> str:
    return value.isoformat(timespec="minutes") if value is not None else ""
