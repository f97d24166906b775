"""Search on clumpy swarm data (issue 13, items 1, 2 and 5): a data set shaped like real
runs, today's search_episodes measured on it, and the naive query beside it.

    python -m bench.clumps [--quick | --sizes 100,1000,...] [--queries 120] [--dsn SU_DSN]

Real simulations repeat themselves. A repost copies a post exactly; agents echo a few viral
posts with small changes, so a simulation holds clumps of near-copies (cosine > 0.99) of a
few posts, clump sizes Zipf-distributed, about a quarter of its episodes. Here:

- *posts* (the other three quarters): a real embedded post of the simulation's topics plus a
  smaller share of another and a little noise (as bench.data derives them), a tenth of them
  exact reposts of an earlier post (Zipf by popularity);
- *near-copies*: each simulation picks viral posts of its topics (more for larger runs),
  clump sizes Zipf (1/rank^1.1); a member is one of the viral post's real embedded variants
  (the text as reposted, quoted, shouted: "RT @x: ...", "This. ...", "...!!") plus noise
  that keeps it above cosine 0.99 of the post, or, for a third of them, an exact copy of the
  post or a variant (a repost);
- *questions*, a third each: on the simulation's topics, off them (other topics), and about
  one of its viral posts (the question lands in a clump: the hard case).

Every vector starts from the real model (all-MiniLM-L6-v2): the texts are embedded once and
cached in .cache/bench-vectors/. Recall@10 is measured against an exact ranking in numpy,
tie-aware (a hit counts when its true similarity reaches the tenth best, within 1e-6: two
reposts of one vector are equally right). The naive query (bench.naive) runs interleaved
with search_episodes, question by question, on the same server.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psycopg
from swarm_memory import ann
from swarm_memory.client import Memory, configure
from swarm_memory.embed import MODEL_NAME
from swarm_memory.server import as_role

from bench import data, load, naive

CACHE = Path(__file__).resolve().parents[1] / ".cache" / "bench-vectors"
VERSION = 1
SIZES = (100, 1000, 2000, 10_000, 50_000, 200_000)
QUICK_SIZES = (100, 1000, 10_000)
APP = "bench_clumps"
NEAR_SHARE = 0.25  # of each simulation's episodes: near-copies of viral posts
REPOST_SHARE = 0.10  # of the other posts: exact copies of an earlier one
SEARCH_SQL = "SELECT episode_id FROM memory.search_episodes(%s, %s, %s, 10)"
COLLAPSED_SQL = (
    "SELECT episode_id, copies FROM memory.search_episodes(%s, %s, %s, 10, p_collapse => true)"
)

VARIANTS = [
    "RT @{a}: {p}",
    "{p}",
    "This. {p}",
    "{p}!!",
    "{p} 100%",
    "So true: {p}",
    "{p} #{tag}",
    "Repost: {p}",
    "{p} Agreed.",
    "Exactly this: {p}",
    "@{a} {p}",
    "{p} Please share.",
    "quote: {p}",
    "{p} (via @{a})",
]
VIRAL_QUESTIONS = [
    "What are people saying about {t}?",
    "Is it true that {p_lower}",
    "Why is everyone sharing the post about {t}?",
]


@dataclass
class Base:
    posts: list[str]
    post_topic: np.ndarray
    post_vectors: np.ndarray  # (n, 384) real embeddings
    viral: list[int]  # post index of each viral post
    variant_texts: list[list[str]]  # per viral post: its variants with cosine > 0.99
    variant_vectors: list[np.ndarray]
    questions: list[str]
    question_topic: np.ndarray
    question_vectors: np.ndarray
    question_viral: np.ndarray  # the viral post a question is about, else -1
    embed_seconds: float


def _posts(n: int, seed: int) -> tuple[list[str], list[int], list[str]]:
    rng = random.Random(seed)
    names = list(data.TOPICS)
    texts, topics, things, seen = [], [], [], set()
    while len(texts) < n:
        ti = rng.randrange(len(names))
        options, groups = data.TOPICS[names[ti]]
        t, g = rng.choice(options), rng.choice(groups)
        text = rng.choice(data.STANCES).format(t=t, g=g, G=g.capitalize()) + rng.choice(
            data.DETAILS
        )
        if text in seen:
            continue
        seen.add(text)
        texts.append(text)
        topics.append(ti)
        things.append(t)
    return texts, topics, things


def base_set(n_posts: int = 6000, n_viral: int = 150, seed: int = 13) -> Base:
    """Real embeddings of posts, of viral posts' variants and of questions (cached)."""
    posts, topics, things = _posts(n_posts, seed)
    rng = random.Random(seed + 1)
    viral = rng.sample(range(n_posts), n_viral)
    variants = []
    for v in viral:
        a = f"agent_{rng.randrange(1000)}"
        tag = list(data.TOPICS)[topics[v]]
        variants.append([f.format(p=posts[v], a=a, tag=tag) for f in VARIANTS])
    q_texts, q_topics = data.make_questions(200, seed=seed + 2)
    questions, q_topic, q_viral = list(q_texts), list(map(list(data.TOPICS).index, q_topics)), []
    q_viral = [-1] * len(questions)
    for i, v in enumerate(viral):
        form = VIRAL_QUESTIONS[i % len(VIRAL_QUESTIONS)]
        p = posts[v]
        questions.append(form.format(t=things[v], p_lower=p[0].lower() + p[1:]))
        q_topic.append(topics[v])
        q_viral.append(i)
    flat = [t for vs in variants for t in vs]
    key = hashlib.sha256(f"{VERSION}|{MODEL_NAME}|{n_posts}|{n_viral}|{seed}".encode()).hexdigest()[
        :16
    ]
    path = CACHE / f"clumps-{key}.npz"
    seconds = 0.0
    if path.exists():
        z = np.load(path)
        pv, vv, qv = z["posts"], z["variants"], z["questions"]
    else:
        from swarm_memory.embed import Embedder

        emb = Embedder(batch_size=128)
        pv = emb.encode(posts)
        vv = emb.encode(flat)
        qv = emb.encode(questions)
        seconds = emb.seconds
        CACHE.mkdir(parents=True, exist_ok=True)
        np.savez(path, posts=pv, variants=vv, questions=qv)
    vv = vv.reshape(n_viral, len(VARIANTS), -1)
    keep_t, keep_v = [], []
    for i, v in enumerate(viral):
        cos = vv[i] @ pv[v]
        ok = cos > 0.99
        keep_t.append([t for t, k in zip(variants[i], ok, strict=True) if k])
        keep_v.append(vv[i][ok])
    return Base(
        posts,
        np.array(topics),
        pv.astype(np.float32),
        viral,
        keep_t,
        keep_v,
        questions,
        np.array(q_topic),
        qv.astype(np.float32),
        np.array(q_viral),
        seconds,
    )


