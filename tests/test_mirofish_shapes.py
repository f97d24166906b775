"""MiroFish's and OASIS's files as they write them: the API-wrapped graph, an empty export,
OASIS's own profile files, naive local timestamps, actions without text of their own, and
the checks that refuse a run before anything is embedded. Files only: no database."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from swarm_memory import mirofish
from swarm_memory.importer import _texts, parse
from swarm_memory.mirofish.run import dangling_edges, parse_run
from swarm_memory.progress import Progress

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"

NODES = [
    {
        "uuid": "n-1",
        "name": "河滨路改造计划",
        "labels": ["Entity", "Policy"],
        "summary": "禁止汽车",
    },
    {"uuid": "n-2", "name": "Maya Okafor", "labels": ["Entity", "Person"], "summary": "reporter"},
]
EDGES = [
    {
        "uuid": "e-1",
        "name": "REPORTS_ON",
        "fact": "Maya Okafor 报道了河滨路改造计划",
        "source_node_uuid": "n-2",
        "target_node_uuid": "n-1",
        "valid_at": "2026-03-01T09:00:00",
        "invalid_at": None,
    }
]


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_api_wrapped_graph_is_unwrapped(tmp_path):
    plain = mirofish.read_graph(
        _write(tmp_path / "g.json", {"graph_id": "g1", "nodes": NODES, "edges": EDGES})
    )
    wrapped = mirofish.read_graph(
        _write(
            tmp_path / "w.json",
            {"success": True, "data": {"graph_id": "g1", "nodes": NODES, "edges": EDGES}},
        )
    )
    assert wrapped == plain
    assert [n["name"] for n in wrapped.nodes] == ["河滨路改造计划", "Maya Okafor"]


def test_a_graph_without_nodes_and_edges_is_refused_naming_its_keys(tmp_path):
    path = _write(
        tmp_path / "g.json", {"success": True, "data": {"graph_id": "g1", "entities": []}}
    )
    with pytest.raises(
        mirofish.BadInput, match=r"g\.json: no nodes and no edges.*entities, graph_id"
    ):
        mirofish.read_graph(path)
    assert mirofish.read_graph(path, allow_empty=True).nodes == []
    failed = _write(tmp_path / "f.json", {"success": False, "error": "graph not found"})
    with pytest.raises(mirofish.BadInput, match="success=false.*graph not found"):
        mirofish.read_graph(failed)


def test_naive_times_are_read_in_the_given_zone_and_counted(tmp_path):
    path = _write(tmp_path / "g.json", {"nodes": NODES, "edges": EDGES})
    clock = mirofish.Clock("Asia/Shanghai")
    edge = mirofish.read_graph(path, clock).edges[0]
    assert edge["valid_at"] == "2026-03-01T09:00:00+08:00"
    assert clock.naive == 1
    utc = mirofish.Clock()
    assert mirofish.read_graph(path, utc).edges[0]["valid_at"] == "2026-03-01T09:00:00+00:00"
    aware = mirofish.Clock("Asia/Shanghai")
    assert aware.iso("2026-03-01T01:00:00Z") == "2026-03-01T01:00:00+00:00"
    assert aware.naive == 0
    with pytest.raises(mirofish.BadInput, match="unknown time zone 'Mars/Olympus'"):
        mirofish.Clock("Mars/Olympus")


def test_a_reddit_list_without_user_id_numbers_agents_by_place(tmp_path):
    # An excerpt in the shape of OASIS's user_data_36.json: no user_id, realname not name.
    rows = [
        {
            "realname": "James Miller",
            "username": "millerhospitality",
            "bio": "Passionate",
            "persona": "James is a seasoned professional",
            "age": 40,
            "gender": "male",
            "mbti": "ESTJ",
            "country": "UK",
        },
        {
            "realname": "李华",
            "username": "lihua",
            "bio": "学生",
            "persona": "热爱城市骑行",
            "age": 21,
            "gender": "female",
            "mbti": "INFP",
            "country": "China",
        },
    ]
    _write(tmp_path / "reddit_profiles.json", rows)
    profiles = mirofish.read_profiles(tmp_path)
    assert [(p["agent_id"], p["name"]) for p in profiles] == [(0, "James Miller"), (1, "李华")]
    assert profiles[1]["attributes"]["mbti"] == "INFP"


def test_a_reddit_list_with_some_ids_missing_is_refused(tmp_path):
    _write(tmp_path / "reddit_profiles.json", [{"user_id": 0, "username": "a"}, {"username": "b"}])
    with pytest.raises(mirofish.BadInput, match=r"profile \[1\] has no user_id while others do"):
        mirofish.read_profiles(tmp_path)


def test_a_twitter_csv_maps_agents_by_row_as_oasis_does(tmp_path):
    # OASIS's own Twitter CSVs carry the real Twitter user id; OASIS numbers agents by row.
    with open(tmp_path / "twitter_profiles.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(
            [
                "user_id",
                "name",
                "username",
                "following_agentid_list",
                "previous_tweets",
                "user_char",
                "description",
            ]
        )
        w.writerow(["1282233577", "Lauren", "laurenw", "[]", "[]", "A nurse in Ohio", "nurse"])
        w.writerow(["89934212", "王芳", "wangfang", "[0]", "[]", "上海的记者", "记者"])
    profiles = mirofish.read_profiles(tmp_path)
    assert [(p["agent_id"], p["username"]) for p in profiles] == [(0, "laurenw"), (1, "wangfang")]
    assert profiles[0]["attributes"]["user_id"] == "1282233577"
    assert profiles[1]["persona"] == "上海的记者" and profiles[1]["bio"] == "记者"


def test_a_twitter_csv_without_oasis_columns_is_refused(tmp_path):
    (tmp_path / "twitter_profiles.csv").write_text("id,handle\n1,x\n", encoding="utf-8")
    with pytest.raises(mirofish.BadInput, match="OASIS Twitter profile CSV has the columns"):
        mirofish.read_profiles(tmp_path)


def test_mirofish_profiles_keep_their_agent_numbers():
    profiles = mirofish.read_profiles(EXAMPLE)
    twitter = [p for p in profiles if p["platform"] == "twitter"]
    assert [p["agent_id"] for p in twitter] == list(range(len(twitter)))
    assert all("user_id" not in p["attributes"] for p in twitter)


def test_the_simulation_folder_names_the_run(tmp_path):
    shutil.copytree(EXAMPLE / "twitter", tmp_path / "twitter")
    _write(
        tmp_path / "state.json",
        {
            "simulation_id": "sim_3f2a9c1b7d4e",
            "project_id": "proj_1",
            "graph_id": "mirofish_abc",
            "status": "completed",
            "entities_count": 33,
        },
    )
    parsed = parse_run(tmp_path, None, skip_bad_lines=False)
    assert parsed.simulation == {
        "simulation_id": "sim_3f2a9c1b7d4e",
        "project_id": "proj_1",
        "graph_id": "mirofish_abc",
        "status": "completed",
    }
    assert parsed.graph.nodes == [] and parsed.episodes


def test_actions_without_text_of_their_own_are_not_embedded(tmp_path):
    lines = [
        {
            "round": 1,
            "timestamp": "2026-03-01T09:00:00",
            "agent_id": 0,
            "agent_name": "李华",
            "action_type": "CREATE_POST",
            "action_args": {"content": "河滨路应该禁止汽车"},
            "result": None,
            "success": True,
        },
        {
            "round": 1,
            "timestamp": "2026-03-01T09:01:00",
            "agent_id": 1,
            "agent_name": "Maya",
            "action_type": "DO_NOTHING",
            "action_args": {},
            "result": None,
            "success": True,
        },
        {
            "round": 1,
            "timestamp": "2026-03-01T09:02:00",
            "agent_id": 1,
            "agent_name": "Maya",
            "action_type": "LIKE_COMMENT",
            "action_args": {
                "comment_id": 7,
                "comment_content": "我同意",
                "comment_author_name": "李华",
            },
            "result": None,
            "success": True,
        },
    ]
    (tmp_path / "reddit").mkdir()
    (tmp_path / "reddit" / "actions.jsonl").write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8"
    )
    parsed = parse_run(tmp_path, None, skip_bad_lines=False)
    texts = [t for kind, _, ts in _texts(parsed) if kind == "episodes" for _, t in ts]
    assert texts == ["河滨路应该禁止汽车", "Maya liked a comment by 李华: 我同意"]
    assert (
        len([ts for kind, _, ts in _texts(parsed, embed_all_actions=True) if kind == "episodes"])
        == 3
    )
    assert parsed.episodes[1]["content"] == "Maya did nothing this round"  # stored all the same


def test_a_dangling_edge_is_refused_while_parsing(tmp_path):
    edge = dict(EDGES[0], target_node_uuid="n-404")
    _write(tmp_path / "graph.json", {"nodes": NODES, "edges": [edge]})
    parsed = parse_run(tmp_path, None, skip_bad_lines=False)
    assert dangling_edges(parsed) == ["e-1 (n-404)"]
    with pytest.raises(
        mirofish.BadInput, match=r"1 edges refer to nodes not in the export: e-1 \(n-404\)"
    ):
        parse(tmp_path, None, False, Progress(quiet=True))
    assert parse(tmp_path, None, False, Progress(quiet=True), skip_dangling=True).graph.edges
