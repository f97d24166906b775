"""What every family of the client shares: the connection (a pool, or the caller's), the
call helpers, the vector and JSON adapters and the mapping of database errors."""

from __future__ import annotations

import json
import re
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, Self, TypeVar

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from swarm_memory.errors import InvalidInput, translate

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
        with _translated(), self._conn(conn) as c:
            return c.execute(query, params).fetchall()

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
        with _translated(), self._conn(conn) as c:
            if vectors:
                _ensure_vector(c)
            with c.cursor(row_factory=class_row(cls)) as cur:
                return cur.execute(query, params).fetchall()

    def _one(self, cls: type[T], query: str, params: Sequence[Any], conn: Connection | None) -> T:
        return self._records(cls, query, params, conn)[0]
