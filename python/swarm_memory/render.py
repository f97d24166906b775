"""Output shared by the command line and the demo: tables, the import report, the
row-level security audit, and the machine output of `--json`."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import unicodedata
import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
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
    if report.forgotten:
        print(
            "left out as forgotten (swarm-memory forget): "
            + ", ".join(f"{n} {kind}" for kind, n in sorted(report.forgotten.items()))
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


# -- machine output (--json) ---------------------------------------------------------------
#
# One rule for every command: a row stream is JSON Lines (one object a row, in the order the
# SQL function returns them), a single record is one object. Field names are the columns of
# the SQL function the command calls, in its column order (the client's row dataclasses are
# built by column name, so their fields are those columns). Values keep their type: numbers
# as numbers, booleans, null, jsonb as JSON, arrays as arrays; times and dates in ISO 8601,
# UUIDs as strings, bytea as hex. Vectors are never part of a row (`embed` prints one).


def add_json_flag(parser: argparse.ArgumentParser, *, single: bool = False) -> None:
    """The --json flag of a command that prints rows (or, `single`, one record)."""
    shape = "one JSON object" if single else "JSON Lines: one object a row"
    parser.add_argument(
        "--json", action="store_true", help=f"{shape}, fields named as the SQL function's columns"
    )


def _jsonable(value: Any) -> Any:
    """A value json.dumps does not know, as the JSON this output promises."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} has no JSON form in the machine output")


def record(row: Any, omit: Iterable[str] = ()) -> dict[str, Any]:
    """A row (a dataclass of the client, or a mapping of column to value) as the object the
    machine output prints; `omit` names columns left out (vectors)."""
    skip = set(omit)
    if dataclasses.is_dataclass(row) and not isinstance(row, type):
        items = ((f.name, getattr(row, f.name)) for f in dataclasses.fields(row))
    elif isinstance(row, Mapping):
        items = iter(row.items())
    else:
        raise TypeError(f"{type(row).__name__} is not a row")
    return {k: v for k, v in items if k not in skip}


def json_line(row: Any, omit: Iterable[str] = ()) -> str:
    """One row as one line of JSON (UTF-8 text as it is, not escaped)."""
    return json.dumps(record(row, omit), ensure_ascii=False, default=_jsonable)


def print_json_rows(rows: Iterable[Any], omit: Iterable[str] = ()) -> int:
    """A row stream as JSON Lines on stdout; returns 0, the command's exit code."""
    write = sys.stdout.write
    for row in rows:
        write(json_line(row, omit) + "\n")
    return 0


def print_json_record(row: Any, omit: Iterable[str] = ()) -> int:
    """A single record as one JSON object on stdout; returns 0."""
    sys.stdout.write(json_line(row, omit) + "\n")
    return 0
