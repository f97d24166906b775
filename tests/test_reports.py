"""MiroFish's reports and the predictions made from them, through the importer and the
driver, from files as MiroFish's ReportAgent writes them (examples/mirofish_run/reports/,
English and Chinese), with the real model. The SQL contract (isolation, errors, outcomes,
replay) is sql/tests/022_reports.sql's."""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from swarm_memory import Memory
from swarm_memory.embed import Embedder
from swarm_memory.errors import InvalidInput, NotFound
from swarm_memory.importer import import_run
from swarm_memory.mirofish import BadInput
from swarm_memory.reports import KINDS, chunk_text, read_reports, tokens

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"
REPORT = "report_5e0c2a91d7b4"
FOLDER = EXAMPLE / "reports" / REPORT


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def reports_run(tmp_path: Path, name: str = "run") -> Path:
    """A run folder holding only the example report (as MiroFish's uploads/reports/)."""
    run = tmp_path / name
    shutil.copytree(EXAMPLE / "reports", run / "reports")
    return run


def imported(world, embedder, run: Path, **options):
    return import_run(
        world.dsn("app_a"), world.tenant_a, world.sim_a, run, embedder=embedder, **options
    )


# -- chunking -----------------------------------------------------------------------------


def test_chunks_keep_paragraphs_and_cut_chinese_without_spaces():
    zh = "河滨路禁行计划引发了商户的强烈反对。许多小店店主担心客流下降，营业额减少。" * 15
    en = "The council plan to close River Road to cars split the city. " * 60
    text = f"{zh}\n\n短段落一。\n\n{en.strip()}\n\nA short closing paragraph."
    chunks = chunk_text(text, 200)
    assert all(tokens(c) <= 200 for c in chunks)
    # nothing lost or invented: the chunks hold the text's characters in order
    assert re.sub(r"\s", "", "".join(chunks)) == re.sub(r"\s", "", text)
    # Chinese is cut at its sentence ends (no space needed), never mid-sentence
    chinese = [c for c in chunks if "河滨路" in c]
    assert len(chinese) >= 3 and all(c.endswith("。") for c in chinese)
    assert " " not in "".join(chinese)
    # English is cut between sentences; short paragraphs join their neighbours
    assert all(c.rstrip().endswith((".", "。")) for c in chunks)
    assert len([c for c in chunks if "River Road" in c]) >= 2
    assert chunk_text("one paragraph\n\nand another", 200) == ["one paragraph\n\nand another"]


def test_the_example_report_reads_as_mirofish_wrote_it():
    found = read_reports(EXAMPLE)
    assert found is not None
    (report,) = found.reports
    meta = json.loads((FOLDER / "meta.json").read_text(encoding="utf-8"))
    assert report["id"] == meta["report_id"] == REPORT
    assert report["status"] == "completed" and report["title"] == meta["outline"]["title"]
    assert report["metadata"]["meta"] == meta  # kept whole: an export writes it back
    assert "full_report" not in report["metadata"]  # full_report.md is meta's markdown_content
    assert [s["section_index"] for s in found.report_sections] == [1, 2, 3]
    assert found.report_sections[1]["title"] == "居民与通勤者的分歧"
    assert found.report_sections[0]["markdown"] == (FOLDER / "section_01.md").read_text("utf-8")
    lines = (FOLDER / "agent_log.jsonl").read_text(encoding="utf-8").splitlines()
    assert [r["entry"] for r in found.report_log] == [json.loads(line) for line in lines]
    assert [p["id"] for p in found.predictions] == ["p1", "p2", "p3"]
    assert found.predictions[0]["confidence"] == Decimal("0.7")
    assert found.predictions[2]["metadata"] == {
        "rationale": "likely only if delivery exemptions are dropped"
    }


# -- import, reads, search -------------------------------------------------------------------


