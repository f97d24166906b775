"""The time-aware graph through the importer, the driver and the CLI (issue 11), with the
real model, from MiroFish's graph export as MiroFish writes it. The SQL contract (states,
the walk's world clock, facts, history within a transaction) is tested in
sql/tests/023_time.sql; these tests need what one transaction cannot give: record time that
moves between imports."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from swarm_memory import Memory
from swarm_memory.cli import main
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run
from swarm_memory.mirofish import BadInput

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"
CHAMBER_SUPPORTS = "fa893631-225c-465c-ba43-f395e580f03b"  # ended 2025-04-29
CHAMBER = "Harbourton Chamber of Commerce"
PLAN = "River Road Car-Free Plan"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def graph_run(tmp_path: Path, name: str, change=None) -> Path:
    """A run folder holding only the example's graph export, changed by `change`."""
    graph = json.loads((EXAMPLE / "graph.json").read_text(encoding="utf-8"))
    if change:
        change(graph)
    folder = tmp_path / name
    folder.mkdir()
    (folder / "graph.json").write_text(json.dumps(graph, ensure_ascii=False), encoding="utf-8")
    return folder


def edge(graph: dict, edge_id: str) -> dict:
    return next(e for e in graph["edges"] if e["uuid"] == edge_id)


def node_id(mem: Memory, world, name: str) -> str:
    return mem.nodes_named(world.tenant_a, world.sim_a, name)[0].node_id


def test_the_example_walk_follows_current_facts(world, embedder):
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    with Memory(world.dsn("reader_a")) as mem:
        chamber = node_id(mem, world, CHAMBER)
        now = mem.neighbors(world.tenant_a, world.sim_a, chamber)
        assert CHAMBER_SUPPORTS not in {r.edge_id for r in now}
        assert {r.state for r in now} == {"current"}
        # The chamber reaches the plan by its ended support and by its current opposition:
        # with ended facts included, the current one still wins.
        everything = mem.neighbors(world.tenant_a, world.sim_a, chamber, include_ended=True)
        [plan] = [r for r in everything if r.name == PLAN]
        assert plan.edge_id != CHAMBER_SUPPORTS and plan.state == "current"
        # Before the opposition began, the support was the current fact.
        then = mem.neighbors(world.tenant_a, world.sim_a, chamber, as_of="2025-03-01")
        [plan] = [r for r in then if r.name == PLAN]
        assert (plan.edge_id, plan.state, plan.edge_type) == (
            CHAMBER_SUPPORTS,
            "current",
            "SUPPORTS",
        )
        assert plan.invalid_at.isoformat() == "2025-04-29T00:00:00+00:00"
        historical = mem.facts(world.tenant_a, world.sim_a, chamber, "historical")
        assert [(f.edge_id, f.target_name, f.state) for f in historical] == [
            (CHAMBER_SUPPORTS, PLAN, "ended")
        ]
        assert historical[0].learned_at is not None and historical[0].expired_at is not None
        assert historical[0].episodes  # the Graphiti episodes the fact came from


