"""Per-simulation approximate-nearest-neighbour indexes: load first, index after.

A simulation with at least `min_rows` embedded episodes gets a partial HNSW index of its
own over half-precision vectors, once its rows are loaded; memory.search_episodes uses it
when it exists and searches exactly otherwise. Building row by row while importing would
cost far more (an HNSW index maintained per row loads about 0.5k rows/s here), so imports
never wait for an index; run `swarm-memory index` after large imports.

The plan and the statements come from the database (memory.ann_plan, memory.ann_index),
which name a simulation by its opaque number only (memory.simulations.sim_no): no index
name or predicate carries a tenant or simulation id. Every statement runs here, on its own
outside a transaction, CONCURRENTLY, as the table's owner: a build, rebuild or drop never
holds a table against another tenant's reads or writes (the database refuses the same
statements in one transaction, 55000). The owner's rights come from the connecting role:
- a superuser runs them as itself;
- a role that may SET ROLE memory_owner does so around them;
- a role holding memory_owner WITH ADMIN OPTION (the CREATEROLE administrator of a managed
  PostgreSQL who created it) grants itself SET on memory_owner for the run and revokes it
  after, as `swarm-memory migrate` does;
- any other administrator is refused (42501) with the GRANT a superuser must run.

The bridge (issue 13, from files to searchable): a simulation's first HNSW
index is preceded by an IVFFlat index over the same vectors (memory._ann_ivf_index_name, 100
lists), built in a second or two for 50,000 episodes where the HNSW index takes 30 s and more,
and dropped once the HNSW index is built; for simulations of at least BRIDGE_MIN_ROWS
episodes, where it pays for the two reads of the table a concurrent build makes.
search_episodes searches through it meanwhile (recall@10 about 0.99) instead of scanning the
simulation exactly.

The facts (issue 12) likewise: a simulation with at least `min_rows` embedded facts gets a
partial HNSW index over them (memory.ann_plan_facts, memory.ann_index_facts), which
memory.search_facts and recall's facts arm use when it exists: `build_facts`, which
`swarm-memory index` runs after `build`.

The entities (issue 12) too: a simulation with at least `min_rows` embedded entities gets a
pair of partial HNSW indexes, over their name vectors and over their summary vectors
(memory.ann_plan_entities, memory.ann_index_entities), which memory.search_nodes and
recall's entities arm use when both exist: `build_entities`, which `swarm-memory index`
runs after `build_facts`.

Then the clumps (issue 13): memory._clump_plan lists the simulations whose clump build is
missing or stale (their episodes changed since), and memory._clump_build finds each one's
clumps of near-copies and, where it has clumps or copies, indexes its representatives (each
distinct vector outside the clumps once) in memory.search_points; search_episodes uses that
build while it is fresh. A clump build only reads the episodes: tenant writes go on. The
indexes of the builds it replaces are dropped CONCURRENTLY after it.

A run killed while a statement of it runs leaves that statement running on the server until
it ends (the server notices the client has gone only when it next writes to it). A DROP or
CREATE INDEX CONCURRENTLY of the same index beside it fails (a deadlock, 40P01, or "tuple
concurrently updated", XX000), so before each action, and again after such a failure, the
run looks for another backend at work CONCURRENTLY on an index the action touches
(pg_stat_activity; its phase from pg_stat_progress_create_index); it says which and waits for
it up to `wait` seconds, then plans the action again (the other build may have finished it),
or gives up with 55P03 naming that backend and what to do.

`delete_tenant` (`swarm-memory tenant delete`) calls memory.delete_tenant and then drops the
tenant's per-simulation indexes CONCURRENTLY (the function cannot: a DROP INDEX in its
transaction would hold the shared tables against every tenant until the commit).
"""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import psycopg
from psycopg import sql

from swarm_memory.errors import TenantAccessDenied, Timeout
from swarm_memory.waits import POLL_SECONDS, Backend, describe, terminate_hint

DEFAULT_MIN_ROWS = 2000
# The smallest simulation whose HNSW build is preceded by a bridge. A concurrent build reads
# the whole episodes table twice whatever the simulation's size (1 to 2 s in a store of a
# million episodes), so below this the bridge costs about what it saves: an HNSW index over
# 20,000 episodes builds in about 12 s here, over 5,000 in 3 s.
BRIDGE_MIN_ROWS = 20_000
# How long a run waits for another backend's build or drop of an index it would touch.
DEFAULT_WAIT = 300.0


