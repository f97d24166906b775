"""Import a MiroFish run directory as one staged attempt.

Phases: parse (read every file), embed (only texts whose content hash is not committed
yet, all files in one pass over the model), load (COPY into the session's temporary
staging tables, then memory.stage_rows() in batches), validate (memory.validate_import),
promote (memory.commit_import: the whole attempt at once). Readers see the previous
committed state until the promote commits. A killed importer leaves its attempt to be
reported failed, and a rerun produces the same rows as one clean import.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb

from swarm_memory import mirofish
from swarm_memory.client import UUIDLike
from swarm_memory.embed import Embedder, node_text
from swarm_memory.errors import SwarmMemoryError, translate
from swarm_memory.progress import Progress

PAUSE_ENV = "SWARM_MEMORY_IMPORT_PAUSE"

COLUMNS = {
    "nodes": (
        "node_id",
        "position",
        "name",
        "type",
        "labels",
        "summary",
        "attributes",
        "embedding",
        "embedding_model",
        "content_hash",
    ),
    "edges": (
        "edge_id",
        "position",
        "type",
        "source_id",
        "target_id",
        "fact",
        "attributes",
        "valid_at",
        "invalid_at",
        "embedding",
        "embedding_model",
        "content_hash",
    ),
    "episodes": (
        "episode_id",
        "position",
        "agent_id",
        "agent_name",
        "platform",
        "round",
        "action_type",
        "content",
        "metadata",
        "occurred_at",
        "embedding",
        "embedding_model",
        "content_hash",
    ),
    "profiles": (
        "platform",
        "agent_id",
        "position",
        "name",
        "username",
        "bio",
        "persona",
        "attributes",
    ),
}
TYPES = {
    "nodes": ("text", "int4", "text", "text", "text[]", "text", "jsonb", "vector", "text", "bytea"),
    "edges": (
        "text",
        "int4",
        "text",
        "text",
        "text",
        "text",
        "jsonb",
        "timestamptz",
        "timestamptz",
        "vector",
        "text",
        "bytea",
    ),
    "episodes": (
        "text",
        "int4",
        "int4",
        "text",
        "text",
        "int4",
        "text",
        "text",
        "jsonb",
        "timestamptz",
        "vector",
        "text",
        "bytea",
    ),
    "profiles": ("text", "int4", "int4", "text", "text", "text", "text", "jsonb"),
}
ID_FIELD = {"nodes": "node_id", "edges": "edge_id", "episodes": "episode_id"}


class ImportFailed(SwarmMemoryError):
    """The attempt did not commit; the committed state is unchanged."""

    def __init__(
        self,
        message: str,
        problems: Sequence[tuple] = (),
        sqlstate: str | None = None,
        hint: str | None = None,
    ):
        super().__init__(message, sqlstate, hint)
        self.problems = list(problems)


@dataclass
class KindResult:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    skipped: int = 0


@dataclass
class ImportReport:
    attempt_id: uuid.UUID | None = None
    results: dict[str, KindResult] = field(default_factory=dict)
    parsed: dict[str, int] = field(default_factory=dict)
    events: int = 0
    skipped_lines: int = 0
    embedded: int = 0
    reused: int = 0
    embed_rate: float = 0.0
    skipped_edges: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)


def content_hash(model: str, text: str) -> bytes:
    return hashlib.sha256(f"{model}\x00{text}".encode()).digest()


def _pause(phase: str) -> None:
    """Failure drills: SWARM_MEMORY_IMPORT_PAUSE=<phase> stops the importer before a phase
    (for load: after its first batch is staged) so that it can be killed there."""
    if os.environ.get(PAUSE_ENV) == phase:
        sys.stderr.write(f"paused before {phase}\n")
        sys.stderr.flush()
        time.sleep(600)


@dataclass
class Parsed:
    graph: mirofish.Graph
    episodes: list[dict[str, Any]]
    events: list[dict[str, Any]]
    profiles: list[dict[str, Any]]
    skipped_lines: int
    files: list[str]


def find_graph(run_dir: Path) -> Path | None:
    for name in ("graph.json", "graph_export.json", "knowledge_graph.json"):
        if (run_dir / name).exists():
            return run_dir / name
    return None


def parse_run(run_dir: Path, graph_path: Path | None, skip_bad_lines: bool) -> Parsed:
    files: list[str] = []
    gpath = graph_path or find_graph(run_dir)
    graph = mirofish.read_graph(gpath) if gpath else mirofish.Graph(None, [], [])
    if gpath:
        files.append(str(gpath))
    episodes: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    skipped = 0
    for platform in mirofish.PLATFORMS:
        path = run_dir / platform / "actions.jsonl"
        if path.exists():
            log = mirofish.read_actions(path, platform, skip_bad_lines=skip_bad_lines)
            episodes += log.episodes
            events += log.events
            skipped += len(log.skipped_lines)
            files.append(str(path))
    if not files:
        raise mirofish.BadInput(f"{run_dir}: no graph export and no <platform>/actions.jsonl")
    profiles = mirofish.read_profiles(run_dir)
    for i, item in enumerate(graph.nodes):
        item["position"] = i
    for i, item in enumerate(graph.edges):
        item["position"] = i
    for i, item in enumerate(episodes):
        item["position"] = i
    for i, item in enumerate(profiles):
        item["position"] = i
    return Parsed(graph, episodes, events, profiles, skipped, files)


def _texts(parsed: Parsed) -> list[tuple[str, dict[str, Any], str]]:
    """(kind, item, text to embed) for every row that has a text."""
    out = [("nodes", n, node_text(n["type"], n["name"])) for n in parsed.graph.nodes]
    out += [("edges", e, e["fact"]) for e in parsed.graph.edges if e.get("fact")]
    out += [("episodes", e, e["content"]) for e in parsed.episodes if e.get("content")]
    return out


def _metadata(parsed: Parsed) -> dict[str, Any]:
    meta: dict[str, Any] = {"source": "mirofish"}
    if parsed.graph.graph_id:
        meta["graph_id"] = parsed.graph.graph_id
    if parsed.events:
        meta["events"] = [{k: v for k, v in e.items() if k != "line"} for e in parsed.events]
        ends = {
            e["platform"]: {k: v for k, v in e.items() if k != "line"}
            for e in parsed.events
            if e.get("event_type") == "simulation_end"
        }
        if ends:
            meta["simulation_end"] = ends
    return meta


def _row(kind: str, item: dict[str, Any]) -> tuple:
    def get(col: str) -> Any:
        if col == ID_FIELD.get(kind):
            return item["id"]
        value = item.get(col)
        if col in ("attributes", "metadata"):
            return Jsonb(value or {})
        if col == "labels":
            return value or []
        if col in ("valid_at", "invalid_at", "occurred_at") and value is not None:
            try:
                return datetime.fromisoformat(value)
            except ValueError:
                raise mirofish.BadInput(
                    f"{kind} {item['id']}: {col} is not an ISO 8601 timestamp: {value!r}"
                ) from None
        return value

    return tuple(get(c) for c in COLUMNS[kind])


def _batches(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def stage(
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    attempt_id: uuid.UUID,
    rows: dict[str, Sequence[dict[str, Any]]],
    batch_size: int,
    progress: Progress | None = None,
) -> None:
    """COPY rows into the session's staging tables and move them into the attempt, a batch
    per transaction."""
    if conn.adapters.types.get("vector") is None:
        register_vector(conn)
    conn.execute("SELECT memory.open_staging()")
    conn.commit()
    for kind in ("nodes", "edges", "episodes", "profiles"):
        for batch in _batches(rows.get(kind) or [], batch_size):
            with conn.transaction():
                cols = ", ".join(COLUMNS[kind])
                with conn.cursor().copy(
                    f"COPY pg_temp.stage_{kind} ({cols}) FROM STDIN (FORMAT BINARY)"
                ) as copy:
                    copy.set_types(TYPES[kind])
                    for item in batch:
                        copy.write_row(_row(kind, item))
                conn.execute("SELECT * FROM memory.stage_rows(%s, %s)", (tenant_id, attempt_id))
            if progress:
                progress.advance(len(batch))


def import_run(
    dsn: str,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    run_dir: str | Path,
    *,
    graph_path: str | Path | None = None,
    name: str | None = None,
    embedder: Embedder | None = None,
    batch_size: int = 5000,
    skip_dangling: bool = False,
    skip_bad_lines: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import a MiroFish run as one staged attempt; returns what the promote did."""
    started = time.perf_counter()
    progress = progress or Progress(quiet=True)
    embedder = embedder or Embedder()
    report = ImportReport()
    run = Path(run_dir)

    _pause("parse")
    progress.start("parse", 1, "run")
    parsed = parse_run(run, Path(graph_path) if graph_path else None, skip_bad_lines)
    progress.advance(1)
    report.files = parsed.files
    report.events = len(parsed.events)
    report.skipped_lines = parsed.skipped_lines
    report.parsed = {
        "nodes": len(parsed.graph.nodes),
        "edges": len(parsed.graph.edges),
        "episodes": len(parsed.episodes),
        "profiles": len(parsed.profiles),
    }
    progress.finish(
        ", ".join(f"{v} {k}" for k, v in report.parsed.items())
        + (f", {report.skipped_lines} bad lines skipped" if report.skipped_lines else "")
    )

    with psycopg.connect(dsn) as conn:
        try:
            register_vector(conn)
            conn.commit()
            _pause("embed")
            texts = _texts(parsed)
            known = {
                (k, i): h
                for k, i, h in conn.execute(
                    "SELECT kind, item_id, content_hash FROM memory.committed_hashes(%s, %s)",
                    (tenant_id, simulation_id),
                ).fetchall()
            }
            conn.commit()
            todo = []
            for kind, item, text in texts:
                item["content_hash"] = content_hash(embedder.model_name, text)
                item["embedding_model"] = embedder.model_name
                if known.get((kind, item["id"])) == item["content_hash"]:
                    item["embedding"] = None  # commit keeps the committed vector
                    report.reused += 1
                else:
                    todo.append((item, text))
            progress.start("embed", len(todo), "texts")
            for chunk in _batches(todo, 1024):
                vectors = embedder.encode([t for _, t in chunk])
                for (item, _), vec in zip(chunk, vectors, strict=True):
                    item["embedding"] = np.asarray(vec, dtype=np.float32)
                progress.advance(len(chunk))
            report.embedded = len(todo)
            report.embed_rate = embedder.rate
            progress.finish(f"{report.reused} unchanged texts reused")

            rows = {
                "nodes": parsed.graph.nodes,
                "edges": parsed.graph.edges,
                "episodes": parsed.episodes,
                "profiles": parsed.profiles,
            }
            attempt = conn.execute(
                "SELECT memory.begin_import(%s, %s, %s, %s, %s, %s)",
                (
                    tenant_id,
                    simulation_id,
                    Jsonb(report.parsed),
                    skip_dangling,
                    Jsonb(_metadata(parsed)),
                    name or run.name,
                ),
            ).fetchone()[0]
            conn.commit()
            report.attempt_id = attempt
            progress.start("load", sum(report.parsed.values()))
            first = {k: v[:1] for k, v in rows.items()}
            rest = {k: v[1:] for k, v in rows.items()}
            stage(conn, tenant_id, attempt, first, batch_size, progress)
            _pause("load")
            stage(conn, tenant_id, attempt, rest, batch_size, progress)
            progress.finish()

            _pause("validate")
            progress.start("validate", 1, "check")
            problems = conn.execute(
                "SELECT * FROM memory.validate_import(%s, %s)", (tenant_id, attempt)
            ).fetchall()
            conn.commit()
            progress.advance(1)
            blocking = [p for p in problems if p[0] != "skipped_edge"]
            report.skipped_edges = [p[2] for p in problems if p[0] == "skipped_edge"]
            progress.finish(
                f"{len(blocking)} problems, {len(report.skipped_edges)} dangling edges skipped"
                if problems
                else "no problems"
            )
            if blocking:
                lines = [f"{p[0]}: {p[1]} {p[2] or ''} {p[3]}".replace("  ", " ") for p in blocking]
                shown = "\n  ".join(lines[:20]) + (
                    f"\n  ... {len(lines) - 20} more" if len(lines) > 20 else ""
                )
                reason = f"{len(blocking)} problems: " + "; ".join(lines[:5])
                conn.execute("SELECT memory.abort_import(%s, %s, %s)", (tenant_id, attempt, reason))
                conn.commit()
                hint = (
                    "edges refer to nodes that are not in the import; import with "
                    "--skip-dangling to leave them out"
                    if any(p[0] == "dangling_edge" for p in blocking)
                    else None
                )
                raise ImportFailed(
                    f"import refused, nothing promoted:\n  {shown}", blocking, hint=hint
                )

            _pause("promote")
            progress.start("promote", sum(report.parsed.values()))
            for kind, ins, upd, same, deleted, skipped in conn.execute(
                "SELECT * FROM memory.commit_import(%s, %s)", (tenant_id, attempt)
            ):
                report.results[kind] = KindResult(ins, upd, same, deleted, skipped)
            conn.commit()
            progress.advance(sum(report.parsed.values()))
            progress.finish()
        except (psycopg.Error, mirofish.BadInput) as exc:
            if report.attempt_id is not None and not conn.closed:
                # Record why on the attempt; the committed state is untouched either way.
                conn.rollback()
                conn.execute(
                    "SELECT memory.abort_import(%s, %s, %s)",
                    (tenant_id, report.attempt_id, str(exc)[:2000]),
                )
                conn.commit()
            if isinstance(exc, mirofish.BadInput):
                raise
            err = translate(exc)
            if err is exc:
                raise
            raise err from exc
    report.timings = dict(progress.timings)
    report.seconds = time.perf_counter() - started
    return report
