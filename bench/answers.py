"""Answers on data no one here wrote: LoCoMo's development conversations (and the Chinese
MiroFish-format run of bench/zh_run when present), recall beside its peers in the same run.

    python -m bench.answers [--dsn DSN] [--json OUT] [--conversations 26,30] [--model M]

LoCoMo (snap-research/locomo, ACL 2024; ../shared/benchmarks/locomo-dev/README.md): each
conversation is written as a MiroFish run (one CREATE_POST a turn: agent = speaker, round =
session, timestamp = the session's date, a turn's shared photo as its caption) and imported
with the real importer, so the product sees it as it sees any run. Each question of
categories 1-4 (multi-hop, temporal, open-domain, single-hop; 5 is adversarial: no answer
in the conversation) is asked three ways, top 10:
- `recall` as a caller makes it (routed, text and the question's vector in the simulation's
  model), and restricted to episodes (`kinds`);
- BM25, a plain Okapi BM25 (k1 1.2, b 0.75) over the same turns' text, tokenised to
  lower-case words with English stop words dropped: the peer a report agent could write in
  thirty lines;
- exact dense search: cosine over every stored episode vector (numpy), with no index.
Evidence recall@k: the share of a question's evidence turns among the top k episodes.

Without --dsn it uses the embedded dev server (.cache/pgdata), in a database of its own
(`swarm_answers`, made afresh and migrated).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from swarm_memory.client import configure

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "benchmarks" / "locomo-dev"
ZH_RUN = Path(__file__).resolve().parent / "zh_run"
DEV_CONVERSATIONS = ["26", "30", "41", "42", "43"]
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
METHODS = ("recall", "BM25", "exact dense")

# English stop words for the BM25 peer (the words any text search drops)
STOP = set(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)


CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"


def tokens(text: str) -> list[str]:
    """Lower-case words without English stop words; a run of CJK characters as its
    overlapping character bigrams (Chinese has no spaces; a run of one character stays one)."""
    out = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]
    for run in re.findall(f"[{CJK}]+", text):
        out += [run[i : i + 2] for i in range(max(len(run) - 1, 1))]
    return out


class BM25:
    """Okapi BM25 over a list of documents (k1 1.2, b 0.75, idf ln(1 + (N - df + .5)/(df + .5)))."""

    def __init__(self, docs: list[str], k1: float = 1.2, b: float = 0.75):
        self.docs = [Counter(tokens(d)) for d in docs]
        self.lens = [sum(c.values()) for c in self.docs]
        self.avg = sum(self.lens) / max(len(self.lens), 1)
        df: Counter = Counter()
        for c in self.docs:
            df.update(c.keys())
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}
        self.k1, self.b = k1, b

    def top(self, query: str, k: int) -> list[int]:
        q = set(tokens(query))
        scores = []
        for i, (c, length) in enumerate(zip(self.docs, self.lens, strict=True)):
            s = 0.0
            for w in q:
                tf = c.get(w)
                if tf:
                    s += (
                        self.idf[w]
                        * tf
                        * (self.k1 + 1)
                        / (tf + self.k1 * (1 - self.b + self.b * length / self.avg))
                    )
            if s > 0:
                scores.append((s, i))
        scores.sort(key=lambda x: (-x[0], x[1]))
        return [i for _, i in scores[:k]]


# -- LoCoMo as a MiroFish run --------------------------------------------------------------


def _session_time(text: str) -> datetime:
    """LoCoMo's '1:56 pm on 8 May, 2023'."""
    return datetime.strptime(text.replace(",", ""), "%I:%M %p on %d %B %Y")


