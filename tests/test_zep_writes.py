"""MiroFish without Zep Cloud: its graph build, its memory updater, its entity reader and its
report tools' searches, in MiroFish's order, through the real zep-cloud SDK (3.13.0, the
version MiroFish pins) against `swarm-memory serve`, whose extractor asks a real model:
SmolLM2-135M-Instruct, served locally by tests/local_llm.py with schema-constrained decoding.
The assertions are the contract (types from the ontology, every fact naming its episodes,
processed once extraction committed, failures visible and retried, nothing lost when the
service or the extractor is killed, tenants apart), not the small model's judgement.

The service runs in-process (uvicorn on a free port) as the administrator `admin`, or in a
subprocess where it is killed; keys come from `swarm-memory key create`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import Field
from swarm_memory.asgi import free_port, in_thread
from swarm_memory.cli import main
from swarm_memory.extract import LLMConfig, Worker
from swarm_memory.zep import Service, create_app
from zep_cloud import EntityEdgeSourceTarget, EpisodeData
from zep_cloud.client import Zep
from zep_cloud.core.api_error import ApiError
from zep_cloud.external_clients.ontology import EdgeModel, EntityModel, EntityText

from tests.helpers import api_key, drop_key_roles
from tests.local_llm import LocalLLM, start_local_llm

ROOT = Path(__file__).resolve().parents[1]
# a 135M model lists on and on: a few items and a bound on its answer keep an extraction to
# tens of seconds on two cores (what is asserted does not depend on how many it finds)
MAX_TOKENS = 800
MAX_ITEMS = 2

# MiroFish's ontology generator's output shape (entity_types with attributes, edge_types with
# source_targets), as graph_builder.set_ontology receives it
ONTOLOGY = {
    "entity_types": [
        {
            "name": "Person",
            "description": "A person in the town.",
            "attributes": [{"name": "role", "description": "what the person does"}],
        },
        {"name": "Organization", "description": "A company, council or club."},
    ],
    "edge_types": [
        {
            "name": "WORKS_FOR",
            "description": "A person works for an organisation.",
            "source_targets": [{"source": "Person", "target": "Organization"}],
        },
        {
            "name": "SUPPORTS",
            "description": "Someone supports someone or something.",
            "source_targets": [{"source": "Person", "target": "Organization"}],
        },
    ],
}
CHUNKS = [
    "Maya Okafor works for the Harbourton Courier as a reporter.",
    "李娜是河畔市议会的议员。",
]
# MiroFish's memory updater: one sentence an action, five a batch
ACTIONS = [
    "Maya Okafor: posted 'The river plan needs a public hearing.'",
    "Tom Reyes: liked Maya Okafor's post",
    "Tom Reyes: posted 'The council should fund the cleanup.'",
    "李娜: 转发了 Maya Okafor 的帖子",
    "Maya Okafor: followed Tom Reyes",
]


@dataclass
class Served:
    url: str
    key_a: str
    key_b: str
    reader_a: str
    dsn: str

    def client(self, key: str) -> Zep:
        return Zep(api_key=key, base_url=f"{self.url}/api/v2")


@contextmanager
def serving(service: Service) -> Iterator[str]:
    with in_thread(create_app(service)) as url:
        yield url


@pytest.fixture(scope="module")
def llm() -> Iterator[LocalLLM]:
    with start_local_llm() as served:
        yield served


@pytest.fixture
def keys(world, capsys) -> Iterator[tuple[str, str, str]]:
    """A writer key of each tenant and a reader key of A; their roles dropped afterwards."""
    try:
        yield (
            api_key(capsys, world.dsn(), world.tenant_a),
            api_key(capsys, world.dsn(), world.tenant_b),
            api_key(capsys, world.dsn(), world.tenant_a, reader=True),
        )
    finally:
        with world.connect() as conn:
            drop_key_roles(conn)


@pytest.fixture
def served(world, keys, llm) -> Iterator[Served]:
    """The service with its extractor asking the local model."""
    worker = Worker(
        world.dsn("admin"),
        LLMConfig(llm.base_url, llm.model, max_tokens=MAX_TOKENS, max_items=MAX_ITEMS),
        poll=0.2,
    )
    service = Service(world.dsn("admin"), extractor=worker)
    with serving(service) as url:
        yield Served(url, *keys, world.dsn())


@pytest.fixture
def served_without_extractor(world, keys) -> Iterator[Served]:
    with serving(Service(world.dsn("admin"))) as url:
        yield Served(url, *keys, world.dsn())


def mirofish_set_ontology(zep: Zep, graph_id: str, ontology: dict[str, Any]) -> None:
    """graph_builder.GraphBuilderService.set_ontology, as MiroFish writes it: pydantic classes
    made on the fly from the ontology, reserved attribute names renamed."""
    warnings.filterwarnings("ignore", category=UserWarning, module="pydantic")
    reserved = {"uuid", "name", "group_id", "name_embedding", "summary", "created_at"}

    def safe(name: str) -> str:
        return f"entity_{name}" if name.lower() in reserved else name

    entity_types = {}
    for entity_def in ontology.get("entity_types", []):
        attrs: dict[str, Any] = {"__doc__": entity_def["description"]}
        annotations: dict[str, Any] = {}
        for attr_def in entity_def.get("attributes", []):
            attrs[safe(attr_def["name"])] = Field(description=attr_def["description"], default=None)
            annotations[safe(attr_def["name"])] = EntityText | None
        attrs["__annotations__"] = annotations
        entity_types[entity_def["name"]] = type(entity_def["name"], (EntityModel,), attrs)
    edge_definitions = {}
    for edge_def in ontology.get("edge_types", []):
        class_name = "".join(w.capitalize() for w in edge_def["name"].split("_"))
        edge_class = type(
            class_name, (EdgeModel,), {"__doc__": edge_def["description"], "__annotations__": {}}
        )
        source_targets = [
            EntityEdgeSourceTarget(
                source=st.get("source", "Entity"), target=st.get("target", "Entity")
            )
            for st in edge_def.get("source_targets", [])
        ]
        if source_targets:
            edge_definitions[edge_def["name"]] = (edge_class, source_targets)
    zep.graph.set_ontology(graph_ids=[graph_id], entities=entity_types, edges=edge_definitions)


def wait_processed(zep: Zep, uuids: list[str], timeout: float = 600) -> list[Any]:
    """GraphBuilderService._wait_for_episodes: poll episode.get until each is processed."""
    pending, deadline = set(uuids), time.monotonic() + timeout
    while pending:
        assert time.monotonic() < deadline, f"not processed in {timeout} s: {pending}"
        for uid in list(pending):
            if getattr(zep.graph.episode.get(uuid_=uid), "processed", False):
                pending.remove(uid)
        time.sleep(0.5)
    return [zep.graph.episode.get(uuid_=u) for u in uuids]


def check_graph_shapes(zep: Zep, graph_id: str, episode_uuids: set[str]) -> tuple[list, list]:
    """What MiroFish's entity reader reads, in the shapes it reads them, and the contract:
    labels from the ontology, edge types from it, every edge naming its episodes."""
    nodes = zep.graph.node.get_by_graph_id(graph_id=graph_id, limit=100)
    edges = zep.graph.edge.get_by_graph_id(graph_id=graph_id, limit=100)
    entity_types = {t["name"] for t in ONTOLOGY["entity_types"]} | {"Entity"}
    edge_types = {t["name"] for t in ONTOLOGY["edge_types"]}
    node_uuids = {n.uuid_ for n in nodes}
    for n in nodes:
        assert n.name and set(n.labels) <= entity_types and "Entity" in n.labels, n
        assert n.created_at
        assert zep.graph.node.get(uuid_=n.uuid_).name == n.name
    for e in edges:
        assert e.name in edge_types, e
        assert e.source_node_uuid in node_uuids and e.target_node_uuid in node_uuids
        assert e.fact and e.episodes and set(e.episodes) <= episode_uuids, e
        assert e.valid_at is None or e.valid_at.endswith("Z")
    return nodes, edges


def test_mirofish_build_update_read_and_search(served, world):
    """graph_builder (create, set_ontology, add_batch, wait for processed, read nodes and
    edges), then the memory updater's graph.add during a run, the entity reader and the
    report tools' searches, as MiroFish calls them, with one key of tenant A."""
    zep = served.client(served.key_a)
    graph_id = f"mirofish_{uuid.uuid4().hex[:16]}"
    zep.graph.create(
        graph_id=graph_id, name="Riverside", description="MiroFish Social Simulation Graph"
    )
    # a retried create finds the graph
    again = zep.graph.create(
        graph_id=graph_id, name="Riverside", description="MiroFish Social Simulation Graph"
    )
    assert again.graph_id == graph_id
    mirofish_set_ontology(zep, graph_id, ONTOLOGY)
    types = zep.graph.list_entity_types(graph_id=graph_id)
    assert [t.name for t in types.entity_types] == ["Person", "Organization"]
    assert {
        t.name: [(st.source, st.target) for st in t.source_targets] for t in types.edge_types
    } == {
        "WORKS_FOR": [("Person", "Organization")],
        "SUPPORTS": [("Person", "Organization")],
    }

    added = zep.graph.add_batch(
        graph_id=graph_id, episodes=[EpisodeData(data=c, type="text") for c in CHUNKS]
    )
    uuids = [ep.uuid_ for ep in added]
    assert len(set(uuids)) == 2 and all(not ep.processed for ep in added)
    # committed and searchable at once, before extraction
    found = zep.graph.search(
        graph_id=graph_id, query="Harbourton Courier reporter", scope="episodes"
    )
    assert uuids[0] in {ep.uuid_ for ep in found.episodes}

    episodes = wait_processed(zep, uuids)
    assert all(ep.processed and ep.status == "succeeded" for ep in episodes)
    # what the model made that does not fit the ontology is kept on the episode, with why
    for ep in episodes:
        assert ep.refused is None or all(r.get("why") for r in ep.refused), ep.refused
    nodes, edges = check_graph_shapes(zep, graph_id, set(uuids))

    # the memory updater: five actions a batch, graph.add(type="text")
    update = zep.graph.add(graph_id=graph_id, type="text", data="\n".join(ACTIONS))
    found = zep.graph.search(graph_id=graph_id, query="public hearing river plan", scope="episodes")
    assert update.uuid_ in {ep.uuid_ for ep in found.episodes}
    wait_processed(zep, [update.uuid_])
    nodes, edges = check_graph_shapes(zep, graph_id, {*uuids, update.uuid_})

    # the report tools' searches: scope edges and nodes, rrf and cross_encoder
    for scope in ("edges", "nodes"):
        for reranker in ("rrf", "cross_encoder"):
            result = zep.graph.search(
                graph_id=graph_id, query="Maya Okafor", scope=scope, reranker=reranker, limit=10
            )
            hits = getattr(result, scope) or []
            assert len(hits) <= 10
    listed = zep.graph.episode.get_by_graph_id(graph_id=graph_id, lastn=10)
    assert [e.uuid_ for e in listed.episodes] == [*uuids, update.uuid_]
    assert [e.sequence_index for e in listed.episodes] == sorted(
        e.sequence_index for e in listed.episodes
    )
    # every fact's evidence resolves to the episodes it names (the SQL evidence read)
    with world.connect("app_a") as conn:
        sim = conn.execute(
            "SELECT simulation_id FROM memory.zep_graph(%s, %s)", (world.tenant_a, graph_id)
        ).fetchone()[0]
        for e in edges:
            sources = conn.execute(
                "SELECT episode_id FROM memory.evidence(%s, %s, %s) WHERE kind = 'source' AND resolved",
                (world.tenant_a, sim, e.uuid_),
            ).fetchall()
            assert {s[0] for s in sources} == set(e.episodes)
    print(f"extracted {len(nodes)} entities and {len(edges)} facts from {len(uuids) + 1} episodes")

    zep.graph.delete(graph_id=graph_id)
    with pytest.raises(ApiError) as gone:
        zep.graph.get(graph_id=graph_id)
    assert gone.value.status_code == 404