def test_a_report_folder_imports_and_reads_back(world, embedder, tmp_path):
    report = imported(world, embedder, reports_run(tmp_path))
    assert report.scope == dict.fromkeys(KINDS)  # the graph, actions and profiles are kept
    assert report.results["reports"].inserted == 1
    assert report.results["report_sections"].inserted == 3
    assert report.results["predictions"].inserted == 3
    assert report.results["report_chunks"].inserted == report.embedded > 3
    lines = (FOLDER / "agent_log.jsonl").read_text(encoding="utf-8").splitlines()
    assert report.results["report_log"].inserted == len(lines)

    with Memory(world.dsn("reader_a")) as mem:
        (row,) = mem.reports(world.tenant_a, world.sim_a)
        assert (row.report_id, row.status, row.sections, row.predictions) == (
            REPORT,
            "completed",
            3,
            3,
        )
        assert row.mirofish_simulation_id == "sim_7c1e9a4b2d30" and row.source == "import"
        # MiroFish's naive local time, read in the import's zone (UTC by default)
        assert row.started_at == datetime(2026, 1, 12, 15, 4, 11, 218604, tzinfo=UTC)
        sections = mem.report_sections(world.tenant_a, world.sim_a, REPORT)
        assert [s.markdown for s in sections] == [
            (FOLDER / f"section_{i:02d}.md").read_text(encoding="utf-8") for i in (1, 2, 3)
        ]
        page = mem.report_log(world.tenant_a, world.sim_a, REPORT, limit=5)
        rest = mem.report_log(
            world.tenant_a, world.sim_a, REPORT, limit=1000, after=page[-1].line_no
        )
        assert [r.entry for r in page + rest] == [json.loads(line) for line in lines]
        assert page[0].action == "report_start"
        predictions = mem.predictions(world.tenant_a, world.sim_a, REPORT)
        assert [(p.prediction_id, p.confidence, p.outcome) for p in predictions] == [
            ("p2", Decimal("0.55"), None),
            ("p1", Decimal("0.7"), None),
            ("p3", Decimal("0.25"), None),
        ]  # by section, then id
        with pytest.raises(NotFound):
            mem.report_sections(world.tenant_a, world.sim_a, "report_nope")


def test_search_finds_the_section_that_answers(world, embedder, tmp_path):
    imported(world, embedder, reports_run(tmp_path))
    asks = {
        "Will the shops on River Road lose customers?": 1,
        "通勤者对禁行计划怎么看？公交班次会增加吗？": 2,
        "Will the council approve the plan, and could there be a lawsuit?": 3,
    }
    with Memory(world.dsn("reader_a")) as mem:
        for question, section in asks.items():
            hits = mem.search_reports(world.tenant_a, world.sim_a, embedder.encode_one(question), 3)
            assert hits[0].section_index == section, (question, hits)
            assert hits[0].report_id == REPORT and hits[0].similarity > hits[-1].similarity
        narrowed = mem.search_reports(
            world.tenant_a, world.sim_a, embedder.encode_one("shops"), 100, REPORT
        )
        assert len(narrowed) == len({(h.section_index, h.chunk_index) for h in narrowed}) > 3
        with pytest.raises(InvalidInput):
            mem.search_reports(world.tenant_a, world.sim_a, [0.0] * 384)


def test_a_reimport_never_overwrites_a_recorded_outcome(world, embedder, tmp_path):
    run = reports_run(tmp_path)
    imported(world, embedder, run)
    with Memory(world.dsn("app_a")) as mem:
        mem.record_outcome(world.tenant_a, world.sim_a, "p1", "confirmed", "approved 4 to 3")

        # the same files again: nothing changes, nothing is embedded
        again = imported(world, embedder, run)
        assert again.embedded == 0
        for kind in KINDS:
            r = again.results[kind]
            assert (r.inserted, r.updated, r.deleted) == (0, 0, 0), kind
        # the report revised its prediction: the prediction changes, its outcome stays
        path = run / "reports" / REPORT / "predictions.json"
        items = json.loads(path.read_text(encoding="utf-8"))
        items[0]["confidence"] = 0.8
        path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
        revised = imported(world, embedder, run)
        assert revised.results["predictions"].updated == 1
        p1 = next(
            p for p in mem.predictions(world.tenant_a, world.sim_a) if p.prediction_id == "p1"
        )
        assert (p1.confidence, p1.outcome, p1.note, p1.recorded_by) == (
            Decimal("0.8"),
            "confirmed",
            "approved 4 to 3",
            "app_a",
        )
        # a file claiming an outcome does not write one
        items[1]["outcome"] = {"outcome": "refuted"}
        path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
        assert imported(world, embedder, run).results["predictions"].updated == 0
        p2 = next(
            p for p in mem.predictions(world.tenant_a, world.sim_a) if p.prediction_id == "p2"
        )
        assert p2.outcome is None
        # a prediction the report no longer makes goes; its outcome returns with it
        path.write_text(json.dumps(items[1:], ensure_ascii=False), encoding="utf-8")
        assert imported(world, embedder, run).results["predictions"].deleted == 1
        assert "p1" not in {p.prediction_id for p in mem.predictions(world.tenant_a, world.sim_a)}
        path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
        imported(world, embedder, run)
        p1 = next(
            p for p in mem.predictions(world.tenant_a, world.sim_a) if p.prediction_id == "p1"
        )
        assert p1.outcome == "confirmed"


