"""Embedding models: `models` (the known ones, and a tenant's or simulation's; `--set` names
one) and `reembed` (a tenant's simulations re-embedded with another model, online)."""

from __future__ import annotations

import argparse

from swarm_memory.commands.common import (
    Subcommands,
    memory,
    resolve_dsn,
    resolve_simulation,
    resolve_tenant,
)
from swarm_memory.render import add_json_flag, print_json_record, print_json_rows, table

__all__ = ["add_commands"]


def cmd_models(args: argparse.Namespace) -> int:
    if (args.set is not None or args.clear) and args.tenant is None:
        raise ValueError("--set and --clear need --tenant: a model is named for a tenant")
    if args.set is not None and args.clear:
        raise ValueError("give --set MODEL or --clear, not both")
    if args.clear and args.simulation is not None:
        raise ValueError("--clear is for a tenant: a simulation keeps the model it names")
    with memory(args) as mem:
        if args.set is not None or args.clear:
            # the database checks the name (22023 naming the known models) and refuses
            # renaming a simulation that holds vectors of another model (55000)
            tenant = resolve_tenant(mem, args.tenant)
            if args.simulation is not None:
                sim = resolve_simulation(mem, tenant, args.simulation)
                mem.set_model(tenant, sim, args.set)
                if not args.json:
                    print(f"simulation {sim} now names model {args.set}")
            else:
                named = mem.set_tenant_model(tenant, args.set)
                if not args.json:
                    print(f"tenant {tenant}'s new simulations now take model {named}")
        if args.json:
            # the known models; with --tenant the one record of model_of (the tenant's, or
            # with --simulation the simulation's), as it is after --set or --clear
            if args.tenant is None:
                return print_json_rows(mem.list_models())
            tenant = resolve_tenant(mem, args.tenant)
            sim = None
            if args.simulation is not None:
                sim = resolve_simulation(mem, tenant, args.simulation)
            return print_json_record(mem.model_of(tenant, sim))
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

    with memory(args) as mem:
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
            + (
                f" (waited {s.waited:.1f} s for backend"
                f" {', '.join(str(b.pid) for b in s.held_by)}, which held the simulation)"
                if s.held_by
                else f" (waited {s.waited:.1f} s for an import)"
                if s.waited
                else ""
            )
        )
    rate = report.embedded / report.seconds if report.seconds else 0.0
    print(
        f"re-embedded {len(report.simulations)} simulations with {report.model}: "
        f"{report.embedded} texts in {report.seconds:.1f} s ({rate:.0f} texts/s), "
        f"{report.switched} rows switched"
    )
    return 0


def add_commands(sub: Subcommands) -> None:
    s = sub.add_parser("models", help="the embedding models, and a tenant's or simulation's")
    s.add_argument("--tenant")
    s.add_argument("--simulation")
    s.add_argument(
        "--set",
        metavar="MODEL",
        help="name the model of the tenant's new simulations (with --simulation: of that"
        " simulation, while it holds no vectors of another)",
    )
    s.add_argument(
        "--clear", action="store_true", help="the tenant's new simulations take the default model"
    )
    add_json_flag(s)
    s.set_defaults(func=cmd_models)

    s = sub.add_parser(
        "reembed", help="re-embed a tenant's simulations with another model, online, resumable"
    )
    s.add_argument("--tenant", required=True)
    s.add_argument("--model", required=True)
    s.add_argument("--simulation", action="append", default=[], help="only this one (repeatable)")
    s.add_argument("--batch-size", type=int, default=256)
    s.add_argument(
        "--wait",
        type=float,
        default=60.0,
        help="seconds to wait for an import, or another backend holding a simulation, to finish",
    )
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_reembed)
