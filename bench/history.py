"""bench/history.csv: the headline figures of every benchmark run, a row per run, target and
metric, so that a figure can be followed from run to run without keeping each run's files.

    python -m bench.history [--out bench/history.csv]

rebuilds the CSV from every `make bench` result (bench/results/*.json) ever committed to
this repository, read back from git, plus the result files in the working tree; the rows of
the targets that print their figures instead of writing a result file (`bench.keyword`,
`bench.citus`) are kept from the CSV as it is. `make bench`, `python -m bench.keyword` and
`make bench-citus` append their own rows as they finish (`append`).

Columns: run_at (ISO 8601, when the run started), machine (CPU, cores, memory; for `make
bench` also whether the server's shared memory was in huge pages), scale (`make bench`'s
--scale; empty for the others), target, metric, value, unit, commit (HEAD when the run
started, `-dirty` when python/, sql/ or bench/ held uncommitted changes; for the runs
before the CSV, the last commit before the run started, which the working tree may have
gone beyond).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HISTORY = Path(__file__).resolve().parent / "history.csv"
RESULTS = Path(__file__).resolve().parent / "results"
COLUMNS = ("run_at", "machine", "scale", "target", "metric", "value", "unit", "commit")
# targets whose figures are printed, not written to bench/results: their rows live in the
# CSV only, and a rebuild keeps them
PRINTED = ("keyword", "citus")


# Figures of printed targets recorded before the CSV existed (their runs wrote no file).
def _recorded(run_at: str, figures: tuple[tuple[str, str, float, str], ...]) -> list[dict]:
    """One row a figure of a run recorded by hand, on the machine every such run had."""
    return [
        {
            "run_at": run_at,
            "machine": "Intel Xeon, 2 cores, 23.5 GiB",
            "target": target,
            "metric": metric,
            "value": value,
            "unit": unit,
        }
        for target, metric, value, unit in figures
    ]


RECORDED: list[dict] = [
    *_recorded(
        "2026-11-30T17:57:49+00:00",
        (
            ("keyword quality zh", "precision_at_10", 0.91, "ratio"),
            ("keyword quality zh", "recall_at_10", 1.0, "ratio"),
            ("keyword quality en", "precision_at_10", 0.81, "ratio"),
            ("keyword quality en", "recall_at_10", 1.0, "ratio"),
            ("keyword quality", "p50", 2.1, "ms"),
            ("keyword search 50000 episodes", "p50", 10.5, "ms"),
            ("keyword search 50000 episodes", "max", 36, "ms"),
            ("keyword write 50000 episodes", "rate", 7544, "episodes/s"),
        ),
    ),
    *_recorded(
        "2026-11-30T22:40:00+00:00",
        (
            ("citus nodes_by_type (all 33)", "one_node", 0.25, "ms"),
            ("citus nodes_by_type (all 33)", "cluster", 1.08, "ms"),
            ("citus neighbors depth 2", "one_node", 0.63, "ms"),
            ("citus neighbors depth 2", "cluster", 4.73, "ms"),
            ("citus search_episodes top 10 (exact)", "one_node", 0.32, "ms"),
            ("citus search_episodes top 10 (exact)", "cluster", 1.77, "ms"),
            ("citus simulation_stats", "one_node", 0.37, "ms"),
            ("citus simulation_stats", "cluster", 2.79, "ms"),
            ("citus staged import 5000 episodes", "one_node", 6925, "episodes/s"),
            ("citus staged import 5000 episodes", "cluster", 2258, "episodes/s"),
        ),
    ),
]


def _git(*args: str) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return ""
    return out.stdout


def head() -> str:
    """HEAD's short hash, `-dirty` when the code measured has uncommitted changes."""
    commit = _git("rev-parse", "--short", "HEAD").strip()
    code = ("python", "sql", "bench", ":(exclude)bench/results", ":(exclude)bench/history.csv")
    if commit and _git("status", "--porcelain", "--untracked-files=no", "--", *code).strip():
        commit += "-dirty"
    return commit


def commit_before(run_at: str) -> str:
    """The last commit before `run_at`: what HEAD was when a run before the CSV started."""
    return _git("log", "-1", "--format=%h", f"--before={run_at}", "HEAD").strip()


def host() -> dict:
    """The machine a run measures: CPU model, cores, memory."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem, 1)}


def machine_label(m: dict) -> str:
    """`Intel Xeon, 2 cores, 23.5 GiB[, huge pages on]` from a result's machine."""
    cpu = re.sub(r"\((R|TM)\)|\bProcessor\b|\bCPU\b|@.*$", "", m.get("cpu", "unknown"))
    label = f"{' '.join(cpu.split())}, {m.get('cores')} cores, {m.get('memory_gib')} GiB"
    if m.get("huge_pages") in ("on", "off"):
        label += f", huge pages {m['huge_pages']}"
    return label


