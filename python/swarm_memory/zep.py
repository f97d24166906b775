"""`swarm-memory serve`: the part of Zep's v3 API that MiroFish calls (its graph build, memory
updater, entity reader and report tools), over the zep wing of the SQL API
(sql/functions/wings/zep; what is served and what is not: docs/zep.md).

A face, not a brain. Each request authenticates by its key (`Authorization: Api-Key <key>`,
as the zep-cloud SDK sends it): the key's sha256 names a tenant and a role
(memory.api_key_role), and the request's SQL runs in one transaction under `SET LOCAL ROLE`
to that role, so the role's grant and row-level security decide what it sees; the tenant is
never taken from the request. Each endpoint is then one call of a zep wing function, whose
rows are already in Zep's wire shape. The process keeps no state the database does not hold
beyond the count of each key's requests in flight (the per-key limit, answered 429 with
retry-after as Zep answers it). graph.search embeds its query, and graph.add its episodes,
with the graph's model, loaded once a process on first use; the extraction worker, when one
runs here, is swarm_memory.extract's.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from swarm_memory.client import Memory
from swarm_memory.client._base import configure
from swarm_memory.errors import SwarmMemoryError, translate
from swarm_memory.pictures import picture_routes
from swarm_memory.zep_batches import batch_routes
from swarm_memory.zep_http import MAX_BODY_BYTES, ZepError
from swarm_memory.zep_http import api_key as _api_key
from swarm_memory.zep_http import body as _body
from swarm_memory.zep_http import int_field as _int
from swarm_memory.zep_http import text_field as _text

__all__ = ["MAX_BODY_BYTES", "RERANKER_HEADER", "Service", "ZepError", "create_app"]

PREFIX = "/api/v2"
# Every call of a request together: a reader's calls take milliseconds (the key's role's own
# statement_timeout does not apply under SET ROLE, so the service sets one).
STATEMENT_TIMEOUT = "60s"
# What answered a search's reranking: memory.recall's reciprocal rank fusion, always (no
# cross-encoder model ships with a package that loads offline; docs/zep.md).
RERANKER_HEADER = "X-Swarm-Memory-Reranker"
SEARCH_SCOPES = ("edges", "nodes", "episodes")
SEARCH_RERANKERS = ("rrf", "cross_encoder")
# graph.search's fields the service does not apply yet: sent non-null, they are refused
# rather than ignored (an unfiltered answer to a filtered question would mislead).
SEARCH_UNSERVED = (
    "bfs_origin_node_uuids",
    "center_node_uuid",
    "min_fact_rating",
    "min_score",
    "mmr_lambda",
    "search_filters",
)

# How many graphs' models a process keeps (Service.graph_model): past it they are all
# forgotten and read again, which costs one round trip each.
MODELS_KEPT = 4096


class _StaleModel(Exception):
    """A call was refused for a graph's model this process kept: run it again afresh."""


# An endpoint's work: Memory's method of one zep wing function, on the request's connection
# (as the key's role), for the key's tenant.
Call = Callable[[Memory, psycopg.Connection, uuid.UUID], Any]


def _from_database(exc: SwarmMemoryError | psycopg.Error) -> ZepError:
    """A database refusal as Zep's status: unknown (P0002) 404, a bad value (class 22, or
    over a size limit, 54000) 400, no grant 403, a call over its time or no connection free
    503. The message is the refusal's and its hint, never the server's CONTEXT lines."""
    if isinstance(exc, PoolTimeout):
        return ZepError(
            503, "the service is busy: no database connection free", {"retry-after": "1"}
        )
    if isinstance(exc, psycopg.Error):
        exc = translate(exc)
    code = exc.sqlstate or ""
    message = str(exc)
    if code == "P0002":
        return ZepError(404, message)
    if code.startswith("22") or code == "54000":
        return ZepError(400, message)
    if code == "42501":
        return ZepError(403, message)
    if code == "55000":  # a state that forbids it: an added batch's items, a claim taken over
        return ZepError(409, message)
    if code in ("57014", "55P03"):
        return ZepError(503, message, {"retry-after": "1"})
    return ZepError(500, message)


