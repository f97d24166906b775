"""One identity across runs and the diff of two runs (the identity wing), on the example
scenario's two runs: examples/mirofish_run and examples/mirofish_run_2, which
examples/make_second_run.py makes from the first with new ids for everything and three
changes (a stance that turns, an entity renamed with an alias, a new actor). Imported with
the real embedding model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from swarm_memory import InvalidInput, Memory, NotFound, TenantAccessDenied
from swarm_memory.cli import main

ROOT = Path(__file__).resolve().parents[1]
FIRST = ROOT / "examples" / "mirofish_run"
SECOND = ROOT / "examples" / "mirofish_run_2"


def second_run_script():  # type: ignore[no-untyped-def]
    """examples/make_second_run.py as a module: the ids and texts it gives the second run."""
    import importlib.util

    path = ROOT / "examples" / "make_second_run.py"
    spec = importlib.util.spec_from_file_location("make_second_run", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


# The changes examples/make_second_run.py makes, as memory.diff must report them: nothing
# more, nothing less.
CHANGES = {
    ("entity", "appeared", "Elena Vasquez"),
    ("entity", "renamed", "Quayside Coffee Co. -> Quayside Roasters"),
    ("fact", "turned", "Nadia Haddad SUPPORTS -> OPPOSES River Road Car-Free Plan"),
    ("fact", "appeared", "Elena Vasquez OPPOSES River Road Car-Free Plan"),
    ("fact", "appeared", "Elena Vasquez MEMBER_OF Harbourton Chamber of Commerce"),
    ("agent", "appeared", "Elena Vasquez"),
    ("agent", "moved", "Nadia Haddad"),
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def cli(world, capsys, role: str, *argv: str) -> str:
    code, out, err = run(capsys, "--dsn", world.dsn(role), *argv)
    assert code == 0, err
    return out


@pytest.fixture
def two_runs(world, capsys):
    """Monday's run and Tuesday's, imported by tenant A's writer under their names."""
    for name, folder in (("monday", FIRST), ("tuesday", SECOND)):
        cli(world, capsys, "app_a", "import", str(folder), "--tenant", "tenant-a",
            "--simulation", name, "--create", "--quiet")  # fmt: skip
    with Memory(world.dsn("app_a")) as mem:
        monday = mem.simulation(world.tenant_a, "monday")
        tuesday = mem.simulation(world.tenant_a, "tuesday")
    return monday, tuesday


def node_named(mem: Memory, tenant, sim, name: str) -> str:
    (node,) = mem.nodes_named(tenant, sim, name)
    return node.node_id