def fmt(value: float | int) -> str:
    v = float(value)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.0f}" if abs(v) >= 10_000 else f"{v:.4g}"


def _get(d: dict, *keys):
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def figures(r: dict) -> Iterator[tuple[str, str, float, str]]:
    """(target, metric, value, unit): the headline figures of one `make bench` result,
    those its table judges a goal on; a section a run did not have yields nothing."""
    for s in r.get("search", []):
        t = f"search {s['size']} episodes"
        yield t, "recall_at_10", s["recall_at_10"], "ratio"
        yield t, "min_recall", s["min_recall"], "ratio"
        yield t, "p50", s["p50_ms"], "ms"
        yield t, "p99", s["p99_ms"], "ms"
    for s in _get(r, "clumps", "search") or []:
        t = f"clumpy search {s['size']} episodes"
        yield t, "recall_at_10", s["recall_at_10"], "ratio"
        yield t, "min_recall", s["min_recall"], "ratio"
        yield t, "p50", s["p50_ms"], "ms"
        yield t, "p99", s["p99_ms"], "ms"
    w = r.get("walk", {})
    for d in (1, 2, 3, 4):
        if f"depth_{d}" in w:
            yield f"walk depth {d}", "p50", w[f"depth_{d}"]["p50_ms"], "ms"
    if "depth_20_whole_graph" in w:
        yield "walk whole graph", "p50", w["depth_20_whole_graph"]["p50_ms"], "ms"
    if "k15_depth_20" in w:
        yield "walk K15 depth 20", "p99", w["k15_depth_20"]["p99_ms"], "ms"
    x = w.get("as_of_depth_3")
    if x:
        extra = (x["as_of"]["p50_ms"] / x["plain"]["p50_ms"] - 1) * 100
        yield "walk depth 3 as of a moment", "beside_plain", extra, "%"
    if "facts_of_node" in w:
        yield "facts of a node", "p50", w["facts_of_node"]["p50_ms"], "ms"
    g = r.get("graph_peers", {})
    for d in (1, 2, 3, 4, 20):
        v = _get(g, "depths", str(d), "walk_vs_kuzu") or _get(g, "depths", d, "walk_vs_kuzu")
        if v is not None:
            yield f"walk vs Kuzu depth {d}", "ratio", v, "x"
    if _get(g, "k15", "walk_vs_kuzu") is not None:
        yield "walk vs Kuzu K15", "ratio", g["k15"]["walk_vs_kuzu"], "x"
    sr = r.get("searchable")
    if sr:
        t = f"from files to searchable {sr['episodes']} episodes"
        if sr.get("episodes_per_s_bridged"):
            yield t, "through_bridge", sr["episodes_per_s_bridged"], "episodes/s"
            yield t, "bridge_recall_at_10", sr["bridge"]["recall_at_10"], "ratio"
        yield t, "through_hnsw", sr["episodes_per_s_indexed"], "episodes/s"
    b = r.get("bulk_vs_record")
    if b:
        rate = "episodes/s"
        yield f"bulk import {b['episodes']} episodes", "rate", b["bulk_episodes_per_s"], rate
        if "large_episodes_per_s" in b:
            t = f"bulk import {b['large_episodes']} episodes"
            yield t, "rate", b["large_episodes_per_s"], rate
        yield "bulk vs record by record", "speedup", b["speedup"], "x"
    if _get(r, "load", "episodes_per_s_end_to_end"):
        yield "full load", "rate", r["load"]["episodes_per_s_end_to_end"], "episodes/s"
    e = r.get("embedding", {})
    if "speedup" in e:
        yield "embedding throughput", "speedup", e["speedup"], "x"
        yield "embedding throughput", "min_cosine", e["min_cosine"], "ratio"
    for name, x in r.get("rls", {}).items():
        yield f"RLS overhead {name.replace('_', ' ')}", "overhead", x["overhead_pct"], "%"
    if "driver" in r:
        yield "driver overhead", "overhead", r["driver"]["overhead_ms"], "ms"
    for f in r.get("facts_search", []):
        t = f"search_facts {f['facts']} facts"
        yield t, "recall_at_10", f["top10"]["recall"], "ratio"
        yield t, "p50_top10", f["top10"]["p50_ms"], "ms"
        yield t, "recall_at_50", f["top50"]["recall"], "ratio"
    for x in r.get("recall", []):
        t = f"recall {x['size']} episodes"
        yield t, "p50", x["routed"]["p50_ms"], "ms"
        yield t, "p99", x["routed"]["p99_ms"], "ms"
    goals = _get(r, "recall_quality", "goals")
    if goals:
        t = f"recall quality {r['recall_quality']['questions']} questions"
        yield t, "ndcg_at_10", goals["beats_best_arm_ndcg"]["fused"], "ratio"
        yield t, "best_arm_ndcg_at_10", goals["beats_best_arm_ndcg"]["best"], "ratio"
        yield t, "recall_at_10", goals["beats_best_arm_recall"]["fused"], "ratio"
        if "semantic_vs_vector_ndcg" in goals:
            s = goals["semantic_vs_vector_ndcg"]
            yield t, "semantic_ndcg_at_10", s["fused"], "ratio"
            yield t, "semantic_vector_arm_ndcg_at_10", s["vector"], "ratio"
    n = r.get("names")
    if n:
        t = f"name matching {n['names']} names"
        yield t, "same_rows", n["same"], f"of {n['questions']} questions"
        yield t, "p50", n["match_entities"]["p50_ms"], "ms"
    for model, m in r.get("models", {}).items():
        if not isinstance(m, dict) or "en->en" not in m:
            continue
        t = f"model {model.split('/')[-1]}"
        for group in ("en->en", "zh->zh", "en->zh", "zh->en"):
            if group in m:
                yield t, f"recall_at_10 {group}", m[group]["recall_at_10"], "ratio"
    fd = r.get("feed")
    if fd and "lag_ms_p50" in fd:
        yield "change feed lag", "p50", fd["lag_ms_p50"], "ms"
        yield "change feed lag", "p95", fd["lag_ms_p95"], "ms"
    p = r.get("pgbench")
    if p:
        yield "mixed load", "tps", p["tps"], "transactions/s"
        yield "mixed load", "failed", p["failed"], "transactions"
        yield "mixed load", "p99", p["p99_ms"], "ms"
    if "seconds" in r:
        yield "make bench", "duration", r["seconds"] / 60, "min"


