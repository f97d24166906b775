"""Forgetting follows provenance: memory.forget_episodes and memory.forget_agent remove the
episodes, the facts only they supported and every copy of their text, and a tombstone keeps
a re-import from bringing them back unsaid. The deletion test plants a unique marker in an
episode (a short one and a long one that goes to TOAST) and proves that no table, column,
index or relation file of the database holds it afterwards. Real PostgreSQL, pgvector and
the real model (its vectors computed here)."""

from __future__ import annotations

import json
import random
import shutil
import string
from pathlib import Path

import psycopg
import pytest
from swarm_memory import InvalidInput, Memory, NotFound, TenantAccessDenied
from swarm_memory.cli import main

MARKER = "qzxforgetmarker7731"
ROOT = Path(__file__).resolve().parents[1]


def _long_text() -> str:
    # random letters do not compress, so the long text lies in TOAST as written
    rng = random.Random(48)
    noise = "".join(rng.choice(string.ascii_lowercase + " ") for _ in range(6000))
    return f"{noise[:3000]} {MARKER} {noise[3000:]}"


def _seed(mem: Memory, world, minilm) -> None:  # type: ignore[no-untyped-def]
    t, s = world.tenant_a, world.sim_a
    model = minilm.model_name
    texts = {
        "ep-secret": f"Dana says {MARKER} is her home address, the road plan worries her",
        "ep-long": _long_text(),
        "ep-other": "Dana wrote that cyclists need safe lanes",
        "ep-bob": "Bob thinks the riverside road plan hurts the shops",
    }
    agents = {"ep-secret": 7, "ep-long": 7, "ep-other": 7, "ep-bob": 8}
    vecs = minilm.encode(list(texts.values()))
    mem.upsert_nodes(
        t,
        s,
        [
            {"id": "n-dana", "name": "Dana", "type": "Person", "embedding": None},
            {"id": "n-plan", "name": "Riverside road plan", "type": "Policy"},
            {"id": "n-bob", "name": "Bob", "type": "Person"},
        ],
    )
    mem.upsert_episodes(
        t,
        s,
        [
            {
                "id": k,
                "agent_id": agents[k],
                "agent_name": "Dana" if agents[k] == 7 else "Bob",
                "platform": "twitter",
                "round": 1,
                "action_type": "CREATE_POST",
                "content": v,
                "metadata": {"action_args": {"content": v}},
                "embedding": vec.tolist(),
                "embedding_model": model,
            }
            for (k, v), vec in zip(texts.items(), vecs, strict=True)
        ],
    )
    mem.upsert_edges(
        t,
        s,
        [
            # supported by the secret post alone: goes with it
            {"id": "e-only", "type": "LIVES_AT", "source_id": "n-dana", "target_id": "n-plan",
             "fact": f"Dana lives at {MARKER}", "attributes": {"episodes": ["ep-secret"]}},
            # supported by the secret post and another: stays, loses that evidence
            {"id": "e-both", "type": "WORRIES", "source_id": "n-dana", "target_id": "n-plan",
             "fact": "Dana worries about the road plan",
             "attributes": {"episodes": ["ep-secret", "ep-bob"]}},
            {"id": "e-bob", "type": "OPPOSES", "source_id": "n-bob", "target_id": "n-plan",
             "fact": "Bob opposes the road plan", "attributes": {"episodes": ["ep-bob"]}},
        ],
    )  # fmt: skip
    # an update, so that row_history holds a version of the secret post too
    mem.upsert_episodes(
        t,
        s,
        [
            {
                "id": "ep-secret",
                "agent_id": 7,
                "agent_name": "Dana",
                "platform": "twitter",
                "round": 2,
                "action_type": "CREATE_POST",
                "content": texts["ep-secret"],
                "metadata": {"action_args": {"content": texts["ep-secret"]}, "edited": True},
                "embedding": vecs[0].tolist(),
                "embedding_model": model,
            }
        ],
    )
    mem.link_evidence(t, s)
    mem.cache_vectors(
        t,
        model,
        [__import__("swarm_memory.importer").importer.content_hash(model, texts["ep-secret"])],
        [vecs[0]],
    )


