"""`swarm-memory mcp` driven by the official MCP client SDK: over stdio to the CLI in a
subprocess (bound by an API key in the environment, or to a tenant as the connecting role),
and over streamable HTTP to the server run in-process (uvicorn, a free port on 127.0.0.1),
each request carrying its key. The example MiroFish run is imported into tenant A with the
real model; keys come from `swarm-memory key create --reader`. Every tool's answer is checked
against the SQL function's rows; tenant B's key finds A's simulation unknown, as a missing
one; a missing, unknown or revoked key is refused."""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from swarm_memory.asgi import in_thread
from swarm_memory.cli import main
from swarm_memory.client import Memory
from swarm_memory.importer import import_run
from swarm_memory.mcp_server import QUICK_SEARCH_OPTIONS, Gateway, http_app

from tests.helpers import api_key, drop_key_roles

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "examples" / "mirofish_run"
NAME = "riverside"
TOOLS = {
    "list_simulations",
    "simulation_stats",
    "quick_search",
    "insight",
    "panorama",
    "entity_summary",
    "entities_by_type",
    "facts",
    "neighbors",
    "evidence",
}
QUESTION = "Will closing the riverside road to cars hurt the small shops nearby?"


@dataclass
class Run:
    dsn: str  # the administrator's: keys were made for it, and it may SET ROLE to them
    tenant_a: uuid.UUID
    sim: uuid.UUID
    key_a: str
    key_b: str
    reader_dsn: str  # tenant A's reader, whose answers the tools' must equal


@pytest.fixture
def keys(world, capsys) -> Iterator[tuple[str, str]]:
    """A reader key of tenant A and one of tenant B, for the administrator to serve."""
    try:
        yield (
            api_key(capsys, world.dsn(), world.tenant_a, reader=True),
            api_key(capsys, world.dsn(), world.tenant_b, reader=True),
        )
    finally:
        # the keys' roles are the cluster's: drop them with the test's database
        with world.connect() as conn:
            drop_key_roles(conn)


@pytest.fixture
def run(world, minilm, keys) -> Run:
    """Tenant A holds the example run as simulation 'riverside'."""
    sim = uuid.uuid4()
    import_run(world.dsn("app_a"), world.tenant_a, sim, RUN, name=NAME, embedder=minilm)
    return Run(world.dsn("admin"), world.tenant_a, sim, *keys, world.dsn("reader_a"))


@contextmanager
def serving(dsn: str) -> Iterator[str]:
    """The HTTP server in a thread of this process, until the block ends; its endpoint."""
    gateway = Gateway(dsn)
    try:
        with in_thread(http_app(gateway)) as url:
            yield f"{url}/mcp"
    finally:
        gateway.close()


def _stdio(dsn: str, *args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "swarm_memory.cli", "--dsn", dsn, "mcp", *args],
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", ""), **(env or {})},
        cwd=str(ROOT),
    )