def test_a_run_without_reports_keeps_them(world, embedder, tmp_path):
    imported(world, embedder, reports_run(tmp_path))
    with Memory(world.dsn("app_a")) as mem:
        mem.upsert_predictions(
            world.tenant_a, world.sim_a, [{"id": "mine", "claim": "it rains", "confidence": 0.9}]
        )
        before = (
            mem.reports(world.tenant_a, world.sim_a),
            mem.predictions(world.tenant_a, world.sim_a),
        )
        folder = tmp_path / "sim_folder"
        shutil.copytree(EXAMPLE / "twitter", folder / "twitter")
        report = imported(world, embedder, folder)
        assert set(report.scope) == {"episodes"}
        assert all(report.results[k].deleted == 0 for k in KINDS)
        assert (
            mem.reports(world.tenant_a, world.sim_a),
            mem.predictions(world.tenant_a, world.sim_a),
        ) == before
        # a reports/ folder that is present replaces the reports, but never an api prediction
        empty = tmp_path / "empty"
        (empty / "reports").mkdir(parents=True)
        with pytest.raises(BadInput, match="no report folder"):
            imported(world, embedder, empty)
        cleared = imported(world, embedder, empty, allow_empty=True)
        assert cleared.results["reports"].deleted == 1
        assert mem.reports(world.tenant_a, world.sim_a) == []
        assert [p.prediction_id for p in mem.predictions(world.tenant_a, world.sim_a)] == ["mine"]


def test_reports_of_other_simulations_are_left_out(world, embedder, tmp_path):
    run = reports_run(tmp_path)
    (run / "state.json").write_text(json.dumps({"simulation_id": "sim_another"}), encoding="utf-8")
    with pytest.raises(BadInput, match="of simulation sim_another"):
        imported(world, embedder, run)
    (run / "state.json").write_text(
        json.dumps({"simulation_id": "sim_7c1e9a4b2d30"}), encoding="utf-8"
    )
    assert imported(world, embedder, run).results["reports"].inserted == 1


@pytest.mark.parametrize(
    ("file", "edit", "message"),
    [
        (
            "predictions.json",
            lambda t: t.replace("0.7", "1.5"),
            r"predictions\.json: prediction \[0\]: confidence",
        ),
        ("predictions.json", lambda t: t.replace('"p2"', '"p1"'), r"id 'p1' appears twice"),
        (
            "predictions.json",
            lambda t: t.replace('"section_index": 3', '"section_index": 9', 1),
            r"section_index 9 is not a section",
        ),
        (
            "agent_log.jsonl",
            lambda t: t.replace("\n", "\n{oops\n", 1),
            r"agent_log\.jsonl:2: invalid JSON line",
        ),
        (
            "meta.json",
            lambda t: t.replace('"status": "completed"', '"status": ""'),
            r"meta\.json: has no status",
        ),
        (
            "meta.json",
            lambda t: t.replace("2026-01-12T15:04:11.218604", "last tuesday"),
            r"started_at is not an ISO 8601 timestamp",
        ),
    ],
)
def test_bad_report_files_are_refused_naming_the_place(
    world, embedder, tmp_path, file, edit, message
):
    imported(world, embedder, reports_run(tmp_path, "first"))
    with Memory(world.dsn("reader_a")) as mem:
        before = (
            mem.reports(world.tenant_a, world.sim_a),
            mem.predictions(world.tenant_a, world.sim_a),
        )
    run = reports_run(tmp_path)
    path = run / "reports" / REPORT / file
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(BadInput, match=message):
        imported(world, embedder, run)
    with Memory(world.dsn("reader_a")) as mem:
        after = (
            mem.reports(world.tenant_a, world.sim_a),
            mem.predictions(world.tenant_a, world.sim_a),
        )
    assert after == before  # nothing committed


def test_outcomes_and_api_predictions_through_the_driver(world, embedder, tmp_path):
    imported(world, embedder, reports_run(tmp_path))
    with Memory(world.dsn("app_a")) as mem:
        with pytest.raises(InvalidInput) as exc:
            mem.record_outcome(world.tenant_a, world.sim_a, "p1", "maybe")
        assert exc.value.sqlstate == "22023"
        with pytest.raises(NotFound):
            mem.record_outcome(world.tenant_a, world.sim_a, "p9", "confirmed")
        with pytest.raises(InvalidInput) as exc:
            mem.upsert_predictions(
                world.tenant_a, world.sim_a, [{"id": "x", "claim": "c", "confidence": 2}]
            )
        assert "p_predictions[0].confidence" in str(exc.value)
        first = mem.record_outcome(world.tenant_a, world.sim_a, "p3", "refuted")
        assert mem.record_outcome(world.tenant_a, world.sim_a, "p3", "refuted") == first  # replay
        corrected = mem.record_outcome(world.tenant_a, world.sim_a, "p3", "partial", "settled")
        assert corrected.outcome == "partial" and corrected.recorded_at >= first.recorded_at
    with Memory(world.dsn("app_b")) as mem, pytest.raises(Exception) as exc:
        mem.predictions(world.tenant_a, world.sim_a)
    assert getattr(exc.value, "sqlstate", None) == "42501"
