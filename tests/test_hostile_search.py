"""search_episodes on a hostile simulation: thousands of near-copies of a few real posts
(embedded now by the real model), where an index search ranks by luck. The index alone
misses; search_episodes, which trusts the index only where its pool reaches well below the
k-th best, answers the exact top 10."""

from __future__ import annotations

import json

import numpy as np
from swarm_memory import ann
from swarm_memory.client import configure
from swarm_memory.embed import Embedder

from bench import data

N = 6000


def test_search_is_exact_on_near_copies_where_the_index_misses(world, connect):
    texts, _ = data.make_texts(12, seed=3)
    questions, _ = data.make_questions(12, seed=5)
    emb = Embedder()
    posts, qv = emb.encode(texts), emb.encode(questions)
    rng = np.random.default_rng(47)
    of = rng.integers(0, len(posts), size=N)
    scale = rng.uniform(0.002, 0.01, size=(N, 1)).astype(np.float32)
    v = posts[of] + rng.standard_normal((N, posts.shape[1])).astype(np.float32) * scale
    v = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    writer = connect("app_a")
    for start in range(0, N, 1000):
        items = [
            {
                "id": f"e{i}",
                "action_type": "REPOST",
                "agent_id": i % 50,
                "content": texts[int(of[i])],
                "embedding": v[i].tolist(),
            }
            for i in range(start, min(N, start + 1000))
        ]
        writer.execute(
            "SELECT memory.upsert_episodes(%s, %s, %s::jsonb)",
            (world.tenant_a, world.sim_a, json.dumps(items)),
        )
    (built,) = ann.build(world.dsn(), min_rows=2000)
    assert built.action == "built"

    su = connect()
    configure(su)
    su.execute("SET enable_sort = off")
    su.execute("SET hnsw.ef_search = 200")
    reader = connect("reader_a")
    configure(reader)
    index_misses = 0
    for q in qv:
        exact = v.astype(np.float64) @ q.astype(np.float64)
        kth = np.sort(exact)[::-1][9]
        # the simulation's own index alone, as the search read it before (200 candidates)
        pool = su.execute(
            "SELECT episode_id FROM memory.episodes e WHERE e.sim_no = %s::bigint"
            " ORDER BY e.embedding::halfvec(384) <=> %s::halfvec(384) LIMIT 200",
            (built.sim_no, q),
        ).fetchall()
        best = sorted((exact[int(r[0][1:])] for r in pool), reverse=True)[:10]
        index_misses += sum(s < kth - 1e-6 for s in best) > 0
        got = reader.execute(
            "SELECT episode_id, similarity FROM memory.search_episodes(%s, %s, %s, 10)",
            (world.tenant_a, world.sim_a, q),
        ).fetchall()
        assert len(got) == 10
        assert all(exact[int(e[1:])] >= kth - 1e-6 for e, _ in got)
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
    assert index_misses > 0  # the data is hostile: the index alone gets some wrong
