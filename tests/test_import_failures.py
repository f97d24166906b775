"""Failure drills for the staged importer, done for real.

Kill the importer (SIGKILL) before each of its phases, or crash the PostgreSQL server
(`pg_ctl stop -m immediate`) in the middle of a load: the last committed state stays whole
and readable, the dead attempt shows as failed, and rerunning the same import finishes with a
result identical, row for row, to a clean import of the same run.

The importer runs as a real `swarm-memory import` subprocess and is held from outside, at a
real boundary, until it is killed: in parse it waits to read its graph export, a named pipe
nobody writes to; in every later phase it talks to the server through a relay (`Hold`) that
keeps back the phase's first query, so that it waits for an answer the way it waits on a
busy server. Embeddings come from the real model. The crash drill runs on a second embedded
server of its own, never on the shared test server.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from swarm_memory import migrate, server
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_DIR = ROOT / "examples" / "mirofish_run"

PHASES = ("parse", "embed", "load", "validate", "promote")
# Where the importer is held in each phase after parse: the query its session sends first
# in the phase, and which one of those it is. Load is held at its second batch, the first
# one staged.
HELD_AT = {
    "embed": ("memory.committed_hashes(", 1),
    "load": ("memory.stage_rows(", 2),
    "validate": ("memory.validate_import(", 1),
    "promote": ("memory.commit_import(", 1),
}
# Phases reached after memory.begin_import(): only these leave an attempt behind.
ATTEMPT_PHASES = ("load", "validate", "promote")
# Generous: the machine has two cores, other test runs may share them, and the importer
# loads the real model before it pauses at load, validate or promote.
PAUSE_TIMEOUT = 300.0
# The server notices a killed client's closed socket asynchronously.
DEAD_TIMEOUT = 30.0
SESSION_ENDED = "session ended"

# Committed tables of a simulation, with the key that orders their rows.
TABLE_KEYS: dict[str, tuple[str, ...]] = {
    "nodes": ("node_id",),
    "edges": ("edge_id",),
    "episodes": ("episode_id",),
    "profiles": ("platform", "agent_id"),
}
STAGED_TABLES = ("staged_nodes", "staged_edges", "staged_episodes", "staged_profiles")
EDITED = " [edited after the run]"
# all-MiniLM-L6-v2 on CPU gives a text's vector bit for bit only for the same batch
# composition (padding length changes the float summation order): the same text encoded
# among other neighbours differs in the last float32 bits (observed up to ~1.5e-7 per
# component). A rerun reuses committed vectors of unchanged texts and embeds only the
# changed ones, so it matches a clean import of the same run bit for bit only when that
# clean import had the same history; against a single fresh import, vectors match to this.
# The embedder's fast path computes in bfloat16, whose rounding follows the batch a text
# lands in: a text embedded among other texts differs from the same text embedded among
# fewer by up to about 2e-3 per component (cosine above 0.9999).
VECTOR_NOISE = 5e-3


# -- shared helpers -----------------------------------------------------------------------


def snapshot(
    conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID, *, timestamps: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Every committed row of a simulation (read as superuser, so RLS hides nothing): all
    columns of nodes, edges, episodes and profiles, ordered by key, plus the simulation's own
    row. tenant_id and simulation_id are left out (they are the arguments), sim_no (an
    opaque number, not data), and created_at and updated_at unless `timestamps`. Vectors come back as real[] (Python
    floats, exact), so two snapshots compare with ==."""
    # sim_no is the simulation's opaque number, drawn from a sequence when the simulation is
    # created: a simulation created again gets another.
    skip = {"tenant_id", "simulation_id", "sim_no"} | (
        set() if timestamps else {"created_at", "updated_at"}
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for table in ("simulations", *TABLE_KEYS):
        cols = [
            (name, udt)
            for name, udt in conn.execute(
                "SELECT column_name, udt_name FROM information_schema.columns"
                " WHERE table_schema = 'memory' AND table_name = %s ORDER BY ordinal_position",
                (table,),
            ).fetchall()
            if name not in skip
        ]
        assert cols, f"memory.{table} has no columns?"
        select = sql.SQL(", ").join(
            sql.SQL("{}::real[]").format(sql.Identifier(name))
            if udt == "vector"
            else sql.Identifier(name)
            for name, udt in cols
        )
        order = sql.SQL(", ").join(map(sql.Identifier, TABLE_KEYS.get(table, ("simulation_id",))))
        query = sql.SQL(
            "SELECT {} FROM memory.{} WHERE tenant_id = %s AND simulation_id = %s ORDER BY {}"
        ).format(select, sql.Identifier(table), order)
        names = [name for name, _ in cols]
        out[table] = [dict(zip(names, r, strict=True)) for r in conn.execute(query, (tenant, sim))]
    return out


def _row_key(table: str, row: dict[str, Any]) -> tuple:
    return tuple(row[k] for k in TABLE_KEYS.get(table, ()))


def assert_same_rows(
    actual: dict[str, list[dict[str, Any]]],
    expected: dict[str, list[dict[str, Any]]],
    *,
    vector_tolerance: float = 0.0,
) -> None:
    """Snapshots equal, table by table, row by row, column by column; on failure name what
    differs. With `vector_tolerance`, embedding components may differ by that much (every
    other column, content_hash and embedding_model included, still compares exactly)."""
    assert actual.keys() == expected.keys()
    problems: list[str] = []
    worst = 0.0
    for table in expected:
        got = {_row_key(table, r): r for r in actual[table]}
        want = {_row_key(table, r): r for r in expected[table]}
        missing = sorted(want.keys() - got.keys(), key=repr)
        extra = sorted(got.keys() - want.keys(), key=repr)
        if missing:
            problems.append(f"{table}: {len(missing)} rows missing, e.g. {missing[:3]}")
        if extra:
            problems.append(f"{table}: {len(extra)} unexpected rows, e.g. {extra[:3]}")
        if [_row_key(table, r) for r in actual[table]] != [
            _row_key(table, r) for r in expected[table]
        ]:
            problems.append(f"{table}: rows in another order")
        for key in sorted(want.keys() & got.keys(), key=repr):
            differ = []
            for col, value in want[key].items():
                other = got[key].get(col)
                if col == "embedding" and value is not None and other is not None:
                    assert len(value) == len(other)
                    diff = max(abs(a - b) for a, b in zip(value, other, strict=True))
                    worst = max(worst, diff)
                    if diff > vector_tolerance:
                        differ.append(f"embedding (max |diff| {diff:.3g})")
                elif other != value:
                    differ.append(col)
            if differ:
                problems.append(f"{table} {key}: {', '.join(differ)}")
    assert not problems, (
        f"snapshots differ in {len(problems)} places (largest vector component difference "
        f"{worst:.3g}):\n  " + "\n  ".join(problems[:30])
    )


def make_modified_run(dest: Path, posts: int = 3) -> dict[str, Any]:
    """A copy of the example run whose import changes things: the content of the first
    `posts` CREATE_POST lines of twitter/actions.jsonl (so their episodes get new ids and
    texts), one edge dropped from graph.json and one node summary rewritten. Returns what
    was changed."""
    shutil.copytree(EXAMPLE_DIR, dest)
    actions = dest / "twitter" / "actions.jsonl"
    lines = actions.read_text(encoding="utf-8").splitlines(keepends=True)
    edited: list[str] = []
    for i, text in enumerate(lines):
        if len(edited) == posts:
            break
        if not text.strip():
            continue
        obj = json.loads(text)
        if obj.get("action_type") == "CREATE_POST" and (obj.get("action_args") or {}).get(
            "content"
        ):
            obj["action_args"]["content"] += EDITED
            edited.append(obj["action_args"]["content"])
            lines[i] = json.dumps(obj, ensure_ascii=False) + "\n"
    assert len(edited) == posts, "the example has too few CREATE_POST lines"
    actions.write_text("".join(lines), encoding="utf-8")

    graph_path = dest / "graph.json"
    graph = json.loads(graph_path.read_text(encoding="utf-8"))
    dropped = graph["edges"].pop()
    graph["nodes"][0]["summary"] = (graph["nodes"][0].get("summary") or "") + EDITED
    graph_path.write_text(json.dumps(graph, ensure_ascii=False, indent=2), encoding="utf-8")
    return {
        "posts": edited,
        "dropped_edge": dropped["uuid"],
        "edited_node": graph["nodes"][0]["uuid"],
    }


# The codes a packet before the startup packet begins with when it asks for an encrypted
# connection (the PostgreSQL protocol: these packets and the startup packet have no type
# byte). The server answers one byte, "N" over a Unix socket: no encryption to see through.
SSL_REQUEST, GSSENC_REQUEST = 80877103, 80877104


def _exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


class Hold:
    """A relay between clients and the PostgreSQL server of `dsn`, on a socket of its own
    (`self.dsn`), that passes every message until the `count`-th query naming `marker` and
    keeps that one back: its client waits for an answer that never comes, as it would on a
    busy server, and the server never sees the query. From then on nothing more passes on
    that connection, the server's end of it included, until the client goes away; then the
    relay closes the server's end, as the client's own socket would have been closed."""

    def __init__(self, dsn: str, marker: str, count: int = 1) -> None:
        info = conninfo_to_dict(dsn)
        host, port = info.get("host") or "/tmp", int(info.get("port") or 5432)
        if host.startswith("/"):
            self._upstream: tuple[socket.AddressFamily, object] = (
                socket.AF_UNIX,
                f"{host}/.s.PGSQL.{port}",
            )
        else:
            self._upstream = (socket.AF_INET, (info.get("hostaddr") or host, port))
        self._dir = tempfile.mkdtemp(prefix="pg-hold-")
        self._listener = socket.socket(socket.AF_UNIX)
        self._listener.bind(f"{self._dir}/.s.PGSQL.5432")
        self._listener.listen()
        info.pop("hostaddr", None)
        self.dsn = make_conninfo(**{**info, "host": self._dir, "port": 5432})
        self._marker = marker.encode()
        self._count = count
        self._seen = 0
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = [self._listener]
        self.held = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        for sock in self._sockets:
            _close(sock)
        shutil.rmtree(self._dir, ignore_errors=True)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            server = socket.socket(self._upstream[0])
            server.connect(self._upstream[1])
            self._sockets += [client, server]
            kept = threading.Event()
            threading.Thread(
                target=self._to_server, args=(client, server, kept), daemon=True
            ).start()
            threading.Thread(
                target=self._to_client, args=(client, server, kept), daemon=True
            ).start()

    def _to_server(
        self, client: socket.socket, server: socket.socket, kept: threading.Event
    ) -> None:
        try:
            while True:  # the startup packet, after any request for encryption
                head = _exactly(client, 4)
                body = _exactly(client, int.from_bytes(head, "big") - 4)
                server.sendall(head + body)
                if int.from_bytes(body[:4], "big") not in (SSL_REQUEST, GSSENC_REQUEST):
                    break
            while True:  # messages: a type byte, then their length
                kind = _exactly(client, 1)
                head = _exactly(client, 4)
                body = _exactly(client, int.from_bytes(head, "big") - 4)
                if not kept.is_set() and kind in (b"P", b"Q") and self._marker in body:
                    with self._lock:
                        self._seen += 1
                        if self._seen == self._count:
                            kept.set()
                            self.held.set()
                if not kept.is_set():
                    server.sendall(kind + head + body)
        except (EOFError, OSError):
            pass
        _close(server)
        _close(client)

    def _to_client(
        self, client: socket.socket, server: socket.socket, kept: threading.Event
    ) -> None:
        with contextlib.suppress(OSError):
            while data := server.recv(65536):
                if not kept.is_set():
                    client.sendall(data)
        if not kept.is_set():
            _close(client)


class HeldProcess(subprocess.Popen):
    """A subprocess, and what holds it where it is, let go of by `kill`."""

    holds: list[Callable[[], None]]


def _graph_pipe(run_dir: Path) -> tuple[Path, Path]:
    """A copy of the run whose graph export is a named pipe: (the copy, the pipe)."""
    copy = Path(tempfile.mkdtemp(prefix="held-run-")) / run_dir.name
    shutil.copytree(run_dir, copy)
    pipe = copy / "graph.json"
    pipe.unlink()
    os.mkfifo(pipe)
    return copy, pipe


def start_paused_import(
    dsn: str, tenant: uuid.UUID, sim: uuid.UUID, run_dir: Path, phase: str
) -> HeldProcess:
    """Start `swarm-memory import` as a subprocess and return it once it is held in `phase`:
    in parse, waiting to read its graph export; in a later phase, waiting for the answer to
    the phase's first query (for load: its second batch, the first one staged)."""
    holds: list[Callable[[], None]] = []
    pipe = relay = None
    if phase == "parse":
        run_dir, pipe = _graph_pipe(run_dir)
        holds.append(lambda: shutil.rmtree(run_dir.parent, ignore_errors=True))
    else:
        relay = Hold(dsn, *HELD_AT[phase])
        holds.append(relay.close)
        dsn = relay.dsn
    proc = HeldProcess(
        [
            sys.executable,
            "-m",
            "swarm_memory.cli",
            "--dsn",
            dsn,
            "import",
            str(run_dir),
            "--tenant",
            str(tenant),
            "--simulation",
            str(sim),
            "--quiet",
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.holds = holds
    deadline = time.monotonic() + PAUSE_TIMEOUT
    while True:
        if relay is not None and relay.held.wait(timeout=0.1):
            return proc
        if pipe is not None:
            try:
                # a writer can open the pipe only once its reader has: the importer is in
                # parse, waiting for the export's first byte; the writer stays open until
                # the kill, so that the importer's read waits instead of reading an end
                writer = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:
                    raise
            else:
                holds.insert(0, functools.partial(os.close, writer))
                return proc
            time.sleep(0.1)
        if proc.poll() is not None:
            stderr = proc.stderr.read() if proc.stderr else ""
            kill(proc)
            pytest.fail(
                f"the importer exited ({proc.returncode}) before it was held in {phase}; "
                f"stderr: {stderr!r}"
            )
        if time.monotonic() > deadline:
            kill(proc)
            pytest.fail(f"the importer was not held in {phase} within {PAUSE_TIMEOUT:.0f} s")


def kill(proc: subprocess.Popen) -> None:
    """SIGKILL the process (if still alive), reap it, and let go of what held it."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    for release in getattr(proc, "holds", []):
        release()
    proc.holds = []


def attempts(conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID) -> dict[uuid.UUID, tuple]:
    """memory.import_attempts through the API: attempt id -> (state, error)."""
    return {
        a: (state, error)
        for a, state, error in conn.execute(
            "SELECT attempt_id, state, error FROM memory.import_attempts(%s, %s)", (tenant, sim)
        ).fetchall()
    }


def wait_for_failed_attempt(
    conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID, known: set[uuid.UUID]
) -> tuple[uuid.UUID, str]:
    """The one attempt not in `known`, once import_attempts reports it failed (the server
    notices a dead session asynchronously, so poll). Returns (attempt id, error)."""
    deadline = time.monotonic() + DEAD_TIMEOUT
    while True:
        new = {a: v for a, v in attempts(conn, tenant, sim).items() if a not in known}
        assert len(new) == 1, f"expected exactly one new attempt, got {new}"
        ((attempt, (state, error)),) = new.items()
        if state == "failed" or time.monotonic() > deadline:
            assert state == "failed", f"attempt {attempt} still {state!r} after {DEAD_TIMEOUT} s"
            assert error and SESSION_ENDED in error, error
            return attempt, error
        time.sleep(0.2)


def assert_readable(
    conn: psycopg.Connection, tenant: uuid.UUID, sim: uuid.UUID, snap: dict[str, list]
) -> None:
    """The committed state answers through the API (as a granted application role) with the
    snapshot's counts."""
    name, nodes, edges, episodes, profiles = conn.execute(
        "SELECT name, nodes, edges, episodes, profiles FROM memory.simulation_stats(%s, %s)",
        (tenant, sim),
    ).fetchone()
    assert name == snap["simulations"][0]["name"]
    assert (nodes, edges, episodes, profiles) == tuple(
        len(snap[t]) for t in ("nodes", "edges", "episodes", "profiles")
    )
    listed = conn.execute(
        "SELECT node_id FROM memory.nodes_by_type(%s, %s, NULL, 1000) ORDER BY node_id",
        (tenant, sim),
    ).fetchall()
    assert [r[0] for r in listed] == [r["node_id"] for r in snap["nodes"]]


def assert_attempt_cleaned_up(conn: psycopg.Connection, tenant: uuid.UUID, attempt: uuid.UUID):
    """After a later begin_import, the dead attempt is recorded failed and its staged rows are
    gone (read as superuser)."""
    state, error = conn.execute(
        "SELECT state, error FROM memory.import_attempts WHERE tenant_id = %s AND attempt_id = %s",
        (tenant, attempt),
    ).fetchone()
    assert state == "failed" and SESSION_ENDED in error, (state, error)
    for table in STAGED_TABLES:
        (n,) = conn.execute(
            sql.SQL("SELECT count(*) FROM memory.{} WHERE attempt_id = %s").format(
                sql.Identifier(table)
            ),
            (attempt,),
        ).fetchone()
        assert n == 0, f"{n} rows of the dead attempt left in memory.{table}"


def assert_matches_clean_imports(
    dsn: str,
    su: psycopg.Connection,
    tenant: uuid.UUID,
    after: dict[str, list],
    run: Path,
    embedder: Embedder,
) -> None:
    """`after` (the rerun's committed rows) equals, row for row and column for column (but
    for the simulation id and timestamps), the same imports done cleanly into a new
    simulation: the example, then the modified run. And it equals a single clean import of
    the modified run into a new simulation, vectors to within VECTOR_NOISE."""
    same_history = uuid.uuid4()
    import_run(dsn, tenant, same_history, EXAMPLE_DIR, embedder=embedder)
    import_run(dsn, tenant, same_history, run, embedder=embedder)
    assert_same_rows(after, snapshot(su, tenant, same_history))

    fresh = uuid.uuid4()
    import_run(dsn, tenant, fresh, run, embedder=embedder)
    assert_same_rows(after, snapshot(su, tenant, fresh), vector_tolerance=VECTOR_NOISE)


def assert_import_changes(before: dict[str, list], after: dict[str, list], changed: dict) -> None:
    """The modified run really changes the committed state (else the drills prove nothing)."""
    old_edges = {r["edge_id"] for r in before["edges"]}
    new_edges = {r["edge_id"] for r in after["edges"]}
    assert old_edges - new_edges == {changed["dropped_edge"]}
    contents = {r["content"] for r in after["episodes"]}
    assert set(changed["posts"]) <= contents
    assert not set(changed["posts"]) & {r["content"] for r in before["episodes"]}
    node = next(r for r in after["nodes"] if r["node_id"] == changed["edited_node"])
    assert node["summary"].endswith(EDITED)
    assert len(after["episodes"]) == len(before["episodes"])


# -- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture
def importers() -> Iterator[list[subprocess.Popen]]:
    """Importer subprocesses a test started; any still alive at teardown are killed."""
    procs: list[subprocess.Popen] = []
    yield procs
    for proc in procs:
        with contextlib.suppress(Exception):
            kill(proc)


# -- the drills ---------------------------------------------------------------------------


@pytest.mark.parametrize("phase", PHASES)
def test_importer_killed_before_phase(world, connect, embedder, importers, tmp_path, phase):
    tenant, sim = world.tenant_a, world.sim_a
    app = world.dsn("app_a")
    su = connect()
    reader = connect("app_a")

    import_run(app, tenant, sim, EXAMPLE_DIR, embedder=embedder)
    before = snapshot(su, tenant, sim, timestamps=True)
    assert before["nodes"] and before["edges"] and before["episodes"] and before["profiles"]
    known = set(attempts(reader, tenant, sim))
    assert [s for s, _ in attempts(reader, tenant, sim).values()] == ["committed"]

    run = tmp_path / "mirofish_run_v2"
    changed = make_modified_run(run)

    proc = start_paused_import(app, tenant, sim, run, phase)
    importers.append(proc)
    kill(proc)
    assert proc.returncode == -signal.SIGKILL

    # (a) The committed state is whole: every row and timestamp as before, readable.
    assert_same_rows(snapshot(su, tenant, sim, timestamps=True), before)
    assert_readable(reader, tenant, sim, before)

    # (b) The dead attempt shows as failed; before load there was no attempt yet.
    dead = None
    if phase in ATTEMPT_PHASES:
        dead, _ = wait_for_failed_attempt(reader, tenant, sim, known)
    else:
        assert set(attempts(reader, tenant, sim)) == known
    # Still whole after the server has noticed the dead session.
    assert_same_rows(snapshot(su, tenant, sim, timestamps=True), before)

    # (c) Rerunning the import finishes, with the rows of a clean import of the same run.
    import_run(app, tenant, sim, run, embedder=embedder)
    after = snapshot(su, tenant, sim)
    assert_import_changes(before, after, changed)
    states = attempts(reader, tenant, sim)
    assert sorted(s for s, _ in states.values()) == sorted(
        ["committed", "committed"] + (["failed"] if dead else [])
    )
    if dead:
        assert_attempt_cleaned_up(su, tenant, dead)

    assert_matches_clean_imports(app, su, tenant, after, run, embedder)


def _pg_ctl_stop_immediate(datadir: Path) -> None:
    """Crash the server: `pg_ctl stop -m immediate` (no shutdown checkpoint; the next start
    runs crash recovery), as the embedded server's own system user when we are root."""
    cmd = [str(server.bin_dir() / "pg_ctl"), "-D", str(datadir), "-w", "-m", "immediate", "stop"]
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", "embedded_postgres", "--", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{cmd} failed ({done.returncode}): {done.stdout}{done.stderr}"


def _start_server(datadir: Path) -> str:
    """server.start(datadir) in a fresh process (as `swarm-memory db up` would): this
    process's embedded-postgres handle for datadir still describes the crashed postmaster,
    and an in-process server.start() would hand back its DSN without starting anything."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from swarm_memory import server; print(server.start(sys.argv[1]))",
            str(datadir),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return out.stdout.strip().splitlines()[-1]


def test_server_crash_mid_load(embedder, importers, tmp_path):
    # Not under tmp_path: the server runs as the embedded_postgres system user, which must
    # traverse every directory above its data directory, and each pytest session that starts
    # (other test runs share the machine) resets /tmp/pytest-of-<user> to mode 0700.
    datadir = ROOT / ".cache" / "failure-drills" / uuid.uuid4().hex[:12] / "pg"
    datadir.parent.mkdir(parents=True)
    try:
        dsn = server.start(datadir)
        migrate.migrate(dsn)
        tenant = uuid.uuid4()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE ROLE loader LOGIN")
            conn.execute("GRANT memory_writer TO loader")
            conn.execute("SELECT memory.create_tenant('t', %s)", (tenant,))
            conn.execute("SELECT memory.grant_tenant('loader', %s)", (tenant,))
        loader = make_conninfo(**{**conninfo_to_dict(dsn), "user": "loader"})
        sim = uuid.uuid4()

        import_run(loader, tenant, sim, EXAMPLE_DIR, embedder=embedder)
        with (
            psycopg.connect(dsn, autocommit=True) as su,
            psycopg.connect(loader, autocommit=True) as app,
        ):
            before = snapshot(su, tenant, sim, timestamps=True)
            known = set(attempts(app, tenant, sim))
        assert len(known) == 1

        run = tmp_path / "mirofish_run_v2"
        changed = make_modified_run(run)
        proc = start_paused_import(loader, tenant, sim, run, "load")
        importers.append(proc)
        with psycopg.connect(dsn, autocommit=True) as su:
            staged = [
                su.execute(
                    sql.SQL(
                        "SELECT count(*) FROM memory.{} AS s JOIN memory.import_attempts AS a"
                        " USING (tenant_id, attempt_id) WHERE a.simulation_id = %s"
                    ).format(sql.Identifier(table)),
                    (sim,),
                ).fetchone()[0]
                for table in ("staged_nodes", "staged_edges")
            ]
        # mid-load: the first batch (the nodes) is staged, the rest is not
        assert staged == [len(json.loads((run / "graph.json").read_text())["nodes"]), 0]

        _pg_ctl_stop_immediate(datadir)
        kill(proc)  # it sleeps at the pause, unaware that its server went away
        dsn2 = _start_server(datadir)
        assert conninfo_to_dict(dsn2)["host"] == conninfo_to_dict(dsn)["host"]
        # It was a crash: the restart ran recovery.
        assert "automatic recovery in progress" in (datadir / "log").read_text(errors="replace")

        with (
            psycopg.connect(dsn, autocommit=True) as su,
            psycopg.connect(loader, autocommit=True) as app,
        ):
            # The committed state came through the crash whole, and reads through the API.
            assert_same_rows(snapshot(su, tenant, sim, timestamps=True), before)
            assert_readable(app, tenant, sim, before)
            # The attempt whose session died with the server shows as failed.
            dead, _ = wait_for_failed_attempt(app, tenant, sim, known)

        import_run(loader, tenant, sim, run, embedder=embedder)
        with (
            psycopg.connect(dsn, autocommit=True) as su,
            psycopg.connect(loader, autocommit=True) as app,
        ):
            after = snapshot(su, tenant, sim)
            assert_import_changes(before, after, changed)
            assert_attempt_cleaned_up(su, tenant, dead)
            assert sorted(s for s, _ in attempts(app, tenant, sim).values()) == [
                "committed",
                "committed",
                "failed",
            ]
            assert_matches_clean_imports(loader, su, tenant, after, run, embedder)
    finally:
        for proc in importers:
            with contextlib.suppress(Exception):
                kill(proc)
        # No server running (a start that failed) makes pg_ctl stop fail: nothing to stop.
        with contextlib.suppress(subprocess.CalledProcessError):
            server.stop(datadir)
        if not (datadir / "postmaster.pid").exists():
            shutil.rmtree(datadir.parent, ignore_errors=True)
            with contextlib.suppress(OSError):
                datadir.parent.parent.rmdir()  # when no other drill is using it
