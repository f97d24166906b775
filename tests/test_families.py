"""The tree is the map: sql/functions/ holds the core's families (core/<family>/) apart from
the optional wings (wings/<wing>/), and the core does not know a wing exists.

A wing may call the core and, where its README says so, another wing; no core function's
body calls a wing's function. The wings attach to the core from outside it: their triggers
are created by sql/finalize/, their reads call the core's functions. Calls are found in the
function bodies as written (comments and the texts of RAISE statements left out, a table's
name after FROM / JOIN / INTO / UPDATE not taken for the function of the same name)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import SQL_FUNCTIONS, function_files, pgtap_files, without_comments

TABLES = set(
    re.findall(
        r"^CREATE (?:UNLOGGED )?TABLE memory\.(\w+)",
        (SQL_FUNCTIONS.parent / "schema.sql").read_text(encoding="utf-8"),
        re.M,
    )
)
CALL = re.compile(r"(\w*)(\s*)memory\.(\w+)\s*\(")


def family(path: Path) -> str:
    """'core/<family>' or 'wings/<wing>' of a function file."""
    part, name = path.relative_to(SQL_FUNCTIONS).parts[:2]
    return f"{part}/{name}"


def functions() -> dict[str, Path]:
    return {p.stem: p for p in function_files()}


def calls(text: str) -> set[str]:
    """The memory.<name>(...) calls of a function file's SQL."""
    text = without_comments(text)
    text = re.sub(r"\bRAISE\b.*?;", "", text, flags=re.S | re.I)
    found = set()
    for m in CALL.finditer(text):
        keyword, name = m.group(1).upper(), m.group(3)
        if name in TABLES and keyword in {"FROM", "JOIN", "INTO", "UPDATE", "TABLE", "ON"}:
            continue
        found.add(name)
    return found


def test_every_function_file_sits_in_a_family_folder():
    stray = [
        str(p.relative_to(SQL_FUNCTIONS))
        for p in function_files()
        if len(p.relative_to(SQL_FUNCTIONS).parts) != 3
        or p.relative_to(SQL_FUNCTIONS).parts[0] not in {"core", "wings"}
    ]
    assert stray == []
    # one function a file, named after it: no name twice
    names = [p.stem for p in function_files()]
    assert len(names) == len(set(names))


def test_no_core_function_calls_a_wing():
    files = functions()
    found = []
    for name, path in sorted(files.items()):
        if not family(path).startswith("core/"):
            continue
        for callee in sorted(calls(path.read_text(encoding="utf-8")) & files.keys() - {name}):
            if family(files[callee]).startswith("wings/"):
                found.append(f"{name} ({family(path)}) calls {callee} ({family(files[callee])})")
    assert found == []


def test_the_call_finder_sees_calls_and_only_calls():
    """The check above can fail: a planted call is found, a message, comment or table is not."""
    body = (
        "-- memory.recall(x) in a comment\n"
        "SELECT * FROM memory.episodes (e) JOIN memory.facts(t, s) AS f ON true;\n"
        "RAISE EXCEPTION 'see memory.history(...)' USING HINT = 'call memory.sweep()';\n"
        "v := memory._search_words(a, b);\n"
    )
    assert calls(body) == {"facts", "_search_words"}


@pytest.mark.parametrize(
    "wing", sorted(p.name for p in (SQL_FUNCTIONS / "wings").iterdir() if p.is_dir())
)
def test_every_wing_carries_its_readme(wing):
    readme = SQL_FUNCTIONS / "wings" / wing / "README.md"
    assert readme.is_file(), f"wings/{wing} has no README.md"
    text = readme.read_text(encoding="utf-8")
    for heading in ("## Contract", "## Tables", "## Numbers"):
        assert heading in text, f"wings/{wing}/README.md lacks {heading}"


def test_every_wing_test_is_run():
    """The pgTAP files of the wings are among the files tests/test_pgtap.py runs."""
    wing_tests = set(SQL_FUNCTIONS.glob("wings/*/tests/*.sql"))
    assert wing_tests and wing_tests <= set(pgtap_files())