def _rows_with_marker(conn: psycopg.Connection) -> list[str]:
    """Every table of every schema whose rows, read whole as text, hold the marker. Other
    sessions' temporary tables are left out: no session may read them, and one that has just
    ended (an import's staging, say) may drop them between the listing and the reading."""
    found = []
    tables = conn.execute(
        "SELECT c.oid::regclass::text FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace"
        " WHERE c.relkind IN ('r', 'm', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
        " AND n.nspname NOT LIKE 'pg_toast%'"
        " AND (n.nspname NOT LIKE 'pg_temp%' OR n.oid = pg_my_temp_schema())"
    ).fetchall()
    for (table,) in tables:
        hit = conn.execute(
            f"SELECT count(*) FROM {table} AS x WHERE strpos(x::text, %s) > 0", (MARKER,)
        ).fetchone()
        if hit and hit[0]:
            found.append(table)
    return found


def _files_with_marker(conn: psycopg.Connection) -> list[str]:
    """Every relation file of the database (tables, TOAST, indexes, sequences, catalogs)
    whose bytes hold the marker, read after a checkpoint has written every page."""
    conn.execute("CHECKPOINT")
    found = []
    rels = conn.execute(
        "SELECT c.oid::regclass::text, pg_relation_filepath(c.oid) FROM pg_class AS c"
        " WHERE pg_relation_filepath(c.oid) IS NOT NULL"
    ).fetchall()
    needle = MARKER.encode()
    for name, path in rels:
        segment = 0
        while True:
            file = path if segment == 0 else f"{path}.{segment}"
            data = conn.execute("SELECT pg_read_binary_file(%s, true)", (file,)).fetchone()
            if data is None or data[0] is None:
                break
            if needle in bytes(data[0]):
                found.append(name)
            segment += 1
    return found


def test_no_copy_of_a_forgotten_text_remains(world, connect, minilm):  # type: ignore[no-untyped-def]
    mem = Memory(world.dsn("app_a"))
    with mem:
        _seed(mem, world, minilm)
        su = connect("postgres")
        # the marker is everywhere it can reach before, so the scans below can fail
        before = _rows_with_marker(su)
        assert {"memory.episodes", "memory.edges", "memory.row_history"} <= set(before)
        assert any(f.startswith("pg_toast.") for f in _files_with_marker(su))

        counts = mem.forget_episodes(world.tenant_a, world.sim_a, ["ep-secret", "ep-long"])
        assert (counts.episodes, counts.facts_removed, counts.facts_kept) == (2, 1, 1)
        assert counts.history >= 3  # the update's version and the two deletes'
        assert counts.vectors == 1

        # the fact with other support stays, without the forgotten evidence
        facts = {f.edge_id for f in mem.facts(world.tenant_a, world.sim_a, state="all")}
        assert facts == {"e-both", "e-bob"}
        kept = mem.evidence(world.tenant_a, world.sim_a, "e-both")
        assert {(e.episode_id, e.resolved) for e in kept if e.kind == "source"} == {
            ("ep-bob", True)
        }

        # no row of any table holds it
        assert _rows_with_marker(su) == []
        # nor any page once the touched tables are rewritten (the memory's own tables: a
        # plain VACUUM leaves the removed bytes in the pages' free space)
        su.execute(
            "VACUUM (FULL) memory.episodes, memory.edges, memory.row_history, memory.word_postings, memory.vector_cache, memory.edge_evidence, memory.changes"
        )
        assert _files_with_marker(su) == []

        # the change feed names the forget, without the text
        change = mem.changes_since(world.tenant_a)[-1]
        assert (change.kind, change.op) == ("episodes", "delete")
        assert MARKER not in str(change)

        # a replay changes nothing
        again = mem.forget_episodes(world.tenant_a, world.sim_a, ["ep-secret", "ep-long"])
        assert (again.episodes, again.facts_removed, again.history) == (0, 0, 0)
        assert mem.changes_since(world.tenant_a)[-1].change_id == change.change_id


