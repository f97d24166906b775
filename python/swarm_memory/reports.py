"""MiroFish's reports and the predictions made from them: read, chunked, written back.

MiroFish's ReportAgent (backend/app/services/report_agent.py, ReportManager) writes, per
report, `reports/<report_id>/`:

    meta.json          {report_id, simulation_id, graph_id, simulation_requirement, status,
                        outline: {title, summary, sections: [{title, content}]},
                        markdown_content, created_at, completed_at, error}
    outline.json       {title, summary, sections: [{title, content}]}
    progress.json      {status, progress, message, current_section, completed_sections, updated_at}
    section_NN.md      one section ("## {title}\\n\\n{content}\\n\\n"), NN from 01
    full_report.md     the sections assembled under "# {title}" and "> {summary}"
    agent_log.jsonl    {timestamp, elapsed_seconds, report_id, action, stage, section_title,
                        section_index, details} a line
    console_log.txt    plain console output (not imported)

MiroFish writes no predictions file. swarm-memory reads one beside them,
`reports/<report_id>/predictions.json`: a JSON list (or {"predictions": [...]}) of
{id, claim, horizon, confidence, section_index, ...}; claim is required, confidence a number
from 0 to 1, id defaults to "<report_id>:p<n>" (n from 1, the place in the list), other
keys are kept as the prediction's metadata. An "outcome" key (what an export writes) is not
imported: outcomes are recorded with memory.record_outcome and no import touches them.

Sections are cut into chunks for search: by paragraph (blank lines), paragraphs joined up to
CHUNK_TOKENS estimated tokens, a longer paragraph cut at sentence ends (CJK and Latin) and,
failing those, by length. The estimate counts a CJK character as one token (BERT's
tokenizer splits Chinese per character) and four other characters as one, so a Chinese
chunk holds about 200 characters and an English one about 800: both well inside the
model's 256 word pieces.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from swarm_memory import mirofish

__all__ = [
    "CHUNK_TOKENS",
    "KINDS",
    "Reports",
    "chunk_text",
    "export_files",
    "read_reports",
    "section_title",
]

# The record kinds of a report, in the order their rows are staged.
KINDS = ("reports", "report_sections", "report_chunks", "report_log", "predictions")
CHUNK_TOKENS = 200
SECTION_FILE = re.compile(r"^section_(\d+)\.md$")
_CJK = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
)
# CJK text and punctuation: no space between its sentences.
_WIDE = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
# A sentence ends at CJK 。！？； (no space follows) or at . ! ? followed by a space.
_SENTENCE = re.compile(r"(?<=[。！？；])|(?<=[.!?])\s+")
PREDICTION_FIELDS = ("id", "claim", "horizon", "confidence", "section_index", "report_id")


@dataclass
class Reports:
    """The rows of the reports/ folder of a run, by record kind."""

    reports: list[dict[str, Any]] = field(default_factory=list)
    report_sections: list[dict[str, Any]] = field(default_factory=list)
    report_chunks: list[dict[str, Any]] = field(default_factory=list)
    report_log: list[dict[str, Any]] = field(default_factory=list)
    predictions: list[dict[str, Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    other_simulations: list[str] = field(default_factory=list)
    skipped_lines: int = 0

    @property
    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return {kind: getattr(self, kind) for kind in KINDS}


# -- chunking --------------------------------------------------------------------------


def tokens(text: str) -> float:
    """The estimated word pieces of a text: a CJK character one, four others one."""
    cjk = len(_CJK.findall(text))
    return cjk + (len(text) - cjk) / 4


def _pieces(paragraph: str, limit: float) -> list[str]:
    """A paragraph cut to fit `limit`: at sentence ends, then by length."""
    if tokens(paragraph) <= limit:
        return [paragraph]
    out: list[str] = []
    current = ""
    for sentence in (s for s in _SENTENCE.split(paragraph) if s):
        while tokens(sentence) > limit:  # one sentence too long: cut by length
            cut = max(1, int(len(sentence) * limit / tokens(sentence)))
            if current:
                out.append(current)
                current = ""
            out.append(sentence[:cut])
            sentence = sentence[cut:]
        joined = (
            f"{current} {sentence}"
            if current and not _WIDE.match(current[-1])
            else current + sentence
        )
        if current and tokens(joined) > limit:
            out.append(current)
            current = sentence
        else:
            current = joined
    if current:
        out.append(current)
    return [p.strip() for p in out if p.strip()]


def chunk_text(text: str, limit: float = CHUNK_TOKENS) -> list[str]:
    """A section's text cut into chunks of whole paragraphs (blank-line separated) of at
    most `limit` estimated tokens each; a paragraph over it is cut at sentence ends."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    chunks: list[str] = []
    current = ""
    for paragraph in paragraphs:
        for piece in _pieces(paragraph, limit):
            if current and tokens(current) + tokens(piece) > limit:
                chunks.append(current)
                current = piece
            else:
                current = f"{current}\n\n{piece}" if current else piece
    if current:
        chunks.append(current)
    return chunks