@asynccontextmanager
async def stdio_session(params: StdioServerParameters):
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(url: str, key: str):
    client = create_mcp_http_client(headers={"Authorization": f"Api-Key {key}"})
    async with (
        client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> list[dict[str, Any]]:
    """A tool's rows; the structured answer and the text one say the same."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content["rows"]


async def refused(session: ClientSession, tool: str, **arguments: Any) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error
    return result.content[0].text


def _json(rows: list[Any]) -> list[dict[str, Any]]:
    """The SQL function's rows as the tools answer them (JSON of the same fields)."""
    from dataclasses import asdict

    from pydantic_core import to_jsonable_python

    return [to_jsonable_python(asdict(r)) for r in rows]


async def _every_tool_answers_as_sql(session: ClientSession, r: Run, minilm) -> None:
    """Each tool against the SQL function it calls, run here as tenant A's reader."""
    listed = {t.name: t for t in (await session.list_tools()).tools}
    assert set(listed) == TOOLS
    assert all(t.description and t.annotations.read_only_hint for t in listed.values())
    # the tenant is the binding's, never an argument
    assert not any("tenant" in t.input_schema["properties"] for t in listed.values())

    t, s = r.tenant_a, r.sim
    with Memory(r.reader_dsn) as mem:
        sims = await call(session, "list_simulations")
        assert [x["name"] for x in sims] == [x.name for x in mem.list_simulations(t)]
        assert NAME in [x["name"] for x in sims]

        stats = await call(session, "simulation_stats", simulation=NAME)
        assert stats == _json([mem.simulation_stats(t, s)])
        assert stats[0]["nodes"] == 33 and stats[0]["edges"] == 46

        vector = minilm.encode_query(QUESTION)
        model = minilm.model_name
        quick = await call(session, "quick_search", simulation=str(s), query=QUESTION, limit=5)
        options = {**QUICK_SEARCH_OPTIONS, "model": model}
        expected = mem.recall(t, s, QUESTION, vector, 5, options)
        assert [(x["kind"], x["id"]) for x in quick] == [(e.kind, e.id) for e in expected]
        assert quick and {x["kind"] for x in quick} == {"fact"}

        sub = ["small shops", "who opposes the plan"]
        deep = await call(session, "insight", simulation=NAME, question=QUESTION, sub_queries=sub)
        assert [x["query"] for x in deep][0] == QUESTION and set(sub) <= {x["query"] for x in deep}
        for q in [QUESTION, *sub]:
            expected = mem.recall(t, s, q, minilm.encode_query(q), 10, {"model": model})
            assert [(x["kind"], x["id"]) for x in deep if x["query"] == q] == [
                (e.kind, e.id) for e in expected
            ]

        pano = await call(session, "panorama", simulation=NAME, query=QUESTION, limit=20)
        expected = mem.panorama(t, s, QUESTION, vector, 20, model=model)
        assert [(x["kind"], x["id"], x["state"]) for x in pano] == [
            (e.kind, e.id, e.state) for e in expected
        ]

        people = await call(session, "entities_by_type", simulation=NAME, type="Person")
        assert people == _json(mem.nodes_by_type(t, s, "Person"))
        assert people
        node = people[0]

        summary = await call(session, "entity_summary", simulation=NAME, entity=node["node_id"])
        assert summary == _json(mem.entity_summary(t, s, node["node_id"]))
        # by name, as an agent that read it somewhere names it
        by_name = await call(session, "entity_summary", simulation=NAME, entity=node["name"])
        assert by_name == summary

        all_facts = await call(
            session, "facts", simulation=NAME, entity=node["node_id"], state="all"
        )
        assert all_facts == _json(mem.facts(t, s, node["node_id"], "all"))
        early = await call(
            session, "facts", simulation=NAME, state="all", as_of="2000-01-01T00:00:00Z"
        )
        assert early == _json(mem.facts(t, s, None, "all", "2000-01-01T00:00:00Z"))

        near = await call(session, "neighbors", simulation=NAME, entity=node["node_id"], depth=2)
        assert near == _json(mem.neighbors(t, s, node["node_id"], 2, limit=100))
        assert near

        edge = all_facts[0]["edge_id"]
        proof = await call(session, "evidence", simulation=NAME, fact_id=edge)
        assert proof == _json(mem.evidence(t, s, edge))

        # the SQL function's refusals reach the agent as one line
        text = await refused(session, "entity_summary", simulation=NAME, entity="nobody-here")
        assert re.fullmatch(
            r"Error executing tool entity_summary: unknown node nobody-here .*\[P0002\]", text
        )
        text = await refused(session, "facts", simulation=NAME, as_of="not a time")
        assert text.endswith('"not a time" [22007]')


async def _another_tenants_simulation_is_unknown(session: ClientSession, r: Run) -> None:
    names = [x["name"] for x in await call(session, "list_simulations")]
    assert NAME not in names
    for simulation in (NAME, str(r.sim)):
        text = await refused(session, "simulation_stats", simulation=simulation)
        assert "unknown simulation" in text and "P0002" in text
    # word for word what a simulation that does not exist gets
    other = uuid.uuid4()
    missing = await refused(session, "simulation_stats", simulation=str(other))
    assert missing.replace(str(other), "S") == text.replace(str(r.sim), "S")


def test_stdio_serves_as_its_key_or_its_tenant(run, world, minilm, capsys):
    async def go() -> None:
        params = _stdio(run.dsn, "--key-env", "MEMORY_KEY", env={"MEMORY_KEY": run.key_a})
        async with stdio_session(params) as session:
            await _every_tool_answers_as_sql(session, run, minilm)
            # each call looks its key up: revoked while the server runs, it serves no more
            _revoke(capsys, world, run.key_a)
            text = await refused(session, "list_simulations")
            assert text.endswith("unknown or revoked API key")

        params = _stdio(run.dsn, "--key-env", "MEMORY_KEY", env={"MEMORY_KEY": run.key_b})
        async with stdio_session(params) as session:
            await _another_tenants_simulation_is_unknown(session, run)

        # bound to a tenant, the server acts as the connecting role: reader_a holds A's grant
        params = _stdio(world.dsn("reader_a"), "--tenant", "tenant-a")
        async with stdio_session(params) as session:
            stats = await call(session, "simulation_stats", simulation=NAME)
            assert stats[0]["nodes"] == 33
        params = _stdio(world.dsn("app_b"), "--tenant", str(world.tenant_b))
        async with stdio_session(params) as session:
            text = await refused(session, "simulation_stats", simulation=str(run.sim))
            assert "unknown simulation" in text and text.endswith("[P0002]")

    anyio.run(go)


def test_a_missing_unknown_or_revoked_key_is_refused_before_serving(
    world, keys, capsys, monkeypatch
):
    """One line on stderr, exit 2, nothing on stdout (the protocol's stream)."""

    def refused_with(*args: str) -> str:
        assert main(["--dsn", world.dsn("admin"), "mcp", *args]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1
        return err

    monkeypatch.setenv("MEMORY_KEY", "")
    assert "$MEMORY_KEY holds no API key" in refused_with("--key-env", "MEMORY_KEY")
    monkeypatch.setenv("MEMORY_KEY", "smk_" + "x" * 43)
    assert "unknown or revoked" in refused_with("--key-env", "MEMORY_KEY")
    assert "--key-env VAR" in refused_with()
    assert "over HTTP" in refused_with("--transport", "http", "--tenant", "tenant-a")

    monkeypatch.setenv("MEMORY_KEY", keys[0])
    _revoke(capsys, world, keys[0])
    assert "unknown or revoked" in refused_with("--key-env", "MEMORY_KEY")


def _revoke(capsys, world, key: str) -> None:
    with world.connect() as conn:
        key_id = conn.execute(
            "SELECT key_id FROM memory.api_keys WHERE key_prefix = %s", (key[:12],)
        ).fetchone()[0]
    assert main(["--dsn", world.dsn(), "key", "revoke", "--tenant", "tenant-a", str(key_id)]) == 0
    capsys.readouterr()


def test_http_answers_every_tool_as_sql_and_binds_each_request_to_its_key(
    run, world, minilm, capsys
):
    with serving(run.dsn) as url:

        async def go() -> None:
            async with http_session(url, run.key_a) as session:
                await _every_tool_answers_as_sql(session, run, minilm)
            async with http_session(url, run.key_b) as session:
                await _another_tenants_simulation_is_unknown(session, run)

        anyio.run(go)

        # refused before the MCP server sees it: no key, an unknown one, a revoked one
        hello = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        }
        headers = {"accept": "application/json, text/event-stream"}
        for auth in (None, "Api-Key smk_unknown", f"Basic {run.key_a}"):
            sent = {**headers, **({"authorization": auth} if auth else {})}
            answer = httpx.post(url, json=hello, headers=sent)
            assert answer.status_code == 401, (auth, answer.text)
            assert answer.headers["www-authenticate"] == "Api-Key"
        sent = {**headers, "authorization": f"Bearer {run.key_a}"}
        assert httpx.post(url, json=hello, headers=sent).status_code == 200

        _revoke(capsys, world, run.key_a)
        sent = {**headers, "authorization": f"Api-Key {run.key_a}"}
        answer = httpx.post(url, json=hello, headers=sent)
        assert answer.status_code == 401 and "revoked" in answer.json()["error"]

        async def revoked() -> None:
            async with http_session(url, run.key_a):
                pass

        # the client SDK's error for an answer that is no MCP message, in its task group
        with pytest.raises(BaseExceptionGroup) as caught:
            anyio.run(revoked)
        assert caught.group_contains(MCPError)


def test_each_call_runs_as_its_keys_role_or_the_connecting_one(world, keys):
    """What row-level security sees: the key's role for the key's tenant, in a transaction
    that ends with the call (the pooled connection is the server's own again after it)."""

    def who(mem: Memory, conn: Any, tenant: uuid.UUID) -> tuple[str, uuid.UUID]:
        return conn.execute("SELECT current_user").fetchone()[0], tenant

    with world.connect() as conn:
        roles = dict(conn.execute("SELECT tenant_id, role_name FROM memory.api_keys").fetchall())
    gateway = Gateway(world.dsn("admin"), pool_size=1)
    try:
        assert gateway.run(who, keys[0]) == (roles[world.tenant_a], world.tenant_a)
        assert gateway.run(who, keys[1]) == (roles[world.tenant_b], world.tenant_b)
        with gateway.memory.pool.connection() as conn:
            assert conn.execute("SELECT current_user").fetchone()[0] == "admin"
    finally:
        gateway.close()
    bound = Gateway(world.dsn("reader_a"), tenant=world.tenant_a, pool_size=1)
    try:
        assert bound.run(who) == ("reader_a", world.tenant_a)
    finally:
        bound.close()
