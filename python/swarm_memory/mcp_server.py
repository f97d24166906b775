"""`swarm-memory mcp`: the memory's reads as tools of a Model Context Protocol server (the
official SDK's MCPServer), over stdio or streamable HTTP (docs/mcp.md).

A face, not a brain, bound to a tenant as `serve` is. With a key (stdio: `--key-env VAR`;
HTTP: each request's `Authorization: Api-Key <key>` or `Bearer <key>`), a call looks the
key's sha256 up (memory.api_key_role) and runs in one transaction under `SET LOCAL ROLE` to
the key's role, so the role's grant and row-level security decide what it sees; with
`--tenant` (stdio) it runs as the connecting role itself. The tenant is never taken from a
tool's arguments: another tenant's simulation is unknown, as a missing one is.

Each tool is one call of a SQL function, answered as its rows (field names the function's
columns). Around that call, in the same transaction: a simulation given by name is looked
up (memory.list_simulations), an entity given by name when no entity has it as id
(memory.nodes_named), and a tool that embeds reads the simulation's model
(memory.model_of) and embeds the text with it (loaded once a process, on first use).
"""

from __future__ import annotations

import dataclasses
import hashlib
import uuid
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, TypedDict, TypeVar

import psycopg
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from psycopg import sql
from psycopg_pool import PoolTimeout
from pydantic import Field
from pydantic_core import to_jsonable_python

from swarm_memory.client import Memory
from swarm_memory.errors import NotFound, SwarmMemoryError, translate

__all__ = [
    "INSTRUCTIONS",
    "QUICK_SEARCH_OPTIONS",
    "Gateway",
    "KeyGate",
    "api_key",
    "create_server",
    "http_app",
]

# Every call of a tool together: a reader's calls take milliseconds (the key's role's own
# statement_timeout does not apply under SET ROLE, so the server sets one, as `serve` does).
STATEMENT_TIMEOUT = "60s"
# MiroFish's quick search: hybrid search over facts (docs/sql-api.md, its report agent).
QUICK_SEARCH_OPTIONS: dict[str, Any] = {"arms": ["facts", "words", "graph"], "kinds": ["fact"]}
# The most sub-queries one insight call runs: each is a recall.
MAX_SUB_QUERIES = 8

INSTRUCTIONS = (
    "Memory of multi-agent simulations (MiroFish runs): each simulation's knowledge graph "
    "(entities, facts with their validity in time) and what its agents said and did. Start "
    "with list_simulations; pass a simulation by name or UUID. quick_search, insight and "
    "panorama answer questions; entity_summary, facts, neighbors and evidence go deeper "
    "from the ids they return."
)

T = TypeVar("T")
# A tool's work: Memory's methods on the call's connection (as the bound role), for the
# bound tenant.
Call = Callable[[Memory, psycopg.Connection, uuid.UUID], T]


def api_key(headers: Mapping[str, str] | None) -> str | None:
    """The key of an `Authorization: Api-Key <key>` (as `serve` takes it) or `Bearer <key>`
    header; None without one."""
    if not headers:
        return None
    scheme, _, key = headers.get("authorization", "").partition(" ")
    if scheme.lower() not in ("api-key", "bearer") or not key.strip():
        return None
    return key.strip()


class Refused(Exception):
    """A call the server answers with an error the caller should read: its message only."""


class Gateway:
    """The connection pool and the binding: a key (each call as the key's role), a tenant
    (each call as the connecting role itself), or neither (HTTP: each request's key)."""

    def __init__(
        self,
        dsn: str,
        *,
        key: str | None = None,
        tenant: uuid.UUID | None = None,
        pool_size: int = 4,
    ) -> None:
        if key is not None and tenant is not None:
            raise ValueError("bind to a key or to a tenant, not both")
        self.key = key
        self.tenant = tenant
        self.memory = Memory(dsn, min_size=1, max_size=pool_size)

    def close(self) -> None:
        self.memory.close()

    def known(self, key: str) -> bool:
        """Whether the key is one of an unrevoked key (the HTTP gate's check)."""
        digest = hashlib.sha256(key.encode()).digest()
        return self.memory.api_key_role(digest) is not None

    def run(self, call: Call[T], key: str | None = None) -> T:
        """`call(memory, conn, tenant)` in one transaction, as the bound role: a key's role
        (SET LOCAL: it ends with the transaction, whatever happens) or the connecting one."""
        key = key or self.key
        if key is None and self.tenant is None:
            raise Refused("missing API key: send the header Authorization: Api-Key <key>")
        try:
            with self.memory.pool.connection() as conn, conn.transaction():
                tenant = self.tenant
                if key is not None:
                    digest = hashlib.sha256(key.encode()).digest()
                    found = self.memory.enter_key_role(digest, STATEMENT_TIMEOUT, conn=conn)
                    if found is None:
                        raise Refused("unknown or revoked API key")
                    tenant = found.tenant_id
                else:
                    conn.execute(
                        sql.SQL("SET LOCAL statement_timeout = {}").format(
                            sql.Literal(STATEMENT_TIMEOUT)
                        )
                    )
                assert tenant is not None
                return call(self.memory, conn, tenant)
        except PoolTimeout:
            raise Refused("the server is busy: no database connection free; retry") from None
        except (SwarmMemoryError, psycopg.Error) as exc:
            error = translate(exc) if isinstance(exc, psycopg.Error) else exc
            code = f" [{error.sqlstate}]" if error.sqlstate else ""
            raise Refused(f"{' '.join(str(error).split())}{code}") from None


