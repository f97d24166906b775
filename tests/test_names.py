"""Tenants and simulations given by name or MiroFish id, on the command line and in the Python
client: the order of resolution (a UUID, an exact name, the MiroFish simulation_id, the
graph_id), the ambiguous reference refused listing its candidates, an import's rule for making
a simulation, the renames and deletes behind a confirmation, and the type filters."""

from __future__ import annotations

import builtins
import io
import json
import uuid

import pytest
import swarm_memory.client
from swarm_memory import AmbiguousName, InvalidInput, Memory, NotFound
from swarm_memory.cli import main

from tests.helpers import vec
from tests.test_mirofish import EXAMPLE

RUN_ID = "sim_3f2a9c1b7d4e"


class Terminal(io.StringIO):
    """A standard input that is a terminal: a command may ask it."""

    def isatty(self) -> bool:
        return True


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def small_run(tmp_path, name: str = RUN_ID, run_id: str | None = RUN_ID, lines: int = 6):
    """A MiroFish simulation folder: a few actions of one platform and its state.json."""
    folder = tmp_path / name
    (folder / "twitter").mkdir(parents=True)
    actions = (EXAMPLE / "twitter" / "actions.jsonl").read_text(encoding="utf-8").splitlines()
    (folder / "twitter" / "actions.jsonl").write_text("\n".join(actions[:lines]) + "\n")
    if run_id is not None:
        (folder / "state.json").write_text(json.dumps({"simulation_id": run_id}))
    return folder


def simulations(conn, tenant) -> dict[str, uuid.UUID]:
    return dict(
        conn.execute(
            "SELECT name, simulation_id FROM memory.simulations WHERE tenant_id = %s", (tenant,)
        ).fetchall()
    )


@pytest.fixture
def two_copies(world, connect):
    """Tenant A's simulations: sim-a (the fixture's), one named with a MiroFish id, and a
    copy of the same run under another name (both carry that MiroFish id and a graph id)."""
    named, copy = uuid.uuid4(), uuid.uuid4()
    meta = json.dumps({"simulation_id": RUN_ID, "graph_id": "mirofish_g1"})
    app_a = connect("app_a")
    for sim, name in ((named, RUN_ID), (copy, "copy")):
        app_a.execute(
            "SELECT memory.upsert_simulation(%s, %s, %s, %s::jsonb)",
            (world.tenant_a, sim, name, meta),
        )
    return named, copy


# -- the Python client ---------------------------------------------------------------------


def test_client_methods_take_names_and_mirofish_ids(world, two_copies):
    named, copy = two_copies
    with Memory(world.dsn("app_a")) as mem:
        assert mem.simulation_stats("tenant-a", "sim-a").simulation_id == world.sim_a
        assert mem.tenant("tenant-a") == world.tenant_a
        # an exact name beats the MiroFish id the copy carries too
        assert mem.simulation("tenant-a", RUN_ID) == named
        assert mem.simulation_stats(world.tenant_a, RUN_ID).simulation_id == named
        mem.upsert_nodes("tenant-a", "copy", [{"id": "n", "name": "N", "embedding": vec(1)}])
        assert [n.node_id for n in mem.nodes_by_type(world.tenant_a, copy, None)] == ["n"]
        # on the caller's connection, in its transaction
        with mem.connect(autocommit=False) as conn:
            assert mem.simulation_stats("tenant-a", "copy", conn=conn).nodes == 1
            conn.rollback()
        # a UUID given as a string is the id, never looked up as a name
        assert mem.simulation(world.tenant_a, str(copy)) == copy


def test_client_refuses_an_ambiguous_reference_listing_the_candidates(world, two_copies):
    named, copy = two_copies
    with Memory(world.dsn("app_a")) as mem:
        mem.upsert_simulation(world.tenant_a, named, "original")
        # now only the MiroFish id is shared: both answer to it, and nothing is called
        with pytest.raises(AmbiguousName) as refused:
            mem.simulation_stats("tenant-a", RUN_ID)
        assert isinstance(refused.value, InvalidInput)
        assert set(refused.value.candidates) == {(named, "original"), (copy, "copy")}
        text = str(refused.value)
        assert str(named) in text and str(copy) in text and "MiroFish id" in text
        # the graph id too; the candidates are those of the best kind of match only
        with pytest.raises(AmbiguousName):
            mem.simulation(world.tenant_a, "mirofish_g1")
        assert {m.matched_by for m in mem.resolve_simulation("tenant-a", "mirofish_g1")} == {
            "graph_id"
        }
        # two simulations with one name: only the UUID tells them apart
        mem.upsert_simulation(world.tenant_a, copy, "original")
        with pytest.raises(AmbiguousName, match="give its UUID"):
            mem.simulation(world.tenant_a, "original")


