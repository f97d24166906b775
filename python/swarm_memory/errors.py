"""SQLSTATEs of the SQL API mapped onto a small exception hierarchy."""

from __future__ import annotations

import psycopg


class SwarmMemoryError(Exception):
    """An error raised by the SQL API; carries its SQLSTATE, message and hint."""

    def __init__(self, message: str, sqlstate: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.sqlstate = sqlstate
        self.hint = hint

    def __str__(self) -> str:
        text = super().__str__()
        return f"{text} (hint: {self.hint})" if self.hint else text


class TenantAccessDenied(SwarmMemoryError):
    """42501: the role holds no grant for the tenant (or lacks the privilege)."""


class NotFound(SwarmMemoryError):
    """P0002: unknown simulation, node or tenant (the same for another tenant's)."""


class InvalidInput(SwarmMemoryError):
    """Class 22: NULL where a value is required, a malformed item, a bad vector or value."""


class UnknownReference(InvalidInput):
    """23503: an edge refers to a node the simulation does not have."""


class Conflict(SwarmMemoryError):
    """23505: a tenant name or id already taken."""


def translate(exc: psycopg.Error) -> SwarmMemoryError | psycopg.Error:
    """The project exception for a database error, or the error itself when none fits."""
    state = exc.sqlstate or ""
    diag = exc.diag
    message = diag.message_primary or str(exc)
    hint = diag.message_hint
    if state == "42501":
        cls: type[SwarmMemoryError] = TenantAccessDenied
    elif state == "P0002":
        cls = NotFound
    elif state == "23503":
        cls = UnknownReference
    elif state == "23505":
        cls = Conflict
    elif state.startswith("22"):
        cls = InvalidInput
    else:
        return exc
    return cls(message, state, hint)