def section_title(markdown: str) -> tuple[str | None, str]:
    """The title of a section file ("## title" on its first line) and the text after it."""
    lines = markdown.lstrip("\ufeff").split("\n", 1)
    match = re.match(r"^#{1,6}\s+(.+?)\s*#*\s*$", lines[0])
    if match:
        return match.group(1).strip(), lines[1] if len(lines) > 1 else ""
    return None, markdown


# -- reading ---------------------------------------------------------------------------


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise mirofish.BadInput(
            f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    except UnicodeDecodeError as exc:
        raise mirofish.BadInput(f"{path}: not UTF-8 text ({exc.reason})") from exc


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise mirofish.BadInput(f"{path}: not UTF-8 text ({exc.reason})") from exc


def _confidence(path: Path, index: int, value: Any) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise mirofish.BadInput(
            f"{path}: prediction [{index}]: confidence must be a number from 0 to 1, not {value!r}"
        )
    return Decimal(str(value))


def _predictions(
    path: Path, report_id: str, sections: set[int], seen: dict[str, str]
) -> list[dict[str, Any]]:
    data = _json(path)
    if isinstance(data, dict) and isinstance(data.get("predictions"), list):
        data = data["predictions"]
    if not isinstance(data, list):
        raise mirofish.BadInput(f"{path}: expected a JSON list of predictions")
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(data):
        if not isinstance(raw, dict):
            raise mirofish.BadInput(f"{path}: prediction [{i}] is not a JSON object")
        claim = raw.get("claim")
        if not isinstance(claim, str) or not claim.strip():
            raise mirofish.BadInput(f"{path}: prediction [{i}] has no claim")
        pid = raw.get("id")
        pid = f"{report_id}:p{i + 1}" if pid in (None, "") else str(pid)
        if pid in seen:
            raise mirofish.BadInput(
                f"{path}: prediction [{i}]: id {pid!r} appears twice (also in {seen[pid]})"
            )
        seen[pid] = f"{path} [{i}]"
        section = raw.get("section_index")
        if section is not None and (
            isinstance(section, bool) or not isinstance(section, int) or section not in sections
        ):
            raise mirofish.BadInput(
                f"{path}: prediction [{i}]: section_index {section!r} is not a section of the "
                f"report ({', '.join(map(str, sorted(sections))) or 'none'})"
            )
        horizon = raw.get("horizon")
        out.append(
            {
                "id": pid,
                "report_id": report_id,
                "section_index": section,
                "claim": claim,
                "horizon": None if horizon is None else str(horizon),
                "confidence": _confidence(path, i, raw.get("confidence")),
                "metadata": {
                    k: v for k, v in raw.items() if k not in PREDICTION_FIELDS and k != "outcome"
                },
            }
        )
    return out


def read_report(
    folder: Path,
    clock: mirofish.Clock,
    out: Reports,
    seen: dict[str, str],
    skip_bad_lines: bool,
) -> None:
    """Add one report folder's rows to `out`."""
    meta_path = folder / "meta.json"
    if not meta_path.exists():
        raise mirofish.BadInput(
            f"{folder}: a MiroFish report folder has a meta.json; this one has none"
        )
    meta = _json(meta_path)
    if not isinstance(meta, dict):
        raise mirofish.BadInput(f"{meta_path}: expected a JSON object")
    report_id = str(meta.get("report_id") or folder.name)
    if report_id != folder.name:
        raise mirofish.BadInput(
            f"{meta_path}: report_id {report_id!r} is not its folder's name {folder.name!r}"
        )
    if not meta.get("status"):
        raise mirofish.BadInput(f"{meta_path}: has no status")
    out.files.append(str(meta_path))
    metadata: dict[str, Any] = {"meta": meta}
    outline = meta.get("outline") if isinstance(meta.get("outline"), dict) else None
    for name in ("outline", "progress"):
        path = folder / f"{name}.json"
        if path.exists():
            metadata[name] = _json(path)
            out.files.append(str(path))
    if isinstance(metadata.get("outline"), dict):
        outline = metadata["outline"]
    outline = outline or {}
    full = folder / "full_report.md"
    if full.exists():
        text = _text(full)
        if text != meta.get("markdown_content"):
            metadata["full_report"] = text
        out.files.append(str(full))

    def when(key: str) -> str | None:
        # MiroFish's naive local time, read in the import's zone; text that is no
        # timestamp is refused when staged, naming the report
        return clock.iso(meta.get(key))

    out.reports.append(
        {
            "id": report_id,
            "mirofish_simulation_id": meta.get("simulation_id"),
            "graph_id": meta.get("graph_id"),
            "simulation_requirement": meta.get("simulation_requirement"),
            "title": outline.get("title"),
            "summary": outline.get("summary"),
            "status": str(meta["status"]),
            "started_at": when("created_at"),
            "completed_at": when("completed_at"),
            "error": meta.get("error"),
            "metadata": metadata,
        }
    )
    outline_sections = [s for s in outline.get("sections") or [] if isinstance(s, dict)]
    indexes: set[int] = set()
    for path in sorted(folder.iterdir()):
        match = SECTION_FILE.match(path.name)
        if not match:
            continue
        index = int(match.group(1))
        if index < 1 or index in indexes:
            raise mirofish.BadInput(f"{path}: section number {index} is not a new number from 1")
        indexes.add(index)
        markdown = _text(path)
        title, body = section_title(markdown)
        if title is None:
            title = (
                str(outline_sections[index - 1].get("title"))
                if index <= len(outline_sections)
                else f"Section {index}"
            )
        out.files.append(str(path))
        out.report_sections.append(
            {"report_id": report_id, "section_index": index, "title": title, "markdown": markdown}
        )
        for n, chunk in enumerate(chunk_text(body)):
            out.report_chunks.append(
                {
                    "id": f"{report_id}/{index}/{n}",
                    "report_id": report_id,
                    "section_index": index,
                    "chunk_index": n,
                    "content": chunk,
                    "embed_text": f"{title}\n{chunk}",
                }
            )
    log = folder / "agent_log.jsonl"
    if log.exists():
        skipped: list[int] = []
        for number, line in mirofish.iter_lines(log, skip_bad_lines, skipped):
            out.report_log.append(
                {
                    "report_id": report_id,
                    "line_no": number,
                    "action": None if line.get("action") is None else str(line.get("action")),
                    "entry": line,
                }
            )
        out.skipped_lines += len(skipped)
        out.files.append(str(log))
    predictions = folder / "predictions.json"
    if predictions.exists():
        out.predictions += _predictions(predictions, report_id, indexes, seen)
        out.files.append(str(predictions))


def read_reports(
    run_dir: str | Path,
    clock: mirofish.Clock | None = None,
    *,
    simulation_id: str | None = None,
    skip_bad_lines: bool = False,
    allow_empty: bool = False,
) -> Reports | None:
    """The reports of a run's reports/ folder (None when the run has none). With
    `simulation_id` (the run's MiroFish id), a report of another simulation is left out
    and named in `other_simulations`: MiroFish keeps every simulation's reports in one
    folder. A reports/ folder with no report of the run is refused unless allow_empty
    (imported, it would remove the simulation's reports)."""
    root = Path(run_dir) / "reports"
    if not root.is_dir():
        return None
    clock = clock or mirofish.Clock()
    out = Reports()
    seen: dict[str, str] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        meta = folder / "meta.json"
        if simulation_id and meta.exists():
            data = _json(meta)
            other = data.get("simulation_id") if isinstance(data, dict) else None
            if other and other != simulation_id:
                out.other_simulations.append(folder.name)
                continue
        read_report(folder, clock, out, seen, skip_bad_lines)
    if not out.reports and not allow_empty:
        raise mirofish.BadInput(
            f"{root}: no report folder (reports/<report_id>/meta.json)"
            + (f" of simulation {simulation_id}" if simulation_id else "")
            + "; importing it would remove the simulation's reports: pass --allow-empty to mean that"
        )
    for items in out.rows.values():
        for i, item in enumerate(items):
            item["position"] = i
    return out


# -- writing back (swarm-memory export) --------------------------------------------------


def _dump(obj: Any, indent: int | None = 2) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=indent)


