"""Recall's quality (issue 12, item 6): recall@10 and nDCG@10 of memory.recall, routed and
with all five arms, against each arm alone, over the labelled questions of
bench/recall_eval.json (the example MiroFish run plus a few Chinese actions by its agents).

    python -m bench.recall_eval [--dsn DSN] [--json OUT]

Without --dsn it uses the embedded dev server (.cache/pgdata), in a database of its own
(`swarm_recall_eval`, made afresh and migrated); with --dsn, a migrated database and a role
that may create a tenant and write (a superuser, or memory_admin and memory_writer). Each
run imports the run into a fresh tenant and simulation, embeds every question with the real
model, and prints a markdown table. `make bench` runs the same code (bench/run.py).

Metrics, per question, over the top 10 rows of each configuration:
- recall@10: the labelled items found, over min(10, labelled items);
- nDCG@10: graded gain 2^grade - 1 (grade 2: answers the question, 1: partly) discounted by
  log2(rank + 1), over the ideal ordering of every graded item. An action that repeats a
  labelled post (a like, repost or quote holding its text: an "echo") earns grade 1 in nDCG
  and counts neither way in recall.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import numpy as np
import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from swarm_memory.client import configure

ROOT = Path(__file__).resolve().parents[1]
EVAL_SET = Path(__file__).resolve().parent / "recall_eval.json"
ARMS = ("episodes", "facts", "entities", "words", "graph")
# (label, p_options): the fused call as a caller makes it (routed), all five arms, each alone
CONFIGS: list[tuple[str, dict]] = [
    ("recall (routed)", {}),
    ("recall (all five arms)", {"arms": list(ARMS)}),
    *[(f"{arm} alone", {"arms": [arm]}) for arm in ARMS],
]
GROUPS = ("all", "semantic", "keyword", "relational", "en", "zh", "cross-language")
RECALL_SQL = "SELECT kind, id FROM memory.recall(%s, %s, %s, %s, %s, %s)"


def load_set(path: Path = EVAL_SET) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def prepare_run(evalset: dict, into: Path) -> Path:
    """A copy of the example run with the eval set's extra actions inserted into each
    platform's log before its last round_end (so they belong to the last round)."""
    src = ROOT / evalset["run"]
    run = into / "run"
    shutil.copytree(src, run)
    by_platform: dict[str, list[dict]] = {}
    for extra in evalset.get("extra_actions", []):
        by_platform.setdefault(extra["platform"], []).append(extra["line"])
    for platform, lines in by_platform.items():
        path = run / platform / "actions.jsonl"
        old = path.read_text(encoding="utf-8").splitlines()
        cut = max(i for i, line in enumerate(old) if '"round_end"' in line)
        new = old[:cut] + [json.dumps(x, ensure_ascii=False) for x in lines] + old[cut:]
        path.write_text("\n".join(new) + "\n", encoding="utf-8")
    return run


def new_tenant(admin_dsn: str, app_dsn: str, prefix: str) -> uuid.UUID:
    """A fresh tenant, named `prefix` and a random suffix, granted to the app DSN's role."""
    with psycopg.connect(app_dsn) as conn:
        role = conn.execute("SELECT current_user").fetchone()[0]
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        tenant = conn.execute(
            "SELECT memory.create_tenant(%s)", (f"{prefix}-{uuid.uuid4().hex[:8]}",)
        ).fetchone()[0]
        conn.execute("SELECT memory.grant_tenant(%s, %s)", (role, tenant))
    return tenant


def setup(
    admin_dsn: str, app_dsn: str, evalset: dict, embedder=None, log=print
) -> tuple[uuid.UUID, uuid.UUID]:
    """A fresh tenant (granted to the app DSN's role) and simulation holding the run."""
    from swarm_memory.importer import import_run

    tenant = new_tenant(admin_dsn, app_dsn, "recall-eval")
    sim = uuid.uuid4()
    with tempfile.TemporaryDirectory() as tmp:
        run = prepare_run(evalset, Path(tmp))
        t = time.perf_counter()
        report = import_run(app_dsn, tenant, sim, run, name="recall eval", embedder=embedder)
        log(
            f"  imported {report.parsed.get('episodes', 0)} episodes, "
            f"{report.parsed.get('nodes', 0)} entities, {report.parsed.get('edges', 0)} facts "
            f"in {time.perf_counter() - t:.0f} s"
        )
    return tenant, sim


