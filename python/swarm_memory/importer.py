"""Import a MiroFish run directory as one staged attempt.

The data path, one function per phase, each SQL call a method of `Memory` on the import's
own connection (the attempt lives as long as that session):

    parse     parse()                the run's files (swarm_memory.mirofish.run.parse_run),
                                     dangling edges refused before anything is embedded
    embed     embed()                only texts whose content hash is not committed yet
                                     (Memory.committed_hashes) nor in the tenant's vector
                                     cache (Memory.cached_vectors), all files in one model
                                     pass; new vectors cached at once (Memory.cache_vectors)
    load      load() / stage()       Memory.begin_import, then Memory.open_staging and
                                     Memory.stage_rows: binary COPY into the session's
                                     staging tables, moved into the attempt, a batch per
                                     transaction
    validate  validate()             Memory.validate_import; refused -> Memory.abort_import
    promote   promote()              Memory.commit_import: the whole attempt at once

Readers see the previous committed state until the promote commits. A killed importer
leaves its attempt to be reported failed, and a rerun produces the same rows as one clean
import.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from swarm_memory import mirofish
from swarm_memory.client import Memory, PromoteCounts, StagingColumn, StagingTable, UUIDLike
from swarm_memory.embed import Embedder, embedder_for, node_text
from swarm_memory.errors import ImportFailed, NotFound, StateError, SwarmMemoryError
from swarm_memory.mirofish.run import Parsed, dangling_edges, parse_run
from swarm_memory.models import choose, language_mix, recommend
from swarm_memory.progress import Progress

__all__ = [
    "ImportFailed",
    "ImportReport",
    "content_hash",
    "begin",
    "embed",
    "import_run",
    "load",
    "parse",
    "promote",
    "stage",
    "validate",
]

# Content hashes per cached_vectors call (memory._limit('cache_hashes') is 100,000).
CACHE_BATCH = 10000


@dataclass
class ImportReport:
    attempt_id: uuid.UUID | None = None
    results: dict[str, PromoteCounts] = field(default_factory=dict)
    parsed: dict[str, int] = field(default_factory=dict)
    events: int = 0
    skipped_lines: int = 0
    embedded: int = 0
    reused: int = 0
    cached: int = 0
    embed_rate: float = 0.0
    skipped_edges: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)
    naive_times: int = 0
    scope: dict[str, list[str] | None] = field(default_factory=dict)
    # reports/ folders of other MiroFish simulations, left out
    other_reports: list[str] = field(default_factory=list)
    # the model the vectors are of, and a model the run's languages suggest (swarm_memory.models)
    model: str = ""
    recommendation: str | None = None


def content_hash(model: str, text: str) -> bytes:
    return hashlib.sha256(f"{model}\x00{text}".encode()).digest()


def _batches(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


# -- parse -------------------------------------------------------------------------------


def parse(
    run_dir: Path,
    graph_path: Path | None,
    skip_bad_lines: bool,
    progress: Progress,
    *,
    timezone: str | None = None,
    allow_empty: bool = False,
    skip_dangling: bool = False,
) -> Parsed:
    """Phase parse: read every file of the run and make every check that needs no vector
    (bad lines, duplicate ids, dangling edges), so that a run that cannot commit is refused
    before anything is embedded."""
    progress.start("parse", 1, "run")
    parsed = parse_run(
        run_dir, graph_path, skip_bad_lines, timezone=timezone, allow_empty=allow_empty
    )
    dangling = [] if skip_dangling else dangling_edges(parsed)
    if dangling:
        more = ", ..." if len(dangling) > 10 else ""
        raise mirofish.BadInput(
            f"{parsed.files[0]}: {len(dangling)} edges refer to nodes not in the export: "
            f"{', '.join(dangling[:10])}{more}; import the missing nodes, or pass --skip-dangling"
        )
    progress.advance(1)
    progress.finish(
        ", ".join(f"{v} {k}" for k, v in parsed.counts.items())
        + (f", {parsed.skipped_lines} bad lines skipped" if parsed.skipped_lines else "")
        + (
            f", {parsed.naive_times} naive times read as {timezone or 'UTC'}"
            if parsed.naive_times
            else ""
        )
    )
    return parsed


# -- forgotten ---------------------------------------------------------------------------


def text_hash(text: str | None) -> bytes | None:
    """sha256 of an episode's text, as memory.forgotten keeps it."""
    return hashlib.sha256(text.encode()).digest() if text is not None else None