def test_a_fact_across_three_imports(world, embedder, tmp_path):
    dsn = world.dsn("app_a")
    first = import_run(
        dsn, world.tenant_a, world.sim_a, graph_run(tmp_path, "1"), embedder=embedder
    )
    time.sleep(0.05)
    between_1_and_2 = _server_now(world)
    time.sleep(0.05)

    def reworded(graph: dict) -> None:
        edge(graph, CHAMBER_SUPPORTS)["fact"] = "The Chamber of Commerce backed the plan at first."

    second = import_run(
        dsn, world.tenant_a, world.sim_a, graph_run(tmp_path, "2", reworded), embedder=embedder
    )

    def reopened(graph: dict) -> None:
        reworded(graph)
        edge(graph, CHAMBER_SUPPORTS)["invalid_at"] = None
        edge(graph, CHAMBER_SUPPORTS)["expired_at"] = None

    third = import_run(
        dsn, world.tenant_a, world.sim_a, graph_run(tmp_path, "3", reopened), embedder=embedder
    )
    replay = import_run(
        dsn, world.tenant_a, world.sim_a, graph_run(tmp_path, "4", reopened), embedder=embedder
    )
    assert replay.results["edges"].updated == 0

    with Memory(world.dsn("reader_a")) as mem:
        versions = mem.history(world.tenant_a, world.sim_a, "edge", CHAMBER_SUPPORTS)
        assert [v.change for v in versions] == ["updated", "updated", "current"]
        assert [v.attempt_id for v in versions] == [second.attempt_id, third.attempt_id, None]
        assert versions[0].data["fact"] == edge(_example(), CHAMBER_SUPPORTS)["fact"]
        assert versions[1].data["fact"] == "The Chamber of Commerce backed the plan at first."
        assert versions[1].data["invalid_at"] is not None and versions[2].data["invalid_at"] is None
        # each version ends where the next begins; the replay wrote none
        assert versions[0].recorded_to == versions[1].recorded_from
        assert versions[1].recorded_to == versions[2].recorded_from
        assert first.attempt_id not in {v.attempt_id for v in versions}

        chamber = node_id(mem, world, CHAMBER)
        # now the support is current again ...
        now = mem.neighbors(world.tenant_a, world.sim_a, chamber)
        assert CHAMBER_SUPPORTS in {r.edge_id for r in now}
        # ... and as of March 2025 it read, before the second import, in its first wording
        held = mem.facts(world.tenant_a, world.sim_a, chamber, "all")
        assert CHAMBER_SUPPORTS in {f.edge_id for f in held}
        then = mem.neighbors(
            world.tenant_a, world.sim_a, chamber, as_of="2025-03-01", known_at=between_1_and_2
        )
        [plan] = [r for r in then if r.name == PLAN]
        assert (plan.edge_id, plan.fact) == (
            CHAMBER_SUPPORTS,
            edge(_example(), CHAMBER_SUPPORTS)["fact"],
        )
        now_then = mem.neighbors(world.tenant_a, world.sim_a, chamber, as_of="2025-03-01")
        [plan] = [r for r in now_then if r.name == PLAN]
        assert plan.fact == "The Chamber of Commerce backed the plan at first."


def test_an_edge_ending_before_it_begins_is_refused_while_parsing(world, embedder, tmp_path):
    def backwards(graph: dict) -> None:
        edge(graph, CHAMBER_SUPPORTS)["invalid_at"] = "2024-01-01T00:00:00Z"

    with pytest.raises(BadInput, match=f"edge {CHAMBER_SUPPORTS} .*ends before it begins"):
        import_run(
            world.dsn("app_a"),
            world.tenant_a,
            world.sim_a,
            graph_run(tmp_path, "bad", backwards),
            embedder=embedder,
        )
    with Memory(world.dsn("reader_a")) as mem:
        assert mem.simulation_stats(world.tenant_a, world.sim_a).edges == 0


def test_cli_facts_history_and_the_walk_as_of(world, embedder, capsys, tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "run")
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, tmp_path / "run", embedder=embedder)
    dsn = ["--dsn", world.dsn("reader_a")]
    scope = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    assert main([*dsn, "facts", CHAMBER, "--state", "historical", *scope]) == 0
    out = capsys.readouterr().out
    assert "SUPPORTS" in out and "ended" in out and "2025-04-29" in out
    assert main([*dsn, "neighbors", CHAMBER, "--as-of", "2025-03-01", *scope]) == 0
    assert "SUPPORTS" in capsys.readouterr().out
    assert main([*dsn, "neighbors", CHAMBER, *scope]) == 0
    assert "SUPPORTS" not in capsys.readouterr().out
    assert main([*dsn, "history", "edge", CHAMBER_SUPPORTS, *scope]) == 0
    assert "current" in capsys.readouterr().out
    assert main([*dsn, "facts", CHAMBER, "--as-of", "not a time", *scope]) == 2
    assert "22007" in capsys.readouterr().err


def _example() -> dict:
    return json.loads((EXAMPLE / "graph.json").read_text(encoding="utf-8"))


def _server_now(world) -> str:
    with world.connect() as conn:
        return conn.execute("SELECT clock_timestamp()::text").fetchone()[0]