def _items(conn: psycopg.Connection, tenant, sim) -> dict[tuple[str, str], str]:
    """Every (kind, id) of the simulation with its text."""
    out: dict[tuple[str, str], str] = {}
    for node_id, name, summary in conn.execute(
        "SELECT node_id, name, summary FROM memory.graph_nodes(%s, %s, 1000)", (tenant, sim)
    ):
        out[("entity", node_id)] = f"{name}: {summary or ''}"
    for edge_id, fact in conn.execute(
        "SELECT edge_id, fact FROM memory.graph_edges(%s, %s, 1000)", (tenant, sim)
    ):
        out[("fact", edge_id)] = fact or ""
    after = None
    while True:
        rows = conn.execute(
            "SELECT episode_id, content FROM memory.episodes(%s, %s, p_limit => 1000, p_after => %s)",
            (tenant, sim, after),
        ).fetchall()
        for episode_id, content in rows:
            out[("episode", episode_id)] = content or ""
        if len(rows) < 1000:
            return out
        after = rows[-1][0]


def _own_text(text: str) -> str:
    """A post's own words: a quote's text before what it quotes."""
    return text.split(" (quoting ", 1)[0].strip()


def judgements(evalset: dict, items: dict[tuple[str, str], str]) -> list[dict]:
    """Per question: labelled items and their grades, and the echoes of labelled posts."""
    out = []
    missing = []
    episodes = {i: t for (k, i), t in items.items() if k == "episode"}
    for q in evalset["questions"]:
        labelled = {(r["kind"], r["id"]): int(r.get("grade", 1)) for r in q["relevant"]}
        missing += [f"{q['id']}: {k} {i}" for (k, i) in labelled if (k, i) not in items]
        graded = dict(labelled)
        for (kind, item_id), _grade in labelled.items():
            own = _own_text(items.get((kind, item_id), "")) if kind == "episode" else ""
            if len(own) < 20:
                continue
            for other, text in episodes.items():
                if ("episode", other) not in graded and own in text:
                    graded[("episode", other)] = 1
        out.append({**q, "labelled": labelled, "graded": graded})
    if missing:
        raise RuntimeError("labelled items the simulation does not hold: " + "; ".join(missing))
    return out


def recall_at(found: list[tuple[str, str]], labelled: dict, k: int = 10) -> float:
    hits = sum(1 for x in found[:k] if x in labelled)
    return hits / min(k, len(labelled))


