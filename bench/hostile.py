"""Search on hostile data: shapes an index is weakest on, search_episodes beside an exact
scan (numpy) and the naive peers (bench.naive), question by question, interleaved.

    python -m bench.hostile [--quick | --sizes 100,1000,...] [--shapes mixture,...] [--queries 100]

Every vector starts from real posts embedded by the real model (all-MiniLM-L6-v2; the posts,
about 600 a topic over 10 topics, and the questions are bench.clumps' base set, cached in
.cache/bench-vectors/). The shapes, one simulation of each at every size:

- *mixture*: the simulation draws on 2 to 4 of the 10 topics; an episode is
  unit(a + 0.3 b + noise) for two posts a, b of one topic (noise: 0.02 a component); a
  quarter of the episodes are near-copies (0.01 a component) of a few viral episodes,
  chosen by a Zipf law (1/rank^1.1); a fifth of the questions are off its topics;
- *thread*: one long thread on one topic: each reply is unit(the post it answers + 0.3 a
  post of the topic + noise), answering one of the last 50: a long, narrow, curved chain;
- *near-duplicates*: nothing but near-copies (0.002 to 0.01 a component) of a few posts:
  the true top 10 is decided by differences of the order of half precision's own error;
- *tiny*: many small simulations (5 to 60 episodes each, `size` episodes in all), the
  questions spread over them;
- *clumpy*: bench.clumps' own shape (reposts, clumps of viral variants).

Recall@10 is tie-aware against the exact ranking (bench.clumps.recall_of); the worst question
is reported beside the mean.
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from pathlib import Path

import numpy as np
import psycopg
from swarm_memory import ann
from swarm_memory.client import Memory, configure
from swarm_memory.server import as_role

from bench import clumps, data, load, naive

SHAPES = ("mixture", "thread", "near-duplicates", "tiny", "clumpy")
SIZES = (100, 1000, 10_000, 100_000)
QUICK_SIZES = (100, 1000, 10_000)
APP = "bench_hostile"
NEAR_SHARE = 0.25
OFF_SHARE = 0.2
TINY_MAX = 10_000
SEARCH_SQL = "SELECT episode_id FROM memory.search_episodes(%s, %s, %s, 10)"


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


def _questions(
    base: clumps.Base, topics: list[int], n: int, rng: np.random.Generator
) -> np.ndarray:
    """n question indexes: four fifths on the simulation's topics, a fifth off them."""
    plain = base.question_viral < 0
    on = np.flatnonzero(np.isin(base.question_topic, topics) & plain)
    off = np.flatnonzero(~np.isin(base.question_topic, topics) & plain)
    n_off = max(1, int(round(n * OFF_SHARE))) if len(off) else 0
    return np.concatenate([rng.choice(on, size=n - n_off), rng.choice(off, size=n_off)]).astype(int)


