"""Embedding throughput: sentence-transformers' default `encode` against the project's
Embedder, in the same process, on the same texts.

    .venv/bin/python -m bench.embedding [--texts 3000] [--rounds 2] [--seed 7]

`measure(texts)` times both on the whole list, alternating which goes first from round to
round so that both share whatever else the machine is doing, and compares their vectors.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np
from swarm_memory import embed
from swarm_memory.embed import Embedder

_OPENERS = [
    "Just saw",
    "Can't believe",
    "Honestly,",
    "Update:",
    "Breaking:",
    "So apparently",
    "Reminder:",
    "Hot take:",
    "PSA:",
    "Thread 🧵",
    "Quick question:",
    "Unpopular opinion:",
    "Good morning!",
    "Ugh,",
    "Wow,",
    "Not gonna lie,",
    "Day 3 of asking:",
    "Local news:",
]
_SUBJECTS = [
    "the city council",
    "our neighbourhood bakery",
    "the new bus route",
    "my landlord",
    "the mayor",
    "the football club",
    "the River Road closure",
    "the school board",
    "the farmers' market",
    "the tram drivers' union",
    "the library on Elm Street",
    "the hospital trust",
    "a startup downtown",
    "the weather service",
    "my favourite coffee shop",
    "the recycling programme",
    "the housing committee",
    "the museum",
    "@AishaBello",
    "the police",
    "the university",
    "the night-time economy group",
]
_VERBS = [
    "announced",
    "cancelled",
    "postponed",
    "is finally opening",
    "quietly raised prices for",
    "voted against",
    "is hiring for",
    "apologised for",
    "doubled the budget for",
    "shut down",
    "launched",
    "is protesting",
    "leaked plans for",
    "won't comment on",
    "is crowdfunding",
]
_OBJECTS = [
    "the summer festival",
    "late-night bus service",
    "a bike lane on Main Street",
    "free parking on Sundays",
    "the youth programme",
    "rent caps",
    "a new playground",
    "the composting scheme",
    "weekend opening hours",
    "the jazz night",
    "electric scooters",
    "a community garden",
    "the old cinema",
    "free school lunches",
    "a 20 mph limit",
    "the flood defences",
    "the Christmas market",
]
_REACTIONS = [
    "and nobody asked us.",
    "which is great news for families.",
    "so plan your commute accordingly.",
    "Thoughts?",
    "I'm so tired of this.",
    "About time!",
    "lol",
    "What could possibly go wrong?",
    "Details in the link below.",
    "My kids are thrilled.",
    "Shopkeepers are worried about losing customers.",
    "Traffic was a nightmare this morning.",
    "Not sure how I feel about it.",
    "Apparently it was decided behind closed doors.",
    "The comments section is on fire 🔥",
    "Fingers crossed it works out 🤞",
    "Share if you agree.",
    "Who's coming on Saturday?",
    "RT if you were there!",
    "Anyone know more?",
]
_CONTEXT = [
    "I talked to a few people at the bus stop and everyone has a different opinion about "
    "what this means for the rest of the year.",
    "Last time they tried something like this it took three years and cost twice as much "
    "as promised, so forgive me for being sceptical.",
    "If you live near the station you have probably noticed the queues, the noise and the "
    "roadworks that started last week.",
    "My grandmother has lived here for sixty years and says she has never seen the town "
    "this divided over something so small.",
    "Meanwhile prices at the supermarket keep going up and wages stay where they were a "
    "decade ago.",
    "Anyway, the sunset over the harbour tonight was incredible and I needed that.",
    "Volunteers meet on Saturday at ten in the church hall if you want to help or just hear more.",
    "The official statement says the decision is final, but the petition already has "
    "four thousand signatures.",
    "The meeting starts at 7pm in the town hall, doors open at half six, and there is "
    "step-free access from the car park.",
    "Three buses in a row skipped my stop this morning, so I walked and was still early.",
    "According to the minutes the vote was five to four, with two councillors absent.",
    "Honestly the best thing about this town is still the people who turn up when it matters.",
]
_HASHTAGS = ["#local", "#news", "#RiverRoad", "#community", "#council", "#traffic", "#weekend"]


def make_texts(n: int = 3000, seed: int = 7) -> list[str]:
    """n social-media posts of 5 to 60 words, built from combinations of fragments:
    an opener, a subject-verb-object event, reactions, context sentences, hashtags and
    numbers, cut to a word count drawn uniformly from 5-60."""
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        target = rng.randint(5, 60)
        parts = []
        if rng.random() < 0.6:
            parts.append(rng.choice(_OPENERS))
        parts.append(f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}")
        if rng.random() < 0.3:
            parts.append(f"from {rng.randint(1, 28)}/{rng.randint(1, 12)}")
        pool = _REACTIONS + _CONTEXT
        while sum(len(p.split()) for p in parts) < target:
            parts.append(rng.choice(pool))
        hashtag = [rng.choice(_HASHTAGS)] if rng.random() < 0.25 else []
        words = " ".join(parts).split()[: target - len(hashtag)] + hashtag
        texts.append(" ".join(words))
    return texts


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def measure(texts: list[str], rounds: int = 2) -> dict:
    """Sentences per second of sentence-transformers' default `model.encode(texts)` (the
    reference model, default arguments) and of the project's Embedder, and the min and mean
    cosine between their vectors, all in this process on the same texts."""
    model = embed.load_model()
    embedder = Embedder()
    # Warm up both (the fast encoder is built and checked on first use), untimed.
    model.encode(texts[:64])
    embedder.encode(texts[:64])

    def reference() -> np.ndarray:
        return model.encode(texts)

    def ours() -> np.ndarray:
        return embedder.encode(texts)

    seconds: dict[str, list[float]] = {"reference": [], "ours": []}
    vectors: dict[str, np.ndarray] = {}
    for r in range(max(1, rounds)):
        runs = [("reference", reference), ("ours", ours)]
        for name, run in runs if r % 2 == 0 else runs[::-1]:
            start = time.perf_counter()
            vectors[name] = run()
            seconds[name].append(time.perf_counter() - start)

    n = len(texts)
    reference_rate = n * len(seconds["reference"]) / sum(seconds["reference"])
    ours_rate = n * len(seconds["ours"]) / sum(seconds["ours"])
    cosines = np.sum(_unit(vectors["reference"]) * _unit(vectors["ours"]), axis=1)
    words = [len(t.split()) for t in texts]
    return {
        "texts": n,
        "words_mean": round(statistics.fmean(words), 1),
        "rounds": len(seconds["ours"]),
        "backend": embedder.backend,
        "batch_size": embedder.batch_size,
        "default_per_s": round(reference_rate, 1),
        "ours_per_s": round(ours_rate, 1),
        "speedup": round(ours_rate / reference_rate, 2),
        "speedup_per_round": [
            round(ref / our, 2)
            for ref, our in zip(seconds["reference"], seconds["ours"], strict=True)
        ],
        "min_cosine": round(float(cosines.min()), 6),
        "mean_cosine": round(float(cosines.mean()), 6),
        "default_seconds": [round(s, 2) for s in seconds["reference"]],
        "ours_seconds": [round(s, 2) for s in seconds["ours"]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=3000, help="how many posts (default 3000)")
    parser.add_argument("--rounds", type=int, default=2, help="timed passes of each (default 2)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    result = measure(make_texts(args.texts, args.seed), rounds=args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"{result['texts']} posts, {result['words_mean']} words on average, "
        f"{result['rounds']} rounds each, same process"
    )
    print(f"  sentence-transformers encode (default): {result['default_per_s']:8.1f}/s")
    print(
        f"  Embedder ({result['backend']}, batch {result['batch_size']}):"
        f" {result['ours_per_s']:8.1f}/s"
    )
    print(f"  speedup {result['speedup']}x (per round: {result['speedup_per_round']})")
    print(f"  cosine with the reference: min {result['min_cosine']}, mean {result['mean_cosine']}")


if __name__ == "__main__":
    main()
