"""An import replaces only what it carries, with the real model (a few hundred short texts).

A run folder without a graph file keeps the graph; one platform's actions keep the other's;
a memory written outside imports survives them; MiroFish's API-wrapped graph imports like the
plain export. The SQL contract of the scope is tested in sql/tests/016_import_scope.sql; these
tests go through the importer and the driver, from files as MiroFish writes them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from swarm_memory import Memory
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run
from swarm_memory.mirofish import BadInput
from swarm_memory.reports import KINDS as REPORT_KINDS

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def counts(world) -> dict[str, object]:
    with Memory(world.dsn("app_a")) as mem:
        stats = mem.simulation_stats(world.tenant_a, world.sim_a)
    return {
        "nodes": stats.nodes,
        "edges": stats.edges,
        "episodes": stats.episodes,
        "profiles": stats.profiles,
        "platforms": stats.platforms,
    }


def test_a_simulation_folder_without_graph_file_keeps_the_graph(world, embedder, tmp_path):
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    before = counts(world)
    # MiroFish's uploads/simulations/sim_*/ folder: the platforms' actions, no graph file.
    folder = tmp_path / "sim_3f2a9c1b7d4e"
    shutil.copytree(EXAMPLE / "twitter", folder / "twitter")
    (folder / "state.json").write_text(
        json.dumps({"simulation_id": "sim_3f2a9c1b7d4e", "graph_id": "mirofish_x"}),
        encoding="utf-8",
    )
    report = import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, folder, embedder=embedder)
    assert counts(world) == before
    assert report.scope == {"episodes": ["twitter"]}
    assert {k: r.deleted for k, r in report.results.items()} == dict.fromkeys(
        ("nodes", "edges", "episodes", "profiles", *REPORT_KINDS), 0
    )
    assert report.embedded == 0  # every twitter text was committed already
    with Memory(world.dsn("app_a")) as mem:
        stats = mem.simulation_stats(world.tenant_a, world.sim_a)
    assert stats.metadata["simulation_id"] == "sim_3f2a9c1b7d4e"


def test_one_platforms_actions_replace_that_platform_only(world, embedder, tmp_path):
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    before = counts(world)
    folder = tmp_path / "run"
    (folder / "reddit").mkdir(parents=True)
    lines = (EXAMPLE / "reddit" / "actions.jsonl").read_text(encoding="utf-8").splitlines()
    actions = [line for line in lines if '"event_type"' not in line]
    (folder / "reddit" / "actions.jsonl").write_text("\n".join(actions[:-5]), encoding="utf-8")
    report = import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, folder, embedder=embedder)
    assert report.results["episodes"].deleted == 5
    after = counts(world)
    assert after["episodes"] == before["episodes"] - 5
    assert after["platforms"]["twitter"] == before["platforms"]["twitter"]
    assert (after["nodes"], after["edges"], after["profiles"]) == (
        before["nodes"],
        before["edges"],
        before["profiles"],
    )


def test_an_empty_actions_file_is_refused_unless_allowed(world, embedder, tmp_path):
    folder = tmp_path / "run"
    (folder / "twitter").mkdir(parents=True)
    (folder / "twitter" / "actions.jsonl").write_text(
        '{"event_type": "simulation_end", "round": 3}\n', encoding="utf-8"
    )
    with pytest.raises(BadInput, match=r"actions.jsonl: no actions.*--allow-empty"):
        import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, folder, embedder=embedder)


def test_the_api_wrapped_graph_imports_like_the_export(world, embedder, tmp_path):
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    folder = tmp_path / "run"
    folder.mkdir()
    graph = json.loads((EXAMPLE / "graph.json").read_text(encoding="utf-8"))
    (folder / "graph.json").write_text(
        json.dumps({"success": True, "data": graph}, ensure_ascii=False), encoding="utf-8"
    )
    report = import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, folder, embedder=embedder)
    for kind in ("nodes", "edges"):
        r = report.results[kind]
        assert (r.inserted, r.updated, r.deleted) == (0, 0, 0) and r.unchanged > 0


def test_a_memory_survives_the_next_import_and_is_searchable(world, embedder):
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    text = "记者 Maya 说: 河滨路的商店老板担心禁止汽车以后客流会减少"
    with Memory(world.dsn("app_a")) as mem:
        memory_id = mem.remember(
            world.tenant_a, world.sim_a, text, agent_id=0, platform="twitter", embedder=embedder
        )
        again = mem.remember(
            world.tenant_a, world.sim_a, text, agent_id=0, platform="twitter", embedder=embedder
        )
        assert again == memory_id
    report = import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    assert report.results["episodes"].deleted == 0
    with Memory(world.dsn("app_a")) as mem:
        hits = mem.search_episodes(
            world.tenant_a, world.sim_a, embedder.encode_one("商店老板担心客流减少"), 3
        )
    assert hits[0].episode_id == memory_id and hits[0].content == text
