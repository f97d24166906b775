"""Write a simulation back in MiroFish's formats: the inverse of the importer.

    graph.json                  {graph_id, nodes: [...], edges: [...]}, MiroFish's graph export
    <platform>/actions.jsonl    the action log: each action at the line it was read from,
                                the run's events (the simulation's metadata) in the other lines
    reddit_profiles.json        the Reddit profile list, each with its user_id (the agent)
    twitter_profiles.csv        the Twitter profile CSV, a row per agent (row = agent id)
    state.json                  the simulation's MiroFish ids and status, when it has them
    reports/<report_id>/        each imported report as MiroFish's ReportAgent writes it
                                (meta.json, outline.json, progress.json, section_NN.md,
                                full_report.md, agent_log.jsonl) and its predictions.json

Each file is written only when the simulation holds rows of its kind and platform. Every
read goes through the SQL API (Memory's read methods, under row-level security) in one
read-only snapshot, so an import committing meanwhile is not half seen.

Importing the export over the same simulation changes nothing (every row unchanged, the
metadata as it was): each field is written as the importer reads it back. What an export
cannot write so is counted in the result (see ExportCounts).
"""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from swarm_memory import mirofish, reports
from swarm_memory.client import EpisodeRow, Memory, ProfileRow, UUIDLike
from swarm_memory.mirofish.run import GRAPH_FILES

__all__ = ["ExportCounts", "export_run"]

PAGE = 1000
# The files the importer reads from a run directory: an export refuses to mix with them.
RUN_FILES = (
    *GRAPH_FILES,
    "reddit_profiles.json",
    "twitter_profiles.csv",
    "state.json",
    "simulation_config.json",
    *(f"{platform}/actions.jsonl" for platform in mirofish.PLATFORMS),
)
TWITTER_COLUMNS = ("user_id", "name", "username", "user_char", "description")

R = TypeVar("R")


@dataclass
class ExportCounts:
    """What an export wrote, and what it could not write so that a re-import reproduces it.

    nodes, edges, episodes, events, profiles: rows written.
    files: the files written, relative to the output directory.
    left_out: episodes not written: memories added outside imports (source api, which no
        import removes, so writing them would duplicate them) and actions on a platform
        MiroFish has no log for.
    unmatched_ids: actions whose written line does not derive their stored id (imported
        before the raw timestamp was kept; a re-import replaces them with new ids).
    zoned_times: actions whose naive timestamp the import read in a zone other than UTC:
        import the export with the same --timezone.
    relabelled: nodes whose labels did not give their type (written outside imports): the
        type is put first among the labels.
    renumbered: Twitter profiles whose agent id is not their row (ids with gaps).
    """

    nodes: int = 0
    edges: int = 0
    episodes: int = 0
    events: int = 0
    profiles: int = 0
    files: list[str] = field(default_factory=list)
    left_out: int = 0
    unmatched_ids: int = 0
    zoned_times: int = 0
    relabelled: int = 0
    renumbered: int = 0
    reports: int = 0
    predictions: int = 0


def _pages(fetch: Callable[[str | None], list[R]], key: Callable[[R], str]) -> Iterator[R]:
    """Every row of a keyset-paged read, a page of PAGE rows at a time."""
    after: str | None = None
    while True:
        page = fetch(after)
        yield from page
        if len(page) < PAGE:
            return
        after = key(page[-1])


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# -- graph --------------------------------------------------------------------------------


def _graph(mem: Memory, tenant: UUIDLike, sim: UUIDLike, conn: Any, counts: ExportCounts) -> dict:
    """MiroFish's graph export. The importer copies a node's created_at and an edge's
    created_at, expired_at, episodes and fact_type into the attributes; they are written
    back from there, as they were read (the text, not a reading of it)."""
    nodes = []
    for n in _pages(
        lambda after: mem.graph_nodes(tenant, sim, limit=PAGE, after=after, conn=conn),
        lambda n: n.node_id,
    ):
        labels = list(n.labels)
        if mirofish.node_type(labels) != n.type:
            labels = [n.type, *(label for label in labels if label != n.type)]
            counts.relabelled += 1
        nodes.append(
            {
                "uuid": n.node_id,
                "name": n.name,
                "labels": labels,
                "summary": n.summary,
                "attributes": n.attributes,
                "created_at": n.attributes.get("created_at"),
            }
        )
    edges = []
    for e in _pages(
        lambda after: mem.graph_edges(tenant, sim, limit=PAGE, after=after, conn=conn),
        lambda e: e.edge_id,
    ):
        attributes = e.attributes
        edges.append(
            {
                "uuid": e.edge_id,
                "name": e.type,
                "fact": e.fact,
                "fact_type": attributes.get("fact_type"),
                "source_node_uuid": e.source_id,
                "target_node_uuid": e.target_id,
                "attributes": attributes,
                "created_at": attributes.get("created_at"),
                "valid_at": _iso(e.valid_at),
                "invalid_at": _iso(e.invalid_at),
                "expired_at": attributes.get("expired_at"),
                "episodes": attributes.get("episodes") or [],
            }
        )
    counts.nodes, counts.edges = len(nodes), len(edges)
    return {"nodes": nodes, "edges": edges}