def test_the_second_run_links_every_entity_it_kept_and_diff_shows_exactly_the_changes(
    world, capsys, two_runs
):
    monday, tuesday = two_runs
    out = cli(
        world, capsys, "app_a", "link", "--tenant", "tenant-a", "--simulation", "tuesday",
        "--other", "monday", "--json",
    )  # fmt: skip
    (counts,) = [json.loads(line) for line in out.splitlines()]
    # 33 entities in both runs, one new on Tuesday: 33 links, all new
    assert (counts["other_name"], counts["linked"], counts["added"], counts["dropped"]) == (
        "monday",
        33,
        33,
        0,
    )
    with Memory(world.dsn("reader_a")) as mem:
        links = mem.identity_links(world.tenant_a, "tuesday")
        # every link joins the entity to its own copy: the second run's ids are the first's
        # derived (examples/make_second_run.py), so the right pair is known
        first = {n.node_id: n.name for n in mem.graph_nodes(world.tenant_a, monday, limit=1000)}
        assert {(lk.node_id, lk.other_node_id) for lk in links} == {
            (second_run_script().new_id(k), k) for k in first
        }
        renamed = next(lk for lk in links if lk.name == "Quayside Roasters")
        assert renamed.other_name == "Quayside Coffee Co." and renamed.evidence["alias"] is True
    out = cli(
        world, capsys, "reader_a", "diff", "--tenant", "tenant-a", "monday", "tuesday", "--json"
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert {(r["kind"], r["change"], r["subject"]) for r in rows} == CHANGES
    assert len(rows) == len(CHANGES)
    # each row carries its evidence in both runs
    turned = next(r for r in rows if r["change"] == "turned")
    assert [f["type"] for f in turned["a"]["facts"]] == ["SUPPORTS"]
    assert [f["type"] for f in turned["b"]["facts"]] == ["OPPOSES"]
    moved = next(r for r in rows if r["kind"] == "agent" and r["change"] == "moved")
    assert moved["a"]["posts"] and moved["b"]["posts"] and moved["score"] < 0.95
    # the evidence on run b's side: her new posts, the ones least like what she said before
    assert set(moved["b"]["posts"]) & set(second_run_script().NADIA_POSTS)
    appeared = next(r for r in rows if r["kind"] == "entity" and r["change"] == "appeared")
    assert appeared["a"] is None and appeared["b"]["type"] == "Person"
    # the human output names the same changes
    out = cli(world, capsys, "reader_a", "diff", "--tenant", "tenant-a", "monday", "tuesday")
    assert "Quayside Roasters" in out and "turned" in out and "Elena Vasquez" in out


def test_linking_is_idempotent_and_a_verdict_outlives_a_reimport(world, capsys, two_runs):
    monday, tuesday = two_runs
    with Memory(world.dsn("app_a")) as mem:
        (first,) = mem.link_runs(world.tenant_a, tuesday, monday)
        # the same pair, from the other side
        (again,) = mem.link_runs(world.tenant_a, monday, tuesday)
        assert (again.linked, again.added, again.changed, again.dropped) == (first.linked, 0, 0, 0)
        nadia_b = node_named(mem, world.tenant_a, tuesday, "Nadia Haddad")
        nadia_a = node_named(mem, world.tenant_a, monday, "Nadia Haddad")
        helen_a = node_named(mem, world.tenant_a, monday, "Helen Marsh")
        # a person refuses one link and makes another by hand
        refused = mem.decide_link(world.tenant_a, tuesday, nadia_b, monday, nadia_a, "refused")
        assert refused.decision == "refused" and refused.decided_by == "app_a"
        mem.decide_link(world.tenant_a, "tuesday", nadia_b, "monday", helen_a, "confirmed")
    # Tuesday's run imported again (the same files): its ids are the same, the verdicts stay
    cli(
        world,
        capsys,
        "app_a",
        "import",
        str(SECOND),
        "--tenant",
        "tenant-a",
        "--simulation",
        "tuesday",
        "--quiet",
    )
    with Memory(world.dsn("app_a")) as mem:
        (relinked,) = mem.link_runs(world.tenant_a, tuesday, monday)
        assert relinked.added == 0
        links = {
            (lk.node_id, lk.other_node_id): lk
            for lk in mem.identity_links(world.tenant_a, tuesday, all=True)
        }
        assert (
            links[(nadia_b, nadia_a)].decision == "refused" and not links[(nadia_b, nadia_a)].active
        )
        assert links[(nadia_b, helen_a)].decision == "manual" and links[(nadia_b, helen_a)].active
        # Monday's Nadia is linked to nothing now; withdrawing the verdicts gives linking back its say
        assert [m.name for m in mem.identity(world.tenant_a, monday, nadia_a)] == ["Nadia Haddad"]
        mem.decide_link(world.tenant_a, tuesday, nadia_b, monday, nadia_a, "auto")
        mem.decide_link(world.tenant_a, tuesday, nadia_b, monday, helen_a, "auto")
        (after,) = mem.link_runs(world.tenant_a, tuesday, monday)
        assert after.linked == first.linked
        assert [m.node_id for m in mem.identity(world.tenant_a, monday, nadia_a)] == [
            nadia_a,
            nadia_b,
        ]


def test_identity_facts_follow_an_entity_through_the_runs_in_order(world, two_runs):
    monday, tuesday = two_runs
    with Memory(world.dsn("app_a")) as mem:
        mem.link_runs(world.tenant_a, tuesday)
        nadia = node_named(mem, world.tenant_a, monday, "Nadia Haddad")
        facts = mem.identity_facts(world.tenant_a, monday, nadia)
    assert [f.run for f in facts] == sorted(f.run for f in facts) and {f.run for f in facts} == {
        1,
        2,
    }
    plan = [
        (f.simulation_name, f.type) for f in facts if f.other_name == "River Road Car-Free Plan"
    ]
    assert plan == [("monday", "SUPPORTS"), ("tuesday", "OPPOSES")]
    owns = [(f.simulation_name, f.other_name) for f in facts if f.type == "OWNS"]
    assert owns == [("monday", "Quayside Coffee Co."), ("tuesday", "Quayside Roasters")]


def test_another_tenant_sees_none_of_it(world, capsys, two_runs):
    monday, tuesday = two_runs
    with Memory(world.dsn("app_a")) as mem:
        mem.link_runs(world.tenant_a, tuesday)
        nadia = node_named(mem, world.tenant_a, monday, "Nadia Haddad")
    with Memory(world.dsn("app_b")) as mem:
        for call in (
            lambda: mem.link_runs(world.tenant_a, tuesday),
            lambda: mem.identity_links(world.tenant_a, tuesday),
            lambda: mem.identity(world.tenant_a, monday, nadia),
            lambda: mem.identity_facts(world.tenant_a, monday, nadia),
            lambda: mem.diff(world.tenant_a, monday, tuesday),
            lambda: mem.decide_link(world.tenant_a, monday, nadia, tuesday, nadia, "refused"),
        ):
            with pytest.raises(TenantAccessDenied):
                call()
        # under its own tenant the same simulation ids are unknown
        with pytest.raises(NotFound):
            mem.diff(world.tenant_b, monday, tuesday)
        with pytest.raises(NotFound):
            mem.link_runs(world.tenant_b, tuesday)
    # B's own linking finds nothing of A's
    with Memory(world.dsn("app_b")) as mem:
        assert mem.link_runs(world.tenant_b, world.sim_b) == []
    # and a forged tenant setting shows no link rows
    with world.connect("app_b") as conn:
        conn.execute("SELECT set_config('memory.tenant_id', %s, false)", (str(world.tenant_a),))
        assert conn.execute("SELECT count(*) FROM memory.identity_links").fetchone() == (0,)
    with world.connect() as su:
        assert su.execute("SELECT count(*) > 0 FROM memory.identity_links").fetchone() == (True,)


def test_bad_arguments_are_refused_with_their_sqlstate(world, two_runs):
    monday, tuesday = two_runs
    with Memory(world.dsn("app_a")) as mem:
        with pytest.raises(InvalidInput) as exc:
            mem.link_runs(world.tenant_a, monday, monday)
        assert exc.value.sqlstate == "22023"
        with pytest.raises(InvalidInput):
            mem.link_runs(world.tenant_a, monday, None, 1.5)
        with pytest.raises(InvalidInput):
            mem.diff(world.tenant_a, monday, monday)
        nadia = node_named(mem, world.tenant_a, monday, "Nadia Haddad")
        nadia_b = node_named(mem, world.tenant_a, tuesday, "Nadia Haddad")
        with pytest.raises(InvalidInput):
            mem.decide_link(world.tenant_a, monday, nadia, tuesday, nadia_b, "maybe")
        with pytest.raises(NotFound):  # nadia's Monday id is no Tuesday node
            mem.decide_link(world.tenant_a, monday, nadia, tuesday, nadia, "confirmed")
