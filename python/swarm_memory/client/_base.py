"""What every family of the client shares: the connection (a pool, or the caller's), the
call helpers, the vector and JSON adapters and the mapping of database errors."""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, Self, TypeVar

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from swarm_memory.errors import AmbiguousName, InvalidInput, NotFound, translate

UUIDLike = uuid.UUID | str
Connection = psycopg.Connection[Any]
T = TypeVar("T")


def configure(conn: psycopg.Connection) -> None:
    """Register pgvector's adapter on a connection: numpy arrays and `Vector`s go as the
    binary `vector` type. A database without pgvector gets nothing registered. (pgvector
    brings numpy: imported here, when a connection is made, not with the client.)"""
    from pgvector.psycopg import register_vector

    with suppress(psycopg.ProgrammingError):  # no vector type (a database not migrated yet)
        register_vector(conn)


def _ensure_vector(conn: psycopg.Connection) -> None:
    if conn.adapters.types.get("vector") is None:
        configure(conn)


def _vector(value: Any) -> Any:
    """A query vector as something the adapter sends binary; None stays NULL."""
    import numpy as np
    from pgvector import Vector

    if value is None or isinstance(value, Vector):
        return value
    try:
        array = np.asarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"a query vector must be a sequence of numbers: {exc}") from None
    if array.ndim != 1:
        raise InvalidInput(f"a query vector must be one-dimensional, not of shape {array.shape}")
    return array


def _plain(value: Any) -> Any:
    import numpy as np
    from pgvector import Vector

    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Vector):
        return value.to_list()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, default=_plain)


def _json(value: Any) -> Jsonb:
    """A jsonb parameter; numpy arrays inside (embeddings) become JSON arrays."""
    return Jsonb(value, dumps=_dumps)


@contextmanager
def _translated() -> Iterator[None]:
    try:
        yield
    except psycopg.Error as exc:
        raise translate(exc) from exc


# The API functions whose first argument is not a tenant, or a tenant that may be NULL
# (health: every tenant); every other function takes the tenant first.
_NOT_TENANT_FIRST = frozenset(
    {
        "ann_index",
        "ann_index_entities",
        "ann_index_facts",
        "ann_plan",
        "ann_plan_entities",
        "ann_plan_facts",
        "api_key_role",
        "create_tenant",
        "grant_tenant",
        "health",
        "list_models",
        "list_tenants",
        "open_staging",
        "revoke_tenant",
        "rls_audit",
        "route",
        "set_route_rule",
    }
)
_CALL = re.compile(r"memory\.([a-z_]+)\(%s")
# The functions that take the tenant second (a role first); the simulation's functions take
# it second, after the tenant. A tenant or simulation given there as a name (or MiroFish id)
# is resolved before the call (_resolve_names); tests hold both lists to the catalog.
_TENANT_SECOND = frozenset({"grant_tenant", "revoke_tenant"})
_SIMULATION_SECOND = frozenset(
    {
        "create_snapshot",
        "drop_snapshot",
        "forget_agent",
        "forget_episodes",
        "forgotten_ids",
        "neighbor_ids",
        "snapshots",
        "decide_link",
        "identity",
        "identity_facts",
        "identity_links",
        "link_runs",
        "ann_index_tenant",
        "begin_import",
        "committed_hashes",
        "compact_episodes",
        "delete_simulation",
        "entity_summary",
        "episode_vector",
        "episodes",
        "evidence",
        "facts",
        "get_edge",
        "get_node",
        "graph_edges",
        "graph_nodes",
        "history",
        "import_attempts",
        "link_evidence",
        "match_entities",
        "model_of",
        "neighbors",
        "nodes_by_type",
        "nodes_named",
        "panorama",
        "paths",
        "predictions",
        "profiles",
        "recall",
        "record_outcome",
        "reembed_texts",
        "report_log",
        "report_sections",
        "reports",
        "search_episodes",
        "search_facts",
        "search_nodes",
        "search_reports",
        "search_words",
        "set_model",
        "simulation_stats",
        "switch_model",
        "timeline",
        "upsert_edges",
        "upsert_episodes",
        "upsert_nodes",
        "upsert_predictions",
        "upsert_profiles",
        "upsert_simulation",
        "warm",
        "zep_extraction_context",
    }
)


