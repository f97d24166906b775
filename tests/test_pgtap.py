"""Run every pgTAP file (sql/tests/, and each wing's sql/functions/wings/*/tests/) with psql against a fresh migrated database.

Each file is one test: psql must exit 0, the TAP output must carry a plan `1..N`, exactly N
`ok` lines and no `not ok` line. On failure the assertion message holds psql's whole output.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import psycopg
import pytest
from helpers import pgtap_files
from swarm_memory import server

ROOT = Path(__file__).resolve().parents[1]
PGTAP_FILES = pgtap_files()

PLAN = re.compile(r"^1\.\.(\d+)$")
OK = re.compile(r"^ok \d+")
NOT_OK = re.compile(r"^not ok \d+")


def run_pgtap(conn: psycopg.Connection, path: Path) -> tuple[int, str, str]:
    """Run one pgTAP file with psql as postgres on conn's database.

    Returns psql's exit code, its stdout (the TAP stream) and a report of the whole run.
    """
    psql = server.bin_dir() / "psql"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    cmd = [
        str(psql),
        "-X",
        "-q",
        "--no-align",
        "--tuples-only",
        "-v",
        "ON_ERROR_STOP=1",
        "-h",
        conn.info.host,
        "-p",
        str(conn.info.port),
        "-U",
        "postgres",
        "-d",
        conn.info.dbname,
        "-f",
        str(path),
    ]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    report = f"$ {' '.join(cmd)}\n--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
    return proc.returncode, proc.stdout, report


def check_tap(returncode: int, tap: str) -> list[str]:
    """The problems of one psql run of a pgTAP file (empty when it passed)."""
    lines = tap.splitlines()
    plans = [int(m.group(1)) for m in map(PLAN.match, lines) if m]
    oks = [line for line in lines if OK.match(line)]
    not_oks = [line for line in lines if NOT_OK.match(line)]
    problems = []
    if returncode != 0:
        problems.append(f"psql exited with {returncode}")
    if len(plans) != 1:
        problems.append(f"expected one plan line 1..N, found {len(plans)}")
    elif len(oks) != plans[0]:
        problems.append(f"plan 1..{plans[0]} but {len(oks)} ok lines")
    if not_oks:
        problems.append(f"{len(not_oks)} failed: " + "; ".join(not_oks))
    return problems


def test_check_tap_rejects_failures() -> None:
    """The parser itself: a failing, short or planless run is never a pass."""
    good = "1..2\nok 1 - a\nok 2 - b\n"
    assert check_tap(0, good) == []
    assert check_tap(3, good)
    assert check_tap(0, "1..2\nok 1 - a\nnot ok 2 - b\n")
    assert check_tap(0, "1..3\nok 1 - a\nok 2 - b\n")
    assert check_tap(0, "ok 1 - a\n")
    assert check_tap(0, "1..1\nok 1 - a\n1..1\n")


@pytest.mark.parametrize("path", PGTAP_FILES, ids=[p.name for p in PGTAP_FILES])
def test_pgtap_file(postgresql: psycopg.Connection, path: Path) -> None:
    returncode, tap, report = run_pgtap(postgresql, path)
    problems = check_tap(returncode, tap)
    assert not problems, f"{path.name}: " + ", ".join(problems) + "\n" + report
