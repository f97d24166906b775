"""Evidence behind facts and an entity's timeline (issue 11, items 5-7), through a real import
of a run in MiroFish's own formats (graph export and actions.jsonl), Chinese names in Chinese
posts included: evidence after the import, a re-import whose actions changed, an unchanged
replay that writes nothing, and the CLI commands. Real PostgreSQL, real model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from swarm_memory import Evidence, InvalidInput, Memory, NotFound, TenantAccessDenied
from swarm_memory.cli import main

NODES = [
    ("n-li", "李华", ["Entity", "Person"]),
    ("n-plan", "河滨路改造计划", ["Entity", "Policy"]),
    ("n-chamber", "Chamber of Commerce", ["Entity", "Organization"]),
    ("n-shops", "River Road Shops", ["Entity", "Organization"]),
]
EDGES = [
    # 李华 supported the plan until June, opposes it since; the chamber speaks for the shops.
    ("e-supports", "SUPPORTS", "n-li", "n-plan", "李华支持河滨路改造计划",
     "2025-05-01T00:00:00Z", "2025-06-01T12:00:00Z", ["g-1"]),
    ("e-opposes", "OPPOSES", "n-li", "n-plan", "李华反对河滨路改造计划",
     "2025-06-01T12:00:00Z", None, ["g-2", "g-3"]),
    ("e-speaks", "SPEAKS_FOR", "n-chamber", "n-shops", "The Chamber of Commerce speaks for the River Road shops",
     None, None, []),
]  # fmt: skip


def write_run(root: Path, actions: list[tuple[int, str, int, str, str]]) -> Path:
    """A MiroFish run: graph.json and twitter/actions.jsonl (round, naive timestamp, agent)."""
    graph = {
        "graph_id": "mirofish_evidence",
        "nodes": [
            {"uuid": u, "name": n, "labels": labels, "summary": "", "attributes": {},
             "created_at": "2025-05-01T00:00:00Z"}
            for u, n, labels in NODES
        ],
        "edges": [
            {"uuid": u, "name": t, "fact": f, "fact_type": t, "source_node_uuid": s,
             "target_node_uuid": d, "attributes": {}, "created_at": "2025-05-01T00:00:00Z",
             "valid_at": va, "invalid_at": ia, "expired_at": None, "episodes": eps}
            for u, t, s, d, f, va, ia, eps in EDGES
        ],
    }  # fmt: skip
    root.mkdir(parents=True, exist_ok=True)
    (root / "graph.json").write_text(json.dumps(graph, ensure_ascii=False), encoding="utf-8")
    lines = [
        {"round": r, "timestamp": ts, "agent_id": a, "agent_name": name, "action_type": "CREATE_POST",
         "action_args": {"content": text}, "result": None, "success": True}
        for r, ts, a, name, text in actions
    ]  # fmt: skip
    (root / "twitter").mkdir(exist_ok=True)
    (root / "twitter" / "actions.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )
    return root


ACTIONS = [
    (1, "2025-05-20T09:00:00", 1, "李华", "我支持河滨路改造计划，周末见！"),
    (2, "2025-06-02T09:00:00", 1, "李华", "重新考虑后，河滨路改造计划会伤害小店。"),
    (2, "2025-06-02T10:00:00", 2, "Chamber of Commerce", "the chamber of commerce stands with river road shops"),
    (3, "2025-06-03T09:00:00", 3, "王芳", "河滨路改造计划的听证会今晚举行"),
]  # fmt: skip


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


def mentions(rows: list[Evidence]) -> list[tuple[str | None, list[str] | None]]:
    return [(r.content, r.matched) for r in rows if r.kind == "mention"]


@pytest.fixture
def imported(world, capsys, tmp_path):
    import_run(world, capsys, write_run(tmp_path / "run", ACTIONS))
    return tmp_path


def test_evidence_after_an_import_in_mirofish_format(world, imported):
    with Memory(world.dsn("reader_a")) as mem:
        opposes = mem.evidence(world.tenant_a, world.sim_a, "e-opposes")
        supports = mem.evidence(world.tenant_a, world.sim_a, "e-supports")
        speaks = mem.evidence(world.tenant_a, world.sim_a, "e-speaks")
        with pytest.raises(NotFound):
            mem.evidence(world.tenant_a, world.sim_a, "e-nope")
    # the Graphiti episodes the fact came from, in order; no action of the memory has their ids
    assert [(r.kind, r.episode_id, r.resolved, r.list_position) for r in opposes[:2]] == [
        ("source", "g-2", False, 1),
        ("source", "g-3", False, 2),
    ]
    # each fact is supported by the post inside its own window, not by the other's
    assert mentions(opposes) == [
        ("重新考虑后，河滨路改造计划会伤害小店。", ["李华", "河滨路改造计划"])
    ]
    assert mentions(supports) == [("我支持河滨路改造计划，周末见！", ["李华", "河滨路改造计划"])]
    assert [r.agent_name for r in supports if r.kind == "mention"] == ["李华"]
    # open interval, any case
    assert mentions(speaks) == [
        (
            "the chamber of commerce stands with river road shops",
            ["Chamber of Commerce", "River Road Shops"],
        )
    ]
    with Memory(world.dsn("app_b")) as mem, pytest.raises(TenantAccessDenied):
        mem.evidence(world.tenant_a, world.sim_a, "e-opposes")


def test_a_reimport_with_changed_actions_updates_mentions(world, capsys, imported, connect):
    su = connect()
    rows = (
        "SELECT e.edge_id, l.kind, l.episode_id, l.xmin::text FROM memory.edge_evidence AS l"
        " JOIN memory.edges AS e USING (tenant_id, simulation_id, edge_key) ORDER BY 1, 2, 3"
    )
    before = su.execute(rows).fetchall()
    assert len(before) == 6  # 3 sources, 3 mentions
    # an unchanged replay writes no evidence row
    import_run(world, capsys, write_run(imported / "run", ACTIONS))
    assert su.execute(rows).fetchall() == before
    # the June post no longer names the plan; a new one in the window does
    changed = [
        ACTIONS[0],
        (2, "2025-06-02T09:00:00", 1, "李华", "重新考虑后，我担心小店。"),
        *ACTIONS[2:],
    ]
    changed.append((4, "2025-06-04T09:00:00", 3, "王芳", "李华今天在会上批评河滨路改造计划"))
    import_run(world, capsys, write_run(imported / "run2", changed))
    with Memory(world.dsn("reader_a")) as mem:
        opposes = mem.evidence(world.tenant_a, world.sim_a, "e-opposes")
        supports = mem.evidence(world.tenant_a, world.sim_a, "e-supports")
    assert mentions(opposes) == [("李华今天在会上批评河滨路改造计划", ["李华", "河滨路改造计划"])]
    assert mentions(supports) == [("我支持河滨路改造计划，周末见！", ["李华", "河滨路改造计划"])]
    # the links of unchanged rows were not rewritten
    after = su.execute(rows).fetchall()
    kept = [r for r in before if r[0] in ("e-supports", "e-speaks")]
    assert kept and all(r in after for r in kept)


def test_timeline_and_windowed_search(world, imported):
    from swarm_memory.embed import embedder_for

    with Memory(world.dsn("reader_a")) as mem:
        events = mem.timeline(world.tenant_a, world.sim_a, "n-li")
        assert [(e.event, e.edge_id or e.content) for e in events] == [
            ("fact_began", "e-supports"),
            ("action", "我支持河滨路改造计划，周末见！"),
            ("fact_ended", "e-supports"),
            ("fact_began", "e-opposes"),
            ("action", "重新考虑后，河滨路改造计划会伤害小店。"),
        ]
        assert {e.other_name for e in events if e.event != "action"} == {"河滨路改造计划"}
        with pytest.raises(InvalidInput) as exc:
            mem.timeline(world.tenant_a, world.sim_a, "n-li", -5)
        assert exc.value.sqlstate == "22023"

        # the run is Chinese: its import chose the multilingual model, which the question
        # is embedded with and named by
        model = mem.model_of(world.tenant_a, world.sim_a).model
        query = embedder_for(model).encode_query("河滨路改造计划")
        everything = mem.search_episodes(world.tenant_a, world.sim_a, query, 10, model=model)
        assert len(everything) == 4
        hits = mem.search_episodes(
            world.tenant_a, world.sim_a, query, 10, round_from=2, round_to=2, model=model
        )
        assert {h.round for h in hits} == {2} and len(hits) == 2
        hits = mem.search_episodes(
            world.tenant_a,
            world.sim_a,
            query,
            10,
            since="2025-06-02T09:30:00Z",
            until="2025-06-03T09:00:00Z",
            model=model,
        )
        assert [h.agent_name for h in hits] == ["Chamber of Commerce"]
        with pytest.raises(InvalidInput) as exc:
            mem.search_episodes(
                world.tenant_a, world.sim_a, query, round_from=3, round_to=1, model=model
            )
        assert exc.value.sqlstate == "22023"


def test_cli_evidence_timeline_and_search_ranges(world, capsys, imported):
    scope = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    app_a = world.dsn("app_a")
    code, out, err = run(capsys, "--dsn", app_a, "evidence", "e-opposes", *scope)
    assert code == 0, err
    assert "g-2 (not held)" in out and "重新考虑后" in out and "mention" in out
    # a node by name, as neighbors takes it
    code, out, err = run(capsys, "--dsn", app_a, "timeline", "李华", *scope, "--limit", "3")
    assert code == 0, err
    assert "fact_began" in out and "fact_ended" in out and "我支持" in out
    code, out, err = run(capsys, "--dsn", app_a, "search", "河滨路", *scope, "--rounds", "3:3")
    assert code == 0, err
    assert "听证会" in out and "周末见" not in out
    code, out, err = run(
        capsys,
        "--dsn",
        app_a,
        "search",
        "河滨路",
        *scope,
        "--from",
        "2025-06-03",
        "--to",
        "2025-06-01",
    )
    assert code == 2 and "22023" in err
    code, out, err = run(capsys, "--dsn", app_a, "evidence", "e-nope", *scope)
    assert code == 2 and "P0002" in err
    code, out, err = run(capsys, "--dsn", app_a, "timeline", "nobody-of-that-name", *scope)
    assert code == 2 and "P0002" in err


# --- runs in MiroFish's real shape: source ids that never resolve --------------------------

ZH_RUN = Path(__file__).resolve().parents[1] / "bench" / "zh_run"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"

LINKS = """
    SELECT e.edge_id, e.fact, e.valid_at, e.invalid_at, l.kind, l.episode_id, l.found_by, l.score,
           l.matched, x.occurred_at, x.episode_id IS NOT NULL, l.xmin::text
      FROM memory.edge_evidence AS l
      JOIN memory.edges AS e USING (tenant_id, simulation_id, edge_key)
      LEFT JOIN memory.episodes AS x
        ON x.tenant_id = l.tenant_id AND x.simulation_id = l.simulation_id
       AND x.episode_key = l.episode_key
     WHERE l.tenant_id = %s AND l.simulation_id = %s
     ORDER BY 1, 5, 6
