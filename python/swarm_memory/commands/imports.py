"""Writing a simulation: `import` (a MiroFish run), `attempts`, `remember` (one memory) and
`export` (the simulation written back as a MiroFish run)."""

from __future__ import annotations

import argparse
import re
import sys
import uuid
from pathlib import Path

from swarm_memory.commands.common import (
    SIMULATION_NAMESPACE,
    Handler,
    Subcommands,
    as_uuid,
    memory,
    resolve_dsn,
    resolve_tenant,
    resolved,
    scoped,
)
from swarm_memory.render import add_json_flag, print_import_report, print_json_rows, table

__all__ = ["add_commands"]


def cmd_import(args: argparse.Namespace) -> int:
    from swarm_memory.embed import embedder_for
    from swarm_memory.importer import import_run
    from swarm_memory.progress import Progress

    # --model: the run's vectors embedded with that model and the simulation named by it
    # (an unknown name is refused here, before anything is read or written); without it the
    # importer takes the simulation's model (a new one's: the tenant's)
    embedder = embedder_for(args.model) if args.model is not None else None
    report = import_run(
        resolve_dsn(args),
        args.tenant,
        args.simulation,
        args.run_dir,
        graph_path=args.graph,
        name=args.name,
        skip_dangling=args.skip_dangling,
        skip_bad_lines=args.skip_bad_lines,
        batch_size=args.batch_size,
        progress=Progress(quiet=args.quiet),
        timezone=args.timezone,
        allow_empty=args.allow_empty,
        embed_all_actions=args.embed_all_actions,
        embedder=embedder,
    )
    print_import_report(report)
    if report.recommendation:
        print(f"model: {report.model}; recommendation: {report.recommendation}")
    else:
        print(f"model: {report.model}")
    return 0


# What a MiroFish simulation id looks like (sim_ and 12 hex digits): a --simulation of that
# shape that is not the run's own is worth a warning.
MIROFISH_ID = re.compile(r"sim_[0-9a-f]{12}")


def _warn(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


def import_target(func: Handler) -> Handler:
    """Run `import` with its directory checked and --tenant and --simulation resolved.

    The simulation: --simulation as a UUID, name or MiroFish id (Memory.simulation); without
    it, the run's own MiroFish id from state.json, else the directory's name. A reference no
    simulation answers to makes a new simulation of that name only where no other could have
    been meant: when --simulation is left out or is a UUID, when the tenant has no simulation
    yet, or with --create; else nothing is written and the command exits 2. A re-import keeps
    the simulation's name unless --name gives another."""

    def run(args: argparse.Namespace) -> int:
        # imported when it runs, not when the parser is built: `--help` connects to nothing
        from swarm_memory.errors import NotFound
        from swarm_memory.mirofish.read import Clock, read_simulation

        run_dir = Path(args.run_dir)
        if not run_dir.is_dir():
            raise ValueError(
                f"no directory {args.run_dir}"
                if not run_dir.exists()
                else f"not a directory: {args.run_dir} (import takes a MiroFish run's folder)"
            )
        Clock(args.timezone)  # an unknown zone is refused before the server is asked anything
        run_id = read_simulation(run_dir).get("simulation_id")
        given = args.simulation or run_id or run_dir.resolve().name
        with memory(args) as mem:
            tenant = resolve_tenant(mem, args.tenant)
            held = {s.simulation_id: s for s in mem.list_simulations(tenant)}
            try:
                simulation = mem.simulation(tenant, given)
            except NotFound:
                if args.simulation is not None and held and not args.create:
                    raise ValueError(
                        f"no simulation {given} in tenant {args.tenant}; pass --create to make it"
                    ) from None
                simulation = uuid.uuid5(SIMULATION_NAMESPACE, f"{tenant}/{given}")
                if simulation in held:  # made under this name once, and renamed since
                    simulation = uuid.uuid4()
        existing = held.get(simulation)
        if run_id and existing is not None and existing.mirofish_id not in (None, run_id):
            _warn(
                f"simulation {existing.name or simulation} holds MiroFish run "
                f"{existing.mirofish_id}; {run_dir / 'state.json'} is of {run_id}: "
                "this import replaces what it holds"
            )
        if run_id and existing is None:
            copies = [s for s in held.values() if s.mirofish_id == run_id]
            if copies:
                names = ", ".join(f"{s.name or '(no name)'} ({s.simulation_id})" for s in copies)
                _warn(
                    f"MiroFish run {run_id} is already imported as {names}; this makes another "
                    f"copy (--simulation {copies[0].name or copies[0].simulation_id} updates "
                    "that one)"
                )
            elif MIROFISH_ID.fullmatch(given) and given != run_id:
                _warn(
                    f"--simulation {given} is not the run's MiroFish id: state.json says {run_id}"
                )
        if not args.name:
            if existing is not None:
                args.name = existing.name  # a re-import keeps the name, however addressed
            elif as_uuid(given) is None:
                args.name = given  # a new simulation takes the name it was addressed by
        args.tenant, args.simulation = tenant, simulation
        return func(args)

    return run


def cmd_attempts(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        rows = mem.import_attempts(args.tenant, args.simulation)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    a.attempt_id,
                    a.state,
                    a.started_at.strftime("%Y-%m-%d %H:%M:%S"),
                    f"{a.seconds:.1f}",
                    a.result or a.staged or a.declared,
                    a.error,
                )
                for a in rows
            ],
            ["attempt", "state", "started", "seconds", "counts", "error"],
            width=60,
        )
    )
    return 0