def turn_text(turn: dict) -> str:
    text = turn["text"]
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def locomo_run(conv: dict, into: Path) -> dict[str, str]:
    """Write one conversation as a MiroFish run under `into`; returns dia_id -> turn text."""
    speakers = {conv["speaker_a"]: 1, conv["speaker_b"]: 2}
    lines = []
    texts = {}
    n = 1
    while f"session_{n}" in conv:
        start = _session_time(conv[f"session_{n}_date_time"])
        for i, turn in enumerate(conv[f"session_{n}"]):
            text = turn_text(turn)
            texts[turn["dia_id"]] = text
            lines.append(
                {
                    "round": n,
                    "timestamp": (start + timedelta(seconds=30 * i)).isoformat(),
                    "agent_id": speakers.get(turn["speaker"], 3),
                    "agent_name": turn["speaker"],
                    "action_type": "CREATE_POST",
                    "action_args": {"content": text, "dia_id": turn["dia_id"]},
                    "result": None,
                    "success": True,
                }
            )
        n += 1
    (into / "twitter").mkdir(parents=True)
    (into / "twitter" / "actions.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )
    return texts


def evidence_ids(qa: dict) -> set[str]:
    """A question's evidence turns (a few entries hold two ids in one string)."""
    out = set()
    for e in qa.get("evidence") or []:
        out.update(re.findall(r"D\d+:\d+", e))
    return out


# -- the measurement -----------------------------------------------------------------------


def _episodes(admin_dsn: str, tenant, sim) -> list[tuple[str, str, np.ndarray | None, str]]:
    """(episode_id, dia_id, vector, content) of every episode, in the run's order, read as the
    administrator (the peers' corpus, read past the tenant's policies: the role under test
    only calls the API)."""
    with psycopg.connect(admin_dsn) as conn:
        rows = conn.execute(
            """SELECT e.episode_id, e.metadata -> 'action_args' ->> 'dia_id', e.embedding::text, e.content
                 FROM memory.episodes AS e
                WHERE e.tenant_id = %s AND e.simulation_id = %s ORDER BY e.sim_no, e.occurred_at, e.episode_id""",
            (tenant, sim),
        ).fetchall()
    return [
        (i, d, np.asarray(json.loads(v), dtype=np.float32) if v else None, c) for i, d, v, c in rows
    ]


def recall_at(found: list[str], want: set[str], k: int) -> float:
    return len(set(found[:k]) & want) / len(want) if want else 0.0


@dataclass
class Conversation:
    """One LoCoMo conversation imported as a run, with the peers' corpus over its turns."""

    qa: list[dict]
    sim: uuid.UUID
    model: str
    embedder: Any
    dia: list[str]
    by_episode: dict[str, str]
    matrix: np.ndarray
    bm25: BM25


def _conversation(
    admin_dsn: str, app_dsn: str, tenant: uuid.UUID, name: str, log: Callable[[str], None]
) -> Conversation:
    from swarm_memory.importer import import_run

    conv = json.loads((LOCOMO / f"{name}.json").read_text(encoding="utf-8"))
    sim = uuid.uuid4()
    with tempfile.TemporaryDirectory() as tmp:
        texts = locomo_run(conv, Path(tmp) / "run")
        t = time.perf_counter()
        import_run(app_dsn, tenant, sim, Path(tmp) / "run", name=f"locomo {name}")
        log(
            f"  conversation {name}: {len(texts)} turns imported in {time.perf_counter() - t:.0f} s"
        )
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        model, embedder = _model(conn, tenant, sim)
    eps = _episodes(admin_dsn, tenant, sim)
    return Conversation(
        qa=[q for q in conv["qa"] if q.get("category") in CATEGORIES and evidence_ids(q)],
        sim=sim,
        model=model,
        embedder=embedder,
        dia=[d for _, d, _, _ in eps],
        by_episode={i: d for i, d, _, _ in eps},
        matrix=np.stack([v for _, _, v, _ in eps]),
        bm25=BM25([c or "" for _, _, _, c in eps]),
    )


def evaluate_locomo(
    admin_dsn: str,
    app_dsn: str,
    conversations: list[str],
    model: str | None = None,
    options: dict | None = None,
    log: Callable[[str], None] = print,
) -> dict:
    options = {"kinds": ["episode"], **(options or {})}
    tenant = _tenant(admin_dsn, app_dsn, "locomo", model)
    rows = []
    seconds: dict[str, list[float]] = {m: [] for m in METHODS}
    for name in conversations:
        c = _conversation(admin_dsn, app_dsn, tenant, name, log)
        sim, sim_model, embedder = c.sim, c.model, c.embedder
        dia, by_episode, matrix, bm25 = c.dia, c.by_episode, c.matrix, c.bm25
        with psycopg.connect(app_dsn, autocommit=True) as conn:
            configure(conn)
            qas = c.qa
            vectors = [embedder.encode_query(q["question"]) for q in qas]
            opts = json.dumps({**options, "model": sim_model})
            for qa, vec in zip(qas, vectors, strict=True):
                want = evidence_ids(qa)
                found: dict[str, list[str]] = {}
                t = time.perf_counter()
                got = conn.execute(
                    "SELECT kind, id FROM memory.recall(%s, %s, %s, %s, 10, %s)",
                    (tenant, sim, qa["question"], np.asarray(vec, dtype=np.float32), opts),
                ).fetchall()
                seconds["recall"].append(time.perf_counter() - t)
                found["recall"] = [by_episode.get(i, "") for k, i in got if k == "episode"]
                t = time.perf_counter()
                found["BM25"] = [dia[i] for i in bm25.top(qa["question"], 10)]
                seconds["BM25"].append(time.perf_counter() - t)
                t = time.perf_counter()
                sims = matrix @ np.asarray(vec, dtype=np.float32)
                found["exact dense"] = [dia[i] for i in np.argsort(-sims, kind="stable")[:10]]
                seconds["exact dense"].append(time.perf_counter() - t)
                rows.append(
                    {
                        "conversation": name,
                        "question": qa["question"],
                        "category": CATEGORIES[qa["category"]],
                        "evidence": sorted(want),
                        "scores": {
                            m: {
                                "r5": recall_at(f, want, 5),
                                "r10": recall_at(f, want, 10),
                                "top": f,
                            }
                            for m, f in found.items()
                        },
                    }
                )
    return summarise(rows, seconds, "LoCoMo dev", "evidence recall", model)


def locomo_depth(
    admin_dsn: str,
    app_dsn: str,
    conversations: list[str],
    depths: list[int],
    log: Callable[[str], None] = print,
) -> dict:
    """Where the evidence lies, by depth: evidence recall at each k of `depths` for recall
    (asked for the deepest k at once), BM25, exact dense search and the three methods'
    candidates pooled (the first k of each, together). What a reranking stage could reach
    at a depth is the pooled figure: the evidence the methods find at all, in any order."""

    deepest = max(depths)
    tenant = _tenant(admin_dsn, app_dsn, "locomo-depth", None)
    found_at: dict[str, dict[int, list[float]]] = {
        m: {k: [] for k in depths} for m in (*METHODS, "pooled")
    }
    for name in conversations:
        c = _conversation(admin_dsn, app_dsn, tenant, name, log)
        sim, sim_model, embedder = c.sim, c.model, c.embedder
        dia, by_episode, matrix, bm25 = c.dia, c.by_episode, c.matrix, c.bm25
        with psycopg.connect(app_dsn, autocommit=True) as conn:
            configure(conn)
            opts = json.dumps({"kinds": ["episode"], "model": sim_model})
            for qa in c.qa:
                want = evidence_ids(qa)
                vec = np.asarray(embedder.encode_query(qa["question"]), dtype=np.float32)
                got = conn.execute(
                    "SELECT kind, id FROM memory.recall(%s, %s, %s, %s, %s, %s)",
                    (tenant, sim, qa["question"], vec, deepest, opts),
                ).fetchall()
                lists = {
                    "recall": [by_episode.get(i, "") for k, i in got if k == "episode"],
                    "BM25": [dia[i] for i in bm25.top(qa["question"], deepest)],
                    "exact dense": [
                        dia[i] for i in np.argsort(-(matrix @ vec), kind="stable")[:deepest]
                    ],
                }
                for k in depths:
                    for m, f in lists.items():
                        found_at[m][k].append(recall_at(f, want, k))
                    pooled = set().union(*(f[:k] for f in lists.values()))
                    found_at["pooled"][k].append(len(pooled & want) / len(want))
    return {
        "questions": len(found_at["recall"][depths[0]]),
        "recall_at": {
            m: {k: float(np.mean(v)) for k, v in by_k.items()} for m, by_k in found_at.items()
        },
    }


def evaluate_zh(
    admin_dsn: str,
    app_dsn: str,
    model: str | None = None,
    options: dict | None = None,
    log: Callable[[str], None] = print,
) -> dict:
    """bench/zh_run: its run imported as it is, each question asked in Chinese and in
    English; precision@k by the topic labels (bench/zh_run/README.md)."""
    from swarm_memory.importer import import_run

    options = {"kinds": ["episode"], **(options or {})}
    labels = json.loads((ZH_RUN / "labels.json").read_text(encoding="utf-8"))["labels"]
    questions = json.loads((ZH_RUN / "questions.json").read_text(encoding="utf-8"))["questions"]
    tenant = _tenant(admin_dsn, app_dsn, "zh-run", model)
    sim = uuid.uuid4()
    t = time.perf_counter()
    import_run(app_dsn, tenant, sim, ZH_RUN / "run", name="zh run")
    log(f"  zh run imported in {time.perf_counter() - t:.0f} s")
    rows = []
    seconds: dict[str, list[float]] = {m: [] for m in METHODS}
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        sim_model, embedder = _model(conn, tenant, sim)
        # the peers search what recall's episodes arm searches: the episodes with a vector
        eps = [e for e in _episodes(admin_dsn, tenant, sim) if e[2] is not None]
        ids = [i for i, _, _, _ in eps]
        texts = [c for _, _, _, c in eps]
        matrix = np.stack([v for _, _, v, _ in eps])
        bm25 = BM25([c or "" for _, _, _, c in eps])
        opts = json.dumps({**options, "model": sim_model})
        for q in questions:
            for lang in ("zh", "en"):
                text = q[lang]
                vec = np.asarray(embedder.encode_query(text), dtype=np.float32)
                found: dict[str, list[str]] = {}
                t = time.perf_counter()
                got = conn.execute(
                    "SELECT kind, id FROM memory.recall(%s, %s, %s, %s, 10, %s)",
                    (tenant, sim, text, vec, opts),
                ).fetchall()
                seconds["recall"].append(time.perf_counter() - t)
                found["recall"] = [i for k, i in got if k == "episode"]
                t = time.perf_counter()
                # the peers answer each post once too (recall folds copies by default):
                # precision counts distinct posts on the topic, not one post ten times
                found["BM25"] = _distinct(bm25.top(text, 100), ids, texts)
                seconds["BM25"].append(time.perf_counter() - t)
                t = time.perf_counter()
                order = np.argsort(-(matrix @ vec), kind="stable")[:100]
                found["exact dense"] = _distinct(order, ids, texts)
                seconds["exact dense"].append(time.perf_counter() - t)
                rows.append(
                    {
                        "question": text,
                        "category": lang,
                        "topic": q["topic"],
                        "scores": {
                            m: {
                                "r5": _precision(f, labels, q["topic"], 5),
                                "r10": _precision(f, labels, q["topic"], 10),
                                "top": f,
                            }
                            for m, f in found.items()
                        },
                    }
                )
    return summarise(rows, seconds, "zh run", "topic precision", sim_model)


def _distinct(order, ids: list[str], texts: list[str], k: int = 10) -> list[str]:
    """The first k of a ranking with each text once (its best-ranked row)."""
    seen: set[str] = set()
    out = []
    for i in order:
        if texts[i] not in seen:
            seen.add(texts[i])
            out.append(ids[i])
        if len(out) == k:
            break
    return out


def _precision(found: list[str], labels: dict, topic: str, k: int) -> float:
    return sum(1 for i in found[:k] if labels.get(i) == topic) / k


def _tenant(admin_dsn: str, app_dsn: str, prefix: str, model: str | None) -> uuid.UUID:
    """A fresh tenant granted to the app DSN's role, of `model` when one is named."""
    from bench.recall_eval import new_tenant

    tenant = new_tenant(admin_dsn, app_dsn, prefix)
    if model:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute("SELECT memory.set_tenant_model(%s, %s)", (tenant, model))
    return tenant


def _model(conn: psycopg.Connection, tenant, sim):
    """The simulation's model (the one its import chose) and its embedder, on a connection
    made ready for vectors."""
    from swarm_memory.embed import embedder_for

    configure(conn)
    model = conn.execute("SELECT model FROM memory.model_of(%s, %s)", (tenant, sim)).fetchone()[0]
    return model, embedder_for(model)


def summarise(rows: list[dict], seconds: dict, name: str, metric: str, model: str | None) -> dict:
    groups = ["all", *sorted({r["category"] for r in rows}, key=_category_order)]
    figures: dict[str, dict[str, dict]] = {}
    for m in METHODS:
        figures[m] = {}
        for g in groups:
            sel = [r for r in rows if g == "all" or r["category"] == g]
            figures[m][g] = {
                "r5": float(np.mean([r["scores"][m]["r5"] for r in sel])),
                "r10": float(np.mean([r["scores"][m]["r10"] for r in sel])),
                "n": len(sel),
            }
    return {
        "set": name,
        "metric": metric,
        "model": model,
        "questions": len(rows),
        "figures": figures,
        "latency_ms": {m: float(np.median(v) * 1000) for m, v in seconds.items() if v},
        "per_question": rows,
    }


def _category_order(c: str) -> int:
    order = [*CATEGORIES.values(), "zh", "en"]
    return order.index(c) if c in order else len(order)


def table(result: dict) -> str:
    f = result["figures"]
    groups = list(f["recall"])
    lines = [
        f"{result['set']}: {result['metric']}@5 / @10 over {result['questions']} questions "
        f"(model {result['model'] or 'the default'}; questions per group in brackets)",
        "",
        "| method | " + " | ".join(f"{g} ({f['recall'][g]['n']})" for g in groups) + " | p50 |",
        "|---|" + "---|" * (len(groups) + 1),
    ]
    for m in METHODS:
        cells = " | ".join(f"{f[m][g]['r5']:.3f} / {f[m][g]['r10']:.3f}" for g in groups)
        lines.append(f"| {m} | {cells} | {result['latency_ms'].get(m, 0):.1f} ms |")
    best = {g: max(f[m][g]["r10"] for m in METHODS if m != "recall") for g in groups}
    short = [g for g in groups if f["recall"][g]["r10"] < best[g] - 1e-9]
    lines.append("")
    lines.append(
        "- recall@10 at or above the best peer in every group: "
        + ("met" if not short else "NOT MET (" + ", ".join(short) + ")")
    )
    return "\n".join(lines)


def run(
    admin_dsn: str,
    app_dsn: str,
    log: Callable[[str], None] = print,
    conversations: list[str] | None = None,
) -> list[dict]:
    """make bench: both sets with the product's defaults (the model each run's import
    chooses), without the per-question rows."""
    out = []
    for result in (
        evaluate_locomo(admin_dsn, app_dsn, conversations or DEV_CONVERSATIONS, log=log),
        evaluate_zh(admin_dsn, app_dsn, log=log),
    ):
        result.pop("per_question")
        result["table"] = table(result)
        out.append(result)
    return out


def met(result: dict) -> bool:
    f = result["figures"]
    return all(
        f["recall"][g]["r10"] >= max(f[m][g]["r10"] for m in METHODS if m != "recall") - 1e-9
        for g in f["recall"]
    )


def rows(results: dict) -> list[str]:
    """The summary table's rows (bench/run.py)."""
    out = []
    for r in results.get("answers", []):
        f = r["figures"]
        out.append(
            f"| {r['set']}: {r['metric']}@10 over {r['questions']} questions, model "
            f"{r['model']} | recall at or above BM25 and exact dense in every group "
            f"| recall {f['recall']['all']['r10']:.3f}, BM25 {f['BM25']['all']['r10']:.3f}, "
            f"exact dense {f['exact dense']['all']['r10']:.3f}; recall p50 "
            f"{r['latency_ms']['recall']:.1f} ms | {'met' if met(r) else 'NOT MET'} |"
        )
    return out


def main(argv: list[str] | None = None) -> None:
    from bench.recall_eval import _dev_database

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", help="a migrated database (default: the embedded dev server)")
    p.add_argument("--json", type=Path, help="also write the figures and per-question rows here")
    p.add_argument("--conversations", default=",".join(DEV_CONVERSATIONS))
    p.add_argument("--model", help="the tenant's model (default: the installation's)")
    p.add_argument("--options", default="{}", help="recall's p_options, as JSON")
    p.add_argument("--only", choices=("locomo", "zh"), help="one of the two sets")
    p.add_argument(
        "--depths",
        help="instead: LoCoMo's evidence recall at these depths (e.g. 10,20,50,100), each"
        " method and the three pooled",
    )
    args = p.parse_args(argv)
    dsn = args.dsn or _dev_database("swarm_answers")
    if args.depths:
        depths = sorted(int(k) for k in args.depths.split(","))
        out = locomo_depth(dsn, dsn, args.conversations.split(","), depths)
        print(f"LoCoMo evidence recall by depth, {out['questions']} questions")
        print("| method | " + " | ".join(f"@{k}" for k in depths) + " |")
        print("|---|" + "---|" * len(depths))
        for m, by_k in out["recall_at"].items():
            print(f"| {m} | " + " | ".join(f"{by_k[k]:.3f}" for k in depths) + " |")
        return
    results = []
    if args.only != "zh":
        results.append(
            evaluate_locomo(
                dsn, dsn, args.conversations.split(","), args.model, json.loads(args.options)
            )
        )
    if args.only != "locomo":
        results.append(evaluate_zh(dsn, dsn, args.model, json.loads(args.options)))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    for result in results:
        print()
        print(table(result))


if __name__ == "__main__":
    main()