def leave_out_forgotten(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    parsed: Parsed,
) -> dict[str, int]:
    """Drop from the run the rows the tenant has forgotten (memory.forgotten_ids: episodes
    by id or by text, facts that went with them, forgotten agents' profiles), so that a
    re-import of the same files does not bring them back; returns how many of each kind
    were left out, for the report to say."""
    out: dict[str, int] = {}

    def keep(kind: str, items: list[dict[str, Any]], ids: list[str], hashes: Any = None) -> None:
        gone: set[str] = set()
        for start in range(0, len(ids), CACHE_BATCH):
            gone |= mem.forgotten_ids(
                tenant_id,
                simulation_id,
                kind,
                ids[start : start + CACHE_BATCH],
                hashes[start : start + CACHE_BATCH] if hashes is not None else None,
                conn=conn,
            )
        if gone:
            if kind == "episodes":
                left.extend(i for i, id_ in zip(items, ids, strict=True) if id_ in gone)
            items[:] = [i for i, id_ in zip(items, ids, strict=True) if id_ not in gone]
            out[kind] = len(ids) - len(items)

    left: list[dict[str, Any]] = []
    keep(
        "episodes",
        parsed.episodes,
        [e["id"] for e in parsed.episodes],
        [text_hash(e.get("content")) for e in parsed.episodes],
    )
    if left and parsed.reports:
        scrub_reports(conn, parsed.reports, left)
    keep("edges", parsed.graph.edges, [e["id"] for e in parsed.graph.edges])
    keep("profiles", parsed.profiles, [f"{p['platform']}/{p['agent_id']}" for p in parsed.profiles])
    return out


