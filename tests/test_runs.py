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
from swarm_memory.errors import InvalidInput, NotFound, TenantAccessDenied
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
        # the search over facts at a round: the fact that begins in round 5 is not current yet
        query = embedder.encode_query(source.fact)
        found = {
            r: {f.edge_id: f.state for f in mem.search_facts(world.tenant_a, world.sim_a, query,
                                                             100, "all", round=r)}
            for r in (4, 5)
        }  # fmt: skip
        assert (found[4][late], found[5][late]) == ("future", "current")
        assert late not in {
            f.edge_id for f in mem.search_facts(world.tenant_a, world.sim_a, query, 100, round=4)
        }
        with pytest.raises(InvalidInput) as both:
            mem.search_facts(world.tenant_a, world.sim_a, query, as_of=DURING_ROUND_5, round=4)
        with pytest.raises(InvalidInput) as negative:
            mem.search_facts(world.tenant_a, world.sim_a, query, round=-1)
        assert both.value.sqlstate == negative.value.sqlstate == "22023"
        # the report agent's other reads at a round: the fact begun in round 5 is not there yet
        node = source.source_id
        began = {
            r: {e.edge_id for e in mem.timeline(world.tenant_a, world.sim_a, node, 1000, round=r)}
            for r in (4, 5)
        }
        assert (late in began[4], late in began[5]) == (False, True)
        summary = {
            r: {x.id for x in mem.entity_summary(world.tenant_a, world.sim_a, node, 100, round=r)
                if x.section == "fact"}
            for r in (4, 5)
        }  # fmt: skip
        assert (late in summary[4], late in summary[5]) == (False, True)
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


QUESTION = "Will closing River Road hurt the small shops?"
ANSWER = (
    "Closing River Road will hurt the small shops: Gallagher's Hardware expects to lose a"
    " third of its trade once the cars are gone."
)


def test_searches_and_recall_at_a_snapshot_give_the_same_answers(world, embedder, tmp_path, capsys):
    """A report reads through search_episodes, search_facts and recall: run against a snapshot
    after a later import, each gives the whole answer it gave before the import, while the
    same reads without it see the new memory."""
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, EXAMPLE, embedder=embedder)
    t, s = world.tenant_a, world.sim_a
    with Memory(world.dsn("app_a")) as writer:
        writer.create_snapshot(t, s, "before-vote")
    query = embedder.encode_query(QUESTION)
    with Memory(world.dsn("reader_a")) as mem:
        episodes_before = mem.search_episodes(t, s, query, top_k=20)
        facts_before = mem.search_facts(t, s, query, top_k=20, state="all")
        recall_before = mem.recall(
            t, s, QUESTION, top_k=10, snapshot="before-vote", embedder=embedder
        )
        assert mem.search_episodes(t, s, query, top_k=20, snapshot="before-vote") == episodes_before
    assert {r.kind for r in recall_before} == {"episode", "fact"}
    reworded, removed, ended = (f.edge_id for f in facts_before[:3])

    # Tuesday's import: an episode that answers the question, the nearest fact reworded, the
    # next removed, the third ended (its text unchanged), an entity renamed
    folder = tmp_path / "tuesday"
    shutil.copytree(EXAMPLE, folder)
    graph_file = folder / "graph.json"
    graph = json.loads(graph_file.read_text(encoding="utf-8"))
    data = graph.get("data", graph)
    edges = {e["uuid"]: e for e in data["edges"]}
    edges[reworded]["fact"] = "On Tuesday the traders said the closure would cost them little."
    edges[ended]["invalid_at"] = "2025-05-06T10:30:00Z"
    renamed = edges[reworded]["source_node_uuid"]
    next(n for n in data["nodes"] if n["uuid"] == renamed)["name"] += " (Tuesday)"
    data["edges"] = [e for e in data["edges"] if e["uuid"] != removed]
    graph_file.write_text(json.dumps(graph, ensure_ascii=False), encoding="utf-8")
    actions = folder / "twitter" / "actions.jsonl"
    lines = actions.read_text(encoding="utf-8").splitlines()
    last = max(i for i, line in enumerate(lines) if "agent_id" in json.loads(line))
    said = {**json.loads(lines[last]), "action_args": {"content": ANSWER}}
    said["timestamp"] = said["timestamp"][:-3] + "999"
    lines.insert(last + 1, json.dumps(said, ensure_ascii=False))
    actions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_run(world.dsn("app_a"), t, s, folder, embedder=embedder)

    with Memory(world.dsn("reader_a")) as mem:
        # without the snapshot: the new memory
        episodes_now = mem.search_episodes(t, s, query, top_k=20)
        assert ANSWER in {h.content for h in episodes_now}
        facts_now = {f.edge_id: f for f in mem.search_facts(t, s, query, top_k=100, state="all")}
        assert removed not in facts_now
        assert facts_now[reworded].fact.startswith("On Tuesday")
        assert facts_now[reworded].source_name.endswith("(Tuesday)")
        assert facts_now[ended].state == "ended"
        recall_now = mem.recall(t, s, QUESTION, top_k=10, embedder=embedder)
        assert ANSWER in {r.text for r in recall_now}
        # with it: the whole answers of before, the reworded and removed facts ranked by the
        # vectors of their old texts
        assert mem.search_episodes(t, s, query, top_k=20, snapshot="before-vote") == episodes_before
        assert mem.search_facts(t, s, query, top_k=20, state="all", snapshot="before-vote") == (
            facts_before
        )
        recall_frozen = mem.recall(
            t, s, QUESTION, top_k=10, snapshot="before-vote", embedder=embedder
        )
        assert recall_frozen == recall_before
        # bad input, each by its stable SQLSTATE
        with pytest.raises(NotFound) as unknown:
            mem.search_facts(t, s, query, snapshot="after-vote")
        assert unknown.value.sqlstate == "P0002"
        with pytest.raises(NotFound):
            mem.search_episodes(t, s, query, snapshot="after-vote")
        with pytest.raises(InvalidInput) as arm:
            mem.recall(t, s, QUESTION, query, options={"arms": ["graph"]}, snapshot="before-vote")
        assert arm.value.sqlstate == "22023"
        with pytest.raises(InvalidInput):
            mem.search_episodes(t, s, query, collapse=True, snapshot="before-vote")

    # the CLI's search --snapshot answers as the client does
    cli = ["--dsn", world.dsn("reader_a"), "search", "--tenant", str(t), "--simulation", str(s)]
    assert main([*cli, QUESTION, "--top-k", "20", "--snapshot", "before-vote", "--json"]) == 0
    shown = [json.loads(line)["episode_id"] for line in capsys.readouterr().out.splitlines()]
    assert shown == [h.episode_id for h in episodes_before]

    # another tenant's role with the snapshot's name: what a simulation that does not exist gets
    nowhere = uuid.uuid4()
    with Memory(world.dsn("app_b")) as other:
        reads = (
            lambda sim: other.search_facts(world.tenant_b, sim, query, snapshot="before-vote"),
            lambda sim: other.search_episodes(world.tenant_b, sim, query, snapshot="before-vote"),
            lambda sim: other.recall(world.tenant_b, sim, QUESTION, query, snapshot="before-vote"),
        )
        for read in reads:
            with pytest.raises(NotFound) as theirs:
                read(s)
            with pytest.raises(NotFound) as none:
                read(nowhere)
            assert (theirs.value.sqlstate, str(theirs.value).replace(str(s), "?")) == (
                none.value.sqlstate,
                str(none.value).replace(str(nowhere), "?"),
            )
        with pytest.raises(TenantAccessDenied):
            other.search_facts(t, s, query, snapshot="before-vote")
