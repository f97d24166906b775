"""`swarm-memory serve` driven by the real zep-cloud SDK (3.13.0, the version MiroFish pins),
through MiroFish's read sequences: its entity reader (node.get_by_graph_id paged by
uuid_cursor, edge.get_by_graph_id, node.get_entity_edges, which the 3.13.0 SDK calls
node.get_edges, node.get) and its report tools'
and profile generator's graph.search (scope edges and nodes, reranker rrf and cross_encoder).
The service runs in-process (uvicorn, a free port on 127.0.0.1) against the test database,
connected as the administrator `admin`; the example MiroFish run is imported into tenant A by
the real importer with the real model; keys come from `swarm-memory key create`."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from swarm_memory.asgi import in_thread
from swarm_memory.cli import main
from swarm_memory.embed import E5_MODEL_NAME, MODEL_NAME
from swarm_memory.importer import import_run
from swarm_memory.reembed import reembed
from swarm_memory.zep import RERANKER_HEADER, Service, create_app
from zep_cloud.client import Zep
from zep_cloud.core.api_error import ApiError
from zep_cloud.errors import BadRequestError, NotFoundError

from tests.helpers import api_key, drop_key_roles

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "examples" / "mirofish_run"
GRAPH = json.loads((RUN / "graph.json").read_text(encoding="utf-8"))
MIROFISH_GRAPH_ID = GRAPH["graph_id"]
NAME = "riverside"


@dataclass
class Served:
    url: str
    service: Service
    key_a: str
    key_b: str
    dsn: str

    def client(self, key: str) -> Zep:
        return Zep(api_key=key, base_url=f"{self.url}/api/v2")


@contextmanager
def serving(dsn: str, **options: int) -> Iterator[tuple[Service, str]]:
    """The service in a thread of this process, until the block ends."""
    service = Service(dsn, **options)
    with in_thread(create_app(service)) as url:
        yield service, url


@pytest.fixture
def served(world, minilm, capsys) -> Iterator[Served]:
    """Tenant A holds the example run as simulation 'riverside' (MiroFish graph_id recorded);
    tenant B holds a graph of its own; one reader key each; the service up."""
    import_run(world.dsn("app_a"), world.tenant_a, uuid.uuid4(), RUN, name=NAME, embedder=minilm)
    with world.connect("app_b") as conn:
        conn.execute(
            "SELECT memory.upsert_nodes(%s, %s, %s)",
            (world.tenant_b, world.sim_b, json.dumps([{"id": "b-1", "name": "Harbour Board"}])),
        )
    key_a = api_key(capsys, world.dsn(), world.tenant_a, reader=True)
    key_b = api_key(capsys, world.dsn(), world.tenant_b, reader=True)
    try:
        with serving(world.dsn("admin"), max_concurrent=2) as (service, url):
            yield Served(url, service, key_a, key_b, world.dsn())
    finally:
        # the keys' roles are the cluster's: drop them with the test's database
        with world.connect() as conn:
            drop_key_roles(conn)


def _fetch_all(list_page, graph_id: str, page_size: int) -> tuple[list, int]:
    """MiroFish's fetch_all_nodes / fetch_all_edges (utils/zep_paging.py): pages of
    page_size, the next after the last item's uuid, until an empty or short page."""
    items, cursor, requests = [], None, 0
    while True:
        kwargs = {"limit": page_size}
        if cursor is not None:
            kwargs["uuid_cursor"] = cursor
        batch = list_page(graph_id, **kwargs)
        requests += 1
        if not batch:
            break
        items.extend(batch)
        if len(batch) < page_size:
            break
        cursor = batch[-1].uuid_
    return items, requests


def test_entity_reader_pages_visit_every_node_and_edge_once(served):
    zep = served.client(served.key_a)
    expected_nodes = {n["uuid"] for n in GRAPH["nodes"]}
    expected_edges = {e["uuid"] for e in GRAPH["edges"]}
    assert len(expected_nodes) == 33 and len(expected_edges) == 46
    # MiroFish's 100; 11 and 33 end on an exactly full page (33 = 3 x 11), 10 on a short one
    for page_size, requests in ((100, 1), (11, 4), (33, 2), (10, 4)):
        nodes, made = _fetch_all(zep.graph.node.get_by_graph_id, MIROFISH_GRAPH_ID, page_size)
        uuids = [n.uuid_ for n in nodes]
        assert len(uuids) == len(set(uuids)) == 33, page_size
        assert set(uuids) == expected_nodes
        assert made == requests, page_size
    for page_size, requests in ((100, 1), (23, 3), (7, 7)):
        edges, made = _fetch_all(zep.graph.edge.get_by_graph_id, NAME, page_size)
        uuids = [e.uuid_ for e in edges]
        assert len(uuids) == len(set(uuids)) == 46 and set(uuids) == expected_edges
        assert made == requests, page_size