def scrub_reports(conn: psycopg.Connection, reports: Any, episodes: list[dict[str, Any]]) -> None:
    """The run's reports as a forget left them in the memory: every text of the forgotten
    episodes the database's rule lets go (memory._action_said, memory._scrubbable) replaced
    by the marker (memory._scrub_text, memory._scrub_json), and the chunks of a changed
    section cut again, so that a re-import neither brings a quote back nor keeps a vector of
    it."""
    from swarm_memory.reports import chunk_text, section_title

    row = conn.execute(
        "SELECT ARRAY(SELECT x.t FROM (SELECT DISTINCT u.t FROM pg_catalog.unnest(%s::text[]"
        " || ARRAY(SELECT memory._action_said(e.c, e.m) FROM ROWS FROM (pg_catalog.unnest(%s::text[]),"
        " pg_catalog.unnest(%s::jsonb[])) AS e (c, m))) AS u (t) WHERE memory._scrubbable(u.t)) AS x"
        " ORDER BY pg_catalog.char_length(x.t) DESC, x.t)",
        (
            [e.get("content") for e in episodes],
            [e.get("content") for e in episodes],
            [Jsonb(e.get("metadata") or {}) for e in episodes],
        ),
    ).fetchone()
    texts = row[0] if row else []
    if not texts:
        return

    def text(values: list[str | None]) -> list[str | None]:
        got = conn.execute(
            "SELECT ARRAY(SELECT memory._scrub_text(v.t, %s) FROM pg_catalog.unnest(%s::text[])"
            " WITH ORDINALITY AS v (t, n) ORDER BY v.n)",
            (texts, values),
        ).fetchone()
        return list(got[0]) if got else values

    def json(values: list[Any]) -> list[Any]:
        got = conn.execute(
            "SELECT ARRAY(SELECT memory._scrub_json(v.d, %s) FROM pg_catalog.unnest(%s::jsonb[])"
            " WITH ORDINALITY AS v (d, n) ORDER BY v.n)",
            (texts, [Jsonb(v) for v in values]),
        ).fetchone()
        return list(got[0]) if got else values

    fields = ("title", "summary", "simulation_requirement", "error")
    for r in reports.reports:
        for name, value in zip(fields, text([r.get(f) for f in fields]), strict=True):
            r[name] = value
    for r, meta in zip(
        reports.reports, json([r["metadata"] for r in reports.reports]), strict=True
    ):
        r["metadata"] = meta
    sections = reports.report_sections
    titles = text([s["title"] for s in sections])
    bodies = text([s["markdown"] for s in sections])
    changed = set()
    for s, title, body in zip(sections, titles, bodies, strict=True):
        if (title, body) != (s["title"], s["markdown"]):
            changed.add((s["report_id"], s["section_index"]))
            s["title"], s["markdown"] = title, body
    if changed:
        chunks = [
            c for c in reports.report_chunks if (c["report_id"], c["section_index"]) not in changed
        ]
        for s in sections:
            if (s["report_id"], s["section_index"]) in changed:
                chunks += [
                    {
                        "id": f"{s['report_id']}/{s['section_index']}/{n}",
                        "report_id": s["report_id"],
                        "section_index": s["section_index"],
                        "chunk_index": n,
                        "content": chunk,
                        "embed_text": f"{s['title']}\n{chunk}",
                    }
                    for n, chunk in enumerate(chunk_text(section_title(s["markdown"])[1]))
                ]
        for i, c in enumerate(
            chunks
        ):  # a row's place in its file, as reports.read_reports numbers it
            c["position"] = i
        reports.report_chunks[:] = chunks
    for line, entry in zip(
        reports.report_log, json([x["entry"] for x in reports.report_log]), strict=True
    ):
        line["entry"] = entry
    for p, claim in zip(
        reports.predictions, text([p.get("claim") for p in reports.predictions]), strict=True
    ):
        p["claim"] = claim
    metas = json([p.get("metadata") or {} for p in reports.predictions])
    for p, meta in zip(reports.predictions, metas, strict=True):
        p["metadata"] = meta


# -- embed -------------------------------------------------------------------------------


def _texts(
    parsed: Parsed, embed_all_actions: bool = False
) -> list[tuple[str, dict[str, Any], list[tuple[str, str]]]]:
    """(kind, item, [(vector column, text to embed)]) for every row that has a text: a
    node has two, "{type}: {name}" and its summary. Actions that say nothing of their own
    (mirofish.CONTENTLESS_ACTIONS) are stored without a vector, so searches do not answer
    with them, unless embed_all_actions."""
    out: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = [
        (
            "nodes",
            n,
            [("embedding", node_text(n["type"], n["name"]))]
            + ([("summary_embedding", n["summary"])] if n.get("summary") else []),
        )
        for n in parsed.graph.nodes
    ]
    out += [("edges", e, [("embedding", e["fact"])]) for e in parsed.graph.edges if e.get("fact")]
    if parsed.reports:
        out += [
            ("report_chunks", c, [("embedding", c["embed_text"])])
            for c in parsed.reports.report_chunks
        ]
    out += [
        ("episodes", e, [("embedding", e["content"])])
        for e in parsed.episodes
        if e.get("content")
        and (embed_all_actions or e["action_type"] not in mirofish.CONTENTLESS_ACTIONS)
    ]
    return out