"""

# The zh run's facts by topic (bench/zh_run/labels.json labels the actions), by the words
# that place a fact in one topic; a fact in none or several is not scored.
TOPIC_WORDS = {
    "riverroad": ["滨江路"],
    "datacenter": ["数据中心", "云启", "西山"],
    "lunch": ["午餐", "实验小学"],
    "metro": ["地铁"],
    "flood": ["预警", "清河", "气象台"],
    "football": ["雄狮", "席尔瓦"],
    "monalisa": ["蒙娜丽莎", "美术馆"],
    "strike": ["医院", "护士"],
}


def fact_topic(fact: str) -> str | None:
    topics = {t for t, words in TOPIC_WORDS.items() if any(w in fact for w in words)}
    return topics.pop() if len(topics) == 1 else None


def supported(rows) -> set[str]:
    return {r[0] for r in rows if r[4] == "mention"}


def test_a_run_whose_source_ids_never_resolve_gets_actions_by_names_and_meaning(
    world, capsys, connect
):
    # The zh run imported as MiroFish writes it, embedded by the real default model.
    import_run(world, capsys, ZH_RUN / "run")
    su = connect()
    rows = su.execute(LINKS, (world.tenant_a, world.sim_a)).fetchall()
    facts = su.execute(
        "SELECT count(*) FROM memory.edges WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    ).fetchone()[0]
    sources = [r for r in rows if r[4] == "source"]
    # every source id is an ingest episode of the graph builder: none resolves
    assert sources and not any(r[10] for r in sources)
    assert all(r[6] == ["id"] for r in sources)
    # yet nearly every fact has actions behind it, found both ways
    assert len(supported(rows)) >= 28, (len(supported(rows)), facts)
    found = {tuple(r[6]) for r in rows if r[4] == "mention"}
    assert {("names",), ("meaning",), ("names", "meaning")} <= found
    # a link by meaning has a score; one by names names something
    assert all(r[7] is not None for r in rows if "meaning" in r[6])
    assert all(r[8] for r in rows if "names" in r[6])
    # and they are about the fact's topic
    labels = json.loads((ZH_RUN / "labels.json").read_text(encoding="utf-8"))["labels"]
    scored = [(fact_topic(r[1]), labels.get(r[5])) for r in rows if r[4] == "mention"]
    scored = [(f, a) for f, a in scored if f]
    by_names = [(fact_topic(r[1]), labels.get(r[5])) for r in rows if r[6] == ["names"]]
    by_names = [(f, a) for f, a in by_names if f]
    assert sum(f == a for f, a in scored) / len(scored) >= 0.85
    assert sum(f == a for f, a in by_names) / len(by_names) >= 0.9

    # an action outside a fact's validity is not linked
    for r in rows:
        if r[4] == "mention" and r[9] is not None:
            assert r[2] is None or r[9] >= r[2], r
            assert r[3] is None or r[9] < r[3], r
    # ended before the run: her posts naming 滨江路 (both its ends) do not support it
    assert su.execute(
        "SELECT count(*) FROM memory.episodes WHERE tenant_id = %s AND simulation_id = %s"
        " AND agent_name = '刘芳' AND content LIKE '%%滨江路%%'",
        (world.tenant_a, world.sim_a),
    ).fetchone()[0]
    ended = [r for r in rows if r[1] == "刘芳曾是滨江路社区居民委员会委员。" and r[4] == "mention"]
    assert ended == []
    fare = [r for r in rows if r[1] == "临江地铁起步价为2元。" and r[4] == "mention"]
    new_fare = [r for r in rows if r[1].endswith("临江地铁起步价为3元。") and r[4] == "mention"]
    assert fare and new_fare
    assert max(r[9] for r in fare) < min(r[9] for r in new_fare)

    # a re-import of the same run changes no link
    import_run(world, capsys, ZH_RUN / "run")
    assert su.execute(LINKS, (world.tenant_a, world.sim_a)).fetchall() == rows
    with Memory(world.dsn("reader_a")) as mem:
        first = mem.evidence(world.tenant_a, world.sim_a, rows[0][0])
    assert [r.kind for r in first][:1] == ["source"]
    assert all(r.found_by for r in first)

    # the summary of an agent who muted others first lists what she posted
    with Memory(world.dsn("reader_a")) as mem:
        node = next(
            n for n in mem.nodes_by_type(world.tenant_a, world.sim_a, "Person") if n.name == "刘芳"
        )
        summary = mem.entity_summary(world.tenant_a, world.sim_a, node.node_id)
    sections = [s.section for s in summary]
    assert sections.index("said") == 1 and sections.count("said") >= 5
    said = [s.text for s in summary if s.section == "said"]
    assert any("滨江路" in t for t in said)
    assert not any("did mute" in (s.text or "") for s in summary)
    activity = next(s for s in summary if s.section == "activity")
    assert activity.detail["MUTE"] == 4
    assert sections.index("activity") < sections.index("fact")


def test_the_example_run_gets_supporting_actions_for_most_facts(world, capsys, connect):
    import_run(world, capsys, EXAMPLE)
    su = connect()
    rows = su.execute(LINKS, (world.tenant_a, world.sim_a)).fetchall()
    facts = su.execute(
        "SELECT count(*) FROM memory.edges WHERE tenant_id = %s AND simulation_id = %s",
        (world.tenant_a, world.sim_a),
    ).fetchone()[0]
    assert not any(r[10] for r in rows if r[4] == "source")
    assert len(supported(rows)) >= 0.85 * facts
    # found by names alone, the same facts as by both names or a name and the fact's words
    names = {r[0] for r in rows if r[4] == "mention" and "names" in r[6]}
    assert len(names) >= 15
