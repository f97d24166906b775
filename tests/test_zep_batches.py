"""Zep's batch API served by `swarm-memory serve`, driven by the real zep-cloud 3.25.0 SDK
(the version whose client.batch MiroFish's newer ingestion uses). The venv holds 3.13.0 for
the other tests; 3.25.0 is installed once into .cache/zep-cloud-3.25.0 and every 3.25 call
runs in a subprocess with that directory first on its path, so the two never meet in one
interpreter. The service runs in-process against the test database (as tests/test_zep_serve.py
runs it); no extraction model runs: episodes move through the queue by the SQL functions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from swarm_memory.asgi import in_thread
from swarm_memory.zep import Service, create_app

from tests.helpers import api_key, drop_key_roles

ROOT = Path(__file__).resolve().parents[1]
SDK_DIR = ROOT / ".venv" / "zep-cloud-3.25.0"
GRAPH = "mirofish_batch"

# The 3.25 calls, run in a subprocess: argv[1] is the step, stdin its JSON arguments, stdout
# its JSON observations (errors as their HTTP status).
DRIVER = r'''
import json, sys
from zep_cloud.client import Zep
from zep_cloud.core.api_error import ApiError
from zep_cloud.types import BatchAddItem, EntityEdgeSourceTarget
from zep_cloud.external_clients.ontology import EntityModel, EntityText, EdgeModel

args = json.load(sys.stdin)
step = sys.argv[1]
zep = Zep(api_key=args["key"], base_url=args["url"] + "/api/v2")


def status_of(fn):
    try:
        fn()
    except ApiError as exc:
        return exc.status_code
    return 200


def dump(x):
    return json.loads(x.json()) if hasattr(x, "json") else x


out = {}
if step == "ingest":
    import zep_cloud
    out["sdk"] = zep_cloud.__file__
    g = args["graph"]
    zep.graph.create(graph_id=g, name="MiroFish batch run")

    class Person(EntityModel):
        """A person who posts."""
        role: EntityText = None

    class Organization(EntityModel):
        """An organisation."""

    class WorksFor(EdgeModel):
        """Employment."""

    zep.graph.set_ontology(
        graph_ids=[g],
        entities={"Person": Person, "Organization": Organization},
        edges={"WORKS_FOR": (WorksFor, [EntityEdgeSourceTarget(source="Person", target="Organization")])},
    )
    batch = zep.batch.create(metadata={"operation_id": "op-1", "project": "riverside"})
    out["created"] = dump(batch)
    texts = args["texts"]
    added = zep.batch.add(batch.batch_id, items=[
        BatchAddItem(type="graph_episode", graph_id=g, data=t, data_type="text",
                     source_description="MiroFish chunk", metadata={"chunk": n})
        for n, t in enumerate(texts)])
    out["added"] = [dump(i) for i in added]
    out["thread_message"] = status_of(lambda: zep.batch.add(batch.batch_id, items=[
        BatchAddItem(type="thread_message", thread_id="t1", content="hello", role="user")]))
    out["episodes_before"] = len(zep.graph.episode.get_by_graph_id(g).episodes or [])
    out["processed"] = dump(zep.batch.process(batch.batch_id))
    out["late_add"] = status_of(lambda: zep.batch.add(batch.batch_id, items=[
        BatchAddItem(type="graph_episode", graph_id=g, data="too late")]))
    out["processed_again"] = dump(zep.batch.process(batch.batch_id))
    # MiroFish's resume: find its batch again by the operation id in its metadata
    found, cursor = [], None
    while True:
        page = zep.batch.list(limit=1, cursor=cursor)
        found += [b for b in page.batches or [] if (b.metadata or {}).get("operation_id") == "op-1"]
        if page.next_cursor is None:
            break
        assert cursor is None or page.next_cursor > cursor
        cursor = page.next_cursor
    out["found"] = [dump(b) for b in found]
    items = zep.batch.list_items(batch.batch_id).items
    out["items"] = [dump(i) for i in items]
    out["episodes"] = [dump(zep.graph.episode.get(i.episode_uuid)) for i in items]
    hits = zep.graph.search(graph_id=g, query=args["query"], scope="episodes", limit=5)
    out["search"] = [e.content for e in hits.episodes or []]
elif step == "get":
    out["status"] = status_of(lambda: zep.batch.get(args["batch_id"]))
    if out["status"] == 200:
        out["batch"] = dump(zep.batch.get(args["batch_id"]))
        out["items"] = [dump(i) for i in zep.batch.list_items(args["batch_id"]).items]
    out["items_status"] = status_of(lambda: zep.batch.list_items(args["batch_id"]))
elif step == "process":
    out["status"] = status_of(lambda: zep.batch.process(args["batch_id"]))
    if out["status"] == 200:
        out["batch"] = dump(zep.batch.process(args["batch_id"]))
elif step == "pages":
    for n in range(args["make"]):
        zep.batch.create(metadata={"operation_id": f"page-{n}"})
    seen, cursor, requests = [], None, 0
    while True:
        page = zep.batch.list(limit=args["limit"], cursor=cursor)
        requests += 1
        seen += [b.batch_id for b in page.batches or []]
        if page.next_cursor is None:
            break
        assert cursor is None or page.next_cursor > cursor, (cursor, page.next_cursor)
        cursor = page.next_cursor
    out["seen"], out["requests"] = seen, requests
print(json.dumps(out))
'''


@pytest.fixture(scope="session")
def sdk325() -> Path:
    """zep-cloud 3.25.0 in a directory of its own beside the venv (its dependencies are
    3.13's, in the venv), which `make setup` installs."""
    assert (SDK_DIR / "zep_cloud" / "batch").is_dir(), f"{SDK_DIR} is missing: run make setup"
    return SDK_DIR


def run325(sdk: Path, step: str, **args: Any) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(sdk)}
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, step],
        input=json.dumps(args),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@contextmanager