@dataclass(frozen=True)
class ClumpBuild:
    """What memory._clump_build did for a simulation (None fields: its build was dropped)."""

    action: str  # clumped, kept, dropped
    seconds: float
    build_no: int | None = None
    episodes: int | None = None
    points: int | None = None  # representatives indexed (0 when not indexed)
    clumps: int | None = None
    clumped: int | None = None  # episodes inside the clumps
    indexed: bool | None = None


@dataclass(frozen=True)
class IndexAction:
    sim_no: int
    rows: int
    index_name: str
    action: str  # built, rebuilt (other parameters), kept, dropped
    seconds: float
    clumps: ClumpBuild | None = None  # the simulation's clump build, when it has one
    # seconds from the action's start until the simulation's bridge (an IVFFlat index built
    # before a concurrent HNSW build, searched until that is done) was built; None without one
    bridged: float | None = None


_DONE = {"build": "built", "rebuild": "rebuilt", "keep": "kept", "drop": "dropped"}


def plan(
    conn: psycopg.Connection, min_rows: int, m: int = 32, ef_construction: int = 128
) -> list[tuple[int, str, int, str]]:
    """memory.ann_plan: (sim_no, index name, embedded episodes, action) for every simulation
    with at least `min_rows` embedded episodes and every per-simulation index to drop."""
    return conn.execute(
        "SELECT sim_no, index_name, episodes, action FROM memory.ann_plan(%s, %s, %s)",
        (min_rows, m, ef_construction),
    ).fetchall()


def clump_plan(
    conn: psycopg.Connection, min_rows: int, m: int = 32, ef_construction: int = 128
) -> list[tuple]:
    """memory._clump_plan: (tenant_id, sim_no, embedded episodes, action) for every
    simulation with at least `min_rows` embedded episodes and every build to drop."""
    return conn.execute(
        "SELECT tenant_id, sim_no, episodes, action FROM memory._clump_plan(%s, %s, %s)",
        (min_rows, m, ef_construction),
    ).fetchall()


OWNER = "memory_owner"


def _owner_mode(conn: psycopg.Connection) -> str:
    """How this connection acts as memory_owner: 'superuser', 'member' (may SET ROLE),
    'admin' (holds ADMIN OPTION: grants itself SET for the run); else TenantAccessDenied
    naming the GRANT a superuser must run."""
    superuser, member, admin = conn.execute(
        "SELECT r.rolsuper, pg_has_role(current_user, %s, 'SET'),"
        " pg_has_role(current_user, %s, 'MEMBER WITH ADMIN OPTION')"
        " FROM pg_roles AS r WHERE r.rolname = current_user",
        (OWNER, OWNER),
    ).fetchone()
    if superuser:
        return "superuser"
    if member:
        return "member"
    if admin:
        return "admin"
    (user,) = conn.execute("SELECT quote_ident(current_user)").fetchone()
    raise TenantAccessDenied(
        f"role {user} may not act as {OWNER}: `swarm-memory index` builds and drops"
        " the search indexes CONCURRENTLY, outside a transaction, as the tables' owner",
        "42501",
        hint=f"a superuser runs: GRANT {OWNER} TO {user} WITH INHERIT FALSE, SET TRUE"
        " (or run it as a superuser)",
    )


@contextlib.contextmanager
def _as_owner(conn: psycopg.Connection) -> Iterator[None]:
    """The statements of the block run as memory_owner (autocommit connection; how, by
    _owner_mode). An 'admin' grants itself SET on the role for the block and revokes it
    after, whether the block worked or not."""
    mode = _owner_mode(conn)
    if mode == "superuser":
        yield
        return
    me = sql.Identifier(conn.info.user)
    if mode == "admin":
        conn.execute(
            sql.SQL("GRANT {} TO {} WITH INHERIT FALSE, SET TRUE").format(sql.Identifier(OWNER), me)
        )
    try:
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(OWNER)))
        try:
            yield
        finally:
            conn.execute("RESET ROLE")
    finally:
        if mode == "admin":
            conn.execute(sql.SQL("REVOKE {} FROM {}").format(sql.Identifier(OWNER), me))