class Rows(TypedDict):
    """Every tool's answer: the rows of its SQL function, each with the function's columns
    as fields (insight's with the query that found it first)."""

    rows: list[dict[str, Any]]


def _rows(rows: list[Any]) -> Rows:
    """Rows of a SQL function as JSON: their fields are the function's columns."""
    return {"rows": [to_jsonable_python(dataclasses.asdict(r)) for r in rows]}


def _simulation(mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID, given: str) -> uuid.UUID:
    """A simulation by UUID (as is: the SQL function says P0002 if the tenant has none of
    it), else by name or MiroFish id among the tenant's."""
    try:
        return uuid.UUID(given)
    except ValueError:
        pass
    found = {
        s.simulation_id
        for s in mem.list_simulations(tenant, conn=conn)
        if given in (s.name, s.mirofish_id)
    }
    if len(found) > 1:
        raise Refused(f"{len(found)} simulations are named {given!r}; give its UUID")
    if not found:
        raise NotFound(
            f"unknown simulation {given!r} for tenant {tenant}",
            "P0002",
            hint="list_simulations lists the tenant's",
        )
    return found.pop()


def _on_entity(
    mem: Memory,
    conn: psycopg.Connection,
    tenant: uuid.UUID,
    simulation: uuid.UUID,
    entity: str,
    read: Callable[[str], T],
) -> T:
    """`read(node_id)` of an entity given by id or, when no entity has that id, by its name
    (in any case; several with the name are refused, naming their ids)."""
    try:
        with conn.transaction():  # a savepoint: the transaction goes on after a P0002
            return read(entity)
    except NotFound:
        named = mem.nodes_named(tenant, simulation, entity, conn=conn)
        if len(named) != 1:
            if named:
                ids = ", ".join(f"{n.node_id} ({n.type})" for n in named[:10])
                raise Refused(f"{len(named)} entities are named {entity!r}: {ids}") from None
            raise
    return read(named[0].node_id)


def _embedder(
    mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID, simulation: uuid.UUID
) -> tuple[Any, str]:
    """The embedder of the simulation's model, and the model's name."""
    from swarm_memory.embed import embedder_for  # loads the model on first use

    model = mem.model_of(tenant, simulation, conn=conn).model
    return embedder_for(model), model


def _query_vector(
    mem: Memory, conn: psycopg.Connection, tenant: uuid.UUID, simulation: uuid.UUID, text: str
) -> tuple[Any, str]:
    """The text embedded with the simulation's model, and the model's name."""
    embedder, model = _embedder(mem, conn, tenant, simulation)
    return embedder.encode_query(text), model


SimulationArg = Annotated[
    str, Field(description="the simulation: its name, MiroFish id or UUID (list_simulations)")
]
EntityArg = Annotated[
    str, Field(description="an entity: its id (node_id, or id of an entity row) or its name")
]
AsOfArg = Annotated[
    str | None,
    Field(
        description="world time to answer at, ISO 8601 (2025-03-01T12:00:00Z); "
        "omitted: now; 'infinity': the latest state"
    ),
]


LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


