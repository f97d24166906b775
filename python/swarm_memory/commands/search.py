"""Search by meaning and its indexes: `search` (episodes), `embed` (a text's vector) and
`index` (the per-simulation ANN indexes)."""

from __future__ import annotations

import argparse

from swarm_memory.commands.common import Subcommands, memory, resolve_dsn, resolved, scoped
from swarm_memory.render import add_json_flag, print_json_rows, table

__all__ = ["add_commands"]


def _rounds(text: str) -> tuple[int | None, int | None]:
    """A round range A:B (inclusive); either end may be left out (A: or :B); one number N is N:N."""
    first, sep, last = text.partition(":")
    try:
        low = int(first) if first.strip() else None
        high = (int(last) if last.strip() else None) if sep else low
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a round range A:B: {text!r}") from None
    return low, high


def cmd_search(args: argparse.Namespace) -> int:
    from swarm_memory.embed import embedder_for

    with memory(args) as mem:
        # the question in the simulation's model (V0022), with its query prefix
        model = mem.model_of(args.tenant, args.simulation).model
        query = embedder_for(model).encode_query(args.question)
        hits = mem.search_episodes(
            args.tenant,
            args.simulation,
            query,
            args.top_k,
            args.agent,
            round_from=args.rounds[0] if args.rounds else None,
            round_to=args.rounds[1] if args.rounds else None,
            since=args.since,
            until=args.until,
            collapse=args.collapse,
            model=model,
            snapshot=args.snapshot,
        )
    if args.json:
        return print_json_rows(hits)
    rows = [
        (f"{h.similarity:.3f}", h.platform, h.round, h.agent_name, h.action_type, h.content)
        for h in hits
    ]
    head = ["sim", "platform", "round", "agent", "action", "content"]
    if args.collapse:
        rows = [(*r, h.copies, h.agents) for r, h in zip(rows, hits, strict=True)]
        head += ["copies", "agents"]
    print(table(rows, head, width=80))
    return 0


def cmd_embed(args: argparse.Namespace) -> int:
    import sys

    from swarm_memory.embed import MODEL_NAME, embedder_for

    # A question's vector in the model of the simulation it is for (V0022): a search compares
    # it with that simulation's vectors and refuses one of another model (22023), so the
    # model is read from the memory (model_of: the simulation's, else the tenant's) unless
    # --model names it. Stdout is the vector alone, so `$(swarm-memory embed ...)` works;
    # which model made it goes to stderr.
    if args.simulation is not None and args.tenant is None:
        raise ValueError("--simulation needs --tenant: a simulation is named within its tenant")
    model = args.model
    source = "named by --model" if model is not None else "the default model"
    if args.tenant is not None and (model is None or args.simulation is not None):
        from swarm_memory.commands.common import resolve_simulation, resolve_tenant

        with memory(args) as mem:
            tenant = resolve_tenant(mem, args.tenant)
            sim = None
            if args.simulation is not None:
                sim = resolve_simulation(mem, tenant, args.simulation)
            of = mem.model_of(tenant, sim)
        if model is not None and model != of.model:
            raise ValueError(
                f"--model {model} is not the model of simulation {sim} ({of.model}): its "
                "searches would refuse the vector; leave --model out to embed with its model"
            )
        model = of.model
        source = f"simulation {sim}'s" if sim is not None else f"tenant {tenant}'s"
    vector = embedder_for(model).encode_query(args.text)
    print(f"model: {model or MODEL_NAME} ({source})", file=sys.stderr)
    print("[" + ",".join(f"{float(x):.6g}" for x in vector) + "]")
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    import psycopg

    from swarm_memory import ann
    from swarm_memory.errors import translate
    from swarm_memory.migrate import is_distributed

    log = (lambda m: None) if args.quiet else print
    try:
        if is_distributed(resolve_dsn(args)):
            # a Citus cluster: each tenant's indexes on its own shard, on its worker; facts
            # and entities are searched exactly there
            episodes = ann.build_cluster(resolve_dsn(args), args.min_rows, log=log)
            facts, entities = [], []
        else:
            episodes = ann.build(resolve_dsn(args), args.min_rows, log=log, wait=args.wait)
            facts = ann.build_facts(resolve_dsn(args), args.min_rows, log=log, wait=args.wait)
            entities = ann.build_entities(resolve_dsn(args), args.min_rows, log=log, wait=args.wait)
    except psycopg.Error as exc:
        raise translate(exc) from exc
    for label, what, actions in (
        ("ANN indexes", "episodes", episodes),
        ("fact indexes", "facts", facts),
        ("entity index pairs", "entities", entities),
    ):
        count = {
            k: sum(a.action == k for a in actions) for k in ("built", "rebuilt", "kept", "dropped")
        }
        print(
            f"{label}: {count['built']} built, {count['rebuilt']} rebuilt, {count['kept']} kept,"
            f" {count['dropped']} dropped (simulations with at least {args.min_rows} embedded {what})"
        )
    return 0


def add_commands(sub: Subcommands) -> None:
    s = scoped(sub, "search", "semantic search over episodes")
    s.add_argument("question")
    s.add_argument("--top-k", type=int, default=10)
    s.add_argument("--agent", type=int)
    s.add_argument(
        "--rounds", type=_rounds, metavar="A:B", help="rounds A to B, inclusive (A: or :B open)"
    )
    s.add_argument("--from", dest="since", metavar="TIME", help="actions at or after TIME")
    s.add_argument("--to", dest="until", metavar="TIME", help="actions before TIME")
    s.add_argument(
        "--collapse",
        action="store_true",
        help="near-identical hits as one row, with the copies and agents behind it",
    )
    s.add_argument(
        "--snapshot",
        metavar="NAME",
        help="the episodes as a named snapshot holds them (swarm-memory snapshot create)",
    )
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_search))

    s = sub.add_parser(
        "embed",
        help="print the vector of a question, as a literal psql accepts, in a simulation's model",
    )
    s.add_argument("text")
    s.add_argument("--tenant", help="UUID or name: embed in the tenant's model")
    s.add_argument(
        "--simulation",
        help="UUID, name or MiroFish id (with --tenant): embed in the simulation's model",
    )
    s.add_argument(
        "--model",
        help="the model to embed with (without --tenant: default the default model); pass the"
        " same name as p_model (recall: option model) in the SQL call",
    )
    s.set_defaults(func=cmd_embed)

    s = sub.add_parser(
        "index", help="build per-simulation ANN indexes after imports (memory_admin)"
    )
    s.add_argument("--min-rows", type=int, default=2000)
    s.add_argument(
        "--wait",
        type=float,
        default=300.0,
        help="seconds to wait for another backend's build or drop of the same index"
        " (a killed run's goes on until it ends)",
    )
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_index)