def _drop_stale_clump_indexes(conn: psycopg.Connection, sim_no: int, keep: int | None) -> list[str]:
    """Drop, CONCURRENTLY, the indexes of a simulation's clump builds but build `keep`'s
    (memory._clump_build leaves a replaced build's index, emptied, for this)."""
    names = [
        name
        for (name,) in conn.execute(
            "SELECT c.relname FROM pg_class AS c"
            " WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind = 'i'"
            " AND c.relname ~ %s ORDER BY c.relname",
            (f"^search_points_ann_{int(sim_no)}_[0-9]+$",),
        ).fetchall()
        if keep is None or name != f"search_points_ann_{int(sim_no)}_{int(keep)}"
    ]
    if names:
        with _as_owner(conn):
            for name in names:
                conn.execute(
                    sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS memory.{}").format(
                        sql.Identifier(name)
                    )
                )
    return names


def build_clumps(
    conn: psycopg.Connection,
    min_rows: int = DEFAULT_MIN_ROWS,
    *,
    m: int = 32,
    ef_construction: int = 128,
    log: Callable[[str], None] = lambda _m: None,
) -> dict[int, ClumpBuild]:
    """Carry out memory._clump_plan: each build in a transaction of its own (autocommit),
    then the indexes of the builds it replaced dropped CONCURRENTLY as memory_owner."""
    done: dict[int, ClumpBuild] = {}
    for tenant_id, sim_no, rows, action in clump_plan(conn, min_rows, m, ef_construction):
        start = time.perf_counter()
        if action == "keep":
            done[sim_no] = ClumpBuild("kept", 0.0)
            continue
        row = conn.execute(
            "SELECT build_no, episodes, points, clumps, clumped, indexed"
            " FROM memory._clump_build(%s, %s, %s, %s, %s)",
            (tenant_id, sim_no, action, m, ef_construction),
        ).fetchone()
        _drop_stale_clump_indexes(conn, sim_no, None if row is None else row[0])
        seconds = time.perf_counter() - start
        if row is None:
            done[sim_no] = ClumpBuild("dropped", seconds)
            log(f"dropped the clump build of simulation {sim_no} in {seconds:.1f} s")
            continue
        b = ClumpBuild("clumped", seconds, *row)
        done[sim_no] = b
        log(
            f"clumped simulation {sim_no} ({rows} episodes) in {seconds:.1f} s: {b.clumps} clumps"
            f" of {b.clumped} episodes, "
            + (f"{b.points} representatives indexed" if b.indexed else "searched by its own index")
        )
    return done


# Another backend's statement at work CONCURRENTLY on an index, by the index's name as a
# whole word in its text; its phase where pg_stat_progress_create_index has one. A role
# without the privileges of that backend's session role sees no text, hence no builder.
_BUILDERS = """
SELECT a.pid,
       coalesce(p.phase || ': ', '') || a.query,
       extract(epoch FROM clock_timestamp() - a.query_start)::float8
  FROM pg_stat_activity AS a
  LEFT JOIN pg_stat_progress_create_index AS p ON p.pid = a.pid
 WHERE a.pid <> pg_backend_pid() AND a.state = 'active'
   AND a.query ~* 'INDEX\\s+CONCURRENTLY'
   AND EXISTS (SELECT 1 FROM unnest(%s::text[]) AS n(name)
                WHERE a.query ~ ('\\m' || n.name || '\\M'))
 ORDER BY a.pid
"""

# The index names of memory._ann_statements' statements (CREATE INDEX CONCURRENTLY name ON,
# DROP INDEX CONCURRENTLY IF EXISTS memory.name, ALTER INDEX memory.name RENAME TO name).
_INDEX_NAME = re.compile(
    r'(?:INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+(?:NOT\s+)?EXISTS\s+)?(?:memory\.)?|RENAME\s+TO\s+)"?(\w+)'
)

# What a DROP or CREATE INDEX CONCURRENTLY meeting another one of the same index fails with.
_BESIDE_ANOTHER = ("40P01", "XX000", "55P03")


def _builders(conn: psycopg.Connection, statements: list[str]) -> list[Backend]:
    """The other backends at work CONCURRENTLY on an index named in `statements`."""
    names = sorted({n for st in statements for n in _INDEX_NAME.findall(st)})
    if not names:
        return []
    return [Backend(*row) for row in conn.execute(_BUILDERS, (names,)).fetchall()]


