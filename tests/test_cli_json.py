"""The command line's machine output, closed pipes, what it imports, and the embedded server
it starts: --json of every read command parses line by line with keys that are the SQL
function's columns (read from the catalog, not from the client), a reader that leaves ends a
command quietly, `--help` and a command without a model import no model, numpy or web stack,
and a server that cannot serve says so at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from swarm_memory import server
from swarm_memory.cli import EXIT_CLOSED_PIPE, main

from tests.test_mirofish import EXAMPLE

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), str(ROOT)])}
HEAVY = ("torch", "sentence_transformers", "numpy", "uvicorn", "starlette", "zep_cloud")


def columns(conn: psycopg.Connection, function: str) -> set[tuple[str, ...]]:
    """The output columns of memory.<function> (each overload's), from pg_proc."""
    rows = conn.execute(
        """
        SELECT array(SELECT n FROM unnest(p.proargnames, p.proargmodes) AS a(n, m)
                     WHERE m IN ('o', 't'))
          FROM pg_proc p JOIN pg_namespace s ON s.oid = p.pronamespace
         WHERE s.nspname = 'memory' AND p.proname = %s
        """,
        (function,),
    ).fetchall()
    assert rows, f"no function memory.{function}"
    return {tuple(r[0]) for r in rows}


def run_json(capsys, *argv: str) -> tuple[int, list[dict]]:
    code = main([*argv, "--json"])
    out = capsys.readouterr()
    assert "Traceback" not in out.err, out.err
    return code, [json.loads(line) for line in out.out.splitlines()]


def test_every_read_command_prints_json_named_by_the_sql_columns(world, capsys, connect):
    app_a, admin = world.dsn("app_a"), world.dsn("admin")
    where = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    code = main(["--dsn", app_a, "import", str(EXAMPLE), *where, "--quiet"])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    # the ends of a current fact, for paths; a node for history and timeline; an edge
    _, facts = run_json(capsys, "--dsn", app_a, "facts", *where, "--limit", "1")
    fact = facts[0]
    owner = world.dsn()  # a key's role is made by a role with CREATEROLE
    assert main(["--dsn", owner, "key", "create", "--tenant", str(world.tenant_a)]) == 0
    said = capsys.readouterr().out
    key_id = said.split("\nkey ")[1].split()[0]
    key_role = said.split("requests run as role ")[1].split()[0]

    # (argv, dsn, SQL function, one record rather than rows)
    commands = [
        (["nodes", *where], app_a, "nodes_by_type", False),
        (["neighbors", fact["source_id"], *where, "--depth", "2"], app_a, "neighbors", False),
        (["facts", *where, "--state", "all"], app_a, "facts", False),
        (["paths", fact["source_id"], fact["target_id"], *where], app_a, "paths", False),
        (["profiles", *where], app_a, "profiles", False),
        (["episodes", *where, "--limit", "5"], app_a, "episodes", False),
        (["stats", *where], app_a, "simulation_stats", True),
        (["warm", *where], app_a, "warm", False),
        (["history", "node", fact["source_id"], *where], app_a, "history", False),
        (["evidence", fact["edge_id"], *where], app_a, "evidence", False),
        (["timeline", fact["source_id"], *where], app_a, "timeline", False),
        (["recall", "Will closing the road hurt the shops?", *where], app_a, "recall", False),
        (["route", "who opposes the plan?"], app_a, "route", True),
        (["words", "shops", *where], app_a, "search_words", False),
        (["search", "who worries about shops?", *where], app_a, "search_episodes", False),
        (["search-reports", "footfall", *where], app_a, "search_reports", False),
        (["reports", *where], app_a, "reports", False),
        (["predictions", *where], app_a, "predictions", False),
        (["outcome", "p1", "partial", *where], app_a, "record_outcome", True),
        (["changes", "--tenant", str(world.tenant_a)], app_a, "changes_since", False),
        (["health", "--tenant", str(world.tenant_a)], app_a, "health", False),
        (["tenants"], app_a, "list_tenants", False),
        (["simulations", "--tenant", str(world.tenant_a)], app_a, "list_simulations", False),
        (["attempts", *where], app_a, "import_attempts", False),
        (["models"], app_a, "list_models", False),
        (["models", *where], app_a, "model_of", True),
        (["quota", "list", "--tenant", str(world.tenant_a)], admin, "quotas", False),
        (["audit"], admin, "rls_audit", False),
        (["key", "list", "--tenant", str(world.tenant_a)], owner, "api_keys", False),
    ]
    conn = connect()
    for argv, dsn, function, single in commands:
        code, rows = run_json(capsys, "--dsn", dsn, *argv)
        assert code == 0, (argv, rows)
        assert rows, f"{argv[0]} printed no row"
        if single:
            assert len(rows) == 1, argv
        expected = columns(conn, function)
        for row in rows:
            assert tuple(row) in expected, (argv[0], tuple(row), expected)

    # typed values: numbers are numbers, times ISO 8601, UUIDs strings, jsonb as JSON
    _, [stats] = run_json(capsys, "--dsn", app_a, "stats", *where)
    assert stats["simulation_id"] == str(world.sim_a) and stats["episodes"] == 339
    assert isinstance(stats["node_types"], dict) and stats["last_at"][:2] == "20"
    _, predictions = run_json(capsys, "--dsn", app_a, "predictions", *where)
    assert all(isinstance(p["confidence"], float) for p in predictions)
    _, episodes = run_json(capsys, "--dsn", app_a, "episodes", *where, "--limit", "2")
    assert len(episodes) == 2  # no "next page" line among the rows
    # a report's sections, by the columns of report_sections
    _, reports = run_json(capsys, "--dsn", app_a, "reports", *where)
    code, sections = run_json(
        capsys, "--dsn", app_a, "reports", *where, "--report", reports[0]["report_id"]
    )
    assert code == 0 and sections
    assert {tuple(s) for s in sections} <= columns(conn, "report_sections")
    # sweep (memory_admin) prints rows of sweep, if any
    code, swept = run_json(capsys, "--dsn", admin, "sweep", "--tenant", str(world.tenant_a))
    assert code == 0 and all(tuple(r) in columns(conn, "sweep") for r in swept)

    assert main(["--dsn", owner, "key", "revoke", "--tenant", str(world.tenant_a), key_id]) == 0
    capsys.readouterr()
    assert not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (key_role,)).fetchone()


