"""memory.recall through real imports (issue 12): the fusion arithmetic against a Python
reference built from each arm's own ranking, text-only recall from psql (no model), the
driver's Memory.recall embedding the question, and the CLI's recall and embed commands.
Real PostgreSQL, real model. The run is the example MiroFish run plus the Chinese actions of
bench/recall_eval.json (the example has no Chinese posts)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from swarm_memory import Memory
from swarm_memory.cli import main
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run
from swarm_memory.server import bin_dir

from bench import recall_eval

ARMS = recall_eval.ARMS
EVALSET = recall_eval.load_set()
ZH_AMBULANCE = next(
    x["line"]["action_args"]["content"] for x in EVALSET["extra_actions"] if x["key"] == "zh-c"
)


@pytest.fixture
def imported(world, tmp_path: Path):
    """The example run (and the eval set's Chinese actions) in tenant A's simulation."""
    run_dir = recall_eval.prepare_run(EVALSET, tmp_path)
    import_run(world.dsn("app_a"), world.tenant_a, world.sim_a, run_dir)
    return world


def _recall(conn, world, text, vector, top_k, options):
    return conn.execute(
        "SELECT kind, id, score, ranks, why FROM memory.recall(%s, %s, %s, %s::vector, %s, %s)",
        (
            world.tenant_a,
            world.sim_a,
            text,
            None if vector is None else "[" + ",".join(f"{x:.8g}" for x in vector) + "]",
            top_k,
            json.dumps(options),
        ),
    ).fetchall()


DEFAULT_WEIGHTS = {"words": 3.0, "graph": 0.5}


def reference_rrf(
    arm_ranks: dict[str, dict[tuple[str, str], int]],
    k: float,
    weights: dict,
    trust: dict[tuple[str, str], float],
):
    """Reciprocal rank fusion in Python: sum of weight x trust / (k + rank) over the arms
    that found an item (an arm's weight by default: words 3, graph 0.5, the others 1; a
    words row's trust as its arm alone reports it, 1 for the other arms); zero scores
    dropped; best first, ties by kind then id."""
    scores: dict[tuple[str, str], float] = {}
    for arm, ranks in arm_ranks.items():
        w = float(weights.get(arm, DEFAULT_WEIGHTS.get(arm, 1)))
        for item, rank in ranks.items():
            t = trust.get(item, 1.0) if arm == "words" else 1.0
            scores[item] = scores.get(item, 0.0) + w * t / (k + rank)
    rows = [(item, s) for item, s in scores.items() if s > 0]
    rows.sort(key=lambda r: (-round(r[1], 12), r[0][0], r[0][1]))
    return rows


QUESTIONS = [
    "Are people worried that emergency vehicles will be blocked?",  # semantic
    "Gallager's Hardwear",  # a misspelt name
    "Who employs Grace Mbeki?",  # the graph
    "人们担心救护车会被挡住吗？",  # Chinese
]
OPTIONS = [
    {},  # defaults: k 10, weights words 3, graph 0.5, others 1, candidates 50
    {"k": 10, "weights": {"words": 2, "graph": 0.5, "facts": 0}, "candidates": 20, "depth": 2},
]


def test_fusion_matches_a_python_reference(imported, connect):
    world = imported
    conn = connect("reader_a")
    vectors = Embedder().encode(QUESTIONS)
    checked = 0
    for text, vector in zip(QUESTIONS, vectors, strict=True):
        for extra in OPTIONS:
            # each arm alone (weight 1: a weight scales an arm's scores, not its ranking, and
            # an arm of weight 0 alone returns nothing): its ranking, as its ranks report it
            # (copies kept apart: each row of each arm is its own item here)
            arm_ranks: dict[str, dict[tuple[str, str], int]] = {}
            trust: dict[tuple[str, str], float] = {}
            for arm in ARMS:
                alone = {**extra, "arms": [arm], "weights": {}, "collapse": False}
                rows = _recall(conn, world, text, vector, 100, alone)
                arm_ranks[arm] = {(r[0], r[1]): int(r[3][arm]["rank"]) for r in rows}
                assert sorted(arm_ranks[arm].values()) == list(range(1, len(rows) + 1))
                if arm == "words":
                    trust = {(r[0], r[1]): float(r[3][arm]["trust"]) for r in rows}
                    assert all(0 < t <= 1 for t in trust.values())
            every = {**extra, "arms": list(ARMS), "collapse": False}
            fused = _recall(conn, world, text, vector, 100, every)
            want = reference_rrf(
                arm_ranks, float(extra.get("k", 10)), extra.get("weights", {}), trust
            )
            assert [(r[0], r[1]) for r in fused] == [item for item, _ in want[:100]], text
            for row, (item, score) in zip(fused, want, strict=False):
                assert abs(row[2] - score) < 1e-9, (text, item, row[2], score)
                # the row's ranks are each arm's own rank of it
                for arm, detail in row[3].items():
                    assert arm_ranks[arm].get(item) == detail["rank"], (text, item, arm)
            # the top k is the head of the same order
            top = _recall(conn, world, text, vector, 5, every)
            assert [(r[0], r[1]) for r in top] == [(r[0], r[1]) for r in fused[:5]]
            checked += len(fused)
    assert checked > 100


def _psql(dsn: str, sql: str) -> list[list[str]]:
    out = subprocess.run(
        [str(bin_dir() / "psql"), dsn, "-X", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def test_text_only_recall_from_psql_answers_a_chinese_question(imported):
    world = imported
    rows = _psql(
        world.dsn("reader_a"),
        f"SELECT kind, id, text, why FROM memory.recall('{world.tenant_a}', '{world.sim_a}', "
        "'救护车谣言是真的吗？', NULL)",
    )
    assert rows
    assert any(r[2] == ZH_AMBULANCE for r in rows), rows
    # no vector: only the arms that need none ran
    assert all("episodes #" not in r[3] and "facts #" not in r[3] for r in rows)
    assert any("words #" in r[3] for r in rows)


def test_memory_recall_embeds_the_question(imported):
    world = imported
    question = "Who employs Grace Mbeki?"
    with Memory(world.dsn("reader_a")) as mem:
        rows = mem.recall(world.tenant_a, world.sim_a, question)
        assert rows and len(rows) <= 10
        # the vector arms ran: the question was embedded
        assert any(set(r.ranks) & {"facts", "entities", "episodes"} for r in rows)
        assert any(r.text and "Harbourton Transit Authority" in r.text for r in rows)
        given = mem.recall(world.tenant_a, world.sim_a, question, Embedder().encode_one(question))
        assert [(r.kind, r.id) for r in given] == [(r.kind, r.id) for r in rows]
        assert np.allclose([r.score for r in given], [r.score for r in rows])
        words = mem.recall(world.tenant_a, world.sim_a, question, embed=False)
        assert words and all(not set(r.ranks) & {"facts", "entities", "episodes"} for r in words)


def test_cli_recall_and_embed(imported, capsys):
    world = imported
    dsn = world.dsn("reader_a")
    scope = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    code = main(["--dsn", dsn, "recall", "section 4.2", *scope, "--top-k", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert len(out.splitlines()) == 5  # header, rule, three rows
    assert "section 4.2" in out and "words #" in out

    code = main(["--dsn", dsn, "recall", "坦纳街", *scope, "--words-only", "--arms", "words"])
    out = capsys.readouterr().out
    assert code == 0 and "坦纳街" in out

    code = main(["--dsn", dsn, "embed", "more like the ambulance rumour"])
    literal = capsys.readouterr().out.strip()
    assert code == 0 and literal.startswith("[") and literal.endswith("]")
    assert len(literal[1:-1].split(",")) == 384
    # in a model named: the default model's name gives the same vector; an unknown one is an
    # error naming those this package computes
    code = main(
        [
            "--dsn",
            dsn,
            "embed",
            "more like the ambulance rumour",
            "--model",
            "sentence-transformers/all-MiniLM-L6-v2",
        ]
    )
    assert code == 0 and capsys.readouterr().out.strip() == literal
    code = main(["--dsn", dsn, "embed", "x", "--model", "no-such-model"])
    err = capsys.readouterr().err
    assert code == 2 and "no embedder for model 'no-such-model'" in err and "all-MiniLM" in err
    # a psql user pastes it: recall by that vector alone
    rows = _psql(
        dsn,
        f"SELECT kind, id, why FROM memory.recall('{world.tenant_a}', '{world.sim_a}', NULL, "
        f"'{literal}'::vector, 5)",
    )
    assert len(rows) == 5 and all("route vector" in r[2] for r in rows)