def _wait_for_builders(
    conn: psycopg.Connection,
    statements: list[str],
    wait: float,
    log: Callable[[str], None],
) -> bool:
    """Wait until no other backend is at work on an index of `statements`: False at once
    when none is, True once they have ended; Timeout (55P03) naming them after `wait`
    seconds."""
    builders = _builders(conn, statements)
    if not builders:
        return False
    deadline = time.monotonic() + wait
    log(
        f"waiting up to {wait:.0f} s for {describe(builders)},"
        " at work on the same index (a killed run's statement goes on until it ends)"
    )
    while builders:
        if time.monotonic() >= deadline:
            raise Timeout(
                f"another backend is at work on the same index: {describe(builders)};"
                " gave up waiting for it",
                "55P03",
                hint="let it end and run `swarm-memory index` again (it plans again from what"
                f" it finds), wait longer with --wait, or end it: {terminate_hint(builders)}",
            )
        time.sleep(POLL_SECONDS)
        builders = _builders(conn, statements)
    return True


def _carry_out(
    conn: psycopg.Connection,
    planned: list[tuple[int, str, int, str]],
    index_fn: str,
    what: str,
    m: int,
    ef_construction: int,
    log: Callable[[str], None],
    on_bridged: Callable[[int], None] | None = None,
    bridge_min_rows: int = BRIDGE_MIN_ROWS,
    *,
    plan_again: Callable[[], list[tuple[int, str, int, str]]] | None = None,
    wait: float = DEFAULT_WAIT,
) -> list[IndexAction]:
    """Each action of a plan (memory.ann_plan, memory.ann_plan_facts or
    memory.ann_plan_entities): its statements from `index_fn` (memory.ann_index,
    memory.ann_index_facts or memory.ann_index_entities, NOT p_run), each run on its own,
    CONCURRENTLY, as memory_owner (_as_owner). A build of the episodes' index
    of a simulation of at least `bridge_min_rows` then starts with its bridge
    (memory._ann_statements; a smaller one's is left out), after which `on_bridged(sim_no)`
    is called, before the HNSW index is built.
    Another backend at work on an index of an action (before it, or met by one of its
    statements): waited for, up to `wait` seconds each time, then the simulation's action
    taken again from `plan_again()` (the plan's own when None)."""
    actions: list[IndexAction] = []
    for sim_no, name, rows, action in planned:
        start = time.perf_counter()
        bridged = None
        hook = 0.0  # the seconds on_bridged took, not counted as the build's
        while True:
            # 'keep' too: it drops a bridge an interrupted run left beside the index, and is
            # nothing otherwise.
            statements = [
                st
                for (st,) in conn.execute(
                    f"SELECT s FROM memory.{index_fn}(%s, %s, %s, %s, false) AS s",
                    (sim_no, action, m, ef_construction),
                ).fetchall()
            ]
            if _wait_for_builders(conn, statements, wait, log):
                action = _action_again(plan_again, sim_no, action)
                continue
            try:
                bridged, hook = _run_statements(
                    conn,
                    statements,
                    sim_no,
                    name,
                    rows,
                    what,
                    start,
                    log,
                    on_bridged,
                    bridge_min_rows,
                )
                break
            except psycopg.Error as exc:
                if exc.sqlstate not in _BESIDE_ANOTHER or not _wait_for_builders(
                    conn, statements, wait, log
                ):
                    raise
                action = _action_again(plan_again, sim_no, action)
        seconds = time.perf_counter() - start - hook
        done = _DONE[action]
        if action != "keep":
            log(f"{done} {name} ({rows} {what}) in {seconds:.1f} s")
        actions.append(IndexAction(sim_no, rows, name, done, seconds, bridged=bridged))
    return actions


def _action_again(
    plan_again: Callable[[], list[tuple[int, str, int, str]]] | None, sim_no: int, action: str
) -> str:
    """The simulation's action in a new plan ('keep' when it is no longer in it: its index
    went with it, or it has too few rows now; nothing else of the plan is taken)."""
    if plan_again is None:
        return action
    for again_no, _name, _rows, again in plan_again():
        if again_no == sim_no:
            return again
    return "keep"