def test_client_unknown_names_are_not_found(world, two_copies):
    with Memory(world.dsn("app_a")) as mem:
        with pytest.raises(NotFound) as unknown:
            mem.simulation_stats(world.tenant_a, "sim_000000000000")
        assert unknown.value.sqlstate == "P0002"
        assert mem.resolve_simulation(world.tenant_a, "Sim-A") == []  # case counts
        # another tenant's name is no tenant this role may act for
        with pytest.raises(NotFound, match="no tenant named 'tenant-b'"):
            mem.simulation_stats("tenant-b", "sim-b")
    with Memory(world.dsn("admin")) as admin:
        admin.grant_tenant("reader_a", "tenant-b")  # a tenant second, by name
    with Memory(world.dsn("reader_a")) as reader:
        assert "tenant-b" in {t.name for t in reader.list_tenants()}


def test_the_simulation_second_functions_are_those_of_the_catalog(connect):
    """Every public function whose second argument is the simulation resolves a name there,
    and no other; the two that take the tenant second are grant_tenant and revoke_tenant
    (create_tenant's second is the id of the tenant it makes, no reference)."""
    rows = (
        connect()
        .execute(
            "SELECT DISTINCT proname, proargnames[2] FROM pg_proc"
            " WHERE pronamespace = 'memory'::regnamespace AND proname !~ '^_'"
            " AND (proargnames[1] = 'p_tenant_id' AND proargnames[2] = 'p_simulation_id'"
            "      OR proargnames[2] = 'p_tenant_id')"
        )
        .fetchall()
    )
    assert {n for n, second in rows if second == "p_simulation_id"} == (
        swarm_memory.client._base._SIMULATION_SECOND
    )
    assert {n for n, second in rows if second == "p_tenant_id"} - {"create_tenant"} == (
        swarm_memory.client._base._TENANT_SECOND
    )


# -- the command line ----------------------------------------------------------------------


