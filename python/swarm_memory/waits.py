"""Waiting for another backend, and saying whom: a long command that meets another one at
work on the same thing (a killed `reembed` whose switch still runs on the server, a killed
`index` whose build still runs) waits for it up to a bound, says on stderr what it waits
for, and at the bound gives up naming that backend and what to do.

A client killed mid-statement leaves its statement running on the server until it ends:
the server notices the client has gone only when it next writes to it. So the backend
named is the one to wait for, or to end with pg_terminate_backend.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import psycopg

# How often a wait looks at who holds it up.
POLL_SECONDS = 0.2


@dataclass(frozen=True)
class Backend:
    """A server process seen in pg_stat_activity (its query and times are NULL there for a
    role without the privileges of its session's role)."""

    pid: int
    query: str | None
    seconds: float | None  # since its transaction (else its statement) began

    def describe(self) -> str:
        what = " ".join((self.query or "").split())
        if not what or what == "<insufficient privilege>":
            what = "a statement of another role"
        elif len(what) > 120:
            what = what[:117] + "..."
        since = f", for {self.seconds:.0f} s" if self.seconds is not None else ""
        return f"backend {self.pid} (running {what}{since})"


def describe(backends: Sequence[Backend]) -> str:
    return ", ".join(b.describe() for b in backends)


def terminate_hint(backends: Sequence[Backend]) -> str:
    pids = ", ".join(str(b.pid) for b in backends)
    return f"SELECT pg_terminate_backend(pid) FROM unnest(ARRAY[{pids}]) AS pid"


_ACTIVITY = (
    "SELECT a.pid, a.query,"
    " extract(epoch FROM clock_timestamp() - coalesce(a.xact_start, a.query_start))::float8"
    " FROM pg_stat_activity AS a WHERE a.pid = ANY (%s) ORDER BY a.pid"
)


def backends(conn: psycopg.Connection, pids: Sequence[int]) -> list[Backend]:
    """The backends of `pids` still there (on an autocommit connection: read afresh)."""
    return [Backend(*row) for row in conn.execute(_ACTIVITY, (list(pids),)).fetchall()]


def blocking(conn: psycopg.Connection, pid: int) -> list[Backend]:
    """The backends that `pid` waits for (pg_blocking_pids), read afresh."""
    (pids,) = conn.execute("SELECT pg_blocking_pids(%s)", (pid,)).fetchone()
    return backends(conn, pids) if pids else []


@dataclass
class Watch:
    """What a watched call waited for: the backends that held it up, the seconds it was
    held, and whether it was cancelled at the deadline."""

    held_by: list[Backend] = field(default_factory=list)
    waited: float = 0.0
    cancelled: bool = False


@contextlib.contextmanager
def watching(
    dsn: str,
    conn: psycopg.Connection,
    deadline: float,
    on_wait: Callable[[list[Backend]], None] = lambda _b: None,
) -> Iterator[Watch]:
    """Watch, from a connection of its own, the statement `conn` runs in the block: once it
    waits for other backends, `on_wait` is told whom (once); at `deadline` (time.monotonic)
    while it still waits, the statement is cancelled (57014 in the block)."""
    watch = Watch()
    done = threading.Event()
    pid = conn.info.backend_pid

    def run() -> None:
        with psycopg.connect(dsn, autocommit=True) as probe:
            while not done.wait(POLL_SECONDS):
                holders = blocking(probe, pid)
                if not holders:
                    continue
                if not watch.held_by:
                    on_wait(holders)
                watch.held_by = holders
                watch.waited += POLL_SECONDS
                if time.monotonic() >= deadline:
                    watch.cancelled = True
                    conn.cancel_safe()
                    return

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield watch
    finally:
        done.set()
        thread.join()