def serving(dsn: str) -> Iterator[str]:
    with in_thread(create_app(Service(dsn))) as url:
        yield url


@pytest.fixture
def keys(world, minilm, capsys) -> Iterator[tuple[str, str]]:
    key_a = api_key(capsys, world.dsn(), world.tenant_a)
    key_b = api_key(capsys, world.dsn(), world.tenant_b)
    try:
        yield key_a, key_b
    finally:
        with world.connect() as conn:  # the keys' roles are the cluster's
            drop_key_roles(conn)


TEXTS = [
    "Maya Chen, a nurse at Riverside Clinic, posted that the harbour board voted to close the pier.",
    "港口委员会投票决定关闭码头，渔民协会表示反对。",
    "Riverside Clinic hired two more nurses after the flood.",
]


def _move(world, episode_uuid: str, fail: bool) -> None:
    """The queue's next episode, which must be this one, extracted or failed as the
    extractor would record it."""
    with world.connect("app_a") as conn:
        (uid, attempt), *rest = conn.execute(
            "SELECT episode_uuid, attempt FROM memory.zep_claim_episodes(%s, 1)",
            (world.tenant_a,),
        ).fetchall()
        assert str(uid) == episode_uuid and not rest
        if fail:
            conn.execute(
                "SELECT memory.zep_fail_extraction(%s, %s, %s, 'model endpoint answered 503')",
                (world.tenant_a, uid, attempt),
            )
        else:
            conn.execute(
                "SELECT memory.zep_apply_extraction(%s, %s, %s, %s)",
                (world.tenant_a, uid, attempt, json.dumps({"entities": [], "facts": []})),
            )


