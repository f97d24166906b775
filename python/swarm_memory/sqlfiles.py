"""The project's SQL files: where they are, and how a file splits into its statements.

Shared by the deploy (swarm_memory.migrate), the Citus distribution (swarm_memory.distribute)
and the function manifest (swarm_memory.audit), none of which needs the others for it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["PROJECT_ROOT", "split_statements"]

# The folder holding pgmigrate.yml and sql/: the checkout, or SWARM_MEMORY_HOME for an
# installed package run elsewhere.
PROJECT_ROOT = Path(
    os.environ.get("SWARM_MEMORY_HOME", Path(__file__).resolve().parents[2])
).resolve()


def _word_char(text: str, i: int) -> bool:
    return i >= 0 and (text[i].isalnum() or text[i] in "_$")


def split_statements(text: str) -> list[str]:
    """The SQL statements of a file, one by one: split at each ';' outside comments, quoted
    strings and dollar-quoted bodies (Citus sends a DDL command it propagates to the workers
    as the whole query string, which may then hold one command only)."""
    out, start, i, n = [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("--", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 2
        elif c == "'" and i > 0 and text[i - 1] in "eE" and not _word_char(text, i - 2):
            i += 1  # an E'' string: a backslash escapes the next character
            while i < n and text[i] != "'":
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif c in "'\"":
            i = text.find(c, i + 1)
            i = n if i < 0 else i + 1
        elif c == "$" and (m := re.match(r"\$(?:[A-Za-z_][A-Za-z_0-9]*)?\$", text[i:])):
            i = text.find(m.group(0), i + len(m.group(0)))
            i = n if i < 0 else i + len(m.group(0))
        elif c == ";":
            out.append(text[start : i + 1])
            start = i = i + 1
        else:
            i += 1
    out.append(text[start:])
    return [
        stmt.strip()
        for stmt in out
        if any(line.strip() and not line.lstrip().startswith("--") for line in stmt.splitlines())
    ]