# A call on the client's own connection is a transaction of its own; on a Citus cluster one
# can fail while its tenant's shard moves between workers, with nothing written: 25001 (Citus
# finds the shard's placement changed under the transaction), or a call Citus sent to the
# worker the shard has just left, where its statements would have to reach the shard's new
# worker (XX000 with the message below; Citus gives that refusal no code of its own). Both
# are rare races at a move's switch-over. Every call is atomic and a replay changes nothing,
# so such a call is run again after a short wait: the seconds before each retry. A call on
# the caller's connection is not: the caller's transaction has failed, and only the caller
# can run it again.
_RETRY_WAITS = (0.05, 0.25, 1.0)
_RETRIED_STATES = frozenset({"25001"})
_MOVED_AWAY = ("XX000", "cannot execute a distributed query from a query on a shard")


def _retry_or_raise(exc: Exception, conn: psycopg.Connection | None, attempt: int) -> None:
    """Wait and return when the call that failed at `attempt` (0: the first) may run again,
    else raise `exc`."""
    cause = exc.__cause__ if isinstance(exc.__cause__, psycopg.Error) else exc
    state = getattr(cause, "sqlstate", None)
    message = getattr(getattr(cause, "diag", None), "message_primary", None)
    moved_away = (state, message) == _MOVED_AWAY
    if (
        conn is not None
        or not (state in _RETRIED_STATES or moved_away)
        or attempt >= len(_RETRY_WAITS)
    ):
        raise exc
    time.sleep(_RETRY_WAITS[attempt])


def _refuse_null_tenant(query: str, params: Sequence[Any]) -> None:
    """A NULL tenant is refused before it is sent (22004, as the functions refuse it): on a
    Citus cluster a delegated call whose tenant is NULL crashes the coordinator's backend,
    and every session of the coordinator with it (docs/scale-out.md)."""
    m = _CALL.search(query)
    if m and params and params[0] is None and m.group(1) not in _NOT_TENANT_FIRST:
        raise InvalidInput(
            f"p_tenant_id must not be NULL (memory.{m.group(1)})",
            "22004",
            hint="pass the id of the tenant to act for",
        )


