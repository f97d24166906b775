"""The words arm (issue 12, item 1) through real imports: the example run in MiroFish's
formats (English posts and graph) and a small run with Chinese posts and names; the driver's
dataclasses and errors; the CLI command. Real PostgreSQL, real model for the import, no model
for the search itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from swarm_memory import EntityMatch, InvalidInput, Memory, NotFound, TenantAccessDenied, WordHit
from swarm_memory.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "mirofish_run"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def import_run(world, capsys, run_dir: Path) -> None:
    code, _, err = run(
        capsys, "--dsn", world.dsn("app_a"), "import", str(run_dir),
        "--tenant", str(world.tenant_a), "--simulation", str(world.sim_a), "--quiet",
    )  # fmt: skip
    assert code == 0, err


def chinese_run(root: Path) -> Path:
    """A MiroFish run with Chinese names, facts and posts (no word boundaries)."""
    nodes = [
        ("n-li", "李华", "Person", "河滨路小店店主"),
        ("n-plan", "河滨路改造计划", "Policy", "把河滨路改成步行街"),
        ("n-wang", "王芳", "Person", "Reporter at the Harbourton Courier"),
    ]
    graph = {
        "graph_id": "mirofish_words",
        "nodes": [
            {"uuid": u, "name": n, "labels": ["Entity", t], "summary": s, "attributes": {},
             "created_at": "2025-05-01T00:00:00Z"}
            for u, n, t, s in nodes
        ],
        "edges": [
            {"uuid": "e-opposes", "name": "OPPOSES", "fact": "李华反对河滨路改造计划", "fact_type": "OPPOSES",
             "source_node_uuid": "n-li", "target_node_uuid": "n-plan", "attributes": {},
             "created_at": "2025-05-01T00:00:00Z", "valid_at": None, "invalid_at": None,
             "expired_at": None, "episodes": []},
        ],
    }  # fmt: skip
    posts = [
        (1, 1, "李华", "河滨路改造计划会伤害附近的小店"),
        (1, 2, "王芳", "今晚举行河滨路改造计划的听证会"),
        (2, 3, "Maya", "The hearing on the River Road plan is tonight"),
        (2, 1, "李华", "周末去公园散步"),
    ]
    root.mkdir(parents=True, exist_ok=True)
    (root / "graph.json").write_text(json.dumps(graph, ensure_ascii=False), encoding="utf-8")
    (root / "twitter").mkdir(exist_ok=True)
    (root / "twitter" / "actions.jsonl").write_text(
        "".join(
            json.dumps(
                {"round": r, "timestamp": f"2025-06-0{r}T09:00:00", "agent_id": a, "agent_name": name,
                 "action_type": "CREATE_POST", "action_args": {"content": text}, "result": None,
                 "success": True},
                ensure_ascii=False,
            ) + "\n"
            for r, a, name, text in posts
        ),
        encoding="utf-8",
    )  # fmt: skip
    return root


def test_the_example_run_by_words_names_and_cli(world, capsys):
    import_run(world, capsys, EXAMPLE)
    with Memory(world.dsn("reader_a")) as mem:
        hits = mem.search_words(world.tenant_a, world.sim_a, "closing River Road to cars", 10)
        assert len(hits) == 10 and all(type(h) is WordHit for h in hits)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert {h.kind for h in hits} <= {"episode", "fact", "entity"}
        assert any(h.kind == "episode" and "River Road" in (h.text or "") for h in hits)
        # every row holds words of the question; matched names them
        assert all(h.matched for h in hits)

        facts = mem.search_words(world.tenant_a, world.sim_a, "coffee", 5, ["fact"])
        assert facts and all(h.kind == "fact" for h in facts)
        assert all("coffee" in (h.text or "").lower() for h in facts)

        # a misspelt name, inside a question
        named = mem.match_entities(world.tenant_a, world.sim_a, "what did sofia lindqvst write?")
        assert named and type(named[0]) is EntityMatch
        assert named[0].name == "Sofia Lindqvist" and 0.5 <= named[0].similarity < 1
        assert mem.search_words(world.tenant_a, world.sim_a, "Lindqvst", 1)[0].text.startswith(
            "Sofia Lindqvist"
        )

        # query syntax is words
        assert mem.search_words(world.tenant_a, world.sim_a, "road & !cars:*", 10) == (
            mem.search_words(world.tenant_a, world.sim_a, "road cars", 10)
        )
        with pytest.raises(InvalidInput) as err:
            mem.search_words(world.tenant_a, world.sim_a, "  \t")
        assert err.value.sqlstate == "22023"
        with pytest.raises(InvalidInput) as err:
            mem.search_words(world.tenant_a, world.sim_a, "road", 10, ["posts"])
        assert err.value.sqlstate == "22023"
        with pytest.raises(NotFound):
            mem.search_words(world.tenant_a, world.sim_b, "road")
        with pytest.raises(TenantAccessDenied):
            mem.match_entities(world.tenant_b, world.sim_b, "road")
    with Memory(world.dsn("app_b")) as other:
        assert other.search_words(world.tenant_b, world.sim_b, "River Road") == []

    code, out, err = run(
        capsys, "--dsn", world.dsn("reader_a"), "words", "Harbourton Chamber of Commerce",
        "--tenant", str(world.tenant_a), "--simulation", str(world.sim_a), "--top-k", "3",
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["score", "kind", "id", "matched", "text"]
    assert "Harbourton Chamber of Commerce" in out and len(lines) >= 4


def test_chinese_posts_names_and_facts(world, capsys, tmp_path):
    import_run(world, capsys, chinese_run(tmp_path / "run"))
    with Memory(world.dsn("reader_a")) as mem:
        posts = mem.search_words(
            world.tenant_a, world.sim_a, "河滨路改造计划的听证会", 10, ["episode"]
        )
        assert [h.text for h in posts][:2] == [
            "今晚举行河滨路改造计划的听证会",
            "河滨路改造计划会伤害附近的小店",
        ]
        assert "周末去公园散步" not in [h.text for h in posts]
        facts = mem.search_words(world.tenant_a, world.sim_a, "谁反对改造计划", 5, ["fact"])
        assert [(h.kind, h.id) for h in facts] == [("fact", "e-opposes")]
        mixed = mem.search_words(world.tenant_a, world.sim_a, "hearing 听证会", 10, ["episode"])
        assert {h.text for h in mixed} == {
            "今晚举行河滨路改造计划的听证会",
            "The hearing on the River Road plan is tonight",
        }
        names = mem.match_entities(
            world.tenant_a, world.sim_a, "我觉得李华说得对，河滨路改造计划不好"
        )
        # ties by node id: n-li before n-plan
        assert [(m.name, m.similarity) for m in names] == [("李华", 1.0), ("河滨路改造计划", 1.0)]
    code, out, err = run(
        capsys, "--dsn", world.dsn("reader_a"), "words", "听证会",
        "--tenant", str(world.tenant_a), "--simulation", str(world.sim_a),
    )  # fmt: skip
    assert code == 0, err
    assert "今晚举行河滨路改造计划的听证会" in out
