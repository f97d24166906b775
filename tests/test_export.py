"""`swarm-memory export` (issue 10, point 9): a simulation written back in MiroFish's formats,
with the real embedder: import(export(x)) changes nothing, over the same simulation and into
another one."""

from __future__ import annotations

import csv
import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest
from swarm_memory import Memory
from swarm_memory.cli import main
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run
from swarm_memory.mirofish.export import export_run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"
KINDS = (
    "nodes",
    "edges",
    "episodes",
    "profiles",
    "reports",
    "report_sections",
    "report_chunks",
    "report_log",
    "predictions",
)
REPORT = "reports/report_5e0c2a91d7b4"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def _all(fetch, key) -> list[Any]:
    """Every row of a keyset-paged read."""
    rows: list[Any] = []
    while True:
        page = fetch(key(rows[-1]) if rows else None)
        rows += page
        if len(page) < 1000:
            return rows


def held(world, sim: uuid.UUID) -> dict[str, Any]:
    """Everything a simulation holds, read through the read functions: comparable across
    simulations (no simulation id, no timestamps of the rows' own)."""
    t = world.tenant_a
    with Memory(world.dsn("reader_a")) as mem:
        return {
            "nodes": _all(lambda a: mem.graph_nodes(t, sim, after=a), lambda n: n.node_id),
            "edges": _all(lambda a: mem.graph_edges(t, sim, after=a), lambda e: e.edge_id),
            "episodes": _all(
                lambda a: mem.episodes(t, sim, limit=1000, after=a), lambda e: e.episode_id
            ),
            "profiles": mem.profiles(t, sim),
            "metadata": mem.simulation_stats(t, sim).metadata,
            "reports": [
                (
                    r,
                    mem.report_sections(t, sim, r.report_id),
                    mem.report_log(t, sim, r.report_id, limit=1000),
                )
                for r in mem.reports(t, sim)
            ],
            "predictions": mem.predictions(t, sim),
        }


def import_a(world, sim: uuid.UUID, run: Path, embedder: Embedder, **options):
    return import_run(world.dsn("app_a"), world.tenant_a, sim, run, embedder=embedder, **options)


def assert_unchanged(report, first=None) -> None:
    for kind in KINDS:
        r = report.results[kind]
        assert (r.inserted, r.updated, r.deleted) == (0, 0, 0), (kind, r)
        if first is not None:
            assert r.unchanged == first.results[kind].inserted, kind


