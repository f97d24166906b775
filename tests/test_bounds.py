"""Bounded work per call: a question over memory._limit('question_bytes') is refused with 54000
by every function that reads a question (match_entities, search_words, recall) before any of
its words is read; a long question of many names within the cap still finds the names it
holds (memory._name_candidates reads it by runs of its words); memory.health's sampled
recall check takes at most memory._limit('health_sample') queries. The names are shaped like
a real run's (bench/names.py: people in English and Chinese, places, organisations)."""

from __future__ import annotations

import random

import psycopg
import pytest
from psycopg.types.json import Jsonb

from bench.names import names

WORDS = [
    "the",
    "mayor",
    "said",
    "union",
    "members",
    "would",
    "strike",
    "again",
    "on",
    "monday",
    "unless",
    "the",
    "council",
    "agreed",
    "to",
    "a",
    "new",
    "contract",
    "for",
    "drivers",
    "and",
    "nurses",
    "at",
    "the",
    "hospital",
    "near",
    "the",
    "river",
]
ZH = ["对这件事怎么看", "说市议会应该让步", "在市场见面"]


@pytest.fixture
def named(world, connect):
    """1,500 entities of tenant A's simulation; their names by node id."""
    pool = names(1500, seed=11)
    items = [{"id": f"n{i}", "name": n, "type": "Person"} for i, n in enumerate(pool)]
    connect("app_a").execute(
        "SELECT memory.upsert_nodes(%s, %s, %s)", (world.tenant_a, world.sim_a, Jsonb(items))
    )
    return {f"n{i}": n for i, n in enumerate(pool)}


def question(pool: list[str], nbytes: int, seed: int = 5) -> tuple[str, list[str]]:
    """A text of about nbytes (never more) of sentences, each naming one of pool's names
    (a Chinese name in a Chinese sentence), and the names it holds whole."""
    rnd = random.Random(seed)
    text, held = "", []
    for name in rnd.sample(pool, len(pool)):
        if any("\u4e00" <= ch <= "\u9fff" for ch in name):
            part = f"{name}{rnd.choice(ZH)}。"
        else:
            part = f"{name} {' '.join(rnd.sample(WORDS, 5))}."
        if len((text + " " + part).encode()) > nbytes:
            break
        text, held = (text + " " + part).strip(), held + [name]
    return text, held


CALLS = {
    "match_entities": "SELECT * FROM memory.match_entities(%s, %s, %s, 10)",
    "search_words": "SELECT * FROM memory.search_words(%s, %s, %s, 10)",
    "recall": "SELECT * FROM memory.recall(%s, %s, %s, NULL, 10)",
    "recall, graph arm": """SELECT * FROM memory.recall(%s, %s, %s, NULL, 10, '{"arms": ["graph"]}')""",
}


@pytest.mark.parametrize("call", CALLS)
def test_a_question_over_the_cap_is_refused_with_54000(world, connect, named, call):
    conn = connect("reader_a")
    cap = conn.execute("SELECT memory._limit('question_bytes')").fetchone()[0]
    text, _ = question(list(named.values()), cap)
    longer = text + " " + "x" * (cap + 1 - len(text.encode()) - 1)
    assert len(longer.encode()) == cap + 1
    with pytest.raises(psycopg.Error) as refused:
        conn.execute(CALLS[call], (world.tenant_a, world.sim_a, longer)).fetchall()
    assert refused.value.sqlstate == "54000"
    assert "question_bytes" in str(refused.value) and str(cap + 1) in str(refused.value)
    assert "shorten the question" in refused.value.diag.message_hint
    # 34 KB of names and words: refused as well, nothing else
    big, _ = question(list(named.values()) * 3, 34_000)
    with pytest.raises(psycopg.Error) as refused:
        conn.execute(CALLS[call], (world.tenant_a, world.sim_a, big)).fetchall()
    assert refused.value.sqlstate == "54000"
    # a question of exactly the cap is answered
    assert conn.execute(CALLS[call], (world.tenant_a, world.sim_a, text)).fetchall()


def test_a_long_question_of_many_names_finds_them(world, connect, named):
    conn = connect("reader_a")
    cap = conn.execute("SELECT memory._limit('question_bytes')").fetchone()[0]
    pool = list(named.values())
    text, held = question(pool, cap, seed=8)
    assert len(text) > 2000 and len(held) >= 40  # premise: many runs of the text, many names
    found = {
        name: sim
        for _, name, _, sim in conn.execute(
            "SELECT * FROM memory.match_entities(%s, %s, %s, 1000)",
            (world.tenant_a, world.sim_a, text),
        )
    }
    # every name the text holds whole is found, as closely as a name can be
    assert {n for n in held if found.get(n) == 1.0} == set(held)
    # a few of them, each on its own, as short questions name them
    for name in held[::10]:
        (first,) = conn.execute(
            "SELECT name, similarity FROM memory.match_entities(%s, %s, %s, 1)",
            (world.tenant_a, world.sim_a, f"what did {name} say?"),
        ).fetchall()
        assert first == (name, 1.0)
    # recall's graph arm starts from entities the long question names (a name inside one
    # of its names, such as West Union inside West Union 56, is named as closely)
    seeds = conn.execute(
        """SELECT text FROM memory.recall(%s, %s, %s, NULL, 5, '{"arms": ["graph"]}')""",
        (world.tenant_a, world.sim_a, text),
    ).fetchall()
    assert len(seeds) == 5 and all(found[body] == 1.0 for (body,) in seeds)
    assert all(any(body.lower() in n.lower() for n in held) for (body,) in seeds)


def test_health_sample_is_capped(world, connect):
    conn = connect("reader_a")
    cap = conn.execute("SELECT memory._limit('health_sample')").fetchone()[0]
    assert cap == 100
    for sql, args in (
        ("SELECT * FROM memory.health(%s, %s)", (world.tenant_a, cap + 1)),
        ("SELECT * FROM memory.health(NULL, %s)", (cap + 1,)),
        ("SELECT * FROM memory.health_tenant(%s, %s)", (world.tenant_a, 1000)),
        ("SELECT * FROM memory._health_tenant(%s, %s)", (world.tenant_a, cap + 1)),
    ):
        with pytest.raises(psycopg.Error) as refused:
            conn.execute(sql, args).fetchall()
        assert refused.value.sqlstate == "54000", sql
        assert "health_sample" in str(refused.value)
    with pytest.raises(psycopg.Error) as refused:
        conn.execute("SELECT * FROM memory.health(%s, -1)", (world.tenant_a,)).fetchall()
    assert refused.value.sqlstate == "22023"
    assert conn.execute("SELECT * FROM memory.health(%s, %s)", (world.tenant_a, cap)).fetchall()
    with connect("admin") as admin:
        with pytest.raises(psycopg.Error) as refused:
            admin.execute("SELECT * FROM memory.health(NULL, %s)", (cap + 1,)).fetchall()
        assert refused.value.sqlstate == "54000"
