"""Writing a simulation: `import` (a MiroFish run), `attempts`, `remember` (one memory) and
`export` (the simulation written back as a MiroFish run)."""

from __future__ import annotations

import argparse

from swarm_memory.commands.common import Subcommands, memory, resolve_dsn, resolved, scoped
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
    s = scoped(sub, "import", "import a MiroFish run directory")
    s.add_argument("run_dir")
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
    s.set_defaults(func=resolved(cmd_import, create=True))

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
