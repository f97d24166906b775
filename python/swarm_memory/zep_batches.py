"""The routes of Zep's batch API (zep-cloud 3.25's client.batch) for `swarm-memory serve`, over
the zep wing's batch functions (sql/functions/wings/zep/zep_batch_*). Each request is one
call as the key's role, as every route of swarm_memory.zep; batch.add also reads each
graph's model and embeds the items' text with it, so that the episodes processing makes are
searchable by meaning at once. Only graph_episode items are served: thread_message items are
refused (400), as threads are."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from swarm_memory.errors import SwarmMemoryError
from swarm_memory.zep_http import ZepError
from swarm_memory.zep_http import body as _body
from swarm_memory.zep_http import int_field as _int
from swarm_memory.zep_http import text_field as _text

__all__ = ["batch_routes"]

# A batch endpoint's work: swarm_memory.zep's Call, on a Memory with ZepBatchMixin's methods.
BatchCall = Callable[[Any, psycopg.Connection, uuid.UUID], Any]
Answer = Callable[..., Awaitable[Response]]

# The item fields batch.add passes on; the rest of Zep's BatchAddItem (thread_id, role, name,
# content, user_id) belongs to thread messages, which the database refuses by their type.
ITEM_FIELDS = (
    "type",
    "graph_id",
    "data",
    "data_type",
    "created_at",
    "source_description",
    "metadata",
    "user_id",
)


def _conflict(call: BatchCall) -> BatchCall:
    """A batch in the wrong state for the call (55000: items added to a processed batch, a
    batch deleted while its items are queued) is Zep's 409."""

    def wrapped(mem: Any, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
        try:
            return call(mem, conn, tenant)
        except SwarmMemoryError as exc:
            if exc.sqlstate == "55000":
                raise ZepError(409, str(exc)) from exc
            raise

    return wrapped


def _batch_id(request: Request) -> uuid.UUID:
    raw = request.path_params["batch_id"]
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise ZepError(404, f"unknown batch {raw!r}") from None


def _page(request: Request) -> tuple[int | None, int | None, str | None]:
    limit = _int(request.query_params.get("limit"), "limit")
    if limit is not None and limit < 1:
        raise ZepError(400, f"limit must be at least 1, not {limit}")
    cursor = _int(request.query_params.get("cursor"), "cursor")
    return limit, cursor, _text(request.query_params.get("status") or None, "status")


def _with_vectors(mem: Any, conn: psycopg.Connection, tenant: uuid.UUID, items: list[dict]) -> list:
    """The items, each graph episode with its data's vector in its graph's model (an unknown
    graph is 404 here); items the database will refuse are passed as they are."""
    from swarm_memory.embed import embedder_for  # loads the model on first use

    wanted = [
        i
        for i in items
        if i.get("type") == "graph_episode"
        and isinstance(i.get("graph_id"), str)
        and isinstance(i.get("data"), str)
        and i["data"].strip()
    ]
    if len(wanted) != len(items):  # the database says which one is wrong
        return items
    models = {g: mem.zep_graph(tenant, g, conn=conn).model for g in {i["graph_id"] for i in items}}
    out = [dict(i) for i in items]
    for model in set(models.values()):
        mine = [i for i in out if models[i["graph_id"]] == model]
        vectors = embedder_for(model).encode([i["data"] for i in mine])
        for item, vector in zip(mine, vectors, strict=True):
            item["embedding"] = [float(x) for x in vector]
            item["embedding_model"] = model
    return out


def batch_routes(answer: Answer, prefix: str) -> list[Route]:
    """The batch routes under `prefix` (/api/v2), answered through `answer(request, call,
    status=200, **headers)`: they go before the service's catch-all route."""

    async def list_batches(request: Request) -> Response:
        limit, cursor, status = _page(request)
        return await answer(
            request,
            lambda mem, conn, t: mem.zep_batches(t, limit, cursor, status, conn=conn),
        )

    async def create(request: Request) -> Response:
        body = await _body(request)
        metadata = body.get("metadata")
        if metadata is not None and not isinstance(metadata, dict):
            raise ZepError(400, "metadata must be an object")
        roles = body.get("ignore_roles")
        if roles is not None and (
            not isinstance(roles, list) or not all(isinstance(r, str) for r in roles)
        ):
            raise ZepError(400, "ignore_roles must be a list of role names")
        return await answer(
            request,
            lambda mem, conn, t: mem.zep_batch_create(t, metadata, roles, conn=conn),
            status=201,
        )

    async def get(request: Request) -> Response:
        batch_id = _batch_id(request)
        return await answer(request, lambda mem, conn, t: mem.zep_batch(t, batch_id, conn=conn))

    async def delete(request: Request) -> Response:
        batch_id = _batch_id(request)

        def call(mem: Any, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            mem.zep_batch_delete(tenant, batch_id, conn=conn)
            return {"message": f"batch {batch_id} deleted"}

        return await answer(request, _conflict(call))

    async def list_items(request: Request) -> Response:
        batch_id = _batch_id(request)
        limit, cursor, status = _page(request)
        return await answer(
            request,
            lambda mem, conn, t: mem.zep_batch_items(t, batch_id, limit, cursor, status, conn=conn),
        )

    async def add(request: Request) -> Response:
        batch_id = _batch_id(request)
        body = await _body(request)
        raw = body.get("items")
        if not isinstance(raw, list) or not raw:
            raise ZepError(400, "items must be a non-empty list")
        if not all(isinstance(i, dict) for i in raw):
            raise ZepError(400, "every item must be an object")
        items = [{k: i[k] for k in ITEM_FIELDS if k in i} for i in raw]

        def call(mem: Any, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            # the batch first: an unknown one is 404 before a model is loaded for its items
            mem.zep_batch(tenant, batch_id, conn=conn)
            with_vectors = _with_vectors(mem, conn, tenant, items)
            return mem.zep_batch_add(tenant, batch_id, with_vectors, conn=conn)

        return await answer(request, _conflict(call))

    async def process(request: Request) -> Response:
        batch_id = _batch_id(request)
        return await answer(
            request,
            _conflict(lambda mem, conn, t: mem.zep_batch_process(t, batch_id, conn=conn)),
        )

    return [
        Route(f"{prefix}/batches", list_batches, methods=["GET"]),
        Route(f"{prefix}/batches", create, methods=["POST"]),
        Route(f"{prefix}/batches/{{batch_id}}/items", list_items, methods=["GET"]),
        Route(f"{prefix}/batches/{{batch_id}}/items", add, methods=["POST"]),
        Route(f"{prefix}/batches/{{batch_id}}/process", process, methods=["POST"]),
        Route(f"{prefix}/batches/{{batch_id}}", get, methods=["GET"]),
        Route(f"{prefix}/batches/{{batch_id}}", delete, methods=["DELETE"]),
    ]
