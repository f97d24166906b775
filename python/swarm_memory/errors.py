"""SQLSTATEs of the SQL API mapped onto a small exception hierarchy.

    SwarmMemoryError
    +-- TenantAccessDenied   42501 insufficient_privilege
    +-- NotFound             P0002 no_data_found, 42704 undefined_object (an unknown role)
    +-- InvalidInput         class 22 (22004 null_value_not_allowed, 22023
    |   |                    invalid_parameter_value, 22P02 and the other bad-value codes),
    |   |                    23502 not_null_violation, 23514 check_violation
    |   +-- UnknownReference 23503 foreign_key_violation (an edge to a node not there)
    |   +-- LimitExceeded    54000 program_limit_exceeded (a batch, list, object or string
    |   |                    over a cap of memory._limit(); the message names the limit)
    |   +-- AmbiguousName    raised by the client: a tenant or simulation given by a name
    |                        or MiroFish id that several simulations answer to
    +-- QuotaExceeded        53400 configuration_limit_exceeded (a write that would take
    |                        the tenant beyond a cap of memory.set_quota; nothing was written)
    +-- Conflict             23505 unique_violation (a tenant name or id already taken)
    |   +-- ConcurrentImport 40001 serialization_failure (another import of the simulation
    |                        committed while this one loaded; run it again)
    +-- StateError           55000 object_not_in_prerequisite_state (an import attempt that
    |   |                    is no longer loading, a session without staging tables)
    |   +-- CountMismatch    21000 cardinality_violation (staged counts are not the declared)
    +-- Timeout              55P03 lock_not_available, 57014 query_canceled
    +-- NotSupported         0A000 feature_not_supported (a model of a dimension the memory
    |                        does not store: a migration of its own)
    +-- DatabaseError        anything else: other SQLSTATEs (09000: a words trigger placed
                             on another table), a connection that failed
    +-- ImportFailed         raised by the importer: the attempt was refused, nothing promoted

`translate()` is the one place a psycopg error becomes one of these; every method of
`swarm_memory.client.Memory` goes through it, so no raw psycopg error reaches its callers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg


class SwarmMemoryError(Exception):
    """An error raised by the SQL API; carries its SQLSTATE, message, detail and hint."""

    def __init__(
        self,
        message: str,
        sqlstate: str | None = None,
        hint: str | None = None,
        detail: str | None = None,
    ):
        super().__init__(message)
        self.sqlstate = sqlstate
        self.hint = hint
        self.detail = detail

    def __str__(self) -> str:
        text = super().__str__()
        return f"{text} (hint: {self.hint})" if self.hint else text


class TenantAccessDenied(SwarmMemoryError):
    """42501: the role holds no grant for the tenant (or lacks the privilege)."""


class NotFound(SwarmMemoryError):
    """P0002: unknown simulation, node, tenant or attempt (the same for another tenant's);
    42704: an unknown role."""


class InvalidInput(SwarmMemoryError):
    """Class 22: NULL where a value is required, a malformed item, a bad vector or value;
    23502 and 23514: a value a table's constraint refuses."""


class UnknownReference(InvalidInput):
    """23503: an edge refers to a node the simulation (or the import) does not have."""


class LimitExceeded(InvalidInput):
    """54000: a batch, list argument, object or string over a cap of memory._limit() (rows
    or bytes per batch, object_bytes, string_bytes, list_elements); nothing was written.
    Split the batch or shorten the value."""


class AmbiguousName(InvalidInput):
    """A simulation given by a name or MiroFish id that several simulations of the tenant
    answer to (memory.resolve_simulation); `candidates` holds them, as (UUID, name) pairs,
    and the message lists them. Nothing was called."""

    def __init__(self, message: str, candidates: Sequence[tuple[Any, str | None]] = ()):
        super().__init__(message)
        self.candidates = list(candidates)


class QuotaExceeded(SwarmMemoryError):
    """53400: the write would take the tenant beyond its quota of simulations or of a record
    kind (memory.set_quota); nothing of it was written. An administrator raises the cap."""


class Conflict(SwarmMemoryError):
    """23505: a tenant name or id already taken."""


class ConcurrentImport(Conflict):
    """40001: another import of the simulation committed while this one loaded and changed
    rows it relied on; running the import again succeeds."""


class StateError(SwarmMemoryError):
    """55000: the object is not in the state the call needs (an import attempt already
    committed, aborted or failed; a session that has not opened its staging tables)."""


class CountMismatch(StateError):
    """21000: an import attempt holds other counts than it declared; stage the rest or
    abort it."""


class Timeout(SwarmMemoryError):
    """55P03 or 57014: the call gave up waiting for a lock or ran past its time limit;
    nothing of it was kept, and it may be retried."""


class NotSupported(SwarmMemoryError):
    """0A000: the memory does not support what the call asks (a model of another dimension
    than the stored vectors')."""


class DatabaseError(SwarmMemoryError):
    """Any other database error (a SQLSTATE outside the API's contract, a connection that
    failed or broke); `sqlstate` is None when the server sent none."""


class ImportFailed(SwarmMemoryError):
    """The import attempt did not commit; the committed state is unchanged. `problems`
    holds validate_import's blocking rows, `reason` what the attempt records as its error."""

    def __init__(
        self,
        message: str,
        problems: Sequence[Any] = (),
        sqlstate: str | None = None,
        hint: str | None = None,
        reason: str | None = None,
    ):
        super().__init__(message, sqlstate, hint)
        self.problems = list(problems)
        self.reason = reason


# SQLSTATE (or SQLSTATE class, two characters) -> exception class. Exact codes first.
_BY_STATE: dict[str, type[SwarmMemoryError]] = {
    "42501": TenantAccessDenied,
    "P0002": NotFound,
    "42704": NotFound,
    "23503": UnknownReference,
    "23505": Conflict,
    "40001": ConcurrentImport,
    "23502": InvalidInput,
    "23514": InvalidInput,
    "55000": StateError,
    "21000": CountMismatch,
    "54000": LimitExceeded,
    "53400": QuotaExceeded,
    "55P03": Timeout,
    "57014": Timeout,
    "0A000": NotSupported,
}
_BY_CLASS: dict[str, type[SwarmMemoryError]] = {
    "22": InvalidInput,
}


def error_class(sqlstate: str | None) -> type[SwarmMemoryError]:
    """The exception class of a SQLSTATE (DatabaseError for one outside the contract)."""
    state = sqlstate or ""
    return _BY_STATE.get(state) or _BY_CLASS.get(state[:2]) or DatabaseError


def translate(exc: psycopg.Error) -> SwarmMemoryError:
    """The project exception for a database error; raise it `from exc`."""
    diag = exc.diag
    message = diag.message_primary or str(exc).strip() or type(exc).__name__
    return error_class(exc.sqlstate)(message, exc.sqlstate, diag.message_hint, diag.message_detail)