def test_tenants_and_readers_stay_apart(served_without_extractor):
    s = served_without_extractor
    a, b, reader = s.client(s.key_a), s.client(s.key_b), s.client(s.reader_a)
    a.graph.create(graph_id="shared_name", name="A's")
    ep = a.graph.add(graph_id="shared_name", type="text", data="Only tenant A knows this.")
    # B may make a graph of the same id: its own
    b_graph = b.graph.create(graph_id="shared_name", name="B's")
    assert b_graph.uuid_ != a.graph.get(graph_id="shared_name").uuid_
    for call in (
        lambda: b.graph.episode.get(uuid_=ep.uuid_),
        lambda: b.graph.add(
            graph_id=a.graph.get(graph_id="shared_name").uuid_, type="text", data="x"
        ),
    ):
        with pytest.raises(ApiError) as refused:
            call()
        assert refused.value.status_code == 404
    found = b.graph.search(
        graph_id="shared_name", query="Only tenant A knows this", scope="episodes"
    )
    assert not found.episodes
    with pytest.raises(ApiError) as refused:
        reader.graph.add(graph_id="shared_name", type="text", data="a reader writes nothing")
    assert refused.value.status_code == 403
    with pytest.raises(ApiError) as refused:
        a.graph.add(graph_id="shared_name", type="text", data=" ")
    assert refused.value.status_code == 400
    with pytest.raises(ApiError) as refused:
        a.graph.add_batch(
            graph_id="shared_name",
            episodes=[EpisodeData(data=f"x{i}", type="text") for i in range(21)],
        )
    assert refused.value.status_code == 400
    assert len(a.graph.episode.get_by_graph_id(graph_id="shared_name", lastn=50).episodes) == 1