# -- action logs --------------------------------------------------------------------------


def _base_id(episode_id: str) -> str:
    """An imported action's id without the occurrence suffix: '<platform>:<digest>'."""
    return ":".join(episode_id.split(":")[:2])


def _timestamps(e: EpisodeRow) -> list[Any]:
    """The timestamp texts that may have given the episode its id: the text as read (kept
    since the raw timestamp is stored), else the forms MiroFish writes its times in."""
    meta = e.metadata or {}
    if "timestamp" in meta:
        return [meta["timestamp"]]
    if e.occurred_at is None:
        return [None]
    utc = e.occurred_at.astimezone(UTC)
    return [
        utc.replace(tzinfo=None).isoformat(),
        utc.isoformat(),
        utc.isoformat().replace("+00:00", "Z"),
    ]


def _action_line(platform: str, e: EpisodeRow) -> tuple[dict[str, Any], bool]:
    """The action line the episode was read from, and whether it derives the episode's id.
    The importer stores an absent action_args as {}; both are tried."""
    meta = e.metadata or {}
    args = meta.get("action_args") or {}
    first: dict[str, Any] | None = None
    for timestamp in _timestamps(e):
        for given in (True, False) if not args else (True,):
            line: dict[str, Any] = {
                "round": e.round,
                "timestamp": timestamp,
                "agent_id": e.agent_id,
                "agent_name": e.agent_name,
                "action_type": e.action_type,
                "action_args": args,
                "result": meta.get("result"),
                "success": meta.get("success"),
            }
            if not given:
                del line["action_args"]
            first = first or line
            if mirofish.episode_id(platform, line, 0) == _base_id(e.episode_id):
                return line, True
    assert first is not None
    return first, False


def _zoned(line: dict[str, Any], e: EpisodeRow) -> bool:
    """Whether a naive timestamp was read in a zone other than UTC."""
    text = line.get("timestamp")
    if not isinstance(text, str) or e.occurred_at is None:
        return False
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return parsed.tzinfo is None and parsed.replace(tzinfo=UTC) != e.occurred_at


def _log_lines(
    platform: str, episodes: list[EpisodeRow], events: list[dict[str, Any]], counts: ExportCounts
) -> list[str]:
    """The lines of <platform>/actions.jsonl: each action at the line number it was read
    from (metadata line; blank lines are skipped by the reader but counted), the events in
    file order in the lines left, blank lines where neither remains."""
    placed: dict[int, str] = {}
    unplaced: list[str] = []

    def order(e: EpisodeRow) -> tuple[int, int, str]:
        line = (e.metadata or {}).get("line")
        suffix = e.episode_id.split(":")[2:]
        occurrence = int(suffix[0]) if suffix and suffix[0].isdigit() else 0
        return (line if isinstance(line, int) else 1 << 62, occurrence, e.episode_id)

    for e in sorted(episodes, key=order):
        line, exact = _action_line(platform, e)
        counts.unmatched_ids += not exact
        counts.zoned_times += _zoned(line, e)
        number = (e.metadata or {}).get("line")
        if isinstance(number, int) and number >= 1 and number not in placed:
            placed[number] = _dump(line)
        else:
            unplaced.append(_dump(line))
    rest = [_dump({k: v for k, v in ev.items() if k != "platform"}) for ev in events]
    rest.reverse()
    lines = []
    for number in range(1, max(placed, default=0) + 1):
        lines.append(placed.get(number) or (rest.pop() if rest else ""))
    lines += reversed(rest)
    lines += unplaced
    counts.episodes += len(episodes)
    counts.events += len(events)
    return lines


# -- profiles -----------------------------------------------------------------------------