def test_the_fields_mirofish_reads(served):
    zep = served.client(served.key_a)
    by_uuid = {n["uuid"]: n for n in GRAPH["nodes"]}
    nodes = zep.graph.node.get_by_graph_id(NAME, limit=100)
    for node in nodes:
        raw = by_uuid[node.uuid_]
        assert (node.name, node.labels, node.summary) == (
            raw["name"],
            raw["labels"],
            raw["summary"],
        )
        assert node.attributes == raw["attributes"]
        assert node.created_at == raw["created_at"]
    maya = next(n for n in GRAPH["nodes"] if n["name"] == "Maya Okafor")
    got = zep.graph.node.get(maya["uuid"])
    assert (got.uuid_, got.name, got.labels) == (maya["uuid"], "Maya Okafor", ["Entity", "Person"])

    raw_edges = {e["uuid"]: e for e in GRAPH["edges"]}
    listed = {e.uuid_: e for e in zep.graph.edge.get_by_graph_id(NAME, limit=100)}
    for uid, edge in listed.items():
        raw = raw_edges[uid]
        assert (edge.name, edge.fact) == (raw["name"], raw["fact"])
        assert (edge.source_node_uuid, edge.target_node_uuid) == (
            raw["source_node_uuid"],
            raw["target_node_uuid"],
        )
        assert edge.episodes == raw["episodes"]
        for field in ("valid_at", "invalid_at", "expired_at", "created_at"):
            want, have = raw[field], getattr(edge, field)
            assert (want is None) == (have is None), (uid, field)
            if want is not None:  # the same instant, written in UTC with a Z
                assert _instant(have) == _instant(want), (uid, field)
    assert any(e.invalid_at for e in listed.values()), "the example has ended facts"

    # node.get_entity_edges (GET graph/node/{uuid}/entity-edges; the 3.13.0 SDK names the
    # method get_edges): exactly the edges at either end of the entity
    for node in nodes[:8]:
        edges = zep.graph.node.get_edges(node.uuid_)
        want = {
            u
            for u, e in raw_edges.items()
            if node.uuid_ in (e["source_node_uuid"], e["target_node_uuid"])
        }
        assert {e.uuid_ for e in edges} == want
    first = next(iter(raw_edges))
    assert zep.graph.edge.get(first).fact == raw_edges[first]["fact"]

    graph = zep.graph.get(NAME)
    assert (graph.graph_id, graph.name) == (MIROFISH_GRAPH_ID, NAME)
    listed_graphs = zep.graph.list_all()
    # by name: riverside, then the empty simulation the test world gives tenant A
    assert [g.graph_id for g in listed_graphs.graphs] == [MIROFISH_GRAPH_ID, "sim-a"]
    assert listed_graphs.total_count == 2
    second = zep.graph.list_all(page_number=2, page_size=1)
    assert [g.graph_id for g in second.graphs] == ["sim-a"] and second.total_count == 2


