"""The tenant's vector cache (issue 10, point 5), with the real model on the example run: a
text is embedded once per tenant. Importing the run into a second simulation of the tenant
embeds nothing; an attempt refused after embedding, or an importer killed after it, leaves
its vectors for the rerun; another tenant gets nothing from this tenant's cache. The driver's
two methods round-trip vectors and refuse what the SQL refuses.

The SQL contract (isolation, idempotence, refusals by SQLSTATE) is pgTAP's
(sql/tests/018_vector_cache.sql). `pytest -s` prints the timings of the second-simulation
test: the first import, the same run into a second simulation of the tenant, and into
another tenant (no cache) for comparison."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import numpy as np
import pytest
from swarm_memory import InvalidInput, Memory, SwarmMemoryError, TenantAccessDenied
from swarm_memory import importer as importer_module
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run
from test_import_failures import kill, start_paused_import

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    model = Embedder()
    model.encode_one("warm up")  # the model loads here, not inside a timed import
    return model


def cache_rows(conn, tenant: uuid.UUID) -> int:
    """Rows of a tenant's cache, counted as the superuser (no RLS)."""
    return conn.execute(
        "SELECT count(*) FROM memory.vector_cache WHERE tenant_id = %s", (tenant,)
    ).fetchone()[0]


def vectors(conn, tenant: uuid.UUID, sim: uuid.UUID) -> dict[tuple[str, str], list[float]]:
    """(kind, id) -> stored vector of every embedded row of a simulation (superuser)."""
    out = {}
    for kind, key in (("nodes", "node_id"), ("edges", "edge_id"), ("episodes", "episode_id")):
        for item_id, vec in conn.execute(
            f"SELECT {key}, embedding::real[] FROM memory.{kind}"
            " WHERE tenant_id = %s AND simulation_id = %s AND embedding IS NOT NULL",
            (tenant, sim),
        ):
            out[(kind, item_id)] = vec
    return out