def _as_uuid(value: Any) -> uuid.UUID | None:
    """`value` as a UUID if it is one or reads as one; None for anything else."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _is_name(value: Any) -> bool:
    """A tenant or simulation given by name: a string that does not read as a UUID. A UUID
    (or a string that reads as one) is always taken as the id itself."""
    return isinstance(value, str) and _as_uuid(value) is None


def _tenant_named(c: Connection, name: str) -> uuid.UUID:
    """The tenant of a name among those the caller may act for (names are unique)."""
    row = c.execute(
        "SELECT t.tenant_id FROM memory.list_tenants() AS t WHERE t.name = %s", (name,)
    ).fetchone()
    if row is None:
        raise NotFound(
            f"no tenant named {name!r} that this role may act for",
            "P0002",
            hint="memory.list_tenants() lists them",
        )
    return row[0]


def _simulation_named(c: Connection, tenant_id: UUIDLike, reference: str) -> uuid.UUID:
    """The one simulation a name or MiroFish id names (memory.resolve_simulation: an exact
    name first); none is NotFound, several AmbiguousName listing them."""
    rows = c.execute(
        "SELECT simulation_id, name, matched_by FROM memory.resolve_simulation(%s, %s)",
        (tenant_id, reference),
    ).fetchall()
    if not rows:
        raise NotFound(
            f"no simulation named {reference!r} (nor with that MiroFish id) in tenant {tenant_id}",
            "P0002",
            hint="memory.list_simulations() lists them",
        )
    if len(rows) == 1:
        return rows[0][0]
    by = {"name": "name", "mirofish_id": "MiroFish id", "graph_id": "MiroFish graph id"}
    names = [name for _, name, _ in rows]
    listed = ", ".join(f"{name or '(no name)'} ({sid})" for sid, name, _ in rows)
    way = "its UUID" if len(set(names)) < len(names) or None in names else "its name or UUID"
    raise AmbiguousName(
        f"{len(rows)} simulations of tenant {tenant_id} have the {by[rows[0][2]]} "
        f"{reference!r}: {listed}; give {way}",
        [(sid, name) for sid, name, _ in rows],
    )


def _resolve_names(c: Connection, query: str, params: Sequence[Any]) -> Sequence[Any]:
    """`params` with a tenant or simulation given by name replaced by its UUID, on the
    call's own connection (so under its role and in its transaction). Calls given UUIDs
    pay nothing: one resolution query a name, none otherwise."""
    m = _CALL.search(query)
    if m is None or not params:
        return params
    fn = m.group(1)
    if fn in _TENANT_SECOND:
        tenant_at, simulation_at = 1, None
    elif fn in _NOT_TENANT_FIRST:
        return params
    else:
        tenant_at, simulation_at = 0, (1 if fn in _SIMULATION_SECOND else None)
    if len(params) <= tenant_at:
        return params
    tenant = params[tenant_at]
    simulation = params[simulation_at] if simulation_at is not None else None
    if not _is_name(tenant) and not _is_name(simulation):
        return params
    out = list(params)
    if _is_name(tenant):
        out[tenant_at] = _tenant_named(c, tenant)
    if simulation_at is not None and _is_name(simulation):
        out[simulation_at] = _simulation_named(c, out[tenant_at], simulation)
    return out


class MemoryBase:
    """The connection handling of `Memory` and the call helpers every family uses."""

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 4) -> None:
        self.dsn = dsn
        self._min_size = min_size
        self._max_size = max_size
        self._pool: ConnectionPool | None = None
        self._lock = threading.Lock()

    @property
    def pool(self) -> ConnectionPool:
        with self._lock:
            if self._pool is None:
                # One direct connection first: a server that is down or a role that cannot log
                # in fails here at once with its cause, instead of the pool retrying in the
                # background until its 30 s timeout.
                with _translated():
                    psycopg.connect(self.dsn, connect_timeout=10).close()
                self._pool = ConnectionPool(
                    self.dsn,
                    min_size=self._min_size,
                    max_size=self._max_size,
                    kwargs={"autocommit": True},
                    configure=configure,
                    open=True,
                )
            return self._pool

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect(self, *, autocommit: bool = True) -> psycopg.Connection:
        """A connection of its own, set up like the pool's, for a session that outlives one
        call: a staged import lives as long as the session that began it."""
        with _translated():
            conn = psycopg.connect(self.dsn, autocommit=autocommit)
            configure(conn)
            return conn

    @contextmanager
    def _conn(self, conn: psycopg.Connection | None) -> Iterator[psycopg.Connection]:
        if conn is not None:
            yield conn
        else:
            with self.pool.connection() as pooled:
                yield pooled

    def _rows(
        self, query: str, params: Sequence[Any], conn: psycopg.Connection | None
    ) -> list[tuple[Any, ...]]:
        _refuse_null_tenant(query, params)
        for attempt in range(len(_RETRY_WAITS) + 1):
            try:
                with _translated(), self._conn(conn) as c:
                    return c.execute(query, _resolve_names(c, query, params)).fetchall()
            except Exception as exc:
                _retry_or_raise(exc, conn, attempt)
        raise AssertionError("unreachable")  # the last retry raises

    def _records(
        self,
        cls: type[T],
        query: str,
        params: Sequence[Any],
        conn: psycopg.Connection | None,
        *,
        vectors: bool = False,
    ) -> list[T]:
        """The rows of `query` as `cls`, built by column name: a column the dataclass lacks
        (or a field the function does not return) fails the call."""
        _refuse_null_tenant(query, params)
        for attempt in range(len(_RETRY_WAITS) + 1):
            try:
                with _translated(), self._conn(conn) as c:
                    if vectors:
                        _ensure_vector(c)
                    named = _resolve_names(c, query, params)
                    with c.cursor(row_factory=class_row(cls)) as cur:
                        return cur.execute(query, named).fetchall()
            except Exception as exc:
                _retry_or_raise(exc, conn, attempt)
        raise AssertionError("unreachable")  # the last retry raises

    def tenant(self, tenant: UUIDLike, *, conn: Connection | None = None) -> uuid.UUID:
        """A tenant given as a UUID or by name, as its UUID (a name among the tenants the
        caller may act for; NotFound if none). Every method resolves a name itself: this is
        for a caller that wants the UUID once."""
        as_id = _as_uuid(tenant)
        if as_id is not None:
            return as_id
        with _translated(), self._conn(conn) as c:
            return _tenant_named(c, str(tenant))

    def simulation(
        self, tenant: UUIDLike, simulation: UUIDLike, *, conn: Connection | None = None
    ) -> uuid.UUID:
        """A simulation given as a UUID, by name or by MiroFish id (an exact name first), as
        its UUID; NotFound if none, AmbiguousName (listing them) if several."""
        as_id = _as_uuid(simulation)
        if as_id is not None:
            return as_id
        with _translated(), self._conn(conn) as c:
            tenant_id = _tenant_named(c, str(tenant)) if _is_name(tenant) else tenant
            return _simulation_named(c, tenant_id, str(simulation))

    def _one(self, cls: type[T], query: str, params: Sequence[Any], conn: Connection | None) -> T:
        return self._records(cls, query, params, conn)[0]
