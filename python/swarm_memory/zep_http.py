"""The HTTP edges of `swarm-memory serve` that every route shares: Zep's error answer, the API
key of a request, its JSON body and its fields (swarm_memory.zep's routes and
swarm_memory.zep_batches' use them)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

__all__ = ["MAX_BODY_BYTES", "ZepError", "api_key", "body", "int_field", "text_field"]

# The most a request body may hold: a search or a page is a few hundred bytes, an add_batch
# of MiroFish's chunks a few kB (20 episodes of 50 kB would be over it: 413, add fewer).
MAX_BODY_BYTES = 1 << 20


class ZepError(Exception):
    """An answer other than 200, as Zep gives it: a status and {"message": ...}."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}

    def response(self) -> JSONResponse:
        return JSONResponse({"message": self.message}, self.status, headers=self.headers)


def api_key(request: Request) -> str:
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "api-key" or not key.strip():
        raise ZepError(401, "missing API key: send the header Authorization: Api-Key <key>")
    return key.strip()


async def body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ZepError(413, f"request body over {MAX_BODY_BYTES} bytes")
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ZepError(400, f"request body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ZepError(400, "request body must be a JSON object")
    return body


def int_field(value: Any, name: str) -> int | None:
    """An optional integer field or parameter; anything else is 400."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ZepError(400, f"{name} must be an integer, not {value!r}")
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise ZepError(400, f"{name} must be an integer, not {value!r}") from None
    if isinstance(value, int):
        return value
    raise ZepError(400, f"{name} must be an integer, not {value!r}")


def text_field(value: Any, name: str, *, required: bool = False) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise ZepError(400, f"{name} must be a non-empty string")
    return value
