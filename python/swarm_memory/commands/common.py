"""What the command families share: the connection a command uses, tenants, simulations and
nodes given by name, and the subcommands scoped to a simulation."""

from __future__ import annotations

import argparse
import os
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
    "day",
    "memory",
    "resolve_dsn",
    "resolve_node",
    "resolve_simulation",
    "resolve_tenant",
    "resolved",
    "scoped",
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


# The simulation a name or MiroFish id names when no simulation has it yet: the same name
# under the same tenant always gives the same id, so a first import by name and every later
# command by that name meet.
SIMULATION_NAMESPACE = uuid.UUID("5b0c6a53-3f0e-4d1b-9a51-2f9d0c7e6a10")


def resolve_tenant(mem: Memory, tenant: str | uuid.UUID) -> uuid.UUID:
    """A tenant given as a UUID or by name (among the tenants the caller may act for)."""
    as_id = as_uuid(tenant)
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
    as_id = as_uuid(simulation)
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


def resolved(func: Handler, *, create: bool = False) -> Handler:
    """Run a command with its --tenant and --simulation turned into UUIDs. With `create` (an
    import), a simulation named for the first time gets a new id and, unless --name says
    otherwise, the name it was given."""

    def run(args: argparse.Namespace) -> int:
        given = args.simulation
        with memory(args) as mem:
            args.tenant = resolve_tenant(mem, args.tenant)
            if given is not None:
                args.simulation = resolve_simulation(mem, args.tenant, given, create=create)
        if create and as_uuid(given) is None and not args.name:
            args.name = given  # a simulation addressed by name is created with that name
        return func(args)

    return run


def bound(handler: Callable[[argparse.Namespace, Memory], int]) -> Handler:
    """A handler of (args, Memory) as a resolved command: the Memory is opened for it."""

    def run(args: argparse.Namespace) -> int:
        with memory(args) as mem:
            return handler(args, mem)

    return resolved(run)


def scoped(sub: Subcommands, name: str, help_: str) -> argparse.ArgumentParser:
    """A subcommand that acts on one simulation: --tenant and --simulation, both required."""
    s = sub.add_parser(name, help=help_)
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument("--simulation", required=True, help="UUID, name or MiroFish id")
    return s


def day(value: datetime | None) -> str:
    return value.isoformat(timespec="minutes") if value is not None else ""