def test_commands_take_the_name_before_the_mirofish_id(world, two_copies, capsys):
    named, copy = two_copies
    app_a = world.dsn("app_a")
    where = ["--tenant", "tenant-a", "--simulation"]
    code, out, err = run(capsys, "--dsn", app_a, "stats", *where, RUN_ID)
    assert code == 0 and str(named) in out, err
    code, out, err = run(capsys, "--dsn", app_a, "stats", *where, "copy")
    assert code == 0 and str(copy) in out, err
    code, _, err = run(
        capsys, "--dsn", app_a, "simulation", "rename", RUN_ID, "original", "--tenant",
        "tenant-a", "--yes",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = run(capsys, "--dsn", app_a, "stats", *where, RUN_ID)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert str(named) in err and str(copy) in err and "original" in err and "copy" in err
    code, _, err = run(capsys, "--dsn", app_a, "stats", *where, "nothing-so-named")
    assert code == 2 and "[P0002]" in err and "`swarm-memory simulations --tenant" in err


def test_role_create_takes_a_tenant_name(world, connect, capsys, monkeypatch):
    role = f"gw_{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("GW_PASSWORD", "s3cret")
    su = connect()
    try:
        code, out, err = run(
            capsys, "--dsn", world.dsn(), "role", "create", role, "--reader", "--tenant",
            "tenant-a", "--password-env", "GW_PASSWORD",
        )  # fmt: skip
        assert code == 0 and str(world.tenant_a) in out, err
        assert su.execute(
            "SELECT tenant_id FROM memory.tenant_grants WHERE role_name = %s", (role,)
        ).fetchall() == [(world.tenant_a,)]
    finally:
        su.execute(f'DROP ROLE IF EXISTS "{role}"')
    code, _, err = run(
        capsys, "--dsn", world.dsn(), "role", "create", role, "--reader", "--tenant",
        "no-such-tenant", "--password-env", "GW_PASSWORD",
    )  # fmt: skip
    assert code == 2 and "no tenant named 'no-such-tenant'" in err
    assert su.execute("SELECT count(*) FROM pg_roles WHERE rolname = %s", (role,)).fetchone() == (
        0,
    )


def test_import_makes_a_simulation_of_an_unknown_name_only_with_create(
    world, connect, capsys, tmp_path
):
    app_a = world.dsn("app_a")
    folder = small_run(tmp_path)
    su = connect()
    before = simulations(su, world.tenant_a)
    code, out, err = run(
        capsys, "--dsn", app_a, "import", str(folder), "--tenant", "tenant-a", "--simulation",
        "riversde", "--quiet",
    )  # fmt: skip
    assert code == 2 and out == ""
    assert err == "error: no simulation riversde in tenant tenant-a; pass --create to make it\n"
    assert simulations(su, world.tenant_a) == before
    assert su.execute("SELECT count(*) FROM memory.import_attempts").fetchone() == (0,)
    code, _, err = run(
        capsys, "--dsn", app_a, "import", str(folder), "--tenant", "tenant-a", "--simulation",
        "riverside", "--create", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert set(simulations(su, world.tenant_a)) == {"sim-a", "riverside"}
    # renamed, its old name is free: a new import under it makes another simulation
    first = simulations(su, world.tenant_a)["riverside"]
    code, _, err = run(capsys, "--dsn", app_a, "simulation", "rename", "riverside", "old",
                       "--tenant", "tenant-a", "--yes")  # fmt: skip
    assert code == 0, err
    code, _, err = run(
        capsys, "--dsn", app_a, "import", str(folder), "--tenant", "tenant-a", "--simulation",
        "riverside", "--create", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    now = simulations(su, world.tenant_a)
    assert set(now) == {"sim-a", "old", "riverside"} and now["old"] == first


def test_import_without_simulation_takes_the_runs_mirofish_id(world, connect, capsys, tmp_path):
    """No --simulation: state.json's simulation_id names the simulation, made without
    --create; a second copy under another name is warned about, and the original still
    answers to its name; a run that disagrees with the simulation it goes into is warned
    about; a re-import keeps the simulation's name however it is addressed."""
    app_a = world.dsn("app_a")
    su = connect()
    folder = small_run(tmp_path)
    where = ["--tenant", "tenant-a", "--quiet"]
    code, _, err = run(capsys, "--dsn", app_a, "import", str(folder), *where)
    assert code == 0 and "warning" not in err, err
    first = simulations(su, world.tenant_a)[RUN_ID]
    code, _, err = run(capsys, "--dsn", app_a, "import", str(folder), *where)  # again: the same
    assert code == 0 and "warning" not in err and simulations(su, world.tenant_a)[RUN_ID] == first

    code, _, err = run(
        capsys, "--dsn", app_a, "import", str(folder), *where, "--simulation", "copy", "--create"
    )
    assert code == 0, err
    assert f"warning: MiroFish run {RUN_ID} is already imported as {RUN_ID} ({first})" in err
    code, out, err = run(capsys, "--dsn", app_a, "stats", "--tenant", "tenant-a",
                         "--simulation", RUN_ID)  # fmt: skip
    assert code == 0 and str(first) in out, err

    other = small_run(tmp_path, "other", run_id="sim_0123456789ab")
    code, _, err = run(capsys, "--dsn", app_a, "import", str(other), *where, "--simulation", "copy")
    assert code == 0, err
    assert f"simulation copy holds MiroFish run {RUN_ID}" in err and "sim_0123456789ab" in err
    # addressed by its MiroFish id, by UUID: the name stays
    code, _, err = run(capsys, "--dsn", app_a, "import", str(folder), *where, "--simulation",
                       str(first))  # fmt: skip
    assert code == 0, err
    assert simulations(su, world.tenant_a)[RUN_ID] == first


def test_a_missing_or_file_run_directory(world, capsys, tmp_path):
    args = ["--dsn", world.dsn("app_a"), "import", "--tenant", "tenant-a"]
    code, _, err = run(capsys, *args[:3], str(tmp_path / "nope"), *args[3:])
    assert code == 2 and err == f"error: no directory {tmp_path / 'nope'}\n"
    (tmp_path / "f.json").write_text("{}")
    code, _, err = run(capsys, *args[:3], str(tmp_path / "f.json"), *args[3:])
    assert code == 2 and "not a directory" in err


def test_rename_and_delete_a_simulation_with_confirmation(world, connect, capsys, monkeypatch):
    app_a = world.dsn("app_a")
    su = connect()
    other = uuid.uuid4()
    connect("app_a").execute(
        "SELECT memory.upsert_simulation(%s, %s, 'other')", (world.tenant_a, other)
    )
    rename = ["--dsn", app_a, "simulation", "rename", "sim-a", "debate", "--tenant", "tenant-a"]
    # no terminal, no --yes: refused in one line, nothing changed
    code, _, err = run(capsys, *rename)
    assert code == 2 and err.count("\n") == 1 and "pass --yes" in err
    assert simulations(su, world.tenant_a)["sim-a"] == world.sim_a
    # at a terminal: n keeps it, y renames
    monkeypatch.setattr("sys.stdin", Terminal())
    answers = iter(["n", "y"])
    monkeypatch.setattr(builtins, "input", lambda prompt: next(answers))
    assert run(capsys, *rename)[0] == 1 and "sim-a" in simulations(su, world.tenant_a)
    code, out, err = run(capsys, *rename)
    assert code == 0 and simulations(su, world.tenant_a)["debate"] == world.sim_a, err
    # a name another simulation has would make two answer to it
    code, _, err = run(capsys, "--dsn", app_a, "simulation", "rename", "debate", "other",
                       "--tenant", "tenant-a", "--yes")  # fmt: skip
    assert code == 2 and str(other) in err
    monkeypatch.undo()

    delete = ["--dsn", app_a, "simulation", "delete", "debate", "--tenant", "tenant-a"]
    code, _, err = run(capsys, *delete)
    assert code == 2 and "pass --yes" in err and "debate" in simulations(su, world.tenant_a)
    code, out, err = run(capsys, *delete, "--yes")
    assert code == 0 and "deleted simulation debate" in out, err
    assert set(simulations(su, world.tenant_a)) == {"other"}
    code, _, err = run(capsys, *delete, "--yes")
    assert code == 2 and "no simulation named 'debate'" in err


def test_tenant_delete_needs_confirmation(world, connect, capsys):
    su = connect()
    code, _, err = run(capsys, "--dsn", world.dsn(), "tenant", "delete", "tenant-b")
    assert code == 2 and "pass --yes" in err and "tenant-b" in err
    assert su.execute("SELECT count(*) FROM memory.tenants").fetchone() == (2,)
    code, out, err = run(capsys, "--dsn", world.dsn(), "tenant", "delete", "tenant-b", "--yes")
    assert code == 0 and f"deleted tenant {world.tenant_b}" in out, err
    assert su.execute("SELECT count(*) FROM memory.tenants").fetchone() == (1,)


def test_type_filters_take_any_case_and_refuse_an_unknown_type(world, capsys):
    with Memory(world.dsn("app_a")) as mem:
        mem.upsert_nodes(
            world.tenant_a,
            world.sim_a,
            [
                {"id": "a", "name": "Alice", "type": "Person", "embedding": vec(1)},
                {"id": "b", "name": "Bob", "type": "Person", "embedding": vec(2)},
                {"id": "c", "name": "Council", "type": "GovernmentAgency", "embedding": vec(3)},
            ],
        )
        mem.upsert_edges(
            world.tenant_a,
            world.sim_a,
            [{"id": "e", "type": "KNOWS", "source_id": "a", "target_id": "b", "fact": "f"}],
        )
    dsn = ["--dsn", world.dsn("app_a")]
    where = ["--tenant", "tenant-a", "--simulation", "sim-a"]
    code, out, err = run(capsys, *dsn, "nodes", *where, "--type", "person")
    assert code == 0 and "Alice" in out and "Bob" in out and "Council" not in out, err
    code, out, err = run(capsys, *dsn, "nodes", *where, "--type", "Persn")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no node type 'Persn'" in err and "GovernmentAgency, Person" in err
    code, out, err = run(capsys, *dsn, "neighbors", "alice", *where, "--edge-type", "knows")
    assert code == 0 and "Bob" in out, err
    code, _, err = run(capsys, *dsn, "neighbors", "alice", *where, "--edge-type", "LIKES")
    assert code == 2 and "its edge types: KNOWS" in err
