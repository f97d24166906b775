"""Reading MiroFish output: the graph export, action logs and profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from swarm_memory import mirofish

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"


def test_node_type_is_the_first_label_other_than_entity_and_node():
    assert mirofish.node_type(["Entity", "Person", "Journalist"]) == "Person"
    assert mirofish.node_type(["Node", "Entity"]) == "Entity"
    assert mirofish.node_type([]) == "Entity"


def test_example_graph_reads_with_types_and_endpoints():
    g = mirofish.read_graph(EXAMPLE / "graph.json")
    assert len(g.nodes) >= 30 and len(g.edges) >= 40
    ids = {n["id"] for n in g.nodes}
    assert all(e["source_id"] in ids and e["target_id"] in ids for e in g.edges)
    assert {n["type"] for n in g.nodes} >= {"Person", "Organization", "Policy"}
    assert all(e["type"] == e["type"].upper() for e in g.edges)


def test_duplicate_node_id_names_the_id_and_both_positions(tmp_path):
    node = {"uuid": "n-1", "name": "A", "labels": ["Entity", "Person"]}
    other = {"uuid": "n-2", "name": "B", "labels": ["Entity"]}
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"nodes": [node, other, node], "edges": []}))
    with pytest.raises(mirofish.BadInput, match=r"n-1.*nodes\[0\].*nodes\[2\]"):
        mirofish.read_graph(path)


def test_action_ids_are_stable_and_events_are_separated():
    log1 = mirofish.read_actions(EXAMPLE / "twitter" / "actions.jsonl", "twitter")
    log2 = mirofish.read_actions(EXAMPLE / "twitter" / "actions.jsonl", "twitter")
    assert [e["id"] for e in log1.episodes] == [e["id"] for e in log2.episodes]
    assert len({e["id"] for e in log1.episodes}) == len(log1.episodes)
    assert log1.events and all("event_type" in e for e in log1.events)
    assert all(e["content"] for e in log1.episodes)


def test_identical_action_lines_get_distinct_stable_ids(tmp_path):
    line = {
        "round": 1,
        "timestamp": "2025-03-01T10:00:00",
        "agent_id": 3,
        "agent_name": "X",
        "action_type": "LIKE_POST",
        "action_args": {"post_id": 7},
        "success": True,
    }
    path = tmp_path / "actions.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(line) + "\n")
    ids = [e["id"] for e in mirofish.read_actions(path, "reddit").episodes]
    assert len(set(ids)) == 2
    assert ids == [e["id"] for e in mirofish.read_actions(path, "reddit").episodes]


def test_actions_without_text_become_sentences():
    line = {
        "agent_name": "Aisha",
        "action_type": "FOLLOW",
        "action_args": {"target_user_name": "Tom"},
    }
    assert mirofish.action_text(line) == "Aisha followed Tom"
    line = {"agent_name": "Aisha", "action_type": "DO_NOTHING", "action_args": {}}
    assert mirofish.action_text(line) == "Aisha did nothing this round"
    odd = {"agent_name": "Aisha", "action_type": "MUTE", "action_args": {"user_id": 4}}
    assert mirofish.action_text(odd) == "Aisha did mute (user_id=4)"


def test_invalid_json_line_names_file_and_line(tmp_path):
    path = tmp_path / "actions.jsonl"
    good = json.dumps({"round": 1, "agent_id": 1, "action_type": "DO_NOTHING"})
    path.write_text(good + "\n{not json\n" + good + "\n")
    with pytest.raises(mirofish.BadInput, match=r"actions\.jsonl:2"):
        mirofish.read_actions(path, "twitter")
    log = mirofish.read_actions(path, "twitter", skip_bad_lines=True)
    assert log.skipped_lines == [2] and len(log.episodes) == 2


def test_missing_required_field_is_named(tmp_path):
    path = tmp_path / "actions.jsonl"
    path.write_text(json.dumps({"round": 1, "agent_id": 1}) + "\n")
    with pytest.raises(mirofish.BadInput, match="action_type"):
        mirofish.read_actions(path, "twitter")


def test_profiles_from_both_platforms():
    profiles = mirofish.read_profiles(EXAMPLE)
    platforms = {p["platform"] for p in profiles}
    assert platforms == {"reddit", "twitter"}
    assert all(isinstance(p["agent_id"], int) for p in profiles)