def _reddit(rows: list[ProfileRow]) -> list[dict[str, Any]]:
    """The Reddit profile list: every profile with its agent as user_id, so that the
    importer maps each to the same agent whatever the order."""
    return [
        {
            "user_id": p.agent_id,
            "username": p.username,
            "name": p.name,
            "bio": p.bio,
            "persona": p.persona,
            **p.attributes,
        }
        for p in rows
    ]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else _dump(value)


def _twitter(path: Path, rows: list[ProfileRow], counts: ExportCounts) -> None:
    """The Twitter profile CSV as OASIS reads it: the agent is the row. user_id is the
    stored upstream id where the profile has one, else the agent (as MiroFish writes it,
    and as the importer then drops it). A name column only where a profile has a name."""
    columns = [c for c in TWITTER_COLUMNS if c != "name" or any(p.name is not None for p in rows)]
    for p in rows:
        columns += [k for k in p.attributes if k not in columns]
    counts.renumbered += sum(p.agent_id != row for row, p in enumerate(rows))
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, columns)
        writer.writeheader()
        for p in rows:
            own = {
                "user_id": str(p.agent_id),
                "name": p.name,
                "username": p.username,
                "user_char": p.persona,
                "description": p.bio,
            }
            cells = {**own, **p.attributes}
            writer.writerow({c: _cell(cells.get(c)) for c in columns})


# -- the whole export ---------------------------------------------------------------------


def export_run(
    dsn: str,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    out_dir: str | Path,
    *,
    overwrite: bool = False,
) -> ExportCounts:
    """Write the simulation into out_dir in MiroFish's formats; what was written. An
    out_dir that holds a file of a run already is refused unless overwrite (those files
    are then removed first, so that none of an earlier export is read with this one)."""
    out = Path(out_dir)
    stale = [name for name in (*RUN_FILES, "reports") if (out / name).exists()]
    if stale and not overwrite:
        raise FileExistsError(
            f"{out}: holds {', '.join(stale)} already; export into an empty directory, or "
            "pass --overwrite to replace them"
        )
    counts = ExportCounts()
    with Memory(dsn) as mem, mem.connect(autocommit=False) as conn:
        # One snapshot for every read: an import committing meanwhile is seen whole or not.
        conn.rollback()  # the connection's set-up ran in a transaction of its own
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        conn.read_only = True
        tenant, sim = tenant_id, simulation_id
        metadata = mem.simulation_stats(tenant, sim, conn=conn).metadata or {}
        graph = _graph(mem, tenant, sim, conn, counts)
        episodes = list(
            _pages(
                lambda after: mem.episodes(tenant, sim, limit=PAGE, after=after, conn=conn),
                lambda e: e.episode_id,
            )
        )
        profiles = mem.profiles(tenant, sim, conn=conn)
        report_files = reports.export_files(mem, tenant, sim, conn)
        conn.rollback()

    for name in stale:
        if (out / name).is_dir():
            shutil.rmtree(out / name)
        else:
            (out / name).unlink()
    out.mkdir(parents=True, exist_ok=True)

    def write(name: str, text: str) -> None:
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        counts.files.append(name)

    if graph["nodes"] or graph["edges"]:
        write("graph.json", _dump({"graph_id": metadata.get("graph_id"), **graph}) + "\n")
    events = [e for e in metadata.get("events") or [] if isinstance(e, dict)]
    for platform in mirofish.PLATFORMS:
        mine = [e for e in episodes if e.platform == platform and e.source == "import"]
        if mine:
            lines = _log_lines(
                platform, mine, [e for e in events if e.get("platform") == platform], counts
            )
            write(f"{platform}/actions.jsonl", "".join(f"{line}\n" for line in lines))
    counts.left_out = len(episodes) - counts.episodes
    reddit = [p for p in profiles if p.platform == "reddit"]
    if reddit:
        write("reddit_profiles.json", json.dumps(_reddit(reddit), ensure_ascii=False, indent=2))
    twitter = [p for p in profiles if p.platform == "twitter"]
    if twitter:
        _twitter(out / "twitter_profiles.csv", twitter, counts)
        counts.files.append("twitter_profiles.csv")
    counts.profiles = len(reddit) + len(twitter)
    state = {
        k: metadata[k] for k in mirofish.SIMULATION_FIELDS if metadata.get(k) not in (None, "")
    }
    if set(state) - {"graph_id"}:  # graph.json carries the graph_id alone
        write("state.json", _dump(state) + "\n")
    for name, text in report_files.items():
        write(name, text)
        counts.reports += name.endswith("/meta.json")
        if name.endswith("/predictions.json"):
            counts.predictions += len(json.loads(text))
    return counts
