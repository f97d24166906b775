"""The staged importer on the example MiroFish run, with the real embedder
(all-MiniLM-L6-v2 loaded offline): attempts, promote, replay, embed-only-changed, bad files,
progress output."""

from __future__ import annotations

import io
import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from swarm_memory import (
    CountMismatch,
    InvalidInput,
    Memory,
    NotFound,
    StateError,
    TenantAccessDenied,
)
from swarm_memory.embed import Embedder
from swarm_memory.importer import import_run, stage
from swarm_memory.mirofish import BadInput
from swarm_memory.mirofish.run import parse_run
from swarm_memory.progress import Progress

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture
def run_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "run"
    shutil.copytree(EXAMPLE, dest)
    return dest


def rows(conn: psycopg.Connection, table: str, sim: uuid.UUID) -> list[tuple]:
    return conn.execute(
        f"SELECT * FROM memory.{table} WHERE simulation_id = %s ORDER BY 3, 4", (sim,)
    ).fetchall()


def import_into_a(world, run: Path, embedder: Embedder, **options) -> Any:
    """import_run of a run directory into tenant A's simulation, as tenant A's writer."""
    return import_run(
        world.dsn("app_a"), world.tenant_a, world.sim_a, run, embedder=embedder, **options
    )


def test_import_replay_and_search(world, embedder, connect):
    first = import_into_a(world, EXAMPLE, embedder)
    assert first.results["nodes"].inserted >= 30 and first.results["edges"].inserted >= 40
    assert first.results["episodes"].inserted >= 300
    assert first.results["profiles"].inserted >= 20
    assert first.events > 0 and first.embedded > 0 and first.reused == 0

    su = connect()
    before = {t: rows(su, t, world.sim_a) for t in ("nodes", "edges", "episodes", "profiles")}
    sentences_before = embedder.sentences
    again = import_into_a(world, EXAMPLE, embedder)
    assert embedder.sentences == sentences_before  # nothing embedded again
    assert again.embedded == 0 and again.reused == first.embedded
    for kind, result in again.results.items():
        assert (result.inserted, result.updated, result.deleted) == (0, 0, 0), kind
        assert result.unchanged == first.results[kind].inserted
    after = {t: rows(su, t, world.sim_a) for t in before}
    assert after == before  # not a row rewritten, updated_at included

    with Memory(world.dsn("reader_a")) as mem:
        stats = mem.simulation_stats(world.tenant_a, world.sim_a)
        assert stats.episodes == first.results["episodes"].inserted
        assert set(stats.platforms) == {"twitter", "reddit"}
        assert stats.metadata["events"] and "simulation_end" in stats.metadata
        question = embedder.encode_one("Shop owners are afraid of losing customers")
        hits = mem.search_episodes(world.tenant_a, world.sim_a, question, 5)
        assert len(hits) == 5
        words = ("shop", "trade", "business", "customer", "retail", "sales", "footfall")
        assert any(w in (h.content or "").lower() for h in hits[:2] for w in words)
        attempts = mem.import_attempts(world.tenant_a, world.sim_a)
        assert [a.state for a in attempts] == ["committed", "committed"]
        assert attempts[0].result["episodes"]["unchanged"] == stats.episodes
        assert attempts[0].declared["episodes"] == stats.episodes
        assert attempts[0].finished_at >= attempts[0].started_at

    with Memory(world.dsn("app_b")) as other, pytest.raises(TenantAccessDenied):
        other.import_attempts(world.tenant_a, world.sim_a)


