"""A simulation at any round, frozen snapshots and forks, through the importer, the driver
and the CLI with the real model, from the example run. The SQL contract within one
transaction is sql/functions/wings/time/tests/039_rounds_snapshots_forks.sql; these tests
need what one transaction cannot give: a later import that a snapshot must not see."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest
from swarm_memory import Memory
from swarm_memory.cli import main
from swarm_memory.embed import Embedder
from swarm_memory.errors import NotFound, TenantAccessDenied
from swarm_memory.importer import import_run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"
# round 4's last action is at 10:19:39, round 5's at 10:21 (the example's actions.jsonl)
DURING_ROUND_5 = "2025-05-06T10:20:30Z"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def run_copy(tmp_path: Path, name: str, change) -> Path:
    """The whole example run, its graph export changed by `change`."""
    folder = tmp_path / name
    shutil.copytree(EXAMPLE, folder)
    graph = json.loads((folder / "graph.json").read_text(encoding="utf-8"))
    change(graph.get("data", graph))
    (folder / "graph.json").write_text(json.dumps(graph, ensure_ascii=False), encoding="utf-8")
    return folder


def open_edge(graph: dict) -> dict:
    return next(e for e in graph["edges"] if not e.get("invalid_at") and not e.get("expired_at"))


def begins_in_round_5(graph: dict) -> None:
    open_edge(graph)["valid_at"] = DURING_ROUND_5


def test_reads_at_a_round(world, embedder, tmp_path, capsys):
    run = run_copy(tmp_path, "run", begins_in_round_5)
    late = open_edge(json.loads((run / "graph.json").read_text(encoding="utf-8")))["uuid"]
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, run, embedder=embedder)
    with Memory(world.dsn("reader_a")) as mem:
        at_4 = {
            f.edge_id: f.state for f in mem.facts(world.tenant_a, world.sim_a, state="all", round=4)
        }
        at_5 = {
            f.edge_id: f.state for f in mem.facts(world.tenant_a, world.sim_a, state="all", round=5)
        }
        assert (at_4[late], at_5[late]) == ("future", "current")
        source = mem.get_edge(world.tenant_a, world.sim_a, late)
        walk_4 = mem.neighbors(world.tenant_a, world.sim_a, source.source_id, round=4)
        walk_5 = mem.neighbors(world.tenant_a, world.sim_a, source.source_id, round=5)
        assert late not in {r.edge_id for r in walk_4}
        assert late in {r.edge_id for r in walk_5}
    # the CLI's --round, by the simulation's name
    dsn = world.dsn("reader_a")
    common = [
        "--dsn",
        dsn,
        "facts",
        "--tenant",
        str(world.tenant_a),
        "--simulation",
        str(world.sim_a),
    ]
    assert main([*common, "--state", "all", "--round", "4", "--limit", "1000", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["edge_id"]: r["state"] for r in rows}[late] == "future"
    assert main([*common, "--round", "4", "--as-of", "2025-05-06T12:00:00Z"]) == 2
    assert "p_round" in capsys.readouterr().err


def test_a_snapshot_survives_a_later_import(world, embedder, tmp_path, capsys):
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    sim = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    assert (
        main(
            [
                "--dsn",
                world.dsn("app_a"),
                "snapshot",
                "create",
                *sim,
                "monday",
                "--note",
                "first run",
            ]
        )
        == 0
    )
    assert "snapshot monday created" in capsys.readouterr().out
    with Memory(world.dsn("reader_a")) as mem:
        before = mem.facts(world.tenant_a, world.sim_a, state="all", limit=1000)
        [first] = [f for f in before if f.state == "current"][:1]
        walk_before = mem.neighbors(world.tenant_a, world.sim_a, first.source_id)

    def tuesday(graph: dict) -> None:  # a fact reworded, one removed, an entity renamed
        graph["edges"][0]["fact"] = "Reworded on Tuesday"
        graph["edges"].pop()
        graph["nodes"][0]["name"] = graph["nodes"][0]["name"] + " (renamed)"

    import_run(
        world.dsn("app_a"),
        world.tenant_a,
        world.sim_a,
        run_copy(tmp_path, "tue", tuesday),
        embedder=embedder,
    )
    with Memory(world.dsn("reader_a")) as mem:
        now = mem.facts(world.tenant_a, world.sim_a, state="all", limit=1000)
        assert now != before  # the import changed the memory
        frozen = mem.facts(world.tenant_a, world.sim_a, state="all", limit=1000, snapshot="monday")
        assert frozen == before
        assert (
            mem.neighbors(world.tenant_a, world.sim_a, first.source_id, snapshot="monday")
            == walk_before
        )
        [listed] = mem.snapshots(world.tenant_a, world.sim_a)
        assert (listed.name, listed.note, listed.round) == ("monday", "first run", None)
        # a reader may list and read, never make or drop
        with pytest.raises(TenantAccessDenied):
            mem.create_snapshot(world.tenant_a, world.sim_a, "mine")
        with pytest.raises(TenantAccessDenied):
            mem.drop_snapshot(world.tenant_a, world.sim_a, "monday")
    with Memory(world.dsn("app_b")) as other:
        with pytest.raises(TenantAccessDenied):
            other.snapshots(world.tenant_a, world.sim_a)
        with pytest.raises(NotFound):
            other.facts(world.tenant_b, world.sim_a, snapshot="monday")
    assert main(["--dsn", world.dsn("app_a"), "snapshot", "list", *sim, "--json"]) == 0
    assert [json.loads(line)["name"] for line in capsys.readouterr().out.splitlines()] == ["monday"]
    assert main(["--dsn", world.dsn("app_a"), "snapshot", "drop", *sim, "monday"]) == 0
    assert "snapshot monday dropped" in capsys.readouterr().out
    with Memory(world.dsn("reader_a")) as mem, pytest.raises(NotFound):
        mem.facts(world.tenant_a, world.sim_a, snapshot="monday")


def test_a_fork_at_a_round_is_a_simulation_of_its_own(world, embedder, capsys):
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    fork = uuid.uuid4()
    sim = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    assert (
        main(
            [
                "--dsn",
                world.dsn("app_a"),
                "fork",
                *sim,
                "--round",
                "3",
                "--id",
                str(fork),
                "--name",
                "what-if",
                "--json",
            ]
        )
        == 0
    )
    counts = json.loads(capsys.readouterr().out)
    with Memory(world.dsn("reader_a")) as mem:
        source = mem.simulation_stats(world.tenant_a, world.sim_a)
        mine = mem.simulation_stats(world.tenant_a, fork)
        assert counts["episodes"] == 50 + 45 + 40  # the example's rounds 1 to 3
        assert (mine.nodes, mine.episodes) == (source.nodes, counts["episodes"])
        episodes = mem.episodes(world.tenant_a, fork, limit=1000)
        assert max(e.round for e in episodes) == 3
        # vectors came along: the fork searches by meaning with nothing embedded again
        query = embedder.encode_query("Will closing the riverside road hurt the small shops?")
        assert mem.search_episodes(world.tenant_a, fork, query, top_k=3)
    with Memory(world.dsn("app_b")) as other, pytest.raises(NotFound):
        other.simulation_stats(world.tenant_b, fork)
