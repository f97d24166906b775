"""`make bench` at a tiny scale, so that its code does not rot: the whole pipeline runs
(real embedded texts, staged loads, per-simulation indexes, every measurement, a short
pgbench mixed load) on a server of its own. No timing is asserted; correctness is."""

from __future__ import annotations

import csv
import json

from bench import history, run


def _written() -> dict:
    """What a run may write: the history CSV and the last run's files."""
    files = [history.HISTORY, *sorted(run.RESULTS.glob("*"))]
    return {f.name: f.read_bytes() for f in files if f.is_file()}


def test_bench_pipeline_runs_end_to_end(tmp_path, monkeypatch):
    monkeypatch.setattr(run.bserver, "DATADIR", run.bserver.DATADIR.parent / "smoke-pg")
    before = _written()
    results = run.run(
        0.01,
        queries=10,
        pgbench_seconds=3,
        texts=1000,
        log=lambda _m: None,
        write=False,
        settings={"shared_buffers": "256MB", "jit": "off"},
    )
    assert results["load"]["episodes"] >= 2000
    assert results["ann_indexes"]["built"] >= 1
    # the largest simulation's facts carry vectors, as a MiroFish import's do, and get an
    # index of their own; search_facts through it stays close to the exact ranking
    assert results["ann_indexes"]["facts_built"] >= 1
    for f in results["facts_search"]:
        assert f["top10"]["recall"] >= 0.9 and f["top50"]["recall"] >= 0.9
        # its first call is timed apart, as the search rows' is
        assert f["first_ms"] > 0 and f["top10"]["n"] == max(20, 10 // 4)
    for s in results["search"]:
        assert s["short_results"] == 0
        if s["path"] == "exact":
            assert s["recall_at_10"] == 1.0
        else:
            assert s["recall_at_10"] >= 0.9
    assert {s["path"] for s in results["search"]} == {"exact", "hnsw"}
    assert results["pgbench"]["failed"] == 0 and results["pgbench"]["exit_code"] == 0
    assert results["pgbench"]["transactions"] > 0
    assert results["bulk_vs_record"]["speedup"] > 1
    # a fork copies every row of a simulation (at no round), and at half its rounds fewer
    for f in results["forks"]:
        assert f["rows"] > 0 and f["counts"]["episodes"] == f["episodes"]
    # one identity across runs: the example scenario's two runs link exactly the right pairs,
    # and the synthetic pair of runs links nearly all of its own
    ident = results["identity"]
    assert ident["quality"]["example"]["precision"] == ident["quality"]["example"]["recall"] == 1.0
    assert ident["cost"]["precision"] >= 0.95 and ident["cost"]["recall"] >= 0.9
    # the Zep-compatible service: every add answered through the SDK, and graph.search
    # answering what the SQL call answers
    z = results["zep_service"]
    assert z["one_writer"]["adds"] == z["two_writers"]["adds"] == 10
    assert z["search"]["answers_differ"] == 0 and z["search"]["episodes"]["with_hits"] > 0
    # from files to searchable: the exact scan answers in full before the index exists, and
    # the simulation's own index was built after the import
    sr = results["searchable"]
    assert sr["exact"]["recall_at_10"] == 1.0 and sr["index_seconds"] > 0
    assert 0 < sr["episodes_per_s_indexed"] < sr["episodes_per_s_exact"]
    # and its bridge (an IVFFlat index) was built first and searched before the HNSW index
    assert sr["bridge_seconds"] > 0
    assert sr["bridge"]["n"] == 20 and sr["bridge"]["recall_at_10"] >= 0.9
    # the autovacuum sampler ran the whole time and counted its samples by phase
    phases = results["background"]["phases"]
    assert any(name.startswith("loading ") and p["samples"] > 0 for name, p in phases.items())
    assert run.background.table(results["background"])
    text = run.table(results)
    assert "search, simulation of" in text and "mixed load" in text
    assert "Zep service ingest, 2 writers" in text
    facts_rows = [line for line in text.splitlines() if line.startswith("| search_facts top 10,")]
    assert facts_rows and all("(first call, apart: " in line for line in facts_rows)

    # write=False touched neither the history nor the last run's files
    assert _written() == before
    # written: the run's two files replace whatever the directory held, and its headline
    # figures go to the history after the rows already there
    out, csv_path = tmp_path / "results", tmp_path / "history.csv"
    out.mkdir()
    (out / "20261129T175459+0000-scale1.0.json").write_text("{}")
    (out / "latest.md").write_text("the run before")
    run.write_results({**results, "started": "2026-01-01T00:00:00+00:00"}, out, csv_path)
    run.write_results(results, out, csv_path)
    assert sorted(f.name for f in out.iterdir()) == ["latest.json", "latest.md"]
    assert json.loads((out / "latest.json").read_text())["started"] == results["started"]
    assert (out / "latest.md").read_text().startswith(f"# Benchmark {results['started']}")
    with csv_path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and set(rows[0]) == set(history.COLUMNS)
    assert [r["run_at"] for r in rows] == sorted(r["run_at"] for r in rows)
    first = [r for r in rows if r["run_at"] == "2026-01-01T00:00:00+00:00"]
    last = [r for r in rows if r["run_at"] == results["started"]]
    assert len(first) == len(last) == len(rows) / 2
    got = {(r["target"], r["metric"]): float(r["value"]) for r in last}
    size = min(s["size"] for s in results["search"])
    assert got[(f"search {size} episodes", "recall_at_10")] == 1.0
    assert got[("mixed load", "failed")] == 0
    assert got[("bulk vs record by record", "speedup")] > 1
    assert {r["commit"] for r in last} == {results["commit"]}