class Service:
    """The connection pool (as a role that may SET ROLE to the keys' roles: the role that
    made them, or a superuser) and the count of each key's requests in flight."""

    def __init__(
        self,
        dsn: str,
        *,
        max_concurrent: int = 4,
        pool_size: int = 10,
        model: str | None = None,
        extractor: Any = None,
        torch_threads: int | None = None,
    ) -> None:
        if max_concurrent < 1:
            raise ValueError(f"max_concurrent must be at least 1, not {max_concurrent}")
        self.max_concurrent = max_concurrent
        # the embedding model of the graphs graph.create makes (None: the tenant's, else the
        # default model), and the extraction worker the service runs (None: none runs here)
        self.model = model
        self.extractor = extractor
        # PyTorch's intra-op threads for the embeddings of adds and searches: requests run
        # side by side in the thread pool, and one thread each beats two threads fighting for
        # two cores (an add's embedding 15-28 ms against 80-170 ms, bench/README.md); None
        # leaves the process's setting alone
        self.torch_threads = torch_threads
        self.pool = ConnectionPool(
            dsn, min_size=1, max_size=pool_size, configure=configure, open=False, timeout=30
        )
        self.memory = Memory(dsn)  # used with conn= only: it opens no pool of its own
        self._in_flight: dict[uuid.UUID, int] = {}
        self._models: dict[tuple[uuid.UUID, str], str] = {}  # graph_model's
        self._lock = threading.Lock()

    def open(self) -> None:
        if self.torch_threads:
            import torch

            torch.set_num_threads(self.torch_threads)
        self.pool.open(wait=True)
        if self.extractor is not None:
            self.extractor.start()

    def close(self) -> None:
        if self.extractor is not None:
            self.extractor.stop()
        self.pool.close()

    @contextmanager
    def hold(self, key_id: uuid.UUID) -> Iterator[None]:
        """One of a key's places for a request in flight, for the block; 429 (ZepError)
        when it has max_concurrent already."""
        with self._lock:
            if self._in_flight.get(key_id, 0) >= self.max_concurrent:
                raise ZepError(
                    429,
                    f"too many concurrent requests for this API key (at most "
                    f"{self.max_concurrent})",
                    {"retry-after": "1"},
                )
            self._in_flight[key_id] = self._in_flight.get(key_id, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                self._in_flight[key_id] -= 1
                if not self._in_flight[key_id]:
                    del self._in_flight[key_id]

    def run(self, key: str, call: Call, *, retried: bool = False) -> Any:
        """Authenticate the key, then run `call(conn, tenant)` as the key's role, in one
        transaction (SET LOCAL: the role ends with it, whatever happens)."""
        digest = hashlib.sha256(key.encode()).digest()
        try:
            with self.pool.connection() as conn, conn.transaction():
                found = self.memory.enter_key_role(digest, STATEMENT_TIMEOUT, conn=conn)
                if found is None:
                    raise ZepError(401, "unknown or revoked API key")
                with self.hold(found.key_id):
                    return call(self.memory, conn, found.tenant_id)
        except _StaleModel:
            if retried:
                raise ZepError(500, "the graph's model changed twice during one request") from None
            return self.run(key, call, retried=True)
        except (SwarmMemoryError, psycopg.Error) as exc:
            raise _from_database(exc) from exc

    def graph_model(
        self, mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID, graph_id: str
    ) -> tuple[str, bool]:
        """The graph's embedding model and whether it came from this process's memory of it.

        A graph's model changes only by a re-embed, so it is kept after the first read
        (memory.zep_graph was a round trip of every search and add); a call refused for a
        kept model raises _StaleModel through `refused`, and run() asks again afresh."""
        key = (tenant, graph_id)
        with self._lock:
            model = self._models.get(key)
        if model is not None:
            return model, True
        model = mem.zep_graph(tenant, graph_id, conn=conn).model
        with self._lock:
            if len(self._models) >= MODELS_KEPT:
                self._models.clear()
            self._models[key] = model
        return model, False

    def refused(self, exc: Exception, tenant: uuid.UUID, graph_id: str, kept: bool) -> None:
        """After a call with the graph's model failed: a bad value (22023, which a vector
        of another model than the graph's is) with a kept model forgets it and raises
        _StaleModel; anything else goes on as it was."""
        error = translate(exc) if isinstance(exc, psycopg.Error) else exc
        if kept and getattr(error, "sqlstate", None) == "22023":
            with self._lock:
                self._models.pop((tenant, graph_id), None)
            raise _StaleModel from exc


def create_app(service: Service) -> Starlette:
    """The ASGI application over a Service (which the application opens and closes)."""

    async def answer(request: Request, call: Call, status: int = 200, **headers: str) -> Response:
        key = _api_key(request)
        result = await run_in_threadpool(service.run, key, call)
        return JSONResponse(result, status, headers=headers or None)

    async def list_all(request: Request) -> Response:
        page = _int(request.query_params.get("pageNumber"), "pageNumber")
        size = _int(request.query_params.get("pageSize"), "pageSize")

        def call(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            rows = mem.zep_graphs(tenant, page, size, conn=conn)
            return {
                "graphs": [r.graph for r in rows],
                "row_count": len(rows),
                "total_count": rows[0].total_count if rows else 0,
            }

        return await answer(request, call)

    async def get_graph(request: Request) -> Response:
        graph_id = request.path_params["graph_id"]
        return await answer(
            request, lambda mem, conn, t: mem.zep_graph(t, graph_id, conn=conn).graph
        )

    async def page_request(request: Request) -> tuple[str, int | None, str | None]:
        body = await _body(request)
        limit = _int(body.get("limit"), "limit")
        if limit is not None and limit < 1:
            raise ZepError(400, f"limit must be at least 1, not {limit}")
        return request.path_params["graph_id"], limit, _text(body.get("uuid_cursor"), "uuid_cursor")

    async def nodes_by_graph(request: Request) -> Response:
        graph_id, limit, cursor = await page_request(request)
        return await answer(
            request, lambda mem, conn, t: mem.zep_nodes(t, graph_id, limit, cursor, conn=conn)
        )

    async def edges_by_graph(request: Request) -> Response:
        graph_id, limit, cursor = await page_request(request)
        return await answer(
            request, lambda mem, conn, t: mem.zep_edges(t, graph_id, limit, cursor, conn=conn)
        )

    async def get_node(request: Request) -> Response:
        uid = request.path_params["uuid"]
        return await answer(request, lambda mem, conn, t: mem.zep_node(t, uid, conn=conn))

    async def node_edges(request: Request) -> Response:
        uid = request.path_params["uuid"]
        return await answer(request, lambda mem, conn, t: mem.zep_node_edges(t, uid, conn=conn))

    async def get_edge(request: Request) -> Response:
        uid = request.path_params["uuid"]
        return await answer(request, lambda mem, conn, t: mem.zep_edge(t, uid, conn=conn))

    async def search(request: Request) -> Response:
        body = await _body(request)
        query = _text(body.get("query"), "query", required=True)
        if body.get("user_id") is not None and body.get("graph_id") is None:
            raise ZepError(400, "user graphs are not served: search a graph by graph_id")
        graph_id = _text(body.get("graph_id"), "graph_id", required=True)
        limit = _int(body.get("limit"), "limit")
        scope = body.get("scope") or "edges"
        if scope not in SEARCH_SCOPES:
            raise ZepError(400, f"scope {scope!r} is not served: pass one of {SEARCH_SCOPES}")
        reranker = body.get("reranker") or "rrf"
        if reranker not in SEARCH_RERANKERS:
            raise ZepError(
                400, f"reranker {reranker!r} is not served: pass one of {SEARCH_RERANKERS}"
            )
        unserved = [f for f in SEARCH_UNSERVED if body.get(f) not in (None, [], {})]
        if unserved:
            raise ZepError(400, f"not served yet: {', '.join(unserved)} (docs/zep.md)")

        def call(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            from swarm_memory.embed import embedder_for  # loads the model on first use

            model, kept = service.graph_model(mem, conn, tenant, graph_id)
            vector = embedder_for(model).encode_query(query)
            try:
                hits = mem.zep_search(
                    tenant, graph_id, query, vector, scope, limit, model, conn=conn
                )
            except (SwarmMemoryError, psycopg.Error) as exc:
                service.refused(exc, tenant, graph_id, kept)
                raise
            return {scope: hits}

        return await answer(request, call, **{RERANKER_HEADER: "rrf"})

    # writes: graphs, ontologies, episodes (sql/functions/wings/zep: zep_create_graph ...)

    async def create_graph(request: Request) -> Response:
        body = await _body(request)
        graph_id = _text(body.get("graph_id"), "graph_id", required=True)
        name = _text(body.get("name"), "name")
        description = _text(body.get("description"), "description")
        if body.get("fact_rating_instruction") not in (None, {}):
            raise ZepError(400, "not served yet: fact_rating_instruction (docs/zep.md)")

        def call(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            return mem.zep_create_graph(
                tenant, graph_id, name, description, service.model, conn=conn
            ).graph

        return await answer(request, call, status=201)

    async def set_ontology(request: Request) -> Response:
        body = await _body(request)
        if body.get("user_ids"):
            raise ZepError(400, "user graphs are not served: set a graph's ontology by graph_ids")
        graph_ids = body.get("graph_ids")
        if (
            not isinstance(graph_ids, list)
            or not graph_ids
            or not all(isinstance(g, str) for g in graph_ids)
        ):
            raise ZepError(400, "graph_ids must be a non-empty list of graph ids")
        entity_types = body.get("entity_types") or []
        edge_types = body.get("edge_types") or []
        if not isinstance(entity_types, list) or not isinstance(edge_types, list):
            raise ZepError(400, "entity_types and edge_types must be lists")

        def call(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            n = mem.zep_set_ontology(tenant, graph_ids, entity_types, edge_types, conn=conn)
            return {"message": f"ontology set on {n} graph{'s' if n != 1 else ''}"}

        return await answer(request, call)

    async def get_ontology(request: Request) -> Response:
        if request.query_params.get("user_id"):
            raise ZepError(400, "user graphs are not served: list a graph's types by graph_id")
        graph_id = _text(request.query_params.get("graph_id"), "graph_id", required=True)
        return await answer(request, lambda mem, conn, t: mem.zep_ontology(t, graph_id, conn=conn))

    def add_call(graph_id: str, episodes: list[dict[str, Any]], one: bool) -> Call:
        """Add episodes, each with its vector of the graph's model (searchable at once)."""

        def call(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            from swarm_memory.embed import embedder_for  # loads the model on first use

            model, kept = service.graph_model(mem, conn, tenant, graph_id)
            texts = [e.get("data") for e in episodes]
            if all(isinstance(t, str) and t.strip() for t in texts):
                vectors = embedder_for(model).encode(texts)
                episodes_with = [
                    {**e, "embedding": [float(x) for x in v], "embedding_model": model}
                    for e, v in zip(episodes, vectors, strict=True)
                ]
            else:  # the database says which one is wrong
                episodes_with = episodes
            try:
                added = mem.zep_add_episodes(tenant, graph_id, episodes_with, conn=conn)
            except (SwarmMemoryError, psycopg.Error) as exc:
                service.refused(exc, tenant, graph_id, kept)
                raise
            return added[0] if one else added

        return call

    def episode_fields(item: Any, where: str) -> dict[str, Any]:
        if not isinstance(item, dict):
            raise ZepError(400, f"{where} must be an object")
        if item.get("user_id") is not None:
            raise ZepError(400, "user graphs are not served: add to a graph by graph_id")
        return {
            k: item.get(k)
            for k in ("data", "type", "created_at", "source_description")
            if k in item
        }

    async def add(request: Request) -> Response:
        body = await _body(request)
        episode = episode_fields(body, "the request body")
        graph_id = _text(body.get("graph_id"), "graph_id", required=True)
        return await answer(request, add_call(graph_id, [episode], one=True))

    async def add_batch(request: Request) -> Response:
        body = await _body(request)
        if body.get("user_id") is not None:
            raise ZepError(400, "user graphs are not served: add to a graph by graph_id")
        graph_id = _text(body.get("graph_id"), "graph_id", required=True)
        items = body.get("episodes")
        if not isinstance(items, list) or not items:
            raise ZepError(400, "episodes must be a non-empty list")
        episodes = [episode_fields(e, f"episode {i + 1}") for i, e in enumerate(items)]
        return await answer(request, add_call(graph_id, episodes, one=False))

    async def get_episode(request: Request) -> Response:
        try:
            uid = uuid.UUID(request.path_params["uuid"])
        except ValueError:
            raise ZepError(404, f"unknown episode {request.path_params['uuid']!r}") from None
        return await answer(request, lambda mem, conn, t: mem.zep_episode(t, uid, conn=conn))

    async def graph_episodes(request: Request) -> Response:
        graph_id = request.path_params["graph_id"]
        lastn = _int(request.query_params.get("lastn"), "lastn")

        def call(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            return {"episodes": mem.zep_graph_episodes(tenant, graph_id, lastn, conn=conn)}

        return await answer(request, call)

    async def delete_graph(request: Request) -> Response:
        graph_id = request.path_params["graph_id"]

        def call(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID) -> Any:
            mem.zep_delete_graph(tenant, graph_id, conn=conn)
            return {"message": f"graph {graph_id} deleted"}

        return await answer(request, call)

    async def not_served(request: Request) -> Response:
        return JSONResponse(
            {
                "message": f"{request.method} {request.url.path} is not served by swarm-memory "
                "yet: it serves Zep's graphs, episodes and their reads (docs/zep.md)"
            },
            501,
        )

    async def on_zep_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ZepError)
        return exc.response()

    routes = [
        Route(f"{PREFIX}/graph/list-all", list_all, methods=["GET"]),
        Route(f"{PREFIX}/graph/create", create_graph, methods=["POST"]),
        Route(f"{PREFIX}/entity-types", set_ontology, methods=["PUT"]),
        Route(f"{PREFIX}/entity-types", get_ontology, methods=["GET"]),
        Route(f"{PREFIX}/graph", add, methods=["POST"]),
        Route(f"{PREFIX}/graph-batch", add_batch, methods=["POST"]),
        Route(f"{PREFIX}/graph/episodes/graph/{{graph_id}}", graph_episodes, methods=["GET"]),
        Route(f"{PREFIX}/graph/episodes/{{uuid}}", get_episode, methods=["GET"]),
        Route(f"{PREFIX}/graph/search", search, methods=["POST"]),
        Route(f"{PREFIX}/graph/node/graph/{{graph_id}}", nodes_by_graph, methods=["POST"]),
        Route(f"{PREFIX}/graph/edge/graph/{{graph_id}}", edges_by_graph, methods=["POST"]),
        Route(f"{PREFIX}/graph/node/{{uuid}}/entity-edges", node_edges, methods=["GET"]),
        Route(f"{PREFIX}/graph/node/{{uuid}}", get_node, methods=["GET"]),
        Route(f"{PREFIX}/graph/edge/{{uuid}}", get_edge, methods=["GET"]),
        Route(f"{PREFIX}/graph/{{graph_id}}", get_graph, methods=["GET"]),
        Route(f"{PREFIX}/graph/{{graph_id}}", delete_graph, methods=["DELETE"]),
        *batch_routes(answer, PREFIX),
        *picture_routes(answer),
        Route(
            "/{path:path}",
            not_served,
            methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        ),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(service.open)
        try:
            yield
        finally:
            await run_in_threadpool(service.close)

    return Starlette(routes=routes, exception_handlers={ZepError: on_zep_error}, lifespan=lifespan)