def embed(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    parsed: Parsed,
    embedder: Embedder,
    progress: Progress,
    embed_all_actions: bool = False,
) -> tuple[int, int, int]:
    """Phase embed: set each item's content hash, model and vector. A text whose hash is
    committed already in this simulation gets no vector (the promote keeps the committed
    one); one the tenant's vector cache holds gets the cached vector; only the rest is
    encoded, each distinct text once, and its vectors go into the cache in a transaction of
    their own right after each batch (so a refused or killed attempt leaves them for its
    rerun). Returns the rows (embedded, reused from the simulation, taken from the cache)."""
    model = embedder.model_name
    known = {
        (h.kind, h.item_id): h.content_hash
        for h in mem.committed_hashes(tenant_id, simulation_id, conn=conn)
    }
    # A text is embedded and cached under its own hash; a row's content hash covers all of
    # its texts (one text: that text's hash), so a row whose texts are all unchanged keeps
    # its committed vectors.
    wanted: dict[bytes, tuple[str, list[tuple[dict[str, Any], str]]]] = {}
    reused = 0
    for kind, item, texts in _texts(parsed, embed_all_actions):
        item["content_hash"] = content_hash(model, "\x1f".join(text for _, text in texts))
        item["embedding_model"] = model
        if known.get((kind, item["id"])) == item["content_hash"]:
            for column, _ in texts:
                item[column] = None  # commit keeps the committed vectors
            reused += len(texts)
        else:
            for column, text in texts:
                wanted.setdefault(content_hash(model, text), (text, []))[1].append((item, column))
    cached = 0
    for chunk in _batches(list(wanted), CACHE_BATCH):
        for hit in mem.cached_vectors(tenant_id, model, chunk, conn=conn):
            _, uses = wanted.pop(hit.content_hash)
            for item, column in uses:
                item[column] = hit.embedding
            cached += len(uses)
    todo = list(wanted.items())
    embedded = sum(len(uses) for _, (_, uses) in todo)
    progress.start("embed", len(todo), "texts")
    for chunk in _batches(todo, 1024):
        vectors = [
            np.asarray(v, dtype=np.float32) for v in embedder.encode([t for _, (t, _) in chunk])
        ]
        for (_, (_, uses)), vec in zip(chunk, vectors, strict=True):
            for item, column in uses:
                item[column] = vec
        mem.cache_vectors(tenant_id, model, [h for h, _ in chunk], vectors, conn=conn)
        progress.advance(len(chunk))
    progress.finish(f"{reused} unchanged texts reused, {cached} taken from the vector cache")
    return embedded, reused, cached


# -- load --------------------------------------------------------------------------------


def _timestamp(kind: str, key: str) -> Callable[[dict[str, Any]], Any]:
    def get(item: dict[str, Any]) -> Any:
        value = item.get(key)
        if not isinstance(value, str):
            return value
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            raise mirofish.BadInput(
                f"{kind} {item['id']}: {key} is not an ISO 8601 timestamp: {value!r}"
            ) from None

    return get


# The key column of a kind whose name is not <kind without s>_id (node_id, report_id, ...).
ID_COLUMNS = {"report_chunks": "chunk_id"}


def _cell(kind: str, column: StagingColumn) -> Callable[[dict[str, Any]], Any]:
    """How an item gives a staging column its value, by the column's name and type: the
    kind's key column (node_id, edge_id, episode_id) is the item's id; an absent JSON
    object or array is empty; a timestamp is parsed from its ISO 8601 text."""
    key = (
        "id" if column.name == ID_COLUMNS.get(kind, f"{kind.removesuffix('s')}_id") else column.name
    )
    if column.type == "jsonb":
        return lambda item: item.get(key) or {}
    if column.type.endswith("[]"):
        return lambda item: item.get(key) or []
    if column.type == "timestamp with time zone":
        return _timestamp(kind, key)
    return lambda item: item.get(key)


def _row_maker(table: StagingTable) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    cells = [_cell(table.kind, c) for c in table.columns]
    # a list comprehension, not a generator: a row is made in markedly less time, and the
    # COPY waits for every row
    return lambda item: tuple([cell(item) for cell in cells])