def test_forget_an_agent_and_a_reimport_says_so(world, connect, tmp_path, capsys):  # type: ignore[no-untyped-def]
    """An agent of the example run forgotten through the CLI: its episodes and profiles go,
    another tenant can neither forget nor see it, and a re-import of the same files leaves
    them out and says so."""
    run = tmp_path / "run"
    shutil.copytree(ROOT / "examples" / "mirofish_run", run)
    dsn = world.dsn("app_a")
    t, s = str(world.tenant_a), str(world.sim_a)
    imp = ["--dsn", dsn, "import", str(run), "--tenant", t, "--simulation", s, "--quiet"]
    assert main(imp) == 0
    with Memory(dsn) as mem:
        before = mem.simulation_stats(world.tenant_a, world.sim_a)
        with connect("app_b") as b, pytest.raises(psycopg.errors.InsufficientPrivilege):
            b.execute("SELECT * FROM memory.forget_agent(%s, %s, 1)", (world.tenant_a, world.sim_a))
        with Memory(world.dsn("reader_a")) as reader, pytest.raises(TenantAccessDenied):
            reader.forget_agent(world.tenant_a, world.sim_a, 1)
        with pytest.raises(NotFound):
            mem.forget_agent(world.tenant_a, world.tenant_b, 1)
        with pytest.raises(InvalidInput):
            mem.forgotten_ids(world.tenant_a, world.sim_a, "nodes", ["x"])
        capsys.readouterr()
        forget = ["--dsn", dsn, "forget", "--tenant", t, "--simulation", s, "--agent", "1"]
        assert main(forget) != 0  # no terminal to ask, no --yes: nothing changes
        assert mem.simulation_stats(world.tenant_a, world.sim_a) == before
        assert main([*forget, "--yes", "--json"]) == 0
        out = capsys.readouterr().out
        assert '"episodes"' in out
        gone = mem.episodes(world.tenant_a, world.sim_a, agent_id=1)
        assert gone == []
        after = mem.simulation_stats(world.tenant_a, world.sim_a)
        assert after.episodes < before.episodes
        assert mem.profiles(world.tenant_a, world.sim_a, agent_id=1) == []

        assert main(imp[:-1]) == 0
        said = capsys.readouterr().out
        assert "left out as forgotten" in said and "episodes" in said and "profiles" in said
        assert mem.episodes(world.tenant_a, world.sim_a, agent_id=1) == []
        assert mem.simulation_stats(world.tenant_a, world.sim_a).episodes == after.episodes


# -- reports --------------------------------------------------------------------------

QUOTED = f"Honestly the {MARKER} junction is where my kids cross every single morning"
REPOSTED = f"The night buses on Tanner Street stop at {MARKER}b, and nobody has asked us riders"
SHORT = "Totally agree"
LONG_QUOTE = " ".join(
    f"Sentence {n} of the long post says the plan {'names ' + MARKER + 'c and ' if n == 6 else ''}"
    f"changes how the school run works for families on the east side of River Road."
    for n in range(1, 13)
)


