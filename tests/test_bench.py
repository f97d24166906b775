"""`make bench` at a tiny scale, so that its code does not rot: the whole pipeline runs
(real embedded texts, staged loads, per-simulation indexes, every measurement, a short
pgbench mixed load) on a server of its own. No timing is asserted; correctness is."""

from __future__ import annotations

from bench import run


def test_bench_pipeline_runs_end_to_end(tmp_path, monkeypatch):
    monkeypatch.setattr(run.bserver, "DATADIR", run.bserver.DATADIR.parent / "smoke-pg")
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
    facts_rows = [line for line in text.splitlines() if line.startswith("| search_facts top 10,")]
    assert facts_rows and all("(first call, apart: " in line for line in facts_rows)