def stage(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    attempt_id: uuid.UUID,
    rows: Mapping[str, Sequence[dict[str, Any]]],
    batch_size: int,
    progress: Progress | None = None,
) -> None:
    """Stage items (by kind) into the attempt: the session's staging tables as the database
    defines them, then a batch per transaction (a savepoint inside the caller's, when the
    connection is not in autocommit)."""
    tables = mem.open_staging(conn=conn)
    for kind, items in rows.items():
        if not items:
            continue
        table = tables[kind]
        make = _row_maker(table)
        for batch in _batches(items, batch_size):
            mem.stage_rows(tenant_id, attempt_id, {table: map(make, batch)}, conn=conn)
            if progress:
                progress.advance(len(batch))


def begin(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    simulation_id: UUIDLike,
    parsed: Parsed,
    *,
    name: str,
    skip_dangling: bool,
) -> uuid.UUID:
    """Begin the attempt on the import's session, declaring its counts and metadata."""
    return mem.begin_import(
        tenant_id,
        simulation_id,
        parsed.counts,
        skip_dangling,
        parsed.metadata,
        name,
        scope=parsed.scope,
        conn=conn,
    )


def load(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    attempt_id: uuid.UUID,
    parsed: Parsed,
    batch_size: int,
    progress: Progress,
) -> None:
    """Phase load: stage every row into the attempt, a batch per transaction."""
    progress.start("load", sum(parsed.counts.values()))
    stage(mem, conn, tenant_id, attempt_id, parsed.rows, batch_size, progress)
    progress.finish()


# -- validate and promote ---------------------------------------------------------------


def validate(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    attempt_id: uuid.UUID,
    progress: Progress,
) -> list[str]:
    """Phase validate: the ids of the dangling edges the attempt skips; ImportFailed when
    anything blocks the promote."""
    progress.start("validate", 1, "check")
    problems = mem.validate_import(tenant_id, attempt_id, conn=conn)
    progress.advance(1)
    # A row staged without a vector that no committed row matches any more changed after
    # embed() read the committed hashes: another import won the race. The promote judges
    # that under the simulation's lock and says so (ConcurrentImport, 40001: run it again).
    blocking = [p for p in problems if p.problem not in ("skipped_edge", "missing_embedding")]
    skipped = [p.item_id or "" for p in problems if p.problem == "skipped_edge"]
    progress.finish(
        f"{len(blocking)} problems, {len(skipped)} dangling edges skipped"
        if problems
        else "no problems"
    )
    if blocking:
        lines = [
            f"{p.problem}: {p.kind} {p.item_id or ''} {p.detail}".replace("  ", " ")
            for p in blocking
        ]
        shown = "\n  ".join(lines[:20]) + (
            f"\n  ... {len(lines) - 20} more" if len(lines) > 20 else ""
        )
        hint = (
            "edges refer to nodes that are not in the import; import with "
            "--skip-dangling to leave them out"
            if any(p.problem == "dangling_edge" for p in blocking)
            else None
        )
        raise ImportFailed(
            f"import refused, nothing promoted:\n  {shown}",
            blocking,
            hint=hint,
            reason=f"{len(blocking)} problems: " + "; ".join(lines[:5]),
        )
    return skipped


def promote(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    attempt_id: uuid.UUID,
    total: int,
    progress: Progress,
) -> dict[str, PromoteCounts]:
    """Phase promote: commit the attempt whole; what it did by kind."""
    progress.start("promote", total)
    results = mem.commit_import(tenant_id, attempt_id, conn=conn)
    progress.advance(total)
    progress.finish()
    return results


