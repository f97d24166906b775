"""Every query path is model-safe by default, with the real models: a simulation imported
with multilingual-e5 (`import --model`) refuses a query vector that names no model (such a
vector is the default model's) in every search, recall and panorama, with InvalidInput
(22023) rather than rows of noise, and answers one that names its model; `swarm-memory
embed --tenant --simulation` embeds in the simulation's model (the vector psql then passes
with p_model); the tenant's model is named from the command line; an unknown model is one
line and exit 2, with nothing written. The SQL contract itself is 030_models.sql."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import numpy as np
import pytest
from swarm_memory import InvalidInput, Memory
from swarm_memory.cli import main
from swarm_memory.embed import E5_MODEL_NAME, MODEL_NAME

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mirofish_run"
QUESTION = "Will closing River Road hurt the small shops?"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _refused(call) -> InvalidInput:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInput) as refused:
        call()
    assert refused.value.sqlstate == "22023"
    return refused.value


def test_a_vector_without_its_model_is_refused_on_a_multilingual_simulation(
    world, capsys, minilm, e5
):
    w = world
    app_a = w.dsn("app_a")
    code, out, err = run(
        capsys, "--dsn", app_a, "import", str(EXAMPLE), "--tenant", str(w.tenant_a),
        "--simulation", str(w.sim_a), "--model", E5_MODEL_NAME, "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert f"model: {E5_MODEL_NAME}" in out
    # and a simulation of the default model beside it, imported without --model
    plain = uuid.uuid4()
    code, out, err = run(
        capsys, "--dsn", app_a, "import", str(EXAMPLE), "--tenant", str(w.tenant_a),
        "--simulation", str(plain), "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert f"model: {MODEL_NAME}" in out

    with w.connect() as su:
        stored = su.execute(
            "SELECT DISTINCT embedding_model FROM memory.episodes"
            " WHERE tenant_id = %s AND simulation_id = %s AND embedding IS NOT NULL",
            (w.tenant_a, w.sim_a),
        ).fetchall()
    assert stored == [(E5_MODEL_NAME,)], "import --model embeds every vector with that model"

    q_minilm = minilm.encode_query(QUESTION)
    q_e5 = e5.encode_query(QUESTION)
    with Memory(w.dsn("reader_a")) as mem:
        of = mem.model_of(w.tenant_a, w.sim_a)
        assert (of.model, of.named_by) == (E5_MODEL_NAME, "simulation")

        # a vector that names no model is the default model's: refused, whichever vector it is
        for q in (q_minilm, q_e5):
            err = _refused(lambda q=q: mem.search_episodes(w.tenant_a, w.sim_a, q, 5))
            assert E5_MODEL_NAME in str(err) and "names no model" in str(err)
            assert err.hint and "p_model" in err.hint
            _refused(lambda q=q: mem.search_facts(w.tenant_a, w.sim_a, q, 5))
            _refused(lambda q=q: mem.search_nodes(w.tenant_a, w.sim_a, q, 5))
            _refused(lambda q=q: mem.search_reports(w.tenant_a, w.sim_a, q, 5))
            _refused(lambda q=q: mem.recall(w.tenant_a, w.sim_a, QUESTION, q, 5))
            _refused(lambda q=q: mem.panorama(w.tenant_a, w.sim_a, QUESTION, q, 5))
        # the default model's vector named as such: refused too, naming both models
        err = _refused(
            lambda: mem.search_episodes(w.tenant_a, w.sim_a, q_minilm, 5, model=MODEL_NAME)
        )
        assert MODEL_NAME in str(err) and E5_MODEL_NAME in str(err)

        # with its model named, the e5 vector is answered, by meaning
        hits = mem.search_episodes(w.tenant_a, w.sim_a, q_e5, 5, model=E5_MODEL_NAME)
        assert len(hits) == 5 and hits[0].similarity > 0.8
        assert any("shop" in h.content.lower() or "trade" in h.content.lower() for h in hits)
        assert mem.search_facts(w.tenant_a, w.sim_a, q_e5, 5, model=E5_MODEL_NAME)
        assert mem.search_nodes(w.tenant_a, w.sim_a, q_e5, 5, model=E5_MODEL_NAME)
        assert mem.search_reports(w.tenant_a, w.sim_a, q_e5, 3, model=E5_MODEL_NAME)
        given = mem.recall(
            w.tenant_a, w.sim_a, QUESTION, q_e5, 5, {"arms": ["episodes"], "model": E5_MODEL_NAME}
        )
        # the text-taking recall embeds with the simulation's model by itself: the same rows
        embedded = mem.recall(w.tenant_a, w.sim_a, QUESTION, None, 5, {"arms": ["episodes"]})
        assert given and [r.id for r in given] == [r.id for r in embedded]
        assert any(
            r.kind in ("entity", "fact")
            for r in mem.panorama(w.tenant_a, w.sim_a, QUESTION, q_e5, 10, model=E5_MODEL_NAME)
        )

        # the default model's simulation still answers a vector that names no model
        assert mem.search_episodes(w.tenant_a, plain, q_minilm, 5)
        err = _refused(lambda: mem.search_episodes(w.tenant_a, plain, q_e5, 5, model=E5_MODEL_NAME))
        assert MODEL_NAME in str(err)


def test_embed_uses_the_simulations_model_and_psql_passes_it(world, capsys, e5):
    w = world
    app_a = w.dsn("app_a")
    code, _, err = run(
        capsys, "--dsn", app_a, "import", str(EXAMPLE), "--tenant", str(w.tenant_a),
        "--simulation", str(w.sim_a), "--model", E5_MODEL_NAME, "--quiet",
    )  # fmt: skip
    assert code == 0, err

    # the simulation's model, with its query prefix: the vector E5Embedder gives a question
    code, out, err = run(
        capsys, "--dsn", app_a, "embed", QUESTION, "--tenant", "tenant-a",
        "--simulation", str(w.sim_a),
    )  # fmt: skip
    assert code == 0, err
    vector = np.array(json.loads(out))
    assert out.count("\n") == 1, "stdout is the vector alone"
    assert E5_MODEL_NAME in err
    want = e5.encode_query(QUESTION)
    assert np.allclose(vector, want, atol=1e-5)
    assert float(vector @ e5.encode([QUESTION])[0]) < 0.9999, "the query prefix, not a passage"

    # the psql path: the literal and the model, as docs/sql-api.md shows it
    with w.connect("reader_a") as conn:
        rows = conn.execute(
            "SELECT episode_id FROM memory.search_episodes(%s, %s, %s::vector, 5, p_model => %s)",
            (w.tenant_a, w.sim_a, out.strip(), E5_MODEL_NAME),
        ).fetchall()
    with Memory(w.dsn("reader_a")) as mem:
        direct = mem.search_episodes(w.tenant_a, w.sim_a, want, 5, model=E5_MODEL_NAME)
    assert [r[0] for r in rows] == [h.episode_id for h in direct] and rows

    # --model naming another model than the simulation's: refused, one line, exit 2
    code, out, err = run(
        capsys, "--dsn", app_a, "embed", QUESTION, "--tenant", str(w.tenant_a),
        "--simulation", str(w.sim_a), "--model", MODEL_NAME,
    )  # fmt: skip
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and MODEL_NAME in err and E5_MODEL_NAME in err
    # --model alone names the model; nothing at all is the default model
    code, out, err = run(capsys, "embed", QUESTION, "--model", E5_MODEL_NAME)
    assert code == 0 and np.allclose(np.array(json.loads(out)), want, atol=1e-5)
    code, out, err = run(capsys, "embed", QUESTION)
    assert code == 0 and MODEL_NAME in err
    assert not np.allclose(np.array(json.loads(out)), want, atol=1e-2)
    code, out, err = run(capsys, "embed", QUESTION, "--model", "bge-m3")
    assert code == 2 and out == "" and err.count("\n") == 1 and "bge-m3" in err


def test_the_tenants_model_from_the_cli_and_unknown_models_refused(world, capsys, e5):
    w = world
    app_a = w.dsn("app_a")
    tenant = str(w.tenant_a)
    code, out, err = run(capsys, "--dsn", app_a, "models", "--tenant", tenant, "--set", "bge-m3")
    assert code == 2 and err.startswith("error [22023]") and err.count("\n") == 1
    assert E5_MODEL_NAME in err, "the refusal names the known models"
    code, out, err = run(
        capsys, "--dsn", app_a, "models", "--tenant", tenant, "--set", E5_MODEL_NAME
    )
    assert code == 0, err
    assert f"tenant {tenant}: {E5_MODEL_NAME} (tenant)" in out

    # embed --tenant alone: the tenant's model
    code, out, err = run(capsys, "--dsn", app_a, "embed", QUESTION, "--tenant", tenant)
    assert code == 0 and E5_MODEL_NAME in err
    assert np.allclose(np.array(json.loads(out)), e5.encode_query(QUESTION), atol=1e-5)

    # an import with an unknown model: one line, exit 2, nothing written
    new = str(uuid.uuid4())
    code, out, err = run(
        capsys, "--dsn", app_a, "import", str(EXAMPLE), "--tenant", tenant,
        "--simulation", new, "--model", "bge-m3", "--quiet",
    )  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and "bge-m3" in err
    with w.connect() as su:
        assert su.execute(
            "SELECT (SELECT count(*) FROM memory.simulations WHERE simulation_id = %s)"
            "     + (SELECT count(*) FROM memory.import_attempts WHERE simulation_id = %s)",
            (new, new),
        ).fetchone() == (0,)

    # an import without --model into a new simulation takes the tenant's model
    code, out, err = run(
        capsys, "--dsn", app_a, "import", str(EXAMPLE), "--tenant", tenant,
        "--simulation", new, "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert f"model: {E5_MODEL_NAME}" in out
    with Memory(app_a) as mem:
        assert mem.model_of(w.tenant_a, uuid.UUID(new)).model == E5_MODEL_NAME
        # --clear: the tenant's next simulations take the default model; this one keeps e5
        code, out, err = run(capsys, "--dsn", app_a, "models", "--tenant", tenant, "--clear")
        assert code == 0 and f"tenant {tenant}: {MODEL_NAME} (default)" in out
        assert mem.model_of(w.tenant_a, uuid.UUID(new)).model == E5_MODEL_NAME