def _run_statements(
    conn: psycopg.Connection,
    statements: list[str],
    sim_no: int,
    name: str,
    rows: int,
    what: str,
    start: float,
    log: Callable[[str], None],
    on_bridged: Callable[[int], None] | None,
    bridge_min_rows: int,
) -> tuple[float | None, float]:
    """The statements of one action (see _carry_out): (seconds until the bridge was built
    or None, seconds on_bridged took)."""
    bridged = None
    hook = 0.0
    if statements:
        (bridge,) = conn.execute("SELECT memory._ann_ivf_index_name(%s)", (sim_no,)).fetchone()
        for statement in statements:
            builds_bridge = statement.startswith("CREATE INDEX") and f" {bridge} " in statement
            if builds_bridge and rows < bridge_min_rows:
                continue
            with _as_owner(conn):
                conn.execute(statement)  # CONCURRENTLY: outside a transaction
            if builds_bridge:
                bridged = time.perf_counter() - start
                log(f"bridged {name} ({rows} {what}) in {bridged:.1f} s")
                if on_bridged is not None:
                    # an error here ends the run with the bridge alone, which the next
                    # run's plan ('build') replaces
                    called = time.perf_counter()
                    on_bridged(sim_no)
                    hook = time.perf_counter() - called
    return bridged, hook