def _instant(text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_search_as_the_report_tools_and_profile_generator_call_it(served):
    zep = served.client(served.key_a)
    # oasis_profile_generator: scope edges and nodes, reranker rrf
    facts = zep.graph.search(
        graph_id=MIROFISH_GRAPH_ID,
        query="Who supports the River Road Car-Free Plan?",
        limit=10,
        scope="edges",
        reranker="rrf",
    )
    assert facts.edges and len(facts.edges) <= 10
    assert all(e.fact and e.source_node_uuid and e.target_node_uuid for e in facts.edges)
    assert {e.uuid_ for e in facts.edges} <= {e["uuid"] for e in GRAPH["edges"]}
    assert any("River Road" in e.fact or "plan" in e.fact.lower() for e in facts.edges[:3])
    scores = [e.score for e in facts.edges]
    assert scores == sorted(scores, reverse=True)

    people = zep.graph.search(
        graph_id=NAME, query="Maya Okafor", limit=5, scope="nodes", reranker="rrf"
    )
    assert people.nodes and people.nodes[0].name == "Maya Okafor"
    assert people.nodes[0].labels == ["Entity", "Person"] and people.nodes[0].summary

    # zep_tools: reranker cross_encoder, answered by reciprocal rank fusion and said so
    raw = zep.graph.with_raw_response.search(
        graph_id=NAME,
        query="bus diversion",
        limit=3,
        scope="edges",
        reranker="cross_encoder",
    )
    assert raw.headers[RERANKER_HEADER.lower()] == "rrf"
    assert 0 < len(raw.data.edges) <= 3

    episodes = zep.graph.search(graph_id=NAME, query="cycling lanes", limit=4, scope="episodes")
    assert episodes.episodes and all(e.content for e in episodes.episodes)


def test_a_search_after_the_graphs_model_changed_answers(served, world, e5, capsys):
    """The service keeps each graph's model after its first read; a re-embed to another
    model (by another process, as `swarm-memory reembed` is) makes the kept one wrong, and the
    next search is refused for it once, inside the service, then asked again afresh: the
    caller gets its answer, embedded with the new model."""
    zep = served.client(served.key_a)
    before = zep.graph.search(graph_id=NAME, query="bus diversion", limit=5, scope="episodes")
    assert before.episodes
    assert served.service._models[(world.tenant_a, NAME)] == MODEL_NAME

    reembed(world.dsn("app_a"), world.tenant_a, E5_MODEL_NAME, embedder=e5)

    after = zep.graph.search(graph_id=NAME, query="bus diversion", limit=5, scope="episodes")
    assert after.episodes and all(e.content for e in after.episodes)
    assert served.service._models[(world.tenant_a, NAME)] == E5_MODEL_NAME
    # and an add (a writer's key) embeds with the graph's model: the vectors of the one the
    # service kept before would be refused
    served.service._models[(world.tenant_a, NAME)] = MODEL_NAME
    writer = served.client(api_key(capsys, served.dsn, world.tenant_a))
    added = writer.graph.add(graph_id=NAME, type="text", data="Maya Okafor rode the bus lane.")
    assert added.uuid_
    assert served.service._models[(world.tenant_a, NAME)] == E5_MODEL_NAME


def _message(exc: ApiError) -> str:
    body = exc.body
    return body["message"] if isinstance(body, dict) else body.message


def test_keys_tenants_and_errors(served, capsys):
    a, b = served.client(served.key_a), served.client(served.key_b)
    node = GRAPH["nodes"][0]["uuid"]
    edge = GRAPH["edges"][0]["uuid"]
    # B's key: A's graph, node and edge are 404, exactly as things that do not exist (the
    # SDK raises NotFoundError where its client maps 404, a plain ApiError elsewhere)
    for call in (
        lambda z: z.graph.get(NAME),
        lambda z: z.graph.get(MIROFISH_GRAPH_ID),
        lambda z: z.graph.node.get_by_graph_id(NAME, limit=10),
        lambda z: z.graph.edge.get_by_graph_id(MIROFISH_GRAPH_ID, limit=10),
        lambda z: z.graph.node.get(node),
        lambda z: z.graph.node.get_edges(node),
        lambda z: z.graph.edge.get(edge),
        lambda z: z.graph.search(graph_id=NAME, query="Maya", scope="nodes"),
    ):
        with pytest.raises(ApiError) as err:
            call(b)
        assert err.value.status_code == 404
        assert "unknown" in _message(err.value) and "CONTEXT" not in _message(err.value)
    with pytest.raises(ApiError) as missing:
        a.graph.get("no-such-graph")
    assert missing.value.status_code == 404
    with pytest.raises(NotFoundError):
        a.graph.node.get(str(uuid.uuid4()))
    assert [g.graph_id for g in b.graph.list_all().graphs] == ["sim-b"]
    assert [n.name for n in b.graph.node.get_by_graph_id("sim-b")] == ["Harbour Board"]
    assert b.graph.node.get_by_graph_id("sim-b", limit=5, uuid_cursor="b-1") == []

    # a bad key, a missing one: 401 with Zep's JSON body
    with pytest.raises(ApiError) as err:
        served.client("smk_" + "x" * 43).graph.get(NAME)
    assert err.value.status_code == 401 and "API key" in _message(err.value)
    assert httpx.get(f"{served.url}/api/v2/graph/{NAME}").status_code == 401

    # bad input: 400
    with pytest.raises(BadRequestError):
        a.graph.node.get_by_graph_id(NAME, limit=0)
    with pytest.raises(BadRequestError):
        a.graph.search(graph_id=NAME, query="x", scope="communities")
    with pytest.raises(BadRequestError):
        a.graph.search(graph_id=NAME, query="x", reranker="mmr")
    # a reader key writes nothing: 403
    with pytest.raises(ApiError) as err:
        a.graph.add(graph_id=NAME, type="text", data="Maya wrote a story")
    assert err.value.status_code == 403
    # what is not served yet says so (501), with Zep's JSON body
    with pytest.raises(ApiError) as err:
        a.graph.clone(source_graph_id=NAME, target_graph_id="riverside_copy")
    assert err.value.status_code == 501 and "not served" in _message(err.value)

    # a key at its limit of requests in flight: 429 and retry-after
    digest = hashlib.sha256(served.key_a.encode()).digest()
    with httpx.Client() as http, served.service.pool.connection() as conn:
        key_id = conn.execute("SELECT key_id FROM memory.api_key_role(%s)", (digest,)).fetchone()[0]
        with served.service.hold(key_id), served.service.hold(key_id):
            held = http.get(
                f"{served.url}/api/v2/graph/{NAME}",
                headers={"Authorization": f"Api-Key {served.key_a}"},
            )
            other = http.get(
                f"{served.url}/api/v2/graph/sim-b",
                headers={"Authorization": f"Api-Key {served.key_b}"},
            )
        assert held.status_code == 429 and held.headers["retry-after"] == "1"
        assert "message" in held.json()
        assert other.status_code == 200, "another key is not held back"
    assert a.graph.get(NAME).graph_id == MIROFISH_GRAPH_ID, "the slots are given back"

    # a revoked key authenticates nothing
    assert main(["--dsn", served.dsn, "key", "revoke", "--tenant", "tenant-a", str(key_id)]) == 0
    capsys.readouterr()
    with pytest.raises(ApiError) as err:
        a.graph.get(NAME)
    assert err.value.status_code == 401
    assert main(["--dsn", served.dsn, "key", "list", "--tenant", "tenant-a"]) == 0
    listing = capsys.readouterr().out
    assert served.key_a[:12] in listing and served.key_a not in listing
