"""Importing the example MiroFish run with the real embedder, then reading it back."""

from __future__ import annotations

import pytest

from swarm_memory import Memory, TenantAccessDenied
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run
from tests.test_mirofish import EXAMPLE


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def test_import_replay_and_search(world, embedder):
    with Memory(world.dsn("app_a")) as mem:
        first = import_run(mem, world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
        assert first.nodes.inserted >= 30 and first.edges.inserted >= 40
        assert first.episodes.inserted >= 300 and first.profiles.inserted >= 20
        assert first.events > 0

        again = import_run(mem, world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
        for counts, before in ((again.nodes, first.nodes), (again.edges, first.edges),
                               (again.episodes, first.episodes),
                               (again.profiles, first.profiles)):
            assert counts.inserted == 0 and counts.updated == 0
            assert counts.unchanged == before.inserted

        stats = mem.simulation_stats(world.tenant_a, world.sim_a)
        assert stats.nodes == first.nodes.inserted
        assert stats.episodes == first.episodes.inserted
        assert set(stats.platforms) == {"twitter", "reddit"}
        assert "events" in stats.metadata

        question = embedder.encode_one("Shop owners are afraid of losing customers")
        hits = mem.search_episodes(world.tenant_a, world.sim_a, question, 5)
        assert len(hits) == 5
        assert hits == sorted(hits, key=lambda h: -h.similarity)
        words = ("shop", "trade", "business", "customer", "retail", "sales")
        assert any(w in (hits[0].content or "").lower() for w in words)

    with Memory(world.dsn("app_b")) as other, pytest.raises(TenantAccessDenied):
        other.nodes_by_type(world.tenant_a, world.sim_a, None)
