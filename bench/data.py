"""A realistic data set for the benchmarks, built from real model output.

Texts: tens of thousands of generated social-media posts over many topics, embedded by the
real all-MiniLM-L6-v2 (cached in .cache/bench/). Every other vector is derived from those:
a real vector plus a smaller share of another real vector of the same topic, plus a little
noise, normalised. That keeps the neighbourhood structure of real embeddings (clusters by
topic, near-duplicates, long tails), which uniform noise would not. Queries are real
embedded questions.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from swarm_memory.embed import Embedder

CACHE = Path(__file__).resolve().parents[1] / ".cache" / "bench"
VERSION = 2

TOPICS = {
    "transport": (
        [
            "the riverside road closure",
            "the new bus lanes",
            "the tram extension",
            "cycle paths on Main Street",
            "the ferry timetable",
            "parking fees downtown",
            "the airport rail link",
            "night buses",
            "congestion charges",
            "the ring road widening",
        ],
        ["commuters", "cyclists", "bus drivers", "delivery firms", "taxi drivers"],
    ),
    "housing": (
        [
            "rent controls",
            "the new tower blocks",
            "social housing waiting lists",
            "short-term holiday lets",
            "the eviction ban",
            "student housing",
            "the derelict warehouse conversion",
            "mortgage rates",
            "the housing survey",
            "empty homes tax",
        ],
        ["tenants", "landlords", "first-time buyers", "housing charities", "developers"],
    ),
    "health": (
        [
            "the hospital waiting times",
            "the new walk-in clinic",
            "GP appointments",
            "the vaccination drive",
            "mental health services",
            "ambulance response times",
            "the dental shortage",
            "care home funding",
            "the flu season",
            "nurse pay",
        ],
        ["nurses", "patients", "carers", "junior doctors", "pharmacists"],
    ),
    "climate": (
        [
            "the flood defences",
            "the heatwave plan",
            "tree planting on the estate",
            "the solar farm proposal",
            "river pollution",
            "the recycling overhaul",
            "air quality near schools",
            "the wind turbine plan",
            "heat pumps",
            "the coastal erosion report",
        ],
        ["environmental groups", "farmers", "residents", "scientists", "activists"],
    ),
    "education": (
        [
            "school meal funding",
            "the exam results",
            "teacher strikes",
            "the new university campus",
            "class sizes",
            "after-school clubs",
            "tuition fees",
            "the school merger",
            "special needs support",
            "the library closures",
        ],
        ["parents", "teachers", "students", "head teachers", "governors"],
    ),
    "economy": (
        [
            "the factory closure",
            "small business grants",
            "the high street decline",
            "the market stall fees",
            "rising energy bills",
            "the minimum wage rise",
            "the tech park investment",
            "the port expansion",
            "tourism numbers",
            "the council budget cuts",
        ],
        ["shop owners", "workers", "investors", "economists", "union reps"],
    ),
    "safety": (
        [
            "the rise in bike thefts",
            "street lighting",
            "the new police station",
            "knife crime figures",
            "antisocial behaviour in the park",
            "CCTV cameras",
            "the neighbourhood watch",
            "road safety near schools",
            "the fire service cuts",
            "late-night noise",
        ],
        ["police officers", "victims", "shopkeepers", "neighbours", "youth workers"],
    ),
    "culture": (
        [
            "the music festival",
            "the museum reopening",
            "the theatre's funding",
            "the street art trail",
            "the football stadium plan",
            "the food market",
            "the film festival",
            "the carnival route",
            "the public library events",
            "the heritage walk",
        ],
        ["artists", "fans", "organisers", "visitors", "local bands"],
    ),
    "politics": (
        [
            "the mayoral election",
            "the council vote",
            "the consultation hearing",
            "the new planning rules",
            "the transparency report",
            "the ward boundaries",
            "the referendum idea",
            "the opposition leader's speech",
            "lobbying rules",
            "the citizens' assembly",
        ],
        ["councillors", "voters", "campaigners", "journalists", "officials"],
    ),
    "technology": (
        [
            "the broadband rollout",
            "the smart meters",
            "the council app outage",
            "5G masts",
            "the data breach",
            "AI in job interviews",
            "online voting",
            "the e-scooter trial",
            "the digital skills course",
            "phone signal gaps",
        ],
        ["engineers", "users", "privacy advocates", "start-ups", "pensioners"],
    ),
}

STANCES = [
    "I honestly think {t} is the best thing to happen here in years.",
    "Can someone explain why {t} was approved without asking {g}?",
    "{G} are furious about {t}, and frankly they have a point.",
    "Day three of {t} and nothing has improved for {g}.",
    "Good news on {t}: the numbers are better than anyone expected.",
    "If {t} goes ahead, {g} will pay the price.",
    "Spoke to {g} this morning about {t}. Mixed feelings all round.",
    "The report on {t} is out and it is worse than we feared.",
    "Hot take: {t} is a distraction from the real problems.",
    "Thank you to the {g} who turned up to discuss {t} tonight.",
    "Nobody is talking about what {t} means for {g} on low incomes.",
    "We need facts, not slogans, about {t}.",
    "Still waiting for a straight answer from the council on {t}.",
    "Our survey of {g}: most support {t}, but with conditions.",
    "{t} again? We have been here before and it did not work.",
    "Photos from today: {t} in action, and {g} are not impressed.",
    "The cost of {t} keeps rising and {g} deserve to know why.",
    "Proud of the {g} leading the push on {t}.",
    "Petition launched against {t}. Sign if you agree.",
    "Compared with other cities, our approach to {t} looks timid.",
]

DETAILS = [
    "",
    "",
    "",
    " Full thread below.",
    " More at the meeting on Thursday.",
    " My street has been affected for weeks.",
    " The figures do not add up.",
    " This will come up at the next election.",
    " Share if you care.",
    " I have lived here for thirty years and never seen anything like it.",
    " The local paper has the details.",
    " Numbers from the council's own report.",
    " My kids ask me about it every day.",
    " Costs have doubled since last year.",
]

QUESTIONS = [
    "Who is angry about {t}?",
    "What do {g} think of {t}?",
    "Is {t} working?",
    "Why are people against {t}?",
    "What did the report say about {t}?",
    "Who supports {t} and why?",
    "How does {t} affect {g}?",
    "Has the council listened to {g} about {t}?",
    "What are the costs of {t}?",
    "Are there complaints about {t}?",
]


def make_texts(n: int, seed: int = 7) -> tuple[list[str], list[str]]:
    """n distinct post texts and their topic labels."""
    rng = random.Random(seed)
    texts: list[str] = []
    topics: list[str] = []
    seen: set[str] = set()
    names = list(TOPICS)
    while len(texts) < n:
        topic = rng.choice(names)
        things, groups = TOPICS[topic]
        t, g = rng.choice(things), rng.choice(groups)
        text = rng.choice(STANCES).format(t=t, g=g, G=g.capitalize()) + rng.choice(DETAILS)
        if rng.random() < 0.3:
            t2, g2 = rng.choice(things), rng.choice(groups)
            text += " " + rng.choice(STANCES).format(t=t2, g=g2, G=g2.capitalize())
        if text in seen:
            text += f" ({rng.randint(2, 99)})"
            if text in seen:
                continue
        seen.add(text)
        texts.append(text)
        topics.append(topic)
    return texts, topics


def make_questions(n: int, seed: int = 11) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    out, labels, seen = [], [], set()
    names = list(TOPICS)
    while len(out) < n:
        topic = rng.choice(names)
        things, groups = TOPICS[topic]
        q = rng.choice(QUESTIONS).format(t=rng.choice(things), g=rng.choice(groups))
        if q not in seen:
            seen.add(q)
            out.append(q)
            labels.append(topic)
    return out, labels


@dataclass
class Base:
    texts: list[str]
    topics: np.ndarray  # topic index per text
    vectors: np.ndarray  # real embeddings (n, 384) float32
    questions: list[str]
    question_topics: np.ndarray
    question_vectors: np.ndarray
    embed_seconds: float


def base_set(n_texts: int, n_questions: int, embedder: Embedder | None = None) -> Base:
    """Real embeddings of generated texts and questions, cached on disk by content."""
    texts, topics = make_texts(n_texts)
    questions, qtopics = make_questions(n_questions)
    key = hashlib.sha256(f"{VERSION}|{n_texts}|{n_questions}".encode()).hexdigest()[:16]
    path = CACHE / f"base-{key}.npz"
    names = list(TOPICS)
    seconds = 0.0
    if path.exists():
        data = np.load(path)
        vectors, qvectors = data["vectors"], data["qvectors"]
    else:
        embedder = embedder or Embedder(batch_size=128)
        vectors = embedder.encode(texts)
        qvectors = embedder.encode(questions)
        seconds = embedder.seconds
        CACHE.mkdir(parents=True, exist_ok=True)
        np.savez(path, vectors=vectors, qvectors=qvectors)
    return Base(
        texts,
        np.array([names.index(t) for t in topics]),
        vectors,
        questions,
        np.array([names.index(t) for t in qtopics]),
        qvectors,
        seconds,
    )


def derive(
    base: Base, topic_ids: list[int], n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """n vectors from the base vectors of the given topics; returns (vectors, base index)."""
    pool = np.flatnonzero(np.isin(base.topics, topic_ids))
    first = rng.choice(pool, size=n)
    second = rng.choice(pool, size=n)
    # A real vector, a smaller share of another real vector of the same topics, and noise of
    # about a tenth of the vector's length: neighbours stay meaningful, copies stay distinct.
    mix = rng.uniform(0.1, 0.5, size=(n, 1)).astype(np.float32)
    noise = rng.standard_normal((n, base.vectors.shape[1])).astype(np.float32) * 0.006
    v = base.vectors[first] + mix * base.vectors[second] + noise
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v.astype(np.float32), first


def simulation_sizes(
    total: int, count: int, smallest: int, largest: int, rng: np.random.Generator
) -> list[int]:
    """Sizes from smallest to largest (both present), log-spread, summing to about total."""
    if count == 1:
        return [max(smallest, min(largest, total))]
    logs = rng.uniform(np.log(smallest), np.log(largest), size=count - 2)
    sizes = [smallest, largest] + [int(np.exp(x)) for x in logs]
    fixed = smallest + largest
    rest = sum(sizes[2:])
    if rest > 0 and total > fixed:
        factor = (total - fixed) / rest
        sizes = sizes[:2] + [max(smallest, min(largest, int(s * factor))) for s in sizes[2:]]
    return sizes


def graph(n_nodes: int, n_edges: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """A heavy-tailed directed graph (preferential attachment), no duplicate edges."""
    edges: set[tuple[int, int]] = set()
    degree = np.ones(n_nodes)
    # a spanning tree first, so the walk can reach the whole graph
    for v in range(1, n_nodes):
        u = int(rng.integers(0, v))
        edges.add((u, v) if rng.random() < 0.5 else (v, u))
        degree[u] += 1
        degree[v] += 1
    while len(edges) < n_edges:
        batch = n_edges - len(edges)
        p = degree / degree.sum()
        src = rng.choice(n_nodes, size=batch, p=p)
        dst = rng.integers(0, n_nodes, size=batch)
        for s, d in zip(src.tolist(), dst.tolist(), strict=True):
            if s != d and (s, d) not in edges:
                edges.add((s, d))
                degree[s] += 1
                degree[d] += 1
    return sorted(edges)