def test_a_changed_text_reembeds_that_row_alone(world, embedder, run_copy, connect):
    import_into_a(world, run_copy, embedder)
    path = run_copy / "twitter" / "actions.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, text in enumerate(lines):
        line = json.loads(text)
        if line.get("action_type") == "CREATE_POST":
            line["action_args"]["content"] = "An entirely new post about ferry timetables."
            lines[i] = json.dumps(line)
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = import_into_a(world, run_copy, embedder)
    # The line's content changed, so its id (derived from content) changed: one new episode
    # embedded, one old episode deleted, everything else unchanged.
    assert report.embedded == 1
    assert report.results["episodes"].inserted == 1
    assert report.results["episodes"].deleted == 1
    assert report.results["episodes"].updated == 0
    assert report.results["nodes"].unchanged == report.parsed["nodes"]

    # Edit a node summary: the summary alone is embedded again (the node's other text,
    # "{type}: {name}", comes from the tenant's vector cache).
    graph = json.loads((run_copy / "graph.json").read_text(encoding="utf-8"))
    graph["nodes"][0]["summary"] = "A revised summary."
    (run_copy / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    report = import_into_a(world, run_copy, embedder)
    assert (report.embedded, report.cached) == (1, 1) and report.results["nodes"].updated == 1

    # Rename a node: its text "{type}: {name}" changed, so exactly that row is re-embedded.
    graph["nodes"][1]["name"] = graph["nodes"][1]["name"] + " (renamed)"
    (run_copy / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    report = import_into_a(world, run_copy, embedder)
    assert report.embedded == 1 and report.results["nodes"].updated == 1
    su = connect()
    name, vec_changed = su.execute(
        "SELECT n.name, n.embedding IS NOT NULL FROM memory.nodes n WHERE n.simulation_id = %s"
        " AND n.node_id = %s",
        (world.sim_a, graph["nodes"][1]["uuid"]),
    ).fetchone()
    assert name.endswith("(renamed)") and vec_changed


def test_readers_see_the_last_committed_state_while_an_attempt_loads(world, connect):
    writer = connect("app_a", autocommit=False)
    reader = Memory(world.dsn("reader_a"))
    try:
        vec = [1.0] + [0.0] * 383
        node = {
            "id": "n1",
            "position": 0,
            "name": "Old",
            "type": "Person",
            "labels": [],
            "attributes": {},
            "embedding": None,
            "content_hash": None,
        }
        sim = uuid.uuid4()
        mem = Memory(world.dsn("app_a"))
        attempt = mem.begin_import(world.tenant_a, sim, {"nodes": 1}, conn=writer)
        writer.commit()
        # Nothing committed yet: P0002 with a hint.
        with pytest.raises(NotFound) as exc:
            reader.nodes_by_type(world.tenant_a, sim, None)
        assert "committed" in str(exc.value) and exc.value.hint
        stage(mem, writer, world.tenant_a, attempt, {"nodes": [node]}, 100)
        mem.commit_import(world.tenant_a, attempt, conn=writer)
        writer.commit()
        assert [n.name for n in reader.nodes_by_type(world.tenant_a, sim, None)] == ["Old"]

        # Attempt 2 stages a rename and a new node; readers still see attempt 1.
        attempt2 = mem.begin_import(world.tenant_a, sim, {"nodes": 2}, conn=writer)
        writer.commit()
        stage(
            mem,
            writer,
            world.tenant_a,
            attempt2,
            {
                "nodes": [
                    {**node, "name": "New"},
                    {**node, "id": "n2", "position": 1, "name": "Second"},
                ]
            },
            1,
        )
        writer.commit()
        assert [n.name for n in reader.nodes_by_type(world.tenant_a, sim, None)] == ["Old"]
        listed = reader.import_attempts(world.tenant_a, sim)
        assert listed[0].state == "loading" and listed[0].staged["nodes"] == 2
        result = mem.commit_import(world.tenant_a, attempt2, conn=writer)
        assert [n.name for n in reader.nodes_by_type(world.tenant_a, sim, None)] == ["Old"]
        writer.commit()
        assert (result["nodes"].inserted, result["nodes"].updated) == (1, 1)
        assert sorted(n.name for n in reader.nodes_by_type(world.tenant_a, sim, None)) == [
            "New",
            "Second",
        ]

        # An aborted attempt leaves the committed state alone.
        attempt3 = mem.begin_import(world.tenant_a, sim, None, conn=writer)
        stage(mem, writer, world.tenant_a, attempt3, {"nodes": [{**node, "name": "Never"}]}, 10)
        mem.abort_import(world.tenant_a, attempt3, conn=writer)
        writer.commit()
        mem.abort_import(world.tenant_a, attempt3, conn=writer)  # idempotent
        writer.commit()
        assert reader.import_attempts(world.tenant_a, sim)[0].state == "aborted"
        assert sorted(n.name for n in reader.nodes_by_type(world.tenant_a, sim, None)) == [
            "New",
            "Second",
        ]
        with pytest.raises(StateError) as exc:  # a committed attempt cannot be aborted
            mem.abort_import(world.tenant_a, attempt2, conn=writer)
        assert exc.value.sqlstate == "55000" and str(attempt2) in str(exc.value)
        writer.rollback()
        mem.close()
        del vec
    finally:
        reader.close()


def test_declared_counts_must_match(world, connect):
    conn = connect("app_a", autocommit=False)
    mem = Memory(world.dsn("app_a"))
    attempt = mem.begin_import(world.tenant_a, world.sim_a, {"nodes": 2}, conn=conn)
    stage(
        mem,
        conn,
        world.tenant_a,
        attempt,
        {"nodes": [{"id": "a", "position": 0, "name": "A", "type": "T"}]},
        10,
    )
    with pytest.raises(CountMismatch) as exc:
        mem.commit_import(world.tenant_a, attempt, conn=conn)
    assert exc.value.sqlstate == "21000" and isinstance(exc.value, StateError)
    assert "declared 2, staged 1" in str(exc.value)
    conn.rollback()
    mem.close()


def test_dangling_edges_are_refused_before_anything_is_embedded_unless_skipped(
    world, run_copy, connect
):
    graph = json.loads((run_copy / "graph.json").read_text(encoding="utf-8"))
    graph["edges"][0]["target_node_uuid"] = "no-such-node"
    (run_copy / "graph.json").write_text(json.dumps(graph), encoding="utf-8")

    class NoModel(Embedder):
        def encode(self, texts):  # the refusal must come before the model is asked
            raise AssertionError("embedded before refusing a dangling edge")

    with pytest.raises(BadInput) as exc:
        import_into_a(world, run_copy, NoModel())
    assert graph["edges"][0]["uuid"] in str(exc.value) and "no-such-node" in str(exc.value)
    assert "--skip-dangling" in str(exc.value)
    su = connect()
    assert rows(su, "nodes", world.sim_a) == []
    with Memory(world.dsn("app_a")) as mem:
        assert mem.import_attempts(world.tenant_a, world.sim_a) == []  # none was begun


def test_dangling_edges_can_be_skipped(world, embedder, run_copy):
    graph = json.loads((run_copy / "graph.json").read_text(encoding="utf-8"))
    graph["edges"][0]["target_node_uuid"] = "no-such-node"
    (run_copy / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    report = import_into_a(world, run_copy, embedder, skip_dangling=True)
    assert report.skipped_edges == [graph["edges"][0]["uuid"]]
    assert report.results["edges"].skipped == 1
    assert report.results["edges"].inserted == len(graph["edges"]) - 1


def test_invalid_json_line_names_file_and_line_and_promotes_nothing(
    world, embedder, run_copy, connect
):
    path = run_copy / "reddit" / "actions.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(5, '{"round": 1, "agent_id": 3, "action_type": "CREATE_POST", "action_')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"reddit/actions\.jsonl:6"):
        import_into_a(world, run_copy, embedder)
    su = connect()
    assert rows(su, "episodes", world.sim_a) == []

    report = import_into_a(world, run_copy, embedder, skip_bad_lines=True)
    assert report.skipped_lines == 1
    clean = parse_run(EXAMPLE, None, skip_bad_lines=False)
    assert report.results["episodes"].inserted == len(clean.episodes)


def test_truncated_last_line_is_a_bad_line(world, embedder, run_copy):
    path = run_copy / "twitter" / "actions.jsonl"
    text = path.read_text(encoding="utf-8").rstrip("\n")
    path.write_text(text[: len(text) - 15], encoding="utf-8")  # crash upstream mid-line
    count = len(text.splitlines())
    with pytest.raises(BadInput, match=rf"twitter/actions\.jsonl:{count}"):
        import_into_a(world, run_copy, embedder)
    report = import_into_a(world, run_copy, embedder, skip_bad_lines=True)
    assert report.skipped_lines == 1


def test_unknown_action_types_are_kept_verbatim(world, embedder, run_copy, connect):
    path = run_copy / "twitter" / "actions.jsonl"
    extra = {
        "round": 9,
        "timestamp": "2025-05-07T10:00:00",
        "agent_id": 2,
        "agent_name": "Aisha Bello",
        "action_type": "MUTE_USER",
        "action_args": {"muted_user": "Frank"},
        "result": None,
        "success": True,
    }
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(extra) + "\n")
    import_into_a(world, run_copy, embedder)
    su = connect()
    action, content, meta = su.execute(
        "SELECT action_type, content, metadata FROM memory.episodes"
        " WHERE simulation_id = %s AND action_type = 'MUTE_USER'",
        (world.sim_a,),
    ).fetchone()
    assert action == "MUTE_USER" and "muted_user=Frank" in content
    assert meta["action_args"] == {"muted_user": "Frank"}


def test_missing_required_field_and_duplicate_node_id(world, embedder, run_copy):
    path = run_copy / "reddit" / "actions.jsonl"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"round": 9, "agent_id": 1, "action_args": {}}) + "\n")
    with pytest.raises(BadInput, match="action_type"):
        import_into_a(world, run_copy, embedder)

    shutil.copy(EXAMPLE / "reddit" / "actions.jsonl", path)
    graph = json.loads((run_copy / "graph.json").read_text(encoding="utf-8"))
    graph["nodes"].append(dict(graph["nodes"][3]))
    (run_copy / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    last = len(graph["nodes"]) - 1
    with pytest.raises(
        BadInput, match=rf"{graph['nodes'][3]['uuid']}.*nodes\[3\].*nodes\[{last}\]"
    ):
        import_into_a(world, run_copy, embedder)


def test_stage_rows_refuses_a_key_twice_naming_both_positions(world, connect):
    conn = connect("app_a", autocommit=False)
    mem = Memory(world.dsn("app_a"))
    attempt = mem.begin_import(world.tenant_a, world.sim_a, conn=conn)
    conn.commit()
    node = {"id": "dup", "position": 4, "name": "A", "type": "T"}
    stage(mem, conn, world.tenant_a, attempt, {"nodes": [node]}, 10)
    with pytest.raises(InvalidInput) as exc:
        stage(mem, conn, world.tenant_a, attempt, {"nodes": [{**node, "position": 9}]}, 10)
    assert exc.value.sqlstate == "22023"
    assert "dup" in str(exc.value) and "4" in str(exc.value) and "9" in str(exc.value)
    conn.rollback()
    mem.close()


def test_progress_plain_lines_when_not_a_terminal_and_silence_when_quiet(world, embedder):
    out = io.StringIO()
    import_into_a(world, EXAMPLE, embedder, progress=Progress(out))
    phases = [line.split()[0] for line in out.getvalue().splitlines()]
    assert phases == ["parse", "embed", "load", "validate", "promote"]
    assert "\r" not in out.getvalue() and "/s" in out.getvalue()

    quiet = io.StringIO()
    import_into_a(world, EXAMPLE, embedder, progress=Progress(quiet, quiet=True))
    assert quiet.getvalue() == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_draws_bars_on_a_terminal():
    term = _Terminal()
    p = Progress(term)
    p.start("load", 10)
    for _ in range(10):
        p.advance(1)
    p.finish()
    text = term.getvalue()
    assert "[" in text and "#" * 30 in text and "\r" in text and "10/10" in text


def test_another_tenants_role_cannot_import_into_it(world, embedder):
    with pytest.raises(TenantAccessDenied):
        import_run(world.dsn("app_b"), world.tenant_a, uuid.uuid4(), EXAMPLE, embedder=embedder)
