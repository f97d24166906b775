"""A MiroFish run directory read whole: the graph export, the action logs, the profiles, the
simulation folder's ids and the reports/ folder, as the items of one import by kind, with
what the import replaces (its scope) and the simulation's metadata."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swarm_memory import reports
from swarm_memory.mirofish.read import (
    PLATFORMS,
    BadInput,
    Clock,
    Graph,
    profile_platforms,
    read_actions,
    read_graph,
    read_profiles,
    read_simulation,
)

__all__ = ["GRAPH_FILES", "Parsed", "dangling_edges", "find_graph", "parse_run"]

# The names a run's graph export goes by, in the order they are looked for.
GRAPH_FILES = ("graph.json", "graph_export.json", "knowledge_graph.json")


@dataclass
class Parsed:
    graph: Graph
    episodes: list[dict[str, Any]]
    events: list[dict[str, Any]]
    profiles: list[dict[str, Any]]
    skipped_lines: int
    files: list[str]
    naive_times: int = 0
    simulation: dict[str, Any] = field(default_factory=dict)
    # What the run carries, and so what the import replaces (memory.begin_import's scope):
    # a kind mapped to None is replaced whole, to a list only for those platforms; a kind
    # with no file in the run is not named and is kept as it is.
    scope: dict[str, list[str] | None] = field(default_factory=dict)
    # The run's reports/ folder (None: the run has none, and the import keeps the reports)
    reports: reports.Reports | None = None

    @property
    def rows(self) -> dict[str, list[dict[str, Any]]]:
        """The items of the import by kind."""
        return {
            "nodes": self.graph.nodes,
            "edges": self.graph.edges,
            "episodes": self.episodes,
            "profiles": self.profiles,
            **(self.reports.rows if self.reports else {}),
        }

    @property
    def counts(self) -> dict[str, int]:
        return {kind: len(items) for kind, items in self.rows.items()}

    @property
    def metadata(self) -> dict[str, Any]:
        """The simulation's metadata from the run: its MiroFish ids and status, the graph's
        id, and the events of the action logs (the end of each platform's run apart)."""
        meta: dict[str, Any] = {"source": "mirofish", **self.simulation}
        if self.graph.graph_id:
            meta["graph_id"] = self.graph.graph_id
        if self.events:
            meta["events"] = [{k: v for k, v in e.items() if k != "line"} for e in self.events]
            ends = {
                e["platform"]: {k: v for k, v in e.items() if k != "line"}
                for e in self.events
                if e.get("event_type") == "simulation_end"
            }
            if ends:
                meta["simulation_end"] = ends
        return meta


def find_graph(run_dir: Path) -> Path | None:
    for name in GRAPH_FILES:
        if (run_dir / name).exists():
            return run_dir / name
    return None


def parse_run(
    run_dir: Path,
    graph_path: Path | None,
    skip_bad_lines: bool,
    *,
    timezone: str | None = None,
    allow_empty: bool = False,
) -> Parsed:
    """Read every file of a run. Naive timestamps are read in `timezone` (UTC by default)."""
    clock = Clock(timezone)
    files: list[str] = []
    gpath = graph_path or find_graph(run_dir)
    if graph_path and not graph_path.exists():
        raise BadInput(f"{graph_path}: no such file")
    graph = read_graph(gpath, clock, allow_empty=allow_empty) if gpath else Graph(None, [], [])
    if gpath:
        files.append(str(gpath))
    scope: dict[str, list[str] | None] = {"nodes": None, "edges": None} if gpath else {}
    episodes: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    skipped = 0
    for platform in PLATFORMS:
        path = run_dir / platform / "actions.jsonl"
        if path.exists():
            log = read_actions(path, platform, skip_bad_lines=skip_bad_lines, clock=clock)
            if not log.episodes and not allow_empty:
                raise BadInput(
                    f"{path}: no actions; importing it would remove the simulation's {platform} "
                    "actions: pass --allow-empty to mean that"
                )
            episodes += log.episodes
            events += log.events
            skipped += len(log.skipped_lines)
            files.append(str(path))
            scope.setdefault("episodes", [])
            scope["episodes"].append(platform)  # type: ignore[union-attr]
    simulation = read_simulation(run_dir)
    found = reports.read_reports(
        run_dir,
        clock,
        simulation_id=simulation.get("simulation_id"),
        skip_bad_lines=skip_bad_lines,
        allow_empty=allow_empty,
    )
    if found is not None:
        files += found.files
        skipped += found.skipped_lines
        scope.update(dict.fromkeys(reports.KINDS))
    if not files and found is None:
        raise BadInput(f"{run_dir}: no graph export, no <platform>/actions.jsonl and no reports/")
    profiles = read_profiles(run_dir)
    platforms = profile_platforms(run_dir)
    if platforms:
        scope["profiles"] = platforms
    for items in (graph.nodes, graph.edges, episodes, profiles):
        for i, item in enumerate(items):
            item["position"] = i
    return Parsed(
        graph,
        episodes,
        events,
        profiles,
        skipped,
        files,
        naive_times=clock.naive,
        simulation=simulation,
        scope=scope,
        reports=found,
    )


def dangling_edges(parsed: Parsed) -> list[str]:
    """Edges of the graph export whose endpoint is not among its nodes, as 'edge (node)'."""
    nodes = {n["id"] for n in parsed.graph.nodes}
    return [
        f"{e['id']} ({e['source_id'] if e['source_id'] not in nodes else e['target_id']})"
        for e in parsed.graph.edges
        if e["source_id"] not in nodes or e["target_id"] not in nodes
    ]