def test_mirofish_ingests_through_a_batch(world, keys, sdk325):
    key_a, key_b = keys
    with serving(world.dsn("admin")) as url:
        out = run325(sdk325, "ingest", url=url, key=key_a, graph=GRAPH, texts=TEXTS, query="码头")
        batch_id = out["created"]["batch_id"]
        assert out["created"]["status"] == "draft"
        assert [i["status"] for i in out["added"]] == ["pending"] * 3
        assert out["thread_message"] == 400
        assert out["episodes_before"] == 0  # a draft's items are not episodes yet
        assert out["processed"]["status"] == "queued"
        assert out["processed"]["progress"]["queued_items"] == 3
        assert out["late_add"] == 409
        assert {k: v for k, v in out["processed_again"].items() if k != "updated_at"} == {
            k: v for k, v in out["processed"].items() if k != "updated_at"
        }
        assert [b["batch_id"] for b in out["found"]] == [batch_id]
        items = out["items"]
        assert [i["status"] for i in items] == ["queued"] * 3
        assert all(i["episode_uuid"] and i["source_uuid"] == i["episode_uuid"] for i in items)
        seq = [i["sequence_index"] for i in items]
        assert seq == sorted(seq) and len(set(seq)) == 3
        assert [e["content"] for e in out["episodes"]] == TEXTS
        assert [e.get("uuid_") or e.get("uuid") for e in out["episodes"]] == [
            i["episode_uuid"] for i in items
        ]
        assert not any(e["processed"] for e in out["episodes"])
        assert out["sdk"].startswith(str(sdk325))
        assert TEXTS[1] in out["search"]

        other = run325(sdk325, "get", url=url, key=key_b, batch_id=batch_id)
        assert (other["status"], other["items_status"]) == (404, 404)
        assert run325(sdk325, "process", url=url, key=key_b, batch_id=batch_id)["status"] == 404

        # the extraction's progress shows in the batch, derived from the episodes
        first, second, third = (i["episode_uuid"] for i in items)
        _move(world, first, fail=True)
        seen = run325(sdk325, "get", url=url, key=key_a, batch_id=batch_id)["batch"]
        assert seen["status"] == "processing"
        assert seen["progress"]["failed_items"] == 1
        _move(world, second, fail=False)
        _move(world, third, fail=False)
        seen = run325(sdk325, "get", url=url, key=key_a, batch_id=batch_id)
        assert seen["batch"]["status"] == "partial"
        assert [i["status"] for i in seen["items"]] == ["failed", "succeeded", "succeeded"]
        assert seen["items"][0]["error"]["message"] == "model endpoint answered 503"
        # MiroFish's resume: processing the batch again queues its failed item again
        resumed = run325(sdk325, "process", url=url, key=key_a, batch_id=batch_id)["batch"]
        assert resumed["status"] == "processing"
        assert resumed["progress"]["queued_items"] == 1
        _move(world, first, fail=False)
        seen = run325(sdk325, "get", url=url, key=key_a, batch_id=batch_id)["batch"]
        assert seen["status"] == "succeeded" and seen["completed_at"]
        assert seen["progress"]["percent_complete"] == 100


def test_batches_survive_a_restart_and_cursors_end(world, keys, sdk325):
    key_a, _ = keys
    with serving(world.dsn("admin")) as url:
        out = run325(
            sdk325, "ingest", url=url, key=key_a, graph=GRAPH, texts=TEXTS[:1], query="pier"
        )
        batch_id = out["created"]["batch_id"]
    with serving(world.dsn("admin")) as url:  # a new process: the state is the database's
        seen = run325(sdk325, "get", url=url, key=key_a, batch_id=batch_id)
        assert seen["batch"]["status"] == "queued"
        assert seen["batch"]["metadata"]["operation_id"] == "op-1"
        assert [i["episode_uuid"] for i in seen["items"]] == [out["items"][0]["episode_uuid"]]
        pages = run325(sdk325, "pages", url=url, key=key_a, make=4, limit=2)
        assert len(pages["seen"]) == len(set(pages["seen"])) == 5
        assert pages["requests"] == 3
