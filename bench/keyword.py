"""The words arm (issue 12, item 1), measured: quality of memory.search_words on a small
hand-labelled set of Chinese and English posts (precision and recall at 10 against the
labels), and what its indexes cost the bulk import (50,000 episodes staged and promoted with
and without the three words indexes, same rows, same server).

    python -m bench.keyword [--episodes 50000] [--repeat 2]

Starts the bench's own server (bench.server.fresh), like `make bench`; run from the command
line, it appends its figures to bench/history.csv."""

from __future__ import annotations

import argparse
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import psycopg
from swarm_memory.client import Memory
from swarm_memory.server import as_role

from bench import history, load
from bench import server as bserver

APP = "bench_words"
MODEL = "bench-random"

# (id, text): posts of a debate about closing a riverside road to cars, in the two
# languages MiroFish's users write, with near-misses (the same characters in other words,
# the same English word in another sense).
POSTS = [
    ("zh1", "河滨路改造计划会伤害附近的小店，我们反对"),
    ("zh2", "我支持河滨路改造计划，步行街对大家都好"),
    ("zh3", "今晚举行河滨路改造计划的听证会"),
    ("zh4", "河滨公园今天人很多，周末适合散步"),
    ("zh5", "小店店主李华说生意下降了三成"),
    ("zh6", "公交14路改道的方案还没有公布"),
    ("zh7", "路边停车位取消以后，顾客怎么来小店？"),
    ("zh8", "听说市政府要改造老码头"),
    ("zh9", "李华和王芳在听证会上发言反对改造"),
    ("zh10", "自行车道建成后骑车上班的人会更多"),
    ("zh11", "计划书里没有提到对附近商户的补偿"),
    ("zh12", "这家咖啡店的拿铁很好喝"),
    ("en1", "Closing River Road to cars will hurt the small shops nearby"),
    ("en2", "The car-free plan for River Road is the best news this year"),
    ("en3", "The consultation hearing on the River Road plan is tonight at the town hall"),
    ("en4", "Footfall goes up after roads close to cars, the data is clear"),
    ("en5", "Gallagher's Hardware says sales fell by a third since the trial closure"),
    ("en6", "The Route 14 bus diversion has not been published yet"),
    ("en7", "Where will customers park once the parking spaces on River Road are gone?"),
    ("en8", "The council also plans to redevelop the Old Quay"),
    ("en9", "A new cycle lane will bring more commuters by bike"),
    ("en10", "Nothing in the plan compensates the shops along the road"),
    ("en11", "Road trip this weekend, no plans, just cars and music"),
    ("en12", "Quayside Coffee makes the best latte in town"),
]

# (question, relevant post ids): what a reader asks, in either language, and which posts a
# person judged to answer it.
QUERIES = [
    ("河滨路改造计划", {"zh1", "zh2", "zh3"}),
    ("小店", {"zh1", "zh5", "zh7"}),
    ("听证会", {"zh3", "zh9"}),
    ("李华", {"zh5", "zh9"}),
    ("补偿商户", {"zh11"}),
    ("公交改道", {"zh6"}),
    ("停车位", {"zh7"}),
    ("closing the road to cars", {"en1", "en4"}),
    ("small shops", {"en1", "en10"}),
    ("hearing", {"en3"}),
    ("parking", {"en7"}),
    ("bus diversion", {"en6"}),
    ("cycle lane commuters", {"en9"}),
    ("River Road plan", {"en2", "en3", "en7"}),
]


def quality(mem: Memory, tenant: uuid.UUID, sim: uuid.UUID) -> dict:
    per_lang: dict[str, list[tuple[float, float]]] = {"zh": [], "en": []}
    times = []
    for question, relevant in QUERIES:
        t = time.perf_counter()
        hits = mem.search_words(tenant, sim, question, 10, ["episode"])
        times.append((time.perf_counter() - t) * 1000)
        found = [h.id for h in hits]
        tp = len(set(found) & relevant)
        precision = tp / len(found) if found else 0.0
        lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in question) else "en"
        per_lang[lang].append((precision, tp / len(relevant)))
    out = {}
    for lang, pr in per_lang.items():
        out[lang] = {
            "queries": len(pr),
            "precision_at_10": float(np.mean([p for p, _ in pr])),
            "recall_at_10": float(np.mean([r for _, r in pr])),
        }
    out["p50_ms"] = float(np.median(times))
    return out