def export_files(mem: Any, tenant: Any, sim: Any, conn: Any) -> dict[str, str]:
    """The files of the simulation's imported reports in MiroFish's layout, by path under
    the run directory (reports/<report_id>/...). Predictions go into the predictions.json
    of their report, each with its recorded outcome under "outcome" (not imported back).
    Reports and predictions written outside imports are left out (no import removes them)."""
    files: dict[str, str] = {}
    predictions = [
        p for p in mem.predictions(tenant, sim, conn=conn) if p.source == "import" and p.report_id
    ]
    for report in mem.reports(tenant, sim, conn=conn):
        if report.source != "import":
            continue
        folder = f"reports/{report.report_id}"
        meta = report.metadata.get("meta") or {
            "report_id": report.report_id,
            "simulation_id": report.mirofish_simulation_id,
            "graph_id": report.graph_id,
            "simulation_requirement": report.simulation_requirement,
            "status": report.status,
            "created_at": report.started_at.isoformat() if report.started_at else "",
            "completed_at": report.completed_at.isoformat() if report.completed_at else "",
            "error": report.error,
        }
        files[f"{folder}/meta.json"] = _dump(meta)
        for name in ("outline", "progress"):
            if name in report.metadata:
                files[f"{folder}/{name}.json"] = _dump(report.metadata[name])
        full = report.metadata.get("full_report", meta.get("markdown_content"))
        if full:
            files[f"{folder}/full_report.md"] = full
        for section in mem.report_sections(tenant, sim, report.report_id, conn=conn):
            files[f"{folder}/section_{section.section_index:02d}.md"] = section.markdown
        lines: list[str] = []
        after: int | None = None
        while True:
            page = mem.report_log(tenant, sim, report.report_id, limit=1000, after=after, conn=conn)
            lines += [json.dumps(row.entry, ensure_ascii=False) + "\n" for row in page]
            if len(page) < 1000:
                break
            after = page[-1].line_no
        if lines:
            files[f"{folder}/agent_log.jsonl"] = "".join(lines)
        mine = [p for p in predictions if p.report_id == report.report_id]
        if mine:
            items = []
            for p in mine:
                item: dict[str, Any] = {
                    "id": p.prediction_id,
                    "claim": p.claim,
                    "horizon": p.horizon,
                    "confidence": None if p.confidence is None else float(p.confidence),
                    "section_index": p.section_index,
                    **(p.metadata or {}),
                }
                if p.outcome is not None:
                    item["outcome"] = {
                        "outcome": p.outcome,
                        "note": p.note,
                        "observed_at": p.observed_at.isoformat() if p.observed_at else None,
                        "recorded_at": p.recorded_at.isoformat() if p.recorded_at else None,
                        "recorded_by": p.recorded_by,
                    }
                items.append(item)
            files[f"{folder}/predictions.json"] = _dump(items)
    return files
