"""Plain-text output shared by the command line and the demo: tables, the import report,
the row-level security audit."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from swarm_memory.client import AuditRow
    from swarm_memory.importer import ImportReport


def display_width(text: str) -> int:
    """Terminal columns a text takes: wide and full-width characters (CJK) take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _cut(text: str, width: int) -> str:
    """The text cut to at most `width` columns, ending in '...' when cut."""
    if display_width(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        w = display_width(ch)
        if used + w > width - 3:
            break
        out.append(ch)
        used += w
    return "".join(out) + "..."


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], width: int = 70) -> str:
    """Rows as aligned columns (by terminal width, so Chinese text lines up), each cell cut
    to `width` columns."""

    def cell(v: Any) -> str:
        text = "" if v is None else (", ".join(map(str, v)) if isinstance(v, list) else str(v))
        return _cut(" ".join(text.split()), width)

    cells = [[cell(v) for v in r] for r in rows]
    widths = [
        max([display_width(h)] + [display_width(r[i]) for r in cells])
        for i, h in enumerate(headers)
    ]
    line = "  ".join(_pad(h, w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(_pad(c, w) for c, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join(out)


def print_import_report(report: ImportReport) -> None:
    def replaced(kind: str) -> str:
        if kind not in report.scope:
            return "kept (no file)"
        platforms = report.scope[kind]
        return "replaced" if platforms is None else "replaced: " + ", ".join(platforms)

    rows = [
        (kind, replaced(kind), r.inserted, r.updated, r.unchanged, r.deleted, r.skipped)
        for kind, r in report.results.items()
    ]
    print(
        table(
            rows, ["kind", "in this run", "inserted", "updated", "unchanged", "deleted", "skipped"]
        )
    )
    print(
        f"attempt {report.attempt_id} committed; {report.events} event lines kept as "
        f"simulation metadata; {report.skipped_lines} bad lines skipped; "
        f"{report.embedded} texts embedded, {report.reused} unchanged texts reused, "
        f"{report.cached} from the vector cache; "
        f"{report.seconds:.1f} s"
    )
    if report.naive_times:
        print(f"{report.naive_times} timestamps without a zone read in the --timezone given")
    if report.other_reports:
        print(
            f"{len(report.other_reports)} reports of other MiroFish simulations left out: "
            + ", ".join(report.other_reports[:5])
        )
    if report.skipped_edges:
        print(
            f"{len(report.skipped_edges)} dangling edges left out: "
            + ", ".join(report.skipped_edges[:10])
            + (" ..." if len(report.skipped_edges) > 10 else "")
        )


def audit_table(rows: Sequence[AuditRow]) -> str:
    """The rls_audit() rows as a table a DBA reads at a glance."""
    return table(
        [
            (
                r.table_name,
                r.rls_enabled,
                r.rls_forced,
                len(r.policies),
                "ok" if r.ok else r.problem,
            )
            for r in rows
        ],
        ["table", "rls", "forced", "policies", "verdict"],
        width=90,
    )