def test_failure_is_visible_and_retried(served_without_extractor, world, llm, capsys):
    s = served_without_extractor
    zep = s.client(s.key_a)
    zep.graph.create(graph_id="flaky", name="flaky")
    mirofish_set_ontology(zep, "flaky", ONTOLOGY)
    ep = zep.graph.add(graph_id="flaky", type="text", data="Tom Reyes works for the council.")
    llm.fail_next(1, status=503)
    env = {"LLM_BASE_URL": llm.base_url, "LLM_MODEL_NAME": llm.model}
    bounds = ["--llm-max-tokens", str(MAX_TOKENS), "--llm-max-items", str(MAX_ITEMS)]
    os.environ.update(env)
    try:
        code = main(
            ["--dsn", world.dsn("app_a"), "extract", "--tenant", str(world.tenant_a), *bounds]
        )
        out = capsys.readouterr().out
        assert code == 1 and "1 failed" in out, out
        failed = zep.graph.episode.get(uuid_=ep.uuid_)
        assert failed.processed is False and failed.status == "failed"
        assert "503" in failed.error and failed.attempts == 1
        # the retry waits its pause; an operator queues it at once
        code = main(
            [
                "--dsn",
                world.dsn("app_a"),
                "extract",
                "--tenant",
                str(world.tenant_a),
                "--retry-failed",
                *bounds,
            ]
        )
        out = capsys.readouterr().out
        assert code == 0 and "extracted 1 episode" in out, out
    finally:
        for k in env:
            os.environ.pop(k, None)
    done = zep.graph.episode.get(uuid_=ep.uuid_)
    assert done.processed and done.error is None