def build(
    dsn: str,
    min_rows: int = DEFAULT_MIN_ROWS,
    *,
    m: int = 32,
    ef_construction: int = 128,
    log: Callable[[str], None] = lambda _m: None,
    on_bridged: Callable[[int], None] | None = None,
    bridge_min_rows: int = BRIDGE_MIN_ROWS,
    wait: float = DEFAULT_WAIT,
) -> list[IndexAction]:
    """memory.ann_plan carried out (the episodes' indexes), then the clump builds. Each new
    index of a simulation of at least `bridge_min_rows` episodes is preceded by its bridge,
    searched while the index builds; `on_bridged(sim_no)` is called once each bridge is
    built. Another backend at work on one of the indexes is waited for up to `wait`
    seconds (then Timeout, 55P03, naming it)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        actions = _carry_out(
            conn,
            plan(conn, min_rows, m, ef_construction),
            "ann_index",
            "episodes",
            m,
            ef_construction,
            log,
            on_bridged,
            bridge_min_rows,
            plan_again=lambda: plan(conn, min_rows, m, ef_construction),
            wait=wait,
        )
        clumps = build_clumps(conn, min_rows, m=m, ef_construction=ef_construction, log=log)
    return [replace(a, clumps=clumps.get(a.sim_no)) for a in actions]


def build_cluster(
    dsn: str,
    min_rows: int = DEFAULT_MIN_ROWS,
    *,
    m: int = 32,
    ef_construction: int = 128,
    log: Callable[[str], None] = lambda _m: None,
) -> list[IndexAction]:
    """The episodes' indexes on a Citus cluster, where an index lives on its tenant's shard
    alone (memory.ann_index_tenant, delegated to the tenant's worker): for every tenant, each
    simulation whose index memory.health_tenant finds missing with at least `min_rows`
    embedded episodes is built, and one it finds invalid is rebuilt. A shard a rebalance or a
    tenant isolation moved arrives without its tenant's indexes (Citus copies the indexes of
    the distributed table, not a shard's own): this rebuilds them, and keeps what is there.
    The facts and entities are searched exactly on a cluster (nothing to build); indexes are
    never dropped here."""
    actions: list[IndexAction] = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        tenants = [t for (t,) in conn.execute("SELECT tenant_id FROM memory.list_tenants()")]
        for tenant in tenants:
            found = conn.execute(
                "SELECT simulation_id, detail FROM memory.health_tenant(%s, 0)", (tenant,)
            ).fetchall()
            for simulation, detail in found:
                if simulation is None or "embedded_episodes" not in (detail or {}):
                    continue
                rows, state = int(detail["embedded_episodes"]), detail.get("state")
                if state == "indexed" or (state != "invalid" and rows < min_rows):
                    continue
                action = "rebuild" if state == "invalid" else "build"
                start = time.perf_counter()
                statements = [
                    s
                    for (s,) in conn.execute(
                        "SELECT s FROM memory.ann_index_tenant(%s, %s, %s, %s, %s) AS s",
                        (tenant, simulation, action, m, ef_construction),
                    )
                ]
                seconds = time.perf_counter() - start
                named = next(
                    (x for x in (re.search(r"episodes_ann_([0-9]+)", s) for s in statements) if x),
                    None,
                )
                name = named.group(0) if named else ""
                sim_no = int(named.group(1)) if named else -1
                log(f"{_DONE[action]} {name} ({rows} episodes) on its shard in {seconds:.1f} s")
                actions.append(IndexAction(sim_no, rows, name, _DONE[action], seconds))
    return actions


def _build_kind(
    dsn: str,
    kind: str,
    min_rows: int,
    m: int,
    ef_construction: int,
    log: Callable[[str], None],
    wait: float,
) -> list[IndexAction]:
    """memory.ann_plan_<kind> carried out by memory.ann_index_<kind> (facts, entities)."""
    with psycopg.connect(dsn, autocommit=True) as conn:

        def planned() -> list[tuple[int, str, int, str]]:
            return conn.execute(
                f"SELECT sim_no, index_name, {kind}, action"
                f" FROM memory.ann_plan_{kind}(%s, %s, %s)",
                (min_rows, m, ef_construction),
            ).fetchall()

        return _carry_out(
            conn,
            planned(),
            f"ann_index_{kind}",
            kind,
            m,
            ef_construction,
            log,
            plan_again=planned,
            wait=wait,
        )


def build_facts(
    dsn: str,
    min_rows: int = DEFAULT_MIN_ROWS,
    *,
    m: int = 32,
    ef_construction: int = 128,
    log: Callable[[str], None] = lambda _m: None,
    wait: float = DEFAULT_WAIT,
) -> list[IndexAction]:
    """memory.ann_plan_facts carried out: each simulation's index over its facts."""
    return _build_kind(dsn, "facts", min_rows, m, ef_construction, log, wait)


def build_entities(
    dsn: str,
    min_rows: int = DEFAULT_MIN_ROWS,
    *,
    m: int = 32,
    ef_construction: int = 128,
    log: Callable[[str], None] = lambda _m: None,
    wait: float = DEFAULT_WAIT,
) -> list[IndexAction]:
    """memory.ann_plan_entities carried out: each simulation's pair of indexes over its
    entities (the IndexAction names the name vectors' index; the summaries' is its pair)."""
    return _build_kind(dsn, "entities", min_rows, m, ef_construction, log, wait)


# The tables of the per-simulation indexes, for memory._ann_statements' 'drop': each
# simulation's episodes' index (with its bridge and its clump builds' indexes), facts' index
# and entities' pair.
_INDEXED_TABLES = {
    "episodes": "memory.episodes",
    "facts": "memory.edges",
    "entities": "memory.nodes",
}


def delete_tenant(
    dsn: str, tenant_id: uuid.UUID, *, log: Callable[[str], None] = lambda _m: None
) -> tuple[dict[str, int], list[str]]:
    """memory.delete_tenant, then the tenant's per-simulation indexes dropped CONCURRENTLY as
    memory_owner: (the function's counts by column, the indexes dropped). The simulations come
    from memory._ann_counts before the delete: every simulation with an embedded row of any
    kind (a simulation with none has no index worth the name; `swarm-memory index` drops
    what such a one left). The owner's rights are checked first, so that a role without
    them deletes nothing."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        _owner_mode(conn)
        sim_nos = sorted(
            {
                sim_no
                for kind in _INDEXED_TABLES
                for (sim_no,) in conn.execute(
                    "SELECT sim_no FROM memory._ann_counts(%s, 0, %s)", (tenant_id, kind)
                ).fetchall()
            }
        )
        cur = conn.execute("SELECT * FROM memory.delete_tenant(%s)", (tenant_id,))
        counts = dict(
            zip([c.name for c in cur.description or []], cur.fetchone() or (), strict=True)
        )
        existing = {
            name
            for (name,) in conn.execute(
                "SELECT c.relname FROM pg_class AS c"
                " WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind = 'i'"
            ).fetchall()
        }
        dropped: list[str] = []
        for sim_no in sim_nos:
            for table in _INDEXED_TABLES.values():
                (statements,) = conn.execute(
                    "SELECT memory._ann_statements(%s, 'drop', NULL, NULL, true, %s::regclass)",
                    (sim_no, table),
                ).fetchone()
                for statement in statements:
                    name = statement.rsplit("memory.", 1)[1].strip('"')
                    if name not in existing:
                        continue
                    with _as_owner(conn):
                        conn.execute(statement)
                    dropped.append(name)
                    log(f"dropped {name}")
    return counts, dropped