def run_rows(results: dict, commit: str | None = None) -> list[dict]:
    """The CSV rows of one `make bench` result."""
    base = {
        "run_at": results["started"],
        "machine": machine_label(results.get("machine", {})),
        "scale": fmt(results.get("scale", 1.0)),
        "commit": commit if commit is not None else results.get("commit", ""),
    }
    return [
        {**base, "target": t, "metric": m, "value": fmt(v), "unit": u}
        for t, m, v, u in figures(results)
        if v is not None
    ]


def printed_rows(
    run_at: str, figures: Iterable[tuple[str, str, float, str]], commit: str | None = None
) -> list[dict]:
    """The CSV rows of a printed target's run on this machine."""
    base = {
        "run_at": run_at,
        "machine": machine_label(host()),
        "scale": "",
        "commit": head() if commit is None else commit,
    }
    return [
        {**base, "target": t, "metric": m, "value": fmt(v), "unit": u} for t, m, v, u in figures
    ]


def append(rows: list[dict], path: Path = HISTORY) -> None:
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        if new:
            w.writeheader()
        w.writerows({c: row.get(c, "") for c in COLUMNS} for row in rows)


def read(path: Path = HISTORY) -> list[dict]:
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def committed_results() -> dict[str, dict]:
    """Every version of bench/results/*.json ever committed (a run's file was replaced by
    the next run's), and those of the working tree, by the run's start."""
    runs: dict[str, dict] = {}
    commit = ""
    log = _git(
        "log",
        "--format=%H",
        "--name-only",
        "--no-renames",
        "--diff-filter=AM",
        "--",
        "bench/results/*.json",
    )
    for line in log.splitlines():
        line = line.strip()
        if re.fullmatch(r"[0-9a-f]{40}", line):
            commit = line
        elif line:
            r = json.loads(_git("show", f"{commit}:{line}") or "{}")
            if "started" in r:
                runs.setdefault(r["started"], r)
    for path in sorted(RESULTS.glob("*.json")):
        r = json.loads(path.read_text())
        if "started" in r:
            runs[r["started"]] = r
    return runs


def rebuild(path: Path = HISTORY, previous: Path = HISTORY) -> int:
    """Writes the CSV afresh, the printed targets' rows taken from `previous`; returns its
    number of rows."""
    rows: list[dict] = []
    for started, r in committed_results().items():
        rows += run_rows(r, r.get("commit") or commit_before(started))
    kept = [row for row in read(previous) if row["target"].startswith(PRINTED)]
    have = {(row["run_at"], row["target"], row["metric"]) for row in kept}
    for rec in RECORDED:
        if (rec["run_at"], rec["target"], rec["metric"]) not in have:
            kept.append(
                {
                    **rec,
                    "scale": "",
                    "value": fmt(rec["value"]),
                    "commit": commit_before(rec["run_at"]),
                }
            )
    rows += kept
    # by start; a run's rows in the order they were written (sorted() is stable)
    rows = sorted(rows, key=lambda row: row["run_at"])
    path.unlink(missing_ok=True)
    append(rows, path)
    return len(rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=HISTORY)
    args = p.parse_args()
    n = rebuild(args.out)
    print(f"{args.out}: {n} rows")


if __name__ == "__main__":
    main()
