"""A model of another dimension (issue 14, item 2): WordLlama l2_supercat, 256 dimensions,
stored zero-padded in the 384-dimensional columns (V0027), with the real models.

A small MiroFish run is imported with all-MiniLM-L6-v2 (384), re-embedded online to
WordLlama (256) and back: after each switch every search answers with the new model's own
cosine similarities (checked against numpy over the unpadded vectors) and refuses a query
vector of the other model; a model wider than the columns is refused with 0A000.
"""

from __future__ import annotations

import numpy as np
import pytest
from swarm_memory import InvalidInput, Memory, NotSupported
from swarm_memory.embed import (
    DIMENSIONS,
    MODEL_NAME,
    WORDLLAMA_DIMENSIONS,
    WORDLLAMA_MODEL_NAME,
    Embedder,
    WordLlamaEmbedder,
    embedder_for,
    load_wordllama,
    padded,
)
from swarm_memory.importer import import_run
from swarm_memory.reembed import reembed
from test_reembed import small_run

QUESTION = "Will closing the riverside road hurt the small shops?"


@pytest.fixture(scope="module")
def wordllama() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


def test_a_narrower_models_vectors_are_stored_padded_with_its_own_cosines(wordllama):
    texts = [
        "The council closes River Road to cars.",
        "Shops on River Road fear the closure.",
        "公交专用道下周开通",
        "I had pizza for lunch.",
    ]
    raw = np.asarray(load_wordllama().embed(texts, norm=True), dtype=np.float32)
    assert raw.shape == (4, WORDLLAMA_DIMENSIONS)
    stored = wordllama.encode(texts)
    assert stored.shape == (4, DIMENSIONS)
    assert not stored[:, WORDLLAMA_DIMENSIONS:].any()
    np.testing.assert_allclose(stored[:, :WORDLLAMA_DIMENSIONS], raw, atol=1e-6)
    np.testing.assert_allclose(stored @ stored.T, raw @ raw.T, atol=1e-5)
    assert type(embedder_for(WORDLLAMA_MODEL_NAME)) is WordLlamaEmbedder
    with pytest.raises(ValueError, match="do not fit"):
        padded(np.zeros((1, DIMENSIONS + 1), dtype=np.float32))


def _exact(su, w, embedder: Embedder, k: int) -> list[tuple[str, float]]:
    """The simulation's episodes ranked by cosine with the question under `embedder`,
    computed in numpy from the texts (unpadded where the model is narrower)."""
    rows = su.execute(
        "SELECT episode_id, content FROM memory.episodes WHERE tenant_id = %s AND simulation_id = %s"
        " AND embedding IS NOT NULL",
        (w.tenant_a, w.sim_a),
    ).fetchall()
    ids = [r[0] for r in rows]
    m = embedder.encode([r[1] for r in rows])
    q = embedder.encode_query(QUESTION)
    width = WORDLLAMA_DIMENSIONS if isinstance(embedder, WordLlamaEmbedder) else DIMENSIONS
    m, q = m[:, :width], q[:width]
    sims = (m @ q) / (np.linalg.norm(m, axis=1) * np.linalg.norm(q))
    order = sorted(range(len(ids)), key=lambda i: (-sims[i], ids[i]))[:k]
    return [(ids[i], float(sims[i])) for i in order]


def _search(mem: Memory, w, embedder: Embedder, model: str, k: int) -> list[tuple[str, float]]:
    hits = mem.search_episodes(w.tenant_a, w.sim_a, embedder.encode_query(QUESTION), k, model=model)
    return [(h.episode_id, h.similarity) for h in hits]


def test_a_simulation_moves_to_a_256_dimensional_model_and_back_online(
    world, connect, tmp_path, minilm, wordllama
):
    w = world
    app_a = w.dsn("app_a")
    import_run(app_a, w.tenant_a, w.sim_a, small_run(tmp_path / "run"), embedder=minilm)
    su = connect()

    for embedder, model, other, other_model in (
        (wordllama, WORDLLAMA_MODEL_NAME, minilm, MODEL_NAME),
        (minilm, MODEL_NAME, wordllama, WORDLLAMA_MODEL_NAME),
    ):
        report = reembed(app_a, w.tenant_a, model, [w.sim_a], embedder=embedder)
        assert sum(report.simulations[0].switched.values()) > 60, report
        stored = su.execute(
            "SELECT DISTINCT embedding_model FROM memory.episodes"
            " WHERE tenant_id = %s AND simulation_id = %s AND embedding IS NOT NULL",
            (w.tenant_a, w.sim_a),
        ).fetchall()
        assert stored == [(model,)]
        with Memory(app_a) as mem:
            assert mem.model_of(w.tenant_a, w.sim_a).model == model
            got = _search(mem, w, embedder, model, 10)
            want = _exact(su, w, embedder, 10)
            assert [g[0] for g in got] == [x[0] for x in want]
            np.testing.assert_allclose([g[1] for g in got], [x[1] for x in want], atol=1e-4)
            # the other model's question is refused, naming both
            with pytest.raises(InvalidInput) as refused:
                _search(mem, w, other, other_model, 10)
            assert refused.value.sqlstate == "22023"
            assert model in str(refused.value) and other_model in str(refused.value)
            # facts and entities answer from the same columns
            assert mem.search_facts(
                w.tenant_a, w.sim_a, embedder.encode_query(QUESTION), 3, model=model
            )
            assert mem.search_nodes(
                w.tenant_a, w.sim_a, embedder.encode_query("a reporter"), 3, model=model
            )


def test_a_model_wider_than_the_columns_is_refused(world, connect):
    su = connect()
    su.execute(
        "INSERT INTO memory.embedding_models (model, dimensions, normalized, package)"
        " VALUES ('wide-1024', 1024, true, 'test only: a registered width, no vectors')"
    )
    su.commit()
    with Memory(world.dsn("app_a")) as mem, pytest.raises(NotSupported) as refused:
        mem.reembed_texts(world.tenant_a, world.sim_a, "wide-1024", 10)
    assert refused.value.sqlstate == "0A000"
    assert "1024" in str(refused.value) and "384" in str(refused.value)
