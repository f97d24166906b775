"""Errors a person can act on: one line with the cause and exit code 2 (a traceback only
with --debug), and an embedded server that died is started again by `db up`."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import psycopg
import pytest
from swarm_memory import server
from swarm_memory.cli import main

ROOT = Path(__file__).resolve().parents[1]
NOWHERE = "postgresql://nobody@127.0.0.1:1/nothing"
T = "00000000-0000-4000-8000-000000000001"


def test_an_unreachable_server_answers_at_once_in_one_line(capsys):
    started = time.monotonic()
    code = main(["--dsn", NOWHERE, "stats", "--tenant", T, "--simulation", T])
    err = capsys.readouterr().err
    assert code == 2
    assert time.monotonic() - started < 10  # not the pool's 30 s timeout
    assert err.count("\n") == 1 and err.startswith("error: connection failed:")
    assert "Connection refused" in err


def test_a_missing_run_directory_is_one_line_and_debug_shows_the_traceback(capsys, tmp_path):
    args = ["--dsn", NOWHERE, "import", str(tmp_path / "nope"), "--tenant", T, "--simulation", T]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope" in err and "Traceback" not in err
    with pytest.raises(ValueError, match="nope"):
        main(["--debug", *args])


def test_an_unknown_time_zone_is_refused_before_anything(capsys):
    args = [
        "--dsn",
        NOWHERE,
        "import",
        str(ROOT / "examples" / "mirofish_run"),
        "--tenant",
        T,
        "--simulation",
        T,
        "--timezone",
        "Mars/Olympus",
    ]
    assert main(args) == 2
    assert "unknown time zone 'Mars/Olympus'" in capsys.readouterr().err


def test_user_drops_the_password_of_the_dsns_role():
    dsn = server.as_role("postgresql://dba:secret@db.internal:5432/app", "gateway")
    info = psycopg.conninfo.conninfo_to_dict(dsn)
    assert info["user"] == "gateway" and "password" not in info
    same = psycopg.conninfo.conninfo_to_dict(server.as_role("postgresql://dba:s@h/app", "dba"))
    assert same["password"] == "s"


def test_db_up_starts_a_server_whose_postmaster_was_killed():
    datadir = ROOT / ".cache" / "pgdata-killed"
    server.stop(datadir)
    first = server.start(datadir)
    try:
        pid = int((datadir / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # its backends notice and exit
            try:
                psycopg.connect(first, connect_timeout=1).close()
            except psycopg.OperationalError:
                break
            time.sleep(0.2)
        assert (datadir / "postmaster.pid").exists()  # left behind by the dead postmaster
        again = server.start(datadir)
        with psycopg.connect(again, connect_timeout=5) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.stop(datadir)


def test_the_synopsis_names_every_command_and_flag():
    import argparse

    from swarm_memory.cli import build_parser

    page = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    synopsis = page.split("## Command line", 1)[1].split("```", 2)[1]
    parser = build_parser()
    missing = []
    for action in parser._actions:
        missing += [
            o
            for o in action.option_strings
            if o.startswith("--") and o != "--help" and o not in synopsis
        ]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        if f"  {name}" not in synopsis:
            missing.append(name)
        nested = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        for p in [command, *(c for n in nested for c in n.choices.values())]:
            missing += [
                f"{name} {o}"
                for a in p._actions
                for o in a.option_strings
                if o.startswith("--") and o != "--help" and o not in synopsis
            ]
    assert missing == [], f"docs/python.md's command synopsis lacks {missing}"


def test_tables_keep_chinese_text_aligned():
    from swarm_memory.render import display_width, table

    out = table([("李华", "河滨路应该禁止汽车"), ("Maya", "shops")], ["agent", "content"], width=12)
    lines = out.splitlines()
    # The second column starts at the same terminal column on every line.
    firsts = ("content", "-----------", "河滨路应...", "shops")
    starts = [
        display_width(line[: line.index(first)]) for line, first in zip(lines, firsts, strict=True)
    ]
    assert starts == [7, 7, 7, 7], out  # cut at 12 columns: 4 wide characters and '...'