def episode_rows(n: int, rng: np.random.Generator) -> list[dict]:
    texts = [t for _, t in POSTS]
    vectors = rng.standard_normal((n, 384)).astype(np.float32)
    return [
        {"id": f"ep-{i}", "position": i, "agent_id": i % 97, "agent_name": f"agent {i % 97}",
         "platform": ("twitter", "reddit")[i % 2], "round": i // 500, "action_type": "CREATE_POST",
         "content": f"{texts[i % len(texts)]} #{i}", "metadata": {}, "occurred_at": None,
         "embedding": vectors[i], "embedding_model": MODEL, "content_hash": None}
        for i in range(n)
    ]  # fmt: skip


def write_cost(su: str, app: str, tenant: uuid.UUID, n: int, repeat: int) -> dict:
    """Seconds to stage and promote n episodes (half Chinese, half English) into a new
    simulation, with everything the words arm needs (the stored documents, V0017) and the
    evidence links the promote computes (V0016); the best of `repeat` runs. Without the
    stored documents neither the words arm nor the evidence would work, so there is no
    "without" to compare here: make bench's bulk import figures, beside the baseline run's,
    say what they cost."""
    rows = episode_rows(n, np.random.default_rng(7))
    seconds: list[float] = []
    with Memory(app) as mem, mem.connect() as conn:
        for _ in range(repeat):
            with psycopg.connect(su, autocommit=True) as s:
                s.execute("CHECKPOINT")
            sim = load.Sim(tenant, uuid.uuid4(), n, [0])
            seconds.append(load.staged_import(mem, conn, sim, {"episodes": rows}))
    best = min(seconds)
    return {"episodes": n, "seconds": best, "per_s": n / best}


def run(episodes: int, repeat: int, log=print) -> dict:
    log("keyword: fresh server")
    su = bserver.fresh()
    with psycopg.connect(su, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {APP} LOGIN")
        conn.execute(f"GRANT memory_writer TO {APP}")
        tenant = conn.execute("SELECT memory.create_tenant('words')").fetchone()[0]
        conn.execute("SELECT memory.grant_tenant(%s, %s)", (APP, tenant))
    app = as_role(su, APP)
    results: dict = {}
    with Memory(app) as mem:
        sim = uuid.uuid4()
        mem.upsert_simulation(tenant, sim, "labelled posts")
        mem.upsert_episodes(
            tenant, sim,
            [{"id": i, "action_type": "CREATE_POST", "content": t} for i, t in POSTS],
        )  # fmt: skip
        results["quality"] = quality(mem, tenant, sim)
    log(f"keyword: quality {results['quality']}")
    log(f"keyword: write cost, {episodes} episodes")
    results["write"] = write_cost(su, app, tenant, episodes, repeat)
    big = uuid.UUID(int=0)
    with psycopg.connect(su, autocommit=True) as conn:
        big = conn.execute(
            "SELECT simulation_id FROM memory.episodes GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()[0]
    with Memory(app) as mem:
        times = []
        for question, _ in QUERIES:
            t = time.perf_counter()
            mem.search_words(tenant, big, question, 10)
            times.append((time.perf_counter() - t) * 1000)
        results["search_large"] = {
            "episodes": episodes,
            "p50_ms": float(np.median(times)),
            "max_ms": float(np.max(times)),
        }
    log(f"keyword: {results}")
    bserver.stop()
    return results


def figures(results: dict) -> Iterator[tuple[str, str, float, str]]:
    """(target, metric, value, unit) of bench/history.csv."""
    q = results["quality"]
    for lang in ("zh", "en"):
        yield f"keyword quality {lang}", "precision_at_10", q[lang]["precision_at_10"], "ratio"
        yield f"keyword quality {lang}", "recall_at_10", q[lang]["recall_at_10"], "ratio"
    yield "keyword quality", "p50", q["p50_ms"], "ms"
    s = results["search_large"]
    yield f"keyword search {s['episodes']} episodes", "p50", s["p50_ms"], "ms"
    yield f"keyword search {s['episodes']} episodes", "max", s["max_ms"], "ms"
    w = results["write"]
    yield f"keyword write {w['episodes']} episodes", "rate", w["per_s"], "episodes/s"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--episodes", type=int, default=50000)
    p.add_argument("--repeat", type=int, default=2)
    args = p.parse_args()
    started, commit = datetime.now(UTC).isoformat(timespec="seconds"), history.head()
    results = run(args.episodes, args.repeat)
    history.append(history.printed_rows(started, figures(results), commit))


if __name__ == "__main__":
    main()
