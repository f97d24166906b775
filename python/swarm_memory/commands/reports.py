"""Reports and predictions: `reports`, `search-reports`, `predictions`, `predict` and
`outcome`."""

from __future__ import annotations

import argparse
import hashlib
from datetime import datetime
from typing import TYPE_CHECKING

from swarm_memory.commands.common import Subcommands, bound, scoped
from swarm_memory.render import add_json_flag, print_json_record, print_json_rows, table

if TYPE_CHECKING:
    from swarm_memory.client import Memory

__all__ = ["add_commands"]


def cmd_reports(args: argparse.Namespace, mem: Memory) -> int:
    if args.report:
        sections = mem.report_sections(args.tenant, args.simulation, args.report)
        if args.json:
            return print_json_rows(sections)
        for s in sections:
            print(s.markdown.rstrip("\n") + "\n")
        return 0
    rows = mem.reports(args.tenant, args.simulation)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    r.report_id,
                    r.status,
                    f"{r.started_at:%Y-%m-%d %H:%M}" if r.started_at else "",
                    r.sections,
                    r.predictions,
                    r.title or "",
                )
                for r in rows
            ],
            ["report", "status", "started", "sections", "predictions", "title"],
        )
    )
    return 0


def cmd_search_reports(args: argparse.Namespace, mem: Memory) -> int:
    from swarm_memory.embed import embedder_for

    # the question in the simulation's model, with its query prefix (as `search`)
    model = mem.model_of(args.tenant, args.simulation).model
    query = embedder_for(model).encode_query(args.question)
    hits = mem.search_reports(
        args.tenant, args.simulation, query, args.top_k, args.report, model=model
    )
    if args.json:
        return print_json_rows(hits)
    print(
        table(
            [
                (f"{h.similarity:.3f}", h.report_id, h.section_index, h.section_title, h.content)
                for h in hits
            ],
            ["dist", "report", "sec", "section", "content"],
            width=80,
        )
    )
    return 0


def cmd_predictions(args: argparse.Namespace, mem: Memory) -> int:
    rows = mem.predictions(args.tenant, args.simulation, args.report)
    if args.json:
        return print_json_rows(rows)
    print(
        table(
            [
                (
                    p.prediction_id,
                    "" if p.confidence is None else f"{p.confidence:.2f}",
                    p.horizon or "",
                    p.outcome or "open",
                    p.claim,
                )
                for p in rows
            ],
            ["prediction", "conf", "horizon", "outcome", "claim"],
            width=80,
        )
    )
    return 0


def cmd_predict(args: argparse.Namespace, mem: Memory) -> int:
    pid = args.id or "api:" + hashlib.sha256(args.claim.encode("utf-8")).hexdigest()[:16]
    item = {
        "id": pid,
        "claim": args.claim,
        "horizon": args.horizon,
        "confidence": args.confidence,
        "report_id": args.report,
    }
    mem.upsert_predictions(args.tenant, args.simulation, [item])
    print(f"prediction {pid} stored (source api: no import removes it)")
    return 0


def cmd_outcome(args: argparse.Namespace, mem: Memory) -> int:
    observed = datetime.fromisoformat(args.observed_at) if args.observed_at else None
    row = mem.record_outcome(
        args.tenant, args.simulation, args.prediction_id, args.outcome, args.note, observed
    )
    if args.json:
        return print_json_record(row)
    print(
        f"prediction {row.prediction_id}: {row.outcome}, recorded {row.recorded_at:%Y-%m-%d %H:%M} "
        f"by {row.recorded_by}"
    )
    return 0


def add_commands(sub: Subcommands) -> None:
    """Register the commands; each handler takes (args, Memory)."""
    s = scoped(sub, "reports", "a simulation's MiroFish reports, or one report's sections")
    s.add_argument("--report", help="print this report's sections (markdown)")
    add_json_flag(s)
    s.set_defaults(func=bound(cmd_reports))

    s = scoped(sub, "search-reports", "semantic search over the sections of the reports")
    s.add_argument("question")
    s.add_argument("--top-k", type=int, default=10)
    s.add_argument("--report")
    add_json_flag(s)
    s.set_defaults(func=bound(cmd_search_reports))

    s = scoped(sub, "predictions", "the predictions and their recorded outcomes")
    s.add_argument("--report")
    add_json_flag(s)
    s.set_defaults(func=bound(cmd_predictions))

    s = scoped(sub, "predict", "add a prediction (written outside imports)")
    s.add_argument("claim")
    s.add_argument("--confidence", type=float, required=True, help="from 0 to 1")
    s.add_argument("--horizon", help="when it should be known, e.g. 2026-12-31 or '6 months'")
    s.add_argument("--report", help="the report it comes from")
    s.add_argument("--id", help="its id (default: derived from the claim)")
    s.set_defaults(func=bound(cmd_predict))

    s = scoped(sub, "outcome", "record what became of a prediction")
    s.add_argument("prediction_id", metavar="PREDICTION_ID")
    s.add_argument("outcome", choices=["confirmed", "refuted", "partial", "void"])
    s.add_argument("--note")
    s.add_argument("--observed-at", help="ISO 8601 time the outcome was observed")
    add_json_flag(s, single=True)
    s.set_defaults(func=bound(cmd_outcome))
