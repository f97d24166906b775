"""Import a MiroFish run directory into a simulation: graph export, action logs, profiles.

Texts of every file are embedded together in batches (one pass over the model), then the
rows go to the upsert functions in batches. Upserts are idempotent, so re-running the same
import changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swarm_memory import mirofish
from swarm_memory.client import Memory, UpsertCounts, UUIDLike
from swarm_memory.embed import Embedder, node_text


@dataclass
class ImportReport:
    nodes: UpsertCounts | None = None
    edges: UpsertCounts | None = None
    episodes: UpsertCounts | None = None
    profiles: UpsertCounts | None = None
    events: int = 0
    skipped_lines: int = 0
    embedded: int = 0
    embed_rate: float = 0.0
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)


def _sum(parts: list[UpsertCounts]) -> UpsertCounts:
    return UpsertCounts(
        sum(p.inserted for p in parts),
        sum(p.updated for p in parts),
        sum(p.unchanged for p in parts),
        sum(p.skipped for p in parts),
    )


def _batches(items: Sequence[dict[str, Any]], size: int) -> list[Sequence[dict[str, Any]]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def find_graph(run_dir: Path) -> Path | None:
    for name in ("graph.json", "graph_export.json", "knowledge_graph.json"):
        if (run_dir / name).exists():
            return run_dir / name
    return None


def import_run(
    memory: Memory,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    run_dir: str | Path,
    *,
    graph_path: str | Path | None = None,
    name: str | None = None,
    embedder: Embedder | None = None,
    batch_size: int = 500,
    skip_dangling: bool = False,
    skip_bad_lines: bool = False,
    log: Callable[[str], None] = lambda _msg: None,
) -> ImportReport:
    started = time.perf_counter()
    run = Path(run_dir)
    report = ImportReport()
    embedder = embedder or Embedder()

    gpath = Path(graph_path) if graph_path else find_graph(run)
    graph = mirofish.read_graph(gpath) if gpath else mirofish.Graph(None, [], [])
    if gpath:
        report.files.append(str(gpath))
    logs = []
    for platform in mirofish.PLATFORMS:
        path = run / platform / "actions.jsonl"
        if path.exists():
            logs.append(mirofish.read_actions(path, platform, skip_bad_lines=skip_bad_lines))
            report.files.append(str(path))
    profiles = mirofish.read_profiles(run)
    episodes = [e for lg in logs for e in lg.episodes]
    events = [e for lg in logs for e in lg.events]
    report.events = len(events)
    report.skipped_lines = sum(len(lg.skipped_lines) for lg in logs)
    log(
        f"parsed {len(graph.nodes)} nodes, {len(graph.edges)} edges, {len(episodes)} actions, "
        f"{len(events)} events, {len(profiles)} profiles from {len(report.files)} files"
    )

    # One pass over the model for the texts of every file.
    edges_with_fact = [e for e in graph.edges if e.get("fact")]
    texts = (
        [node_text(n["type"], n["name"]) for n in graph.nodes]
        + [e["fact"] for e in edges_with_fact]
        + [e["content"] for e in episodes]
    )
    vectors = embedder.encode(texts)
    rows = graph.nodes + edges_with_fact + episodes
    for item, vec in zip(rows, vectors, strict=True):
        item["embedding"] = vec.tolist()
        item["embedding_model"] = embedder.model_name
    report.embedded = len(texts)
    report.embed_rate = embedder.rate
    log(f"embedded {len(texts)} texts ({embedder.rate:.0f} sentences/s)")

    metadata: dict[str, Any] = {"source": "mirofish"}
    if graph.graph_id:
        metadata["graph_id"] = graph.graph_id
    if events:
        metadata["events"] = [{k: v for k, v in e.items() if k != "line"} for e in events]
        ends = [e for e in events if e.get("event_type") == "simulation_end"]
        if ends:
            metadata["simulation_end"] = {e["platform"]: e for e in ends}
    memory.upsert_simulation(tenant_id, simulation_id, name or run.name, metadata)

    with memory.pool.connection() as conn, conn.transaction():
        report.nodes = _sum(
            [
                memory.upsert_nodes(tenant_id, simulation_id, b, conn=conn)
                for b in _batches(graph.nodes, batch_size)
            ]
        )
        report.edges = _sum(
            [
                memory.upsert_edges(tenant_id, simulation_id, b, skip_dangling, conn=conn)
                for b in _batches(graph.edges, batch_size)
            ]
        )
        report.episodes = _sum(
            [
                memory.upsert_episodes(tenant_id, simulation_id, b, conn=conn)
                for b in _batches(episodes, batch_size)
            ]
        )
        report.profiles = _sum(
            [
                memory.upsert_profiles(tenant_id, simulation_id, b, conn=conn)
                for b in _batches(profiles, batch_size)
            ]
        )
    report.seconds = time.perf_counter() - started
    return report