def test_import_of_the_export_changes_nothing(world, embedder, tmp_path):
    first = import_a(world, world.sim_a, EXAMPLE, embedder, name="mirofish_run")
    before = held(world, world.sim_a)

    out = tmp_path / "export"
    counts = export_run(world.dsn("reader_a"), world.tenant_a, world.sim_a, out)
    assert (counts.nodes, counts.edges) == (len(before["nodes"]), len(before["edges"]))
    assert counts.episodes == len(before["episodes"]) and counts.profiles == len(before["profiles"])
    assert counts.events == len(before["metadata"]["events"])
    assert (counts.left_out, counts.unmatched_ids, counts.zoned_times) == (0, 0, 0)
    assert (counts.relabelled, counts.renumbered) == (0, 0)
    assert sorted(counts.files) == sorted(
        [
            "graph.json",
            "twitter/actions.jsonl",
            "reddit/actions.jsonl",
            "reddit_profiles.json",
            "twitter_profiles.csv",
            *(
                f"{REPORT}/{name}"
                for name in (
                    "meta.json",
                    "outline.json",
                    "progress.json",
                    "full_report.md",
                    "section_01.md",
                    "section_02.md",
                    "section_03.md",
                    "agent_log.jsonl",
                    "predictions.json",
                )
            ),
        ]
    )
    assert (counts.reports, counts.predictions) == (1, 3)
    # MiroFish's report files: the sections and the full report byte for byte, the JSON
    # files and log lines as the same objects
    for name in ("section_01.md", "section_02.md", "section_03.md", "full_report.md"):
        assert (out / REPORT / name).read_bytes() == (EXAMPLE / REPORT / name).read_bytes(), name
    for name in ("meta.json", "outline.json", "progress.json", "predictions.json"):
        mine, theirs = (json.loads((d / REPORT / name).read_text("utf-8")) for d in (out, EXAMPLE))
        if name == "predictions.json":  # written by report, section and id
            mine, theirs = (sorted(x, key=lambda p: p["id"]) for x in (mine, theirs))
        assert mine == theirs, name
    assert [
        json.loads(x) for x in (out / REPORT / "agent_log.jsonl").read_text("utf-8").splitlines()
    ] == [
        json.loads(x)
        for x in (EXAMPLE / REPORT / "agent_log.jsonl").read_text("utf-8").splitlines()
    ]
    # MiroFish's shapes
    graph = json.loads((out / "graph.json").read_text(encoding="utf-8"))
    assert set(graph) == {"graph_id", "nodes", "edges"}
    assert set(graph["nodes"][0]) == {
        "uuid",
        "name",
        "labels",
        "summary",
        "attributes",
        "created_at",
    }
    assert set(graph["edges"][0]) == {
        "uuid", "name", "fact", "fact_type", "source_node_uuid", "target_node_uuid",
        "attributes", "created_at", "valid_at", "invalid_at", "expired_at", "episodes",
    }  # fmt: skip
    lines = (out / "twitter" / "actions.jsonl").read_text(encoding="utf-8").splitlines()
    original = (EXAMPLE / "twitter" / "actions.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(original)
    for mine, theirs in zip(lines, original, strict=True):
        if theirs.strip() and "event_type" not in theirs:
            assert json.loads(mine) == json.loads(theirs)  # each action at its own line
    with open(out / "twitter_profiles.csv", encoding="utf-8", newline="") as fh:
        assert {"username", "description", "user_char"} <= set(csv.DictReader(fh).fieldnames or [])

    # over the same simulation: every row unchanged, nothing deleted, metadata as it was
    again = import_a(world, world.sim_a, out, embedder, name="mirofish_run")
    assert_unchanged(again, first)
    assert again.embedded == 0
    assert held(world, world.sim_a) == before

    # into another simulation: the same rows, field by field
    sim2 = uuid.uuid4()
    with Memory(world.dsn("app_a")) as mem:
        mem.upsert_simulation(world.tenant_a, sim2, "copy")
    second = import_a(world, sim2, out, embedder)
    for kind in KINDS:
        assert second.results[kind].inserted == first.results[kind].inserted, kind
    assert held(world, sim2) == before

    # and an export of the copy is the same files
    out2 = tmp_path / "export2"
    export_run(world.dsn("reader_a"), world.tenant_a, sim2, out2)
    for name in counts.files:
        assert (out2 / name).read_bytes() == (out / name).read_bytes(), name


def test_chinese_text_round_trips(world, embedder, tmp_path):
    run = tmp_path / "run"
    (run / "reddit").mkdir(parents=True)
    (run / "graph.json").write_text(
        json.dumps(
            {
                "graph_id": "图谱_1",
                "nodes": [
                    {"uuid": "n1", "name": "河滨路改造计划", "labels": ["Entity", "政策"],
                     "summary": "一项为期十八个月的试点", "attributes": {"区": "河滨"},
                     "created_at": "2025-05-06T10:00:00"},
                    {"uuid": "n2", "name": "李华", "labels": ["人物"], "summary": None,
                     "attributes": {}},
                ],
                "edges": [
                    {"uuid": "e1", "name": "支持", "fact": "李华支持河滨路改造计划",
                     "fact_type": "支持", "source_node_uuid": "n2", "target_node_uuid": "n1",
                     "attributes": {}, "created_at": "2025-05-06T10:01:00",
                     "valid_at": "2025-05-06T10:01:00", "invalid_at": None, "expired_at": None,
                     "episodes": ["片段-1"]},
                ],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )  # fmt: skip
    actions = [
        {"round": 1, "timestamp": "2025-05-06T10:14:08.230389", "event_type": "round_start"},
        {"round": 1, "timestamp": "2025-05-06T10:15:56", "agent_id": 0, "agent_name": "李华",
         "action_type": "CREATE_POST", "action_args": {"content": "我支持河滨路改造。"},
         "result": None, "success": True},
        {"round": 1, "timestamp": "2025-05-06T10:15:56", "agent_id": 0, "agent_name": "李华",
         "action_type": "CREATE_POST", "action_args": {"content": "我支持河滨路改造。"},
         "result": None, "success": True},
        {"round": 1, "timestamp": "2025-05-06T10:16:00", "agent_id": 1, "agent_name": "王芳",
         "action_type": "DO_NOTHING", "success": True},
        {"round": 1, "timestamp": "2025-05-06T10:17:00", "event_type": "round_end"},
    ]  # fmt: skip
    text = "\n".join(json.dumps(a, ensure_ascii=False) for a in actions[:2])
    text += "\n\n" + "\n".join(json.dumps(a, ensure_ascii=False) for a in actions[2:]) + "\n"
    (run / "reddit" / "actions.jsonl").write_text(text, encoding="utf-8")
    (run / "reddit_profiles.json").write_text(
        json.dumps(
            [
                {"user_id": 0, "username": "lihua", "name": "李华", "bio": "河滨居民",
                 "persona": "关心社区", "karma": 10},
                {"user_id": 1, "username": "wangfang", "realname": "王芳", "bio": "店主",
                 "persona": "担心生意", "karma": 3},
            ],
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )  # fmt: skip
    with open(run / "twitter_profiles.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["user_id", "name", "username", "user_char", "description", "城市"])
        w.writerow(["0", "李华", "lihua", "关心社区,\n多行", "河滨居民", "上海"])
        w.writerow(["98765", "王芳", "wangfang", "担心生意", "店主", ""])
    (run / "state.json").write_text(
        json.dumps({"simulation_id": "sim_中文", "project_id": "proj_1", "status": "completed"}),
        encoding="utf-8",
    )
    first = import_a(world, world.sim_a, run, embedder, name="中文模拟")
    before = held(world, world.sim_a)
    assert before["metadata"]["simulation_id"] == "sim_中文"

    out = tmp_path / "导出"
    counts = export_run(world.dsn("reader_a"), world.tenant_a, world.sim_a, out)
    assert (counts.episodes, counts.events, counts.unmatched_ids) == (3, 2, 0)
    assert "state.json" in counts.files
    written = (out / "reddit" / "actions.jsonl").read_text(encoding="utf-8")
    assert "我支持河滨路改造。" in written and "\\u" not in written
    # each action at the line it was read from (the blank line counted), the events in order
    # in the lines left
    kinds = [
        json.loads(x).get("event_type") or json.loads(x)["action_type"]
        for x in written.splitlines()
    ]
    assert kinds == ["round_start", "CREATE_POST", "round_end", "CREATE_POST", "DO_NOTHING"]
    with pytest.raises(FileExistsError):
        export_run(world.dsn("reader_a"), world.tenant_a, world.sim_a, out)

    again = import_a(world, world.sim_a, out, embedder, name="中文模拟")
    assert_unchanged(again, first)
    assert held(world, world.sim_a) == before

    sim2 = uuid.uuid4()
    with Memory(world.dsn("app_a")) as mem:
        mem.upsert_simulation(world.tenant_a, sim2, "副本")
    import_a(world, sim2, out, embedder)
    assert held(world, sim2) == before

    # the CLI writes the same files
    cli_out = tmp_path / "cli"
    code = main(
        [
            "--dsn", world.dsn("reader_a"), "export", str(cli_out),
            "--tenant", "tenant-a", "--simulation", "中文模拟",
        ]
    )  # fmt: skip
    assert code == 0
    for name in counts.files:
        assert (cli_out / name).read_bytes() == (out / name).read_bytes(), name


def test_an_episode_added_outside_imports_is_left_out(world, embedder, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(EXAMPLE, run)
    import_a(world, world.sim_a, run, embedder)
    with Memory(world.dsn("app_a")) as mem:
        mem.remember(world.tenant_a, world.sim_a, "a note", platform="twitter", embedder=embedder)
    counts = export_run(world.dsn("reader_a"), world.tenant_a, world.sim_a, tmp_path / "out")
    assert counts.left_out == 1
    again = import_a(world, world.sim_a, tmp_path / "out", embedder, name="run")
    assert_unchanged(again)