def create_server(gateway: Gateway, *, log_level: LogLevel = "WARNING") -> MCPServer:
    """The MCPServer of the memory's read tools over a Gateway (its log on stderr: INFO
    logs each refused call)."""
    server = MCPServer("swarm-memory", instructions=INSTRUCTIONS, log_level=log_level)
    reads = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

    def run(ctx: Context, call: Call[T]) -> T:
        try:
            return gateway.run(call, api_key(ctx.headers))
        except Refused as exc:
            raise ToolError(str(exc)) from None

    def tool(fn: Callable[..., Any]) -> Callable[..., Any]:
        server.add_tool(fn, annotations=reads)
        return fn

    @tool
    def list_simulations(ctx: Context) -> Rows:
        """The tenant's simulations: simulation_id, name, MiroFish id, published, when
        created and last changed (memory.list_simulations). Start here: the other tools take
        one of these by name or UUID."""
        return run(ctx, lambda mem, conn, t: _rows(mem.list_simulations(t, conn=conn)))

    @tool
    def simulation_stats(simulation: SimulationArg, ctx: Context) -> Rows:
        """Graph statistics of a simulation: counts of entities (nodes), facts (edges),
        agent actions (episodes) and profiles, entities by type, facts by type, actions by
        platform, agents, rounds and the time span (memory.simulation_stats, one row)."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)
            return _rows([mem.simulation_stats(t, sim, conn=conn)])

        return run(ctx, call)

    @tool
    def quick_search(
        simulation: SimulationArg,
        query: Annotated[str, Field(description="the question or search text, any language")],
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=100, description="rows to answer")] = 10,
    ) -> Rows:
        """Quick search: the facts that best answer a question, by meaning, words and the
        graph fused (memory.recall over facts). Each row: kind, id (the fact's edge id, for
        evidence), text, score, ranks (each arm's rank and score), why."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)
            vector, model = _query_vector(mem, conn, t, sim, query)
            options = {**QUICK_SEARCH_OPTIONS, "model": model}
            return _rows(mem.recall(t, sim, query, vector, limit, options, conn=conn))

        return run(ctx, call)

    @tool
    def insight(
        simulation: SimulationArg,
        question: Annotated[str, Field(description="the question to look into")],
        ctx: Context,
        sub_queries: Annotated[
            list[str] | None,
            Field(
                description=f"the question split into up to {MAX_SUB_QUERIES} narrower "
                "queries (the people involved, causes, reactions, ...); each is searched too"
            ),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=50, description="rows per query")] = 10,
    ) -> Rows:
        """Insight: a question looked into from several sides. The question and each
        sub-query are recalled (memory.recall: meaning, words and the graph fused over what
        agents said, facts and entities), one recall each in one transaction; split the
        question yourself into sub-queries for a wider answer. Each row: query (which of
        them found it), kind (episode, fact, entity), id, text, score, ranks, why, copies,
        agents. Follow an entity with entity_summary or neighbors, a fact with evidence."""
        queries = [question, *(q for q in sub_queries or () if q.strip() and q != question)]
        if len(queries) > MAX_SUB_QUERIES + 1:
            raise ToolError(f"at most {MAX_SUB_QUERIES} sub_queries, not {len(queries) - 1}")

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)
            embedder, model = _embedder(mem, conn, t, sim)
            rows = []
            for q in queries:
                found = mem.recall(
                    t, sim, q, embedder.encode_query(q), limit, {"model": model}, conn=conn
                )
                rows += [{"query": q, **row} for row in _rows(found)["rows"]]
            return {"rows": rows}

        return run(ctx, call)

    @tool
    def panorama(
        simulation: SimulationArg,
        query: Annotated[str, Field(description="the question or topic")],
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=200, description="rows to answer")] = 30,
    ) -> Rows:
        """Panorama: every entity and fact about a question, current and historical: the
        entities and facts recall finds and every fact of those entities in any state
        (memory.panorama). Each row: kind (entity, fact), id, text, state (current, ended,
        expired, future), valid_at, invalid_at, score."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)
            vector, model = _query_vector(mem, conn, t, sim, query)
            return _rows(mem.panorama(t, sim, query, vector, limit, model=model, conn=conn))

        return run(ctx, call)

    @tool
    def entity_summary(
        simulation: SimulationArg,
        entity: EntityArg,
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=100, description="rows per section")] = 10,
    ) -> Rows:
        """Everything about one entity: the entity, what it said (its own posts and
        comments), what else it did (counted), its current facts, its neighbours and
        others' actions that name it (memory.entity_summary). Each row: section, id, text,
        detail (the row's other fields)."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)
            return _rows(
                _on_entity(
                    mem,
                    conn,
                    t,
                    sim,
                    entity,
                    lambda node: mem.entity_summary(t, sim, node, limit, conn=conn),
                )
            )

        return run(ctx, call)

    @tool
    def entities_by_type(
        simulation: SimulationArg,
        ctx: Context,
        type: Annotated[
            str | None,
            Field(description="entity type (Person, Organization, ...); omitted: every type"),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="rows to answer")] = 100,
    ) -> Rows:
        """The entities of a type (memory.nodes_by_type; simulation_stats lists the types
        with their counts). Each row: node_id, name, type, labels, summary, attributes."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)
            return _rows(mem.nodes_by_type(t, sim, type, limit, conn=conn))

        return run(ctx, call)

    @tool
    def facts(
        simulation: SimulationArg,
        ctx: Context,
        entity: Annotated[
            str | None,
            Field(description="an entity's id or name; omitted: the whole simulation's facts"),
        ] = None,
        state: Annotated[
            Literal["current", "historical", "future", "all"],
            Field(
                description="current (holding at as_of), historical (ended or expired by "
                "then), future (not begun yet) or all"
            ),
        ] = "current",
        as_of: AsOfArg = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="rows to answer")] = 100,
    ) -> Rows:
        """The facts of an entity (or of the simulation) in a state at a moment of world
        time, newest first (memory.facts). Each row: edge_id, type, fact, source_id,
        source_name, target_id, target_name, valid_at, invalid_at, learned_at, expired_at,
        state, episodes (the source episodes' ids)."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)

            def read(node: str | None) -> list[Any]:
                return mem.facts(t, sim, node, state, as_of, limit, conn=conn)

            if entity is None:
                return _rows(read(None))
            return _rows(_on_entity(mem, conn, t, sim, entity, read))

        return run(ctx, call)

    @tool
    def neighbors(
        simulation: SimulationArg,
        entity: EntityArg,
        ctx: Context,
        depth: Annotated[int, Field(ge=1, le=5, description="steps along facts")] = 1,
        direction: Annotated[
            Literal["both", "out", "in"],
            Field(description="follow facts from the entity (out), to it (in) or both"),
        ] = "both",
        as_of: AsOfArg = None,
        include_ended: Annotated[
            bool, Field(description="follow ended facts too (a current one wins)")
        ] = False,
        limit: Annotated[
            int | None, Field(ge=1, description="the nearest N entities; omitted: all")
        ] = 100,
    ) -> Rows:
        """The entities around one, reached along the facts current at a moment, each at its
        least depth (memory.neighbors). Each row: node_id, name, type, depth, path (node ids
        from the entity), edge_id, edge_type, fact, valid_at, invalid_at, state."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)

            def read(node: str) -> list[Any]:
                return mem.neighbors(
                    t,
                    sim,
                    node,
                    depth,
                    None,
                    direction,
                    as_of=as_of,
                    include_ended=include_ended,
                    limit=limit,
                    conn=conn,
                )

            return _rows(_on_entity(mem, conn, t, sim, entity, read))

        return run(ctx, call)

    @tool
    def evidence(
        simulation: SimulationArg,
        fact_id: Annotated[
            str, Field(description="the fact's edge id (edge_id of facts, id of a fact row)")
        ],
        ctx: Context,
    ) -> Rows:
        """The evidence behind a fact: its source episodes, then the agents' actions that
        support it within its validity (memory.evidence). Each row: kind (source, mention),
        episode_id, resolved, list_position, matched, agent_id, agent_name, platform, round,
        action_type, content, occurred_at, found_by, score."""

        def call(mem: Memory, conn: psycopg.Connection, t: uuid.UUID) -> Rows:
            sim = _simulation(mem, conn, t, simulation)
            return _rows(mem.evidence(t, sim, fact_id, conn=conn))

        return run(ctx, call)

    return server


class KeyGate:
    """ASGI middleware of the HTTP transport: a request without a key, or with an unknown
    or revoked one, is answered 401 before the MCP server sees it (each tool call then
    looks its key up again, in its own transaction, as it runs)."""

    def __init__(self, app: Any, gateway: Gateway) -> None:
        self.app = app
        self.gateway = gateway

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            from starlette.concurrency import run_in_threadpool
            from starlette.datastructures import Headers
            from starlette.responses import JSONResponse

            key = api_key(Headers(scope=scope))
            message = None
            if key is None:
                message = "missing API key: send the header Authorization: Api-Key <key>"
            else:
                try:
                    known = await run_in_threadpool(self.gateway.known, key)
                except (SwarmMemoryError, PoolTimeout):
                    await JSONResponse({"error": "the server cannot reach its database"}, 503)(
                        scope, receive, send
                    )
                    return
                if not known:
                    message = "unknown or revoked API key"
            if message is not None:
                response = JSONResponse(
                    {"error": message}, 401, headers={"www-authenticate": "Api-Key"}
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def http_app(
    gateway: Gateway,
    *,
    host: str = "127.0.0.1",
    path: str = "/mcp",
    log_level: LogLevel = "WARNING",
) -> KeyGate:
    """The streamable HTTP application: stateless (every request stands alone, as its key
    does; the process holds no session), JSON answers, behind the key gate."""
    server = create_server(gateway, log_level=log_level)
    app = server.streamable_http_app(
        streamable_http_path=path, stateless_http=True, json_response=True, host=host
    )
    return KeyGate(app, gateway)