def ndcg_at(found: list[tuple[str, str]], graded: dict, k: int = 10) -> float:
    dcg = sum((2 ** graded.get(x, 0) - 1) / math.log2(i + 2) for i, x in enumerate(found[:k]))
    ideal = sorted(graded.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg


def in_group(q: dict, group: str) -> bool:
    if group == "all":
        return True
    if group in ("semantic", "keyword", "relational"):
        return q["type"] == group
    if group == "cross-language":
        return bool(q.get("cross_language"))
    return q["language"] == group


def evaluate(
    admin_dsn: str,
    app_dsn: str,
    evalset: dict | None = None,
    embedder=None,
    log: Callable[[str], None] = print,
    configs: list[tuple[str, dict]] | None = None,
) -> dict:
    """Import, ask every question in every configuration, score. Returns the figures, per
    question rows and the markdown table."""
    from swarm_memory.embed import Embedder

    evalset = evalset or load_set()
    configs = configs or CONFIGS
    embedder = embedder or Embedder()
    tenant, sim = setup(admin_dsn, app_dsn, evalset, embedder, log)
    questions = evalset["questions"]
    vectors = embedder.encode([q["text"] for q in questions])
    per_question = []
    seconds: dict[str, list[float]] = {label: [] for label, _ in configs}
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        configure(conn)
        judged = judgements(evalset, _items(conn, tenant, sim))
        for q, vec in zip(judged, vectors, strict=True):
            row = {"id": q["id"], "type": q["type"], "language": q["language"], "scores": {}}
            for label, options in configs:
                t = time.perf_counter()
                found = [
                    (kind, item_id)
                    for kind, item_id in conn.execute(
                        RECALL_SQL,
                        (
                            tenant,
                            sim,
                            q["text"],
                            np.asarray(vec, dtype=np.float32),
                            10,
                            json.dumps(options),
                        ),
                    ).fetchall()
                ]
                seconds[label].append(time.perf_counter() - t)
                row["scores"][label] = {
                    "recall": recall_at(found, q["labelled"]),
                    "ndcg": ndcg_at(found, q["graded"]),
                    "top": [f"{k}:{i}" for k, i in found],
                }
            per_question.append(row)
    by_id = {q["id"]: q for q in questions}
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for label, _ in configs:
        figures[label] = {}
        for group in GROUPS:
            rows = [r for r in per_question if in_group(by_id[r["id"]], group)]
            if rows:
                figures[label][group] = {
                    "recall": float(np.mean([r["scores"][label]["recall"] for r in rows])),
                    "ndcg": float(np.mean([r["scores"][label]["ndcg"] for r in rows])),
                    "n": len(rows),
                }
    result = {
        "questions": len(questions),
        "figures": figures,
        "per_question": per_question,
        "latency_ms": {label: float(np.median(v) * 1000) for label, v in seconds.items() if v},
    }
    result["goals"] = goals(figures)
    result["table"] = table(result)
    return result


def goals(figures: dict) -> dict:
    """The issue's goals: fused (routed) beats the best single arm on the whole set, and
    loses no more than 2 points to the vector arm (episodes) on the semantic questions; on
    both metrics."""
    fused = figures.get("recall (routed)")
    arms = {k: v for k, v in figures.items() if k.endswith(" alone")}
    if not fused or not arms:
        return {}
    out = {}
    for metric in ("recall", "ndcg"):
        best = max(arms, key=lambda a: arms[a]["all"][metric])
        out[f"beats_best_arm_{metric}"] = {
            "fused": fused["all"][metric],
            "best_arm": best,
            "best": arms[best]["all"][metric],
            "met": fused["all"][metric] > arms[best]["all"][metric],
        }
        vec = arms.get("episodes alone", {}).get("semantic")
        if vec and "semantic" in fused:
            out[f"semantic_vs_vector_{metric}"] = {
                "fused": fused["semantic"][metric],
                "vector": vec[metric],
                "met": fused["semantic"][metric] >= vec[metric] - 0.02,
            }
    return out


def table(result: dict) -> str:
    figures = result["figures"]
    first = next(iter(figures.values()))
    groups = [g for g in GROUPS if g in first]
    head = " | ".join(f"{g} ({first[g]['n']})" for g in groups)
    lines = [
        f"recall@10 / nDCG@10 over {result['questions']} labelled questions (number of questions "
        "in brackets):",
        "",
        f"| configuration | {head} | p50 |",
        "|---|" + "---|" * (len(groups) + 1),
    ]
    for label, by_group in figures.items():
        cells = " | ".join(
            f"{by_group[g]['recall']:.2f} / {by_group[g]['ndcg']:.2f}" for g in groups
        )
        lines.append(f"| {label} | {cells} | {result['latency_ms'].get(label, 0):.1f} ms |")
    g = result.get("goals", {})
    if g:
        lines.append("")
        for metric, name in (("recall", "recall@10"), ("ndcg", "nDCG@10")):
            b = g[f"beats_best_arm_{metric}"]
            lines.append(
                f"- fused beats the best single arm ({b['best_arm']}) on {name}: "
                f"{b['fused']:.3f} vs {b['best']:.3f}: {'met' if b['met'] else 'NOT MET'}"
            )
            s = g.get(f"semantic_vs_vector_{metric}")
            if s:
                lines.append(
                    f"- semantic questions, fused within 2 points of the vector arm on {name}: "
                    f"{s['fused']:.3f} vs {s['vector']:.3f}: {'met' if s['met'] else 'NOT MET'}"
                )
    return "\n".join(lines)


def _dev_database(dbname: str = "swarm_recall_eval") -> str:
    """A fresh, migrated database on the embedded dev server; returns its superuser DSN."""
    from swarm_memory import migrate, server

    dsn = server.start(ROOT / ".cache" / "pgdata")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {dbname} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {dbname}")
    info = conninfo_to_dict(dsn)
    info["dbname"] = dbname
    db = make_conninfo(**info)
    migrate.migrate(db)
    return db


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", help="a migrated database (default: the embedded dev server)")
    p.add_argument("--json", type=Path, help="also write the figures and per-question rows here")
    p.add_argument("--set", type=Path, default=EVAL_SET, help="the labelled questions")
    args = p.parse_args(argv)
    dsn = args.dsn or _dev_database()
    result = evaluate(dsn, dsn, load_set(args.set))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    print()
    print(result["table"])


if __name__ == "__main__":
    main()