def test_a_closed_pipe_ends_a_command_quietly(world, capsys, tmp_path):
    app_a = world.dsn("app_a")
    where = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    assert main(["--dsn", app_a, "import", str(EXAMPLE), *where, "--quiet"]) == 0
    capsys.readouterr()
    argv = [sys.executable, "-m", "swarm_memory.cli", "--dsn", app_a, "episodes", *where]
    # a reader that is gone before the first write: EPIPE on every write
    proc = subprocess.Popen(
        [*argv, "--json", "--limit", "1000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == EXIT_CLOSED_PIPE
    assert err == ""
    # `| head -1`, as a person types it, with the table and with --json
    for extra in ([], ["--json"]):
        shell = subprocess.run(
            ["bash", "-c", 'set -o pipefail; "$@" 2>err.txt | head -1', "-", *argv, *extra],
            capture_output=True,
            text=True,
            env=ENV,
            cwd=tmp_path,
            timeout=60,
        )
        err = (tmp_path / "err.txt").read_text()
        assert err == "", err  # no traceback, no "Broken pipe"
        assert shell.returncode in (0, EXIT_CLOSED_PIPE)  # 0: all of it fit in the pipe
        assert len(shell.stdout.splitlines()) == 1
        if extra:
            json.loads(shell.stdout)


def _imported_after(code: str, modules: tuple[str, ...] = HEAVY) -> list[str]:
    script = (
        "import json, sys\n"
        f"{code}\n"
        f"print(json.dumps(sorted(m for m in {modules!r} if m in sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=ENV, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_help_and_a_command_without_a_model_import_no_heavy_module(world):
    help_ = "from swarm_memory import cli\ntry:\n    cli.main(['tenants', '--help'])\nexcept SystemExit:\n    pass"
    assert _imported_after(help_) == []
    # help connects to nothing: not even the driver is loaded (building the parser runs the
    # commands' decorators, whose imports belong inside what they wrap)
    for argv in (["--help"], ["import", "--help"], ["tenants", "--help"]):
        code = f"from swarm_memory import cli\ntry:\n    cli.main({argv!r})\nexcept SystemExit:\n    pass"
        assert _imported_after(code, ("psycopg", "swarm_memory.errors")) == [], argv
    assert _imported_after("import swarm_memory.cli, swarm_memory.commands.service") == []
    tenants = f"from swarm_memory import cli\nassert cli.main(['--dsn', {world.dsn('app_a')!r}, 'tenants']) == 0"
    assert _imported_after(tenants) == []
    # the test can fail: a command that embeds brings the model in
    words = (
        "from swarm_memory import cli\n"
        f"cli.main(['--dsn', {world.dsn('app_a')!r}, 'search', 'x', '--tenant', "
        f"'{world.tenant_a}', '--simulation', '{world.sim_a}'])"
    )
    assert "torch" in _imported_after(words)


def test_a_model_loading_is_said_on_stderr_once(world, capsys):
    import swarm_memory.embed as embed

    where = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    loaded = embed.model_loaded()
    for _ in range(2):
        assert main(["--dsn", world.dsn("app_a"), "search", "shops", *where]) == 0
    err = capsys.readouterr().err
    expected = 0 if loaded else 1  # a model loads once a process
    assert err.count(f"loading model {embed.MODEL_NAME} ...") == expected, err


# -- the embedded server a command starts ------------------------------------------------------


@pytest.fixture
def datadir():
    path = ROOT / ".cache" / "pgdata-cli-json"
    server.stop(path)
    yield path
    server.stop(path)
    hba = path / "pg_hba.conf"
    if hba.exists():  # as initdb left it
        hba.write_text(hba.read_text().replace("scram-sha-256", "trust"))
    conf = path / "postgresql.conf"
    if conf.exists():
        conf.write_text(conf.read_text().replace("no_such_setting = 1\n", ""))


def test_a_command_says_when_it_starts_the_embedded_server(datadir, capsys):
    assert main(["--datadir", str(datadir), "db", "up"]) == 0
    assert f"the embedded PostgreSQL at {datadir} ..." in capsys.readouterr().err
    assert main(["--datadir", str(datadir), "db", "up"]) == 0  # running: nothing said
    assert capsys.readouterr().err == ""


def test_a_server_asking_for_a_password_fails_at_once_naming_db_up(datadir, capsys, monkeypatch):
    monkeypatch.delenv("PGPASSWORD", raising=False)
    dsn = server.start(datadir)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("ALTER ROLE postgres PASSWORD 'not-given'")
    hba = datadir / "pg_hba.conf"
    hba.write_text(hba.read_text().replace("trust", "scram-sha-256"))
    server.stop(datadir)
    for _ in range(2):  # stopped, then running
        started = time.monotonic()
        code = main(["--datadir", str(datadir), "tenants"])
        said = capsys.readouterr().err
        err = said.splitlines()
        assert code == 2 and time.monotonic() - started < 10
        assert len([e for e in err if e.startswith("error")]) == 1 and "Traceback" not in said
        assert f"`swarm-memory --datadir {datadir} db up`" in err[-1]
        assert "password" in err[-1]
    with psycopg.connect(dsn, password="not-given", autocommit=True) as conn:
        conn.execute("ALTER ROLE postgres PASSWORD NULL")


def test_a_server_that_does_not_start_fails_at_once_naming_db_up(datadir, capsys):
    server.start(datadir)
    server.stop(datadir)
    conf = datadir / "postgresql.conf"
    conf.write_text(conf.read_text() + "no_such_setting = 1\n")
    capsys.readouterr()
    started = time.monotonic()
    code = main(["--datadir", str(datadir), "tenants"])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and time.monotonic() - started < 20
    assert err[0].startswith("starting the embedded PostgreSQL")
    assert len(err) == 2 and "no_such_setting" in err[1]
    assert f"`swarm-memory --datadir {datadir} db up`" in err[1]