def _abandon(
    mem: Memory,
    conn: psycopg.Connection,
    tenant_id: UUIDLike,
    attempt_id: uuid.UUID,
    exc: Exception,
) -> StateError | None:
    """Record on the attempt why it failed; the committed state is untouched either way,
    and an attempt whose session died is reported failed by the next begin_import.
    Returns the refusal of the abort when the attempt is no longer there to abort (its
    simulation was deleted while the import ran: the database says so), else None."""
    if conn.closed or conn.broken:
        return None
    reason = exc.reason if isinstance(exc, ImportFailed) and exc.reason else str(exc)[:2000]
    try:
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            conn.rollback()
        mem.abort_import(tenant_id, attempt_id, reason, conn=conn)
    except StateError as refused:
        return refused
    except (SwarmMemoryError, psycopg.Error):
        pass  # the original error says more
    return None


# -- the whole import --------------------------------------------------------------------


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
    timezone: str | None = None,
    allow_empty: bool = False,
    embed_all_actions: bool = False,
) -> ImportReport:
    """Import a MiroFish run as one staged attempt; returns what the promote did."""
    started = time.perf_counter()
    progress = progress or Progress(quiet=True)
    run = Path(run_dir)
    parsed = parse(
        run,
        Path(graph_path) if graph_path else None,
        skip_bad_lines,
        progress,
        timezone=timezone,
        allow_empty=allow_empty,
        skip_dangling=skip_dangling,
    )
    report = ImportReport(
        other_reports=parsed.reports.other_simulations if parsed.reports else [],
        naive_times=parsed.naive_times,
        scope=parsed.scope,
        parsed=parsed.counts,
        events=len(parsed.events),
        skipped_lines=parsed.skipped_lines,
        files=parsed.files,
    )
    with Memory(dsn) as mem, mem.connect() as conn:
        # a tenant or simulation given by name, once: every call below takes the UUIDs (a new
        # simulation is given by its UUID: a name no simulation has is NotFound)
        tenant_id = mem.tenant(tenant_id, conn=conn)
        simulation_id = mem.simulation(tenant_id, simulation_id, conn=conn)
        # models (V0022): embed with the simulation's model (a new one's: the tenant's); when
        # no one names one, with the model the run's languages call for; and say when they
        # suggest another than a named one, never switching a named model by ourselves.
        mix = language_mix(t for _, _, texts in _texts(parsed) for _, t in texts)
        if embedder is None:
            named = mem.model_of(tenant_id, simulation_id, conn=conn)
            embedder = embedder_for(choose(mix) if named.named_by == "default" else named.model)
        report.model = embedder.model_name
        report.recommendation = recommend(mix, report.model)
        report.forgotten = leave_out_forgotten(mem, conn, tenant_id, simulation_id, parsed)
        try:
            report.embedded, report.reused, report.cached = embed(
                mem, conn, tenant_id, simulation_id, parsed, embedder, progress, embed_all_actions
            )
            report.embed_rate = embedder.rate
            report.attempt_id = begin(
                mem,
                conn,
                tenant_id,
                simulation_id,
                parsed,
                name=name or run.name,
                skip_dangling=skip_dangling,
            )
            load(mem, conn, tenant_id, report.attempt_id, parsed, batch_size, progress)
            report.skipped_edges = validate(mem, conn, tenant_id, report.attempt_id, progress)
            # the simulation names its vectors' model in the promote's transaction, under the
            # row lock memory.switch_model takes: an import embedded before a re-embed's switch
            # is refused (55000), never merged into the switched simulation
            with conn.transaction():
                mem.set_model(tenant_id, simulation_id, embedder.model_name, conn=conn)
                report.results = promote(
                    mem, conn, tenant_id, report.attempt_id, sum(parsed.counts.values()), progress
                )
        except (SwarmMemoryError, mirofish.BadInput) as exc:
            if report.attempt_id is not None:
                gone = _abandon(mem, conn, tenant_id, report.attempt_id, exc)
                # a call naming the simulation (set_model) finds it unknown when it was
                # deleted after the attempt began: the attempt's own answer says what happened
                if isinstance(exc, NotFound) and gone is not None:
                    raise gone from exc
            raise
    report.timings = dict(progress.timings)
    report.seconds = time.perf_counter() - started
    return report