def _run_quoting_posts(tmp_path: Path) -> Path:
    """The example run with four posts of agent 1 and a repost by agent 2, and its report
    quoting them (MiroFish's files: the section, the assembled report, meta.json's markdown
    and an agent log line)."""
    run = tmp_path / "run"
    shutil.copytree(ROOT / "examples" / "mirofish_run", run)

    def action(second: int, agent: int, name: str, kind: str, args: dict) -> str:  # type: ignore[type-arg]
        return json.dumps(
            {"round": 8, "timestamp": f"2025-05-06T10:25:{second:02d}.000000", "agent_id": agent,
             "agent_name": name, "action_type": kind, "action_args": args, "result": None,
             "success": True}
        )  # fmt: skip

    lines = [
        action(10, 1, "Daniel Reyes", "CREATE_POST", {"content": QUOTED}),
        action(11, 1, "Daniel Reyes", "CREATE_POST", {"content": SHORT}),
        action(12, 1, "Daniel Reyes", "CREATE_POST", {"content": LONG_QUOTE}),
        action(13, 2, "Helen Marsh", "REPOST",
               {"new_post_id": 99, "original_post_id": 98, "original_content": REPOSTED,
                "original_author_name": "Eastbank Neighbours' Group"}),
    ]  # fmt: skip
    actions = run / "twitter" / "actions.jsonl"
    body = actions.read_text().splitlines()
    actions.write_text("\n".join(body[:-2] + lines + body[-2:]) + "\n")
    report = next((run / "reports").iterdir())
    quote = (
        f'\n> "{QUOTED}" - a parent, round 8\n\nOne rider reposted: "{REPOSTED}".\n\n'
        f"{SHORT}, wrote several traders about the loading windows.\n\n{LONG_QUOTE}\n\n"
    )
    section = report / "section_02.md"
    section.write_text(section.read_text() + quote)
    full = report / "full_report.md"
    full.write_text(full.read_text() + quote)
    meta = json.loads((report / "meta.json").read_text())
    if meta.get("markdown_content"):
        meta["markdown_content"] += quote
    (report / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2))
    log = report / "agent_log.jsonl"
    entry = {"timestamp": "2026-01-12T15:09:00.000000", "elapsed_seconds": 290.0,
             "report_id": report.name, "action": "section_content", "stage": "generating",
             "section_title": "quotes", "section_index": 2,
             "details": {"content": quote, "tool_results": [{"text": QUOTED}]}}  # fmt: skip
    log.write_text(log.read_text().rstrip("\n") + "\n" + json.dumps(entry) + "\n")
    return run