def _sim(
    base: clumps.Base,
    tenant_id: uuid.UUID,
    vectors: np.ndarray,
    sources: np.ndarray,
    kind: np.ndarray,
    topics: list[int],
    questions: np.ndarray,
    rng: np.random.Generator,
) -> clumps.Sim:
    size = len(vectors)
    n_agents = int(min(2000, max(5, size // 50)))
    return clumps.Sim(
        tenant_id,
        uuid.uuid4(),
        size,
        topics,
        vectors.astype(np.float32),
        [base.posts[int(s)] for s in sources],
        rng.integers(0, n_agents, size=size),
        kind.astype(np.int8),
        np.full(size, -1, dtype=np.int32),
        [],
        questions,
    )


def mixture(base, tenant_id, size, rng, n_questions) -> clumps.Sim:
    topics = [int(x) for x in rng.choice(len(data.TOPICS), size=rng.integers(2, 5), replace=False)]
    dim = base.post_vectors.shape[1]
    n_near = int(round(size * NEAR_SHARE)) if size >= 20 else 0
    n_own = size - n_near
    topic = rng.choice(topics, size=n_own)
    by_topic = {t: np.flatnonzero(base.post_topic == t) for t in topics}
    a = np.array([rng.choice(by_topic[t]) for t in topic.tolist()])
    b = np.array([rng.choice(by_topic[t]) for t in topic.tolist()])
    noise = rng.standard_normal((n_own, dim)).astype(np.float32) * 0.02
    own = _unit(base.post_vectors[a] + 0.3 * base.post_vectors[b] + noise)
    kind = np.zeros(size)
    sources = np.concatenate([a, np.zeros(n_near, dtype=int)])
    vectors = np.zeros((size, dim), dtype=np.float32)
    vectors[:n_own] = own
    if n_near:
        n_viral = int(max(3, round(np.sqrt(size) / 5)))
        viral = rng.choice(n_own, size=min(n_viral, n_own), replace=False)
        w = 1.0 / np.arange(1, len(viral) + 1) ** 1.1
        of = viral[rng.choice(len(viral), size=n_near, p=w / w.sum())]
        near = own[of] + rng.standard_normal((n_near, dim)).astype(np.float32) * 0.01
        vectors[n_own:] = _unit(near)
        sources[n_own:] = a[of]
        kind[n_own:] = 2
    order = rng.permutation(size)
    return _sim(
        base,
        tenant_id,
        vectors[order],
        sources[order],
        kind[order],
        topics,
        _questions(base, topics, n_questions, rng),
        rng,
    )


def thread(base, tenant_id, size, rng, n_questions) -> clumps.Sim:
    topic = int(rng.integers(len(data.TOPICS)))
    pool = np.flatnonzero(base.post_topic == topic)
    dim = base.post_vectors.shape[1]
    sources = rng.choice(pool, size=size)
    vectors = np.zeros((size, dim), dtype=np.float32)
    vectors[0] = base.post_vectors[sources[0]]
    for i in range(1, size):
        parent = vectors[int(rng.integers(max(0, i - 50), i))]
        v = parent + 0.3 * base.post_vectors[sources[i]] + rng.standard_normal(dim) * 0.02
        vectors[i] = _unit(v)
    return _sim(
        base,
        tenant_id,
        vectors,
        sources,
        np.zeros(size),
        [topic],
        _questions(base, [topic], n_questions, rng),
        rng,
    )


def near_duplicates(base, tenant_id, size, rng, n_questions) -> clumps.Sim:
    topics = [int(x) for x in rng.choice(len(data.TOPICS), size=2, replace=False)]
    pool = np.flatnonzero(np.isin(base.post_topic, topics))
    posts = rng.choice(pool, size=int(max(2, min(20, size // 10))), replace=False)
    dim = base.post_vectors.shape[1]
    of = posts[rng.integers(0, len(posts), size=size)]
    scale = rng.uniform(0.002, 0.01, size=(size, 1)).astype(np.float32)
    vectors = _unit(
        base.post_vectors[of] + rng.standard_normal((size, dim)).astype(np.float32) * scale
    )
    return _sim(
        base,
        tenant_id,
        vectors,
        of,
        np.full(size, 2),
        topics,
        _questions(base, topics, n_questions, rng),
        rng,
    )


def tiny(base, tenant_id, size, rng, n_questions) -> list[clumps.Sim]:
    sims, left = [], size
    while left > 0:
        n = int(min(left, rng.integers(5, 61)))
        sims.append(mixture(base, tenant_id, n, rng, 1))
        left -= n
    # the questions spread over the simulations, one or more each
    for j in range(max(n_questions, len(sims))):
        s = sims[j % len(sims)]
        if j >= len(sims):
            s.questions = np.concatenate([s.questions, _questions(base, s.topics, 1, rng)])
    return sims


def clumpy(base, tenant_id, size, rng, n_questions) -> clumps.Sim:
    return clumps.make_sim(base, tenant_id, size, rng, n_questions)


MAKERS = {
    "mixture": mixture,
    "thread": thread,
    "near-duplicates": near_duplicates,
    "tiny": tiny,
    "clumpy": clumpy,
}


def setup(
    su: str,
    shapes: list[str],
    sizes: list[int],
    seed: int,
    n_questions: int,
    log=print,
    small: bool = False,
) -> dict:
    """A tenant and a role, every shape at every size loaded through the staged import path,
    then `swarm-memory index` (ann.build: the per-simulation indexes and clump builds)."""
    rng = np.random.default_rng(seed)
    base = clumps.base_set(600, 40) if small else clumps.base_set()
    app = as_role(su, APP)
    with psycopg.connect(su, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (APP,)).fetchone():
            conn.execute(f"CREATE ROLE {APP} LOGIN")
            conn.execute(f"GRANT memory_writer TO {APP}")
        tenant = conn.execute(
            "SELECT memory.create_tenant(%s)", (f"hostile-{uuid.uuid4().hex[:8]}",)
        ).fetchone()[0]
        conn.execute("SELECT memory.grant_tenant(%s, %s)", (APP, tenant))
    groups: list[dict] = []
    t = time.perf_counter()
    loaded = 0
    with Memory(app) as mem, mem.connect() as conn:
        for shape in shapes:
            # many tiny simulations: up to 10,000 episodes in all (each is searched exactly
            # at any count, and loading thousands of them would only time the import)
            for size in [x for x in sizes if shape != "tiny" or x <= TINY_MAX]:
                made = MAKERS[shape](base, tenant, size, rng, n_questions)
                sims = made if isinstance(made, list) else [made]
                for s in sims:
                    ls = load.Sim(s.tenant_id, s.simulation_id, s.size, s.topics)
                    load.staged_import(mem, conn, ls, {"episodes": clumps.episode_rows(s)})
                    loaded += s.size
                groups.append({"shape": shape, "size": size, "sims": sims})
    load_s = time.perf_counter() - t
    log(f"hostile: loaded {loaded} episodes in {load_s:.1f} s")
    with psycopg.connect(su, autocommit=True) as conn:
        conn.execute("ANALYZE memory.episodes")
    t = time.perf_counter()
    ann.build(su, ann.DEFAULT_MIN_ROWS)
    index_s = time.perf_counter() - t
    log(f"hostile: indexes and clump builds in {index_s:.1f} s")
    return {
        "base": base,
        "groups": groups,
        "app": app,
        "load_seconds": load_s,
        "index_seconds": index_s,
        "episodes": loaded,
    }


def measure(su: str, state: dict, peers: bool = True, log=print) -> list[dict]:
    """Each shape and size: search_episodes, then the naive peers, question by question; the
    exact answers computed after the timed calls (bench.clumps.measure says why)."""
    base = state["base"]
    out = []
    peer = naive.Peer(su, state["app"]) if peers else None
    try:
        with psycopg.connect(state["app"], autocommit=True) as conn:
            configure(conn)
            for g in state["groups"]:
                lat: list[float] = []
                short = 0
                answers = []
                pr: dict[str, dict[str, list[float]]] = {}
                for s in g["sims"]:
                    for j, qi in enumerate(s.questions.tolist()):
                        q = base.question_vectors[qi]
                        t0 = time.perf_counter()
                        rows = conn.execute(
                            SEARCH_SQL, (s.tenant_id, s.simulation_id, q)
                        ).fetchall()
                        lat.append(time.perf_counter() - t0)
                        ids = [r[0] for r in rows]
                        short += len(ids) < min(10, s.size)
                        asked = {}
                        if peer is not None:
                            for name, (sec, pids) in peer.ask(s, q, j).items():
                                d = pr.setdefault(name, {"lat": [], "rec": []})
                                d["lat"].append(sec)
                                asked[name] = pids
                        answers.append((s, qi, ids, asked))
                rec, off = [], []
                for s, qi, ids, asked in answers:
                    sims_, kth = clumps.truth(s, base.question_vectors[qi])
                    r = clumps.recall_of(s, sims_, kth, ids)
                    rec.append(r)
                    if base.question_topic[qi] not in s.topics:
                        off.append(r)
                    for name, pids in asked.items():
                        pr[name]["rec"].append(clumps.recall_of(s, sims_, kth, pids))
                row = {
                    "shape": g["shape"],
                    "size": g["size"],
                    "simulations": len(g["sims"]),
                    "questions": len(rec),
                    "recall_at_10": float(np.mean(rec)),
                    "min_recall": float(np.min(rec)),
                    "below_0_9": int(sum(r < 0.9 for r in rec)),
                    "off_topic_recall": float(np.mean(off)) if off else None,
                    "short_results": short,
                    **clumps.pcts(lat),
                    "peers": {
                        name: {
                            "recall_at_10": float(np.mean(d["rec"])),
                            "min_recall": float(np.min(d["rec"])),
                            "questions": len(d["rec"]),
                            **clumps.pcts(d["lat"]),
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
        f"  {r['shape']:>15} {r['size']:>7} episodes ({r['simulations']} sim.): recall "
        f"{r['recall_at_10']:.3f} (min {r['min_recall']:.1f}, {r['below_0_9']} of "
        f"{r['questions']} below 0.9), short {r['short_results']}, p50 {r['p50_ms']:.2f} ms, "
        f"p99 {r['p99_ms']:.2f} ms"
    )
    for name, p in r["peers"].items():
        s += (
            f"\n           {name}: recall {p['recall_at_10']:.3f} (min {p['min_recall']:.1f}),"
            f" p50 {p['p50_ms']:.2f} ms ({p['questions']} questions)"
        )
    return s


def met(r: dict) -> bool:
    return r["recall_at_10"] >= 0.99 and r["min_recall"] >= 0.9 and r["short_results"] == 0


def table(results: dict) -> str:
    """Rows for bench.run's table: search_episodes per shape and size, the peers beside it."""
    lines = []
    for r in results["search"]:
        peers = "; ".join(
            f"{name} recall {p['recall_at_10']:.3f} (min {p['min_recall']:.1f}), p50 "
            f"{p['p50_ms']:.1f} ms ({p['p50_ms'] / r['p50_ms']:.1f}x search_episodes')"
            for name, p in r["peers"].items()
        )
        lines.append(
            f"| search on hostile data ({r['shape']}), {r['size']} episodes"
            f" in {r['simulations']} simulation{'s' if r['simulations'] > 1 else ''} "
            f"| recall@10 >= 0.99, min >= 0.9, never short "
            f"| recall {r['recall_at_10']:.3f} (min {r['min_recall']:.1f}, {r['below_0_9']} of "
            f"{r['questions']} below 0.9), short {r['short_results']}, p50 {r['p50_ms']:.2f} ms,"
            f" p99 {r['p99_ms']:.2f} ms"
            + (f"; beside it, {peers}" if peers else "")
            + f" | {'met' if met(r) else 'NOT MET'} |"
        )
    return "\n".join(lines)


def rows(results: dict) -> list[str]:
    """bench.run's table rows of the hostile shapes, if they ran."""
    return table(results["hostile"]).splitlines() if "hostile" in results else []


def run(
    su: str | None = None,
    sizes: list[int] | None = None,
    shapes: list[str] | None = None,
    n_questions: int | None = None,
    peers: bool = True,
    seed: int = 4747,
    log=print,
    scale: float = 1.0,
) -> dict:
    """The hostile shapes on `su` (a superuser DSN of a migrated server; a fresh bench server
    of its own when None), measured. Without `sizes`: 100 to 100,000 x scale (at least
    1,000); below scale 0.1 a smaller base set and fewer questions."""
    from bench import server as bserver

    started = time.perf_counter()
    sizes = list(sizes or [s for s in SIZES if s <= max(1000, SIZES[-1] * scale)])
    shapes = list(shapes or SHAPES)
    n_questions = n_questions or (100 if scale >= 0.1 else 10)
    own = su is None
    if own:
        su = bserver.fresh()
    try:
        state = setup(su, shapes, sizes, seed, n_questions, log, small=scale < 0.1)
        if peers:
            sims = [s for g in state["groups"] for s in g["sims"]]
            state["naive"] = naive.prepare(su, sims, log)
        bserver.settle(su)
        results = {
            "episodes": state["episodes"],
            "load_seconds": state["load_seconds"],
            "index_seconds": state["index_seconds"],
            "search": measure(su, state, peers, log),
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
    p.add_argument("--shapes", help="comma-separated, of " + ", ".join(SHAPES))
    p.add_argument("--queries", type=int)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--no-peers", action="store_true")
    p.add_argument("--json", help="write the results here")
    a = p.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")] if a.sizes else None
    sizes = list(QUICK_SIZES) if a.quick and not sizes else sizes
    shapes = a.shapes.split(",") if a.shapes else None
    results = run(a.dsn, sizes, shapes, a.queries, not a.no_peers, scale=a.scale)
    print(table(results))
    print(f"hostile: {results['seconds']:.0f} s")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2, default=str))


if __name__ == "__main__":
    main()
