"""Recall and words: `recall` (meaning, words and the graph, fused), `route` (where recall
sends a question) and `words` (full-text search, no model)."""

from __future__ import annotations

import argparse
import json

from swarm_memory.commands.common import Subcommands, memory, resolved, scoped
from swarm_memory.render import add_json_flag, print_json_record, print_json_rows, table

__all__ = ["add_commands"]


def _json_object(text: str) -> dict[str, object]:
    """A JSON object given on the command line."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"not a JSON object: {text!r}")
    return value


def cmd_recall(args: argparse.Namespace) -> int:
    options: dict[str, object] = {}
    if args.arms:
        options["arms"] = [a.strip() for a in args.arms.split(",") if a.strip()]
    options.update(args.options or {})
    if args.snapshot is not None:
        options["snapshot"] = args.snapshot
    if args.round is not None:
        options["round"] = args.round
    with memory(args) as mem:
        rows = mem.recall(
            args.tenant,
            args.simulation,
            args.question,
            None,
            args.top_k,
            options,
            embed=not args.words_only,
        )
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    f"{r.score:.4f}",
                    r.kind,
                    r.text,
                    f"{r.copies} by {r.agents}" if r.copies and r.copies > 1 else "",
                    r.why,
                )
                for r in rows
            ],
            ["score", "kind", "text", "copies", "arms"],
            width=60,
        )
    )
    return 0


def cmd_route(args: argparse.Namespace) -> int:
    with memory(args) as mem:
        route = mem.route(args.question)
    if args.json:
        return print_json_record(route)
    phrases = ", ".join(f"{s['phrase']} ({s['target']})" for s in route.signals)
    print(f"{route.target}: {phrases or 'no signal'}")
    return 0


def cmd_words(args: argparse.Namespace) -> int:
    """The words arm: full-text and name search, no model loaded."""
    with memory(args) as mem:
        hits = mem.search_words(args.tenant, args.simulation, args.text, args.top_k)
    if args.json:
        return print_json_rows(hits)
    print(
        table(
            [(f"{h.score:.3f}", h.kind, h.id, h.matched, h.text) for h in hits],
            ["score", "kind", "id", "matched", "text"],
            width=80,
        )
    )
    return 0


def add_commands(sub: Subcommands) -> None:
    s = scoped(sub, "recall", "hybrid recall: meaning, words and the graph, fused")
    s.add_argument("question")
    s.add_argument("--top-k", type=int, default=10)
    s.add_argument(
        "--arms",
        help="comma-separated: episodes,agents,facts,entities,words,graph (default: routed)",
    )
    s.add_argument(
        "--options",
        metavar="JSON",
        type=_json_object,
        help='recall options, e.g. \'{"weights": {"words": 2}}\'',
    )
    s.add_argument(
        "--words-only", action="store_true", help="do not embed the question (words and graph arms)"
    )
    s.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="the memory as it stood after round N of the simulation (the option round)",
    )
    s.add_argument(
        "--snapshot",
        metavar="NAME",
        help="the episodes and facts as a named snapshot holds them (its arms alone)",
    )
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_recall))

    s = sub.add_parser("route", help="where recall sends a question (graph, vector, hybrid)")
    s.add_argument("question")
    add_json_flag(s, single=True)
    s.set_defaults(func=cmd_route)

    s = scoped(sub, "words", "full-text search over episodes, facts and entities (no model)")
    s.add_argument("text", metavar="TEXT")
    s.add_argument("--top-k", type=int, default=10)
    add_json_flag(s)
    s.set_defaults(func=resolved(cmd_words))