def test_a_forget_scrubs_the_reports_that_quote_it(world, connect, tmp_path):  # type: ignore[no-untyped-def]
    """A report quoting the forgotten posts (and the text a forgotten repost carried) keeps
    no copy of them: the marker stands where they were, in the sections, the chunks (those
    changed lose their vectors), meta.json's markdown and the agent log; a text too short to
    tell from other words stays; the report still reads and searches; a replay changes
    nothing."""
    run = _run_quoting_posts(tmp_path)
    dsn = world.dsn("app_a")
    t, s = world.tenant_a, world.sim_a
    imp = ["--dsn", dsn, "import", str(run), "--tenant", str(t), "--simulation", str(s), "--quiet"]
    assert main(imp) == 0
    su = connect("postgres")
    before = set(_rows_with_marker(su))
    assert {"memory.reports", "memory.report_sections", "memory.report_chunks",
            "memory.report_log", "memory.episodes"} <= before  # fmt: skip
    with Memory(dsn) as mem:
        report_id = mem.reports(t, s)[0].report_id
        long_chunks = [
            c for c in su.execute(
                "SELECT content FROM memory.report_chunks WHERE simulation_id = %s", (s,)
            ).fetchall() if "Sentence " in c[0]
        ]  # fmt: skip
        # the long quote was cut: no chunk holds it whole, so exact matching alone misses it
        assert len(long_chunks) >= 2 and all(LONG_QUOTE not in c[0] for c in long_chunks)
        ids = [
            e.episode_id
            for agent in (1, 2)
            for e in mem.episodes(t, s, agent_id=agent)
            if MARKER in e.content or e.content == SHORT
            or MARKER in str(e.metadata.get("action_args", {}))
        ]  # fmt: skip
        assert len(ids) == 4
        counts = mem.forget_episodes(t, s, ids)
        assert counts.episodes == 4

        # no row of any table holds the marker, nor any page once the tables are rewritten
        assert _rows_with_marker(su) == []
        su.execute(
            "VACUUM (FULL) memory.episodes, memory.edges, memory.row_history, memory.word_postings,"
            " memory.vector_cache, memory.edge_evidence, memory.changes, memory.reports,"
            " memory.report_sections, memory.report_chunks, memory.report_log"
        )
        assert _files_with_marker(su) == []

        # the report still reads, with the marker where the quotes were
        section = next(x for x in mem.report_sections(t, s, report_id) if x.section_index == 2)
        assert section.markdown.count("[forgotten]") == 3
        assert "a parent, round 8" in section.markdown and "One rider reposted" in section.markdown
        assert "Sentence" not in section.markdown
        # the short text is not scrubbed: "Totally agree" could be anyone's words
        assert f"{SHORT}, wrote several traders" in section.markdown
        chunks = su.execute(
            "SELECT content, embedding IS NULL FROM memory.report_chunks WHERE simulation_id = %s",
            (s,),
        ).fetchall()
        assert not any("Sentence " in c for c, _ in chunks)  # every piece of the cut quote
        changed = [c for c, unembedded in chunks if "[forgotten]" in c]
        assert changed and all(u for c, u in chunks if "[forgotten]" in c)
        assert any(not u for _, u in chunks)  # the other chunks keep their vectors
        log = mem.report_log(t, s, report_id, limit=1000)
        assert any("[forgotten]" in str(line.entry) for line in log)
        # searching the report still answers, from the chunks that keep a vector
        query = su.execute(
            "SELECT embedding::real[] FROM memory.report_chunks WHERE simulation_id = %s"
            " AND embedding IS NOT NULL LIMIT 1", (s,)
        ).fetchone()[0]  # fmt: skip
        assert mem.search_reports(t, s, query, top_k=3)

        change = mem.changes_since(t)[-1]
        assert change.counts["texts_too_short"] == 1
        assert change.counts["report_rows"] >= 5 and change.counts["chunks_unembedded"] >= 2
        # a replay changes nothing
        again = mem.forget_episodes(t, s, ids)
        assert again.episodes == 0
        assert mem.changes_since(t)[-1].change_id == change.change_id

    # a re-import of the same files leaves the posts out and the report as the forget left
    # it, its changed chunks embedded again from the text they hold now
    assert main(imp) == 0
    assert _rows_with_marker(su) == []
    with Memory(dsn) as mem:
        section = next(x for x in mem.report_sections(t, s, report_id) if x.section_index == 2)
        assert section.markdown.count("[forgotten]") == 3
        assert f"{SHORT}, wrote several traders" in section.markdown
    rows = su.execute(
        "SELECT content, embedding IS NULL FROM memory.report_chunks WHERE simulation_id = %s", (s,)
    ).fetchall()
    assert any("[forgotten]" in c for c, _ in rows)
    assert not any(unembedded for _, unembedded in rows)


def test_the_minimum_a_report_scrub_needs(connect):  # type: ignore[no-untyped-def]
    """memory._scrubbable, the rule's one home: 24 characters once trimmed, 8 where CJK
    carries a word a character; and the scrub of a JSON document keeps it valid JSON around
    texts with quotes and new lines."""
    conn = connect("postgres")

    def ok(text: str) -> bool:
        return conn.execute("SELECT memory._scrubbable(%s)", (text,)).fetchone()[0]

    assert not ok("ok") and not ok("Totally agree") and not ok(" " * 30 + "ok")
    assert not ok("x" * 23) and ok("x" * 24)
    assert not ok("临江交通局说好") and ok("临江交通局说好的")  # 7 and 8 characters
    said = 'She said "close it"\nand left the "meeting" early today'
    doc = {"details": {"content": f"> {said} - round 3", "list": [said, 1, None]}, "n": said}
    got = conn.execute(
        "SELECT memory._scrub_json(%s::jsonb, ARRAY[%s])", (json.dumps(doc), said)
    ).fetchone()[0]
    assert got == {
        "details": {"content": "> [forgotten] - round 3", "list": ["[forgotten]", 1, None]},
        "n": "[forgotten]",
    }