def test_a_second_simulation_of_the_tenant_embeds_nothing(world, embedder, connect):
    su = connect()
    app_a = world.dsn("app_a")
    started = time.perf_counter()
    first = import_run(app_a, world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    first_s = time.perf_counter() - started
    assert first.embedded > 300 and first.cached == 0 and first.reused == 0
    assert cache_rows(su, world.tenant_a) > 0

    sentences = embedder.sentences
    sim_2 = uuid.uuid4()
    started = time.perf_counter()
    second = import_run(app_a, world.tenant_a, sim_2, EXAMPLE, embedder=embedder)
    second_s = time.perf_counter() - started
    assert embedder.sentences == sentences  # the model encoded nothing
    assert (second.embedded, second.reused, second.cached) == (0, 0, first.embedded)
    for kind, result in second.results.items():
        assert result.inserted == first.results[kind].inserted, kind
    # Staged with the cached vectors: the second simulation holds the first one's, bit for bit.
    assert vectors(su, world.tenant_a, sim_2) == vectors(su, world.tenant_a, world.sim_a)

    # Control: the same run into another tenant, whose cache is empty, with the same warm model.
    started = time.perf_counter()
    other = import_run(world.dsn("app_b"), world.tenant_b, world.sim_b, EXAMPLE, embedder=embedder)
    other_s = time.perf_counter() - started
    assert other.cached == 0 and other.embedded == first.embedded
    print(
        f"\nexample run ({first.embedded} texts): first import {first_s:.2f} s "
        f"(embed {first.timings.get('embed', 0):.2f} s); into a second simulation of the tenant "
        f"{second_s:.2f} s (embed {second.timings.get('embed', 0):.2f} s, {second.cached} from "
        f"the cache); into another tenant {other_s:.2f} s (embed "
        f"{other.timings.get('embed', 0):.2f} s); second/first {second_s / first_s:.2f}"
    )


def test_another_tenant_gets_nothing_from_this_tenants_cache(world, embedder, connect):
    su = connect()
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    cached_a = cache_rows(su, world.tenant_a)
    report = import_run(world.dsn("app_b"), world.tenant_b, world.sim_b, EXAMPLE, embedder=embedder)
    assert report.cached == 0 and report.embedded > 300
    assert cache_rows(su, world.tenant_b) == cached_a  # B built a cache of its own
    hashes = [
        h
        for (h,) in su.execute(
            "SELECT content_hash FROM memory.vector_cache WHERE tenant_id = %s", (world.tenant_a,)
        )
    ]
    with Memory(world.dsn("app_b")) as mem_b, Memory(world.dsn("app_a")) as mem_a:
        with pytest.raises(TenantAccessDenied):
            mem_b.cached_vectors(world.tenant_a, embedder.model_name, hashes[:10])
        # The same texts, B's own rows: B reads its vectors, never A's rows.
        own = mem_b.cached_vectors(world.tenant_b, embedder.model_name, hashes[:10])
        assert {c.content_hash for c in own} == set(hashes[:10])
        assert len(mem_a.cached_vectors(world.tenant_a, embedder.model_name, hashes)) == cached_a


def test_a_refused_attempt_keeps_its_vectors(world, embedder, connect, monkeypatch):
    """The attempt declares its counts, then its load loses an episode: the count check
    refuses it after everything was embedded. Its vectors stay cached; the rerun embeds 0."""
    su = connect()
    real_load = importer_module.load

    def lossy_load(mem, conn, tenant_id, attempt_id, parsed, *args, **kwargs):
        parsed.episodes.pop()
        return real_load(mem, conn, tenant_id, attempt_id, parsed, *args, **kwargs)

    monkeypatch.setattr(importer_module, "load", lossy_load)
    with pytest.raises(SwarmMemoryError):
        import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    monkeypatch.undo()
    reader = connect("app_a")
    states = [
        s
        for (s,) in reader.execute(
            "SELECT state FROM memory.import_attempts(%s, %s)", (world.tenant_a, world.sim_a)
        )
    ]
    assert states and "committed" not in states  # refused: nothing committed
    assert cache_rows(su, world.tenant_a) > 300

    sentences = embedder.sentences
    rerun = import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    assert embedder.sentences == sentences
    assert rerun.embedded == 0 and rerun.cached > 300 and rerun.reused == 0


def test_a_killed_importer_leaves_its_vectors_for_the_rerun(world, embedder, connect):
    """`swarm-memory import` paused in load (after embedding and its first staged batch) and
    killed: the rerun embeds nothing."""
    su = connect()
    reader = connect("app_a")
    proc = start_paused_import(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, "load")
    try:
        assert cache_rows(su, world.tenant_a) > 300  # cached before the pause
    finally:
        kill(proc)
    rerun = import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    assert rerun.embedded == 0 and rerun.cached > 300
    states = reader.execute(
        "SELECT state FROM memory.import_attempts(%s, %s)", (world.tenant_a, world.sim_a)
    ).fetchall()
    # killed after its first batch was staged: that attempt failed, the rerun committed
    assert sorted(states) == [("committed",), ("failed",)]


def test_driver_round_trip_and_refusals(world, connect):
    rng = np.random.default_rng(7)
    vecs = [rng.standard_normal(384).astype(np.float32) for _ in range(3)]
    hashes = [bytes([i]) * 32 for i in range(3)]
    with Memory(world.dsn("app_a")) as mem:
        assert mem.cache_vectors(world.tenant_a, "m", hashes, vecs) == 3
        assert mem.cache_vectors(world.tenant_a, "m", hashes, [v * 2 for v in vecs]) == 0
        got = {c.content_hash: c.embedding for c in mem.cached_vectors(world.tenant_a, "m", hashes)}
        assert set(got) == set(hashes)
        for h, v in zip(hashes, vecs, strict=True):
            np.testing.assert_array_equal(got[h], v)  # the first vector stays, exactly
        assert mem.cached_vectors(world.tenant_a, "other", hashes) == []
        with pytest.raises(InvalidInput) as exc:
            mem.cache_vectors(world.tenant_a, "m", hashes, vecs[:2])
        assert exc.value.sqlstate == "22023"
        with pytest.raises(InvalidInput) as exc:
            mem.cache_vectors(world.tenant_a, "m", [b"\x09"], [np.zeros(384, np.float32)])
        assert exc.value.sqlstate == "22023"