def test_a_killed_service_loses_no_accepted_episode(world, keys, tmp_path):
    """The service in a process of its own, killed (SIGKILL) while a writer adds episodes one
    by one: every add it answered is in the database afterwards, and a new service serves it."""
    key_a = keys[0]
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "swarm_memory.cli",
        "--dsn",
        world.dsn("admin"),
        "serve",
        "--port",
        str(port),
        "--no-extract",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/api/v2"
    headers = {"authorization": f"Api-Key {key_a}"}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if (
                    httpx.get(f"{url}/graph/list-all", headers=headers, timeout=2).status_code
                    == 200
                ):
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
            time.sleep(0.2)
        httpx.post(f"{url}/graph/create", json={"graph_id": "killed"}, headers=headers, timeout=30)
        accepted: list[str] = []

        def add_until_killed() -> None:
            for i in range(500):
                try:
                    r = httpx.post(
                        f"{url}/graph",
                        json={
                            "graph_id": "killed",
                            "type": "text",
                            "data": f"sentence {i} of a run",
                        },
                        headers=headers,
                        timeout=30,
                    )
                except httpx.HTTPError:
                    return
                if r.status_code == 200:
                    accepted.append(r.json()["uuid"])

        writer = threading.Thread(target=add_until_killed)
        writer.start()
        while len(accepted) < 10:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        writer.join(60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)
    assert len(accepted) >= 10
    with world.connect("app_a") as conn:
        stored = {
            str(r[0])
            for r in conn.execute(
                "SELECT (e ->> 'uuid') FROM memory.zep_graph_episodes(%s, 'killed', 1000) AS e",
                (world.tenant_a,),
            )
        }
    assert set(accepted) <= stored


def test_a_killed_extractor_loses_nothing(served_without_extractor, world, llm):
    """An extractor that claimed an episode and died commits nothing; once its claim runs
    out another extractor takes the episode and processes it."""
    s = served_without_extractor
    zep = s.client(s.key_a)
    zep.graph.create(graph_id="resumed", name="resumed")
    ep = zep.graph.add(
        graph_id="resumed", type="text", data="Maya Okafor supports the Harbourton Courier."
    )
    with world.connect("app_a", autocommit=False) as conn:
        claimed = conn.execute(
            "SELECT episode_uuid, attempt FROM memory.zep_claim_episodes(%s, 1, 10)",
            (world.tenant_a,),
        ).fetchall()
        conn.commit()
    assert [str(c[0]) for c in claimed] == [ep.uuid_]  # and then the extractor dies
    assert zep.graph.episode.get(uuid_=ep.uuid_).status == "processing"
    worker = Worker(
        world.dsn("admin"),
        LLMConfig(llm.base_url, llm.model, max_tokens=MAX_TOKENS, max_items=MAX_ITEMS),
        poll=0.5,
    )
    worker.start()
    try:
        done = wait_processed(zep, [ep.uuid_], timeout=300)[0]
    finally:
        worker.stop()
        worker.join(60)
    assert done.attempts == 2 and done.status == "succeeded"