@dataclass
class Sim:
    tenant_id: uuid.UUID
    simulation_id: uuid.UUID
    size: int
    topics: list[int]
    vectors: np.ndarray
    contents: list[str]
    agents: np.ndarray
    kind: np.ndarray  # 0 post, 1 repost of a post, 2 near-copy, 3 exact copy of a viral post
    clump: np.ndarray  # viral index (into base.viral) for kinds 2 and 3, else -1
    virals: list[int]  # the viral posts of this simulation (indexes into base.viral)
    questions: np.ndarray  # indexes into base.questions

    @property
    def distinct(self) -> int:
        return len({v.tobytes() for v in self.vectors})


def _zipf(n_items: int, total: int, s: float, rng: np.random.Generator) -> np.ndarray:
    w = 1.0 / np.arange(1, n_items + 1) ** s
    return rng.multinomial(total, w / w.sum())


def make_sim(
    base: Base, tenant_id: uuid.UUID, size: int, rng: np.random.Generator, n_questions: int
) -> Sim:
    names = len(data.TOPICS)
    topics = [int(x) for x in rng.choice(names, size=3, replace=False)]
    pool = np.flatnonzero(np.isin(base.post_topic, topics))
    viral_pool = [
        i
        for i, v in enumerate(base.viral)
        if base.post_topic[v] in topics and len(base.variant_vectors[i])
    ]
    n_viral = int(min(len(viral_pool), max(1, round(np.sqrt(size) / 5))))
    virals = [int(x) for x in rng.choice(viral_pool, size=n_viral, replace=False)]
    n_near = int(round(size * NEAR_SHARE)) if size >= 20 else 0
    n_posts = size - n_near
    dim = base.post_vectors.shape[1]

    # posts, a tenth of them exact reposts of an earlier post (popular ones more often)
    first = rng.choice(pool, size=n_posts)
    second = rng.choice(pool, size=n_posts)
    mix = rng.uniform(0.1, 0.5, size=(n_posts, 1)).astype(np.float32)
    noise = rng.standard_normal((n_posts, dim)).astype(np.float32) * 0.006
    pv = base.post_vectors[first] + mix * base.post_vectors[second] + noise
    pv /= np.linalg.norm(pv, axis=1, keepdims=True)
    kind = np.zeros(size, dtype=np.int8)
    contents = [base.posts[int(f)] for f in first]
    n_repost = int(n_posts * REPOST_SHARE)
    if n_repost and n_posts > n_repost:
        originals = n_posts - n_repost
        w = 1.0 / np.arange(1, originals + 1) ** 1.1
        src = rng.choice(originals, size=n_repost, p=w / w.sum())
        pv[originals:] = pv[src]
        for j, s in enumerate(src.tolist()):
            contents[originals + j] = contents[s]
        kind[originals:n_posts] = 1

    # near-copies of the viral posts, Zipf clump sizes
    nv = np.zeros((n_near, dim), dtype=np.float32)
    clump = np.full(size, -1, dtype=np.int32)
    at = 0
    for vi, count in zip(virals, _zipf(len(virals), n_near, 1.1, rng), strict=True):
        vt, vv = base.variant_texts[vi], base.variant_vectors[vi]
        pick = rng.integers(0, len(vv), size=count)
        m = vv[pick].copy()
        exact = rng.random(count) < 1 / 3
        # noise of length 0.03 to 0.12: cosine 0.993 to 0.9996 with the variant
        scale = rng.uniform(0.03, 0.12, size=(count, 1)).astype(np.float32) / np.sqrt(dim)
        m[~exact] += (rng.standard_normal((count, dim)).astype(np.float32) * scale)[~exact]
        m /= np.linalg.norm(m, axis=1, keepdims=True)
        post = base.post_vectors[base.viral[vi]]
        low = m @ post < 0.99
        m[low] = post  # keep every member above cosine 0.99 of the post
        nv[at : at + count] = m
        for j in range(count):
            contents.append(vt[int(pick[j])])
        kind[n_posts + at : n_posts + at + count] = np.where(exact | low, 3, 2)
        clump[n_posts + at : n_posts + at + count] = vi
        at += count
    vectors = np.concatenate([pv, nv]).astype(np.float32)
    order = rng.permutation(size)  # copies spread through the run, as they happen
    vectors, kind, clump = vectors[order], kind[order], clump[order]
    contents = [contents[i] for i in order.tolist()]
    n_agents = int(min(2000, max(10, size // 50)))
    agents = rng.integers(0, n_agents, size=size)

    on = np.flatnonzero(np.isin(base.question_topic, topics) & (base.question_viral < 0))
    off = np.flatnonzero(~np.isin(base.question_topic, topics) & (base.question_viral < 0))
    vq = np.flatnonzero(np.isin(base.question_viral, virals))
    third = max(1, n_questions // 3)
    qs = np.concatenate(
        [
            rng.choice(on, size=third),
            rng.choice(off, size=third),
            rng.choice(vq, size=n_questions - 2 * third) if len(vq) else rng.choice(on, size=0),
        ]
    )
    return Sim(
        tenant_id, uuid.uuid4(), size, topics, vectors, contents, agents, kind, clump, virals, qs
    )


def episode_rows(sim: Sim) -> list[dict]:
    platforms = ("twitter", "reddit")
    action = {0: "CREATE_POST", 1: "REPOST", 2: "QUOTE_POST", 3: "REPOST"}
    return [
        {
            "id": f"ep-{i}",
            "position": i,
            "agent_id": int(sim.agents[i]),
            "agent_name": f"agent {int(sim.agents[i])}",
            "platform": platforms[i % 2],
            "round": int(i // 500),
            "action_type": action[int(sim.kind[i])],
            "content": sim.contents[i],
            "metadata": {},
            "occurred_at": None,
            "embedding": sim.vectors[i],
            "embedding_model": MODEL_NAME,
            "content_hash": None,
        }
        for i in range(sim.size)
    ]


def truth(sim: Sim, q: np.ndarray, k: int = 10) -> tuple[np.ndarray, float]:
    """Exact similarities of every episode and the k-th best (the tie line)."""
    sims = sim.vectors.astype(np.float64) @ q.astype(np.float64)
    kth = float(np.partition(-sims, min(k, sim.size) - 1)[min(k, sim.size) - 1])
    return sims, -kth


def recall_of(sim: Sim, sims: np.ndarray, kth: float, ids: list[str], k: int = 10) -> float:
    want = min(k, sim.size)
    good = sum(1 for e in ids[:want] if sims[int(e[3:])] >= kth - 1e-6)
    return good / want


def setup(
    su: str, sizes: list[int], seed: int, n_questions: int, log=print, small: bool = False
) -> dict:
    """Tenants, a role, the simulations loaded through the staged import path, indexes."""
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    base = base_set(600, 40) if small else base_set()
    log(
        f"clumps: base vectors ({len(base.posts)} posts, {len(base.viral)} viral posts, "
        f"{len(base.questions)} questions) {time.perf_counter() - t:.1f} s"
        + (" (embedded now)" if base.embed_seconds else " (cached)")
    )
    app = as_role(su, APP)
    with psycopg.connect(su, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (APP,)).fetchone():
            conn.execute(f"CREATE ROLE {APP} LOGIN")
            conn.execute(f"GRANT memory_writer TO {APP}")
        tenants = []
        for i in range(2):
            tid = conn.execute(
                "SELECT memory.create_tenant(%s)", (f"clumps-{uuid.uuid4().hex[:8]}-{i}",)
            ).fetchone()[0]
            conn.execute("SELECT memory.grant_tenant(%s, %s)", (APP, tid))
            tenants.append(tid)
    sims = [make_sim(base, tenants[i % 2], size, rng, n_questions) for i, size in enumerate(sizes)]
    t = time.perf_counter()
    loaded = 0
    with Memory(app) as mem, mem.connect() as conn:
        for s in sims:
            ls = load.Sim(s.tenant_id, s.simulation_id, s.size, s.topics)
            load.staged_import(mem, conn, ls, {"episodes": episode_rows(s)})
            loaded += s.size
    load_s = time.perf_counter() - t
    log(f"clumps: loaded {len(sims)} simulations, {loaded} episodes in {load_s:.1f} s")
    with psycopg.connect(su, autocommit=True) as conn:
        conn.execute("ANALYZE memory.episodes")
    t = time.perf_counter()
    actions = ann.build(su, ann.DEFAULT_MIN_ROWS)
    index_s = time.perf_counter() - t
    log(
        f"clumps: indexes {sum(a.action in ('built', 'rebuilt') for a in actions)} in {index_s:.1f} s"
    )
    for a in actions:  # the clump builds (V0026), made by the same `swarm-memory index`
        c = a.clumps
        if c is not None and c.action == "clumped":
            log(
                f"clumps: simulation of {a.rows} episodes: {c.clumps} clumps of {c.clumped}"
                f" episodes, {c.points} representatives indexed, in {c.seconds:.1f} s"
            )
    return {
        "base": base,
        "sims": sims,
        "app": app,
        "load_seconds": load_s,
        "index_seconds": index_s,
        "episodes": loaded,
    }


def pcts(values: list[float]) -> dict:
    a = np.array(values) * 1000
    return {"p50_ms": float(np.percentile(a, 50)), "p99_ms": float(np.percentile(a, 99))}


def measure(su: str, state: dict, n_questions: int, peers: bool = True, log=print) -> list[dict]:
    """search_episodes and the naive query's variants, interleaved question by question."""
    base, sims = state["base"], state["sims"]
    out = []
    peer = naive.Peer(su, state["app"]) if peers else None
    try:
        with psycopg.connect(state["app"], autocommit=True) as conn:
            configure(conn)
            for s in sims:
                lat: list[float] = []
                rec: list[float] = []
                short = 0
                clat: list[float] = []
                crows: list[int] = []
                ccopies: list[int] = []
                groups: dict[str, list[float]] = {"on": [], "off": [], "viral": []}
                pr: dict[str, dict[str, list[float]]] = {}
                # one question first, apart: it reads the simulation's index from disk (the
                # first call after a restart); the timed questions measure a simulation in use
                t0 = time.perf_counter()
                conn.execute(
                    SEARCH_SQL, (s.tenant_id, s.simulation_id, base.question_vectors[-1])
                ).fetchall()
                first = time.perf_counter() - t0
                # The timed calls follow one another (the peers' in turn); the exact answers
                # are computed after the loop: computed before each call, the harness's own
                # scan of every vector (a float64 copy of them all) would empty the CPU
                # caches before every timed call (bench/README.md, "How a call is timed").
                answers: list[tuple[int, list[str], dict[str, list[str]]]] = []
                for j, qi in enumerate(s.questions[:n_questions].tolist()):
                    q = base.question_vectors[qi]
                    t0 = time.perf_counter()
                    rows = conn.execute(SEARCH_SQL, (s.tenant_id, s.simulation_id, q)).fetchall()
                    lat.append(time.perf_counter() - t0)
                    ids = [r[0] for r in rows]
                    short += len(ids) < min(10, s.size)
                    t0 = time.perf_counter()
                    rows = conn.execute(COLLAPSED_SQL, (s.tenant_id, s.simulation_id, q)).fetchall()
                    clat.append(time.perf_counter() - t0)
                    crows.append(len(rows))
                    ccopies.append(sum(r[1] for r in rows))
                    asked: dict[str, list[str]] = {}
                    if peer is not None:
                        for name, (sec, pids) in peer.ask(s, q, j).items():
                            d = pr.setdefault(name, {"lat": [], "rec": [], "short": []})
                            d["lat"].append(sec)
                            d["short"].append(float(len(pids) < min(10, s.size)))
                            asked[name] = pids
                    answers.append((qi, ids, asked))
                for qi, ids, asked in answers:
                    sims_, kth = truth(s, base.question_vectors[qi])
                    r = recall_of(s, sims_, kth, ids)
                    rec.append(r)
                    group = (
                        "viral"
                        if base.question_viral[qi] >= 0
                        else ("on" if base.question_topic[qi] in s.topics else "off")
                    )
                    groups[group].append(r)
                    for name, pids in asked.items():
                        pr[name]["rec"].append(recall_of(s, sims_, kth, pids))
                row = {
                    "size": s.size,
                    "distinct_vectors": s.distinct,
                    "near_copies": int(np.sum(s.kind >= 2)),
                    "largest_clump": int(np.bincount(s.clump[s.clump >= 0]).max())
                    if np.any(s.clump >= 0)
                    else 0,
                    "questions": len(rec),
                    "recall_at_10": float(np.mean(rec)),
                    "min_recall": float(np.min(rec)),
                    "recall_by_group": {g: float(np.mean(v)) for g, v in groups.items() if v},
                    "short_results": short,
                    **pcts(lat),
                    "first_ms": first * 1000,
                    "collapsed": {
                        **pcts(clat),
                        "mean_rows": float(np.mean(crows)),
                        "mean_hits_behind": float(np.mean(ccopies)),
                    },
                    "peers": {
                        name: {
                            "recall_at_10": float(np.mean(d["rec"])),
                            "min_recall": float(np.min(d["rec"])),
                            "short_results": int(sum(d["short"])),
                            "questions": len(d["rec"]),
                            **pcts(d["lat"]),
                        }
                        for name, d in pr.items()
                    },
                }
                out.append(row)
                log(line(row))
    finally:
        if peer is not None:
            peer.close()
    return out


def line(r: dict) -> str:
    s = (
        f"  {r['size']:>7} episodes ({r['distinct_vectors']} distinct, largest clump "
        f"{r['largest_clump']}): search_episodes recall {r['recall_at_10']:.3f} "
        f"(min {r['min_recall']:.1f}; "
        + ", ".join(f"{g} {v:.3f}" for g, v in r["recall_by_group"].items())
        + f"), short {r['short_results']}, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms"
        f" (first call, apart: {r.get('first_ms', 0):.1f} ms)"
    )
    c = r["collapsed"]
    s += (
        f"\n           collapsed: {c['mean_rows']:.1f} rows standing for "
        f"{c['mean_hits_behind']:.1f} hits, p50 {c['p50_ms']:.2f} ms, p99 {c['p99_ms']:.2f} ms"
    )
    for name, p in r["peers"].items():
        s += (
            f"\n           {name}: recall {p['recall_at_10']:.3f} (min {p['min_recall']:.1f}), "
            f"short {p['short_results']}, p50 {p['p50_ms']:.2f} ms, p99 {p['p99_ms']:.2f} ms"
            f" ({p['questions']} questions)"
        )
    return s


def met(r: dict) -> bool:
    return (
        r["recall_at_10"] >= 0.99
        and r["min_recall"] >= 0.9
        and r["short_results"] == 0
        and r["p50_ms"] <= 5
        and r["p99_ms"] <= 20
    )


def table(results: dict) -> str:
    """Rows for bench.run's table: search_episodes per size, the naive query beside it."""
    lines = []
    for r in results["search"]:
        peers = "; ".join(
            f"{name} recall {p['recall_at_10']:.3f} (min {p['min_recall']:.1f}), p50 "
            f"{p['p50_ms']:.1f} ms ({p['p50_ms'] / r['p50_ms']:.1f}x search_episodes')"
            for name, p in r["peers"].items()
        )
        lines.append(
            f"| search on clumpy data, simulation of {r['size']} episodes "
            f"({r['near_copies']} near-copies, largest clump {r['largest_clump']}) "
            f"| recall@10 >= 0.99, min >= 0.9, p50 <= 5 ms, p99 <= 20 ms, never short "
            f"| recall {r['recall_at_10']:.3f} (min {r['min_recall']:.1f}), short "
            f"{r['short_results']}, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms "
            f"(first call, apart: {r.get('first_ms', 0):.1f} ms)"
            + (f"; beside it, {peers}" if peers else "")
            + f" | {'met' if met(r) else 'NOT MET'} |"
        )
    return "\n".join(lines)


def rows(results: dict) -> list[str]:
    """bench.run's table rows of the clumpy data set, if it ran."""
    return table(results["clumps"]).splitlines() if "clumps" in results else []


def run(
    su: str | None = None,
    sizes: list[int] | None = None,
    n_questions: int | None = None,
    peers: bool = True,
    seed: int = 1313,
    log=print,
    scale: float = 1.0,
) -> dict:
    """The clumpy data set on `su` (a superuser DSN of a migrated server; a fresh bench
    server of its own when None), measured; returns the results. Without `sizes`, the
    sizes up to 200,000 x scale (at least 1,000); below scale 0.1 a smaller base set."""
    from bench import server as bserver

    started = time.perf_counter()
    sizes = list(sizes or [s for s in SIZES if s <= max(1000, SIZES[-1] * scale)])
    n_questions = n_questions or (120 if scale >= 0.1 else 30)
    own = su is None
    if own:
        su = bserver.fresh()
    try:
        state = setup(su, sizes, seed, n_questions, log, small=scale < 0.1)
        if peers:
            t = time.perf_counter()
            state["naive"] = naive.prepare(su, state["sims"], log)
            state["naive"]["seconds"] = time.perf_counter() - t
        # the load's aftermath (autovacuum of the fresh rows) settled before the calls are
        # timed, as make bench does after its own load
        t = time.perf_counter()
        bserver.settle(su)
        log(f"clumps: measuring (the load settled in {time.perf_counter() - t:.0f} s)")
        results = {
            "episodes": state["episodes"],
            "load_seconds": state["load_seconds"],
            "index_seconds": state["index_seconds"],
            "naive": state.get("naive", {}),
            "search": measure(su, state, n_questions, peers, log),
        }
    finally:
        if own:
            bserver.stop()
    results["seconds"] = time.perf_counter() - started
    return results


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", help="superuser DSN of a migrated server (default: a fresh one)")
    p.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES}")
    p.add_argument("--sizes", help="comma-separated simulation sizes")
    p.add_argument("--queries", type=int)
    p.add_argument(
        "--scale", type=float, default=1.0, help="as bench.run's: sizes up to 200k x scale"
    )
    p.add_argument("--no-peers", action="store_true")
    p.add_argument("--json", help="write the results here")
    a = p.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")] if a.sizes else None
    sizes = list(QUICK_SIZES) if a.quick and not sizes else sizes
    results = run(a.dsn, sizes, a.queries, not a.no_peers, scale=a.scale)
    print(table(results))
    print(f"clumps: {results['seconds']:.0f} s")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2, default=str))


if __name__ == "__main__":
    main()