def cmd_remember(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        episode_id = mem.remember(
            args.tenant,
            args.simulation,
            args.text,
            agent_id=args.agent_id,
            agent_name=args.agent_name,
            platform=args.platform,
            action_type=args.action_type,
        )
    print(f"remembered as episode {episode_id} (source api: no import removes it)")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from swarm_memory.mirofish.export import export_run

    c = export_run(
        resolve_dsn(args), args.tenant, args.simulation, args.out_dir, overwrite=args.overwrite
    )
    print(
        f"exported {c.nodes} nodes, {c.edges} edges, {c.episodes} actions, {c.events} events, "
        f"{c.profiles} profiles to {args.out_dir}: {', '.join(c.files) or 'nothing to write'}"
    )
    if c.left_out:
        print(f"{c.left_out} episodes written outside imports (or on another platform) left out")
    if c.zoned_times:
        print(
            f"{c.zoned_times} naive times were read in another zone than UTC: import with that --timezone"
        )
    for n, what in (
        (
            c.unmatched_ids,
            "actions imported before raw timestamps were kept get new ids on re-import",
        ),
        (c.relabelled, "nodes got their type as first label"),
        (c.renumbered, "Twitter profiles are renumbered by row"),
    ):
        if n:
            print(f"{n} {what}")
    return 0


def add_commands(sub: Subcommands) -> None:
    s = sub.add_parser("import", help="import a MiroFish run directory")
    s.add_argument("run_dir")
    s.add_argument("--tenant", required=True, help="UUID or name")
    s.add_argument(
        "--simulation",
        help="UUID, name or MiroFish id (default: the run's MiroFish id from state.json, else "
        "the directory's name)",
    )
    s.add_argument(
        "--create",
        action="store_true",
        help="make a new simulation when --simulation names none (needed when the tenant "
        "already has simulations)",
    )
    s.add_argument("--graph", help="graph export JSON (default: RUN_DIR/graph.json)")
    s.add_argument("--name")
    s.add_argument("--skip-dangling", action="store_true")
    s.add_argument("--skip-bad-lines", action="store_true")
    s.add_argument(
        "--timezone",
        default="UTC",
        help="IANA zone of the run's naive timestamps (MiroFish writes local times without a "
        "zone); default UTC",
    )
    s.add_argument(
        "--allow-empty",
        action="store_true",
        help="import a file that yields no rows (a graph export without nodes and edges, an empty "
        "actions.jsonl): the import then removes what the simulation held of that kind",
    )
    s.add_argument(
        "--embed-all-actions",
        action="store_true",
        help="embed actions without text of their own too (DO_NOTHING, TREND, MUTE, searches)",
    )
    s.add_argument(
        "--model",
        help="embed the run with this model and name it the simulation's (`swarm-memory models`"
        " lists them; default: the simulation's, a new one's the tenant's)",
    )
    s.add_argument("--quiet", action="store_true")
    s.add_argument("--batch-size", type=int, default=5000)
    s.set_defaults(func=import_target(cmd_import))

    s = scoped(sub, "attempts", "the import attempts of a simulation")
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_attempts))

    s = scoped(sub, "remember", "add one memory (an episode written outside imports), embedded")
    s.add_argument("text")
    s.add_argument("--agent-id", type=int)
    s.add_argument("--agent-name")
    s.add_argument("--platform")
    s.add_argument("--action-type", default="MEMORY")
    s.set_defaults(func=resolved(cmd_remember))

    s = scoped(sub, "export", "write a simulation back in MiroFish's formats")
    s.add_argument("out_dir")
    s.add_argument("--overwrite", action="store_true", help="replace a run's files in OUT_DIR")
    s.set_defaults(func=resolved(cmd_export))
