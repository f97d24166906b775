"""The swarm-memory command line against the test database (--dsn), real model included."""

from __future__ import annotations

import json
import uuid

from swarm_memory.cli import main
from swarm_memory.mirofish import read_graph

from tests.test_mirofish import EXAMPLE


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_end_to_end(world, capsys):
    admin = world.dsn("admin")
    app_a = world.dsn("app_a")
    code, out, _ = run(capsys, "--dsn", world.dsn(), "migrate")
    assert code == 0 and "none pending" in out

    code, out, _ = run(capsys, "--dsn", admin, "tenant", "create", "cli-tenant", "--grant", "app_a")
    assert code == 0
    tenant = uuid.UUID(out.strip())
    sim = str(uuid.uuid4())

    code, out, err = run(
        capsys, "--dsn", app_a, "import", str(EXAMPLE), "--tenant", str(tenant), "--simulation", sim
    )
    assert code == 0, err
    assert "episodes" in out and "embedded" in out

    code, out, _ = run(
        capsys,
        "--dsn",
        app_a,
        "nodes",
        "--tenant",
        str(tenant),
        "--simulation",
        sim,
        "--type",
        "Policy",
    )
    assert code == 0 and "Policy" in out

    graph = read_graph(EXAMPLE / "graph.json")
    start = next(n for n in graph.nodes if n["type"] == "Policy")
    code, out, _ = run(
        capsys,
        "--dsn",
        app_a,
        "neighbors",
        start["id"],
        "--tenant",
        str(tenant),
        "--simulation",
        sim,
        "--depth",
        "2",
    )
    assert code == 0 and "depth" in out and len(out.splitlines()) > 3

    code, out, _ = run(
        capsys,
        "--dsn",
        app_a,
        "search",
        "who worries about local shops?",
        "--tenant",
        str(tenant),
        "--simulation",
        sim,
        "--top-k",
        "3",
    )
    assert code == 0 and len(out.splitlines()) == 5  # header, rule, three hits

    code, out, _ = run(
        capsys, "--dsn", app_a, "stats", "--tenant", str(tenant), "--simulation", sim
    )
    assert code == 0 and "episodes" in out

    code, out, _ = run(
        capsys, "--dsn", app_a, "attempts", "--tenant", str(tenant), "--simulation", sim
    )
    assert code == 0 and "committed" in out

    # warm: a row a part, the simulation's rows (no index of its own at this size)
    code, out, _ = run(capsys, "--dsn", app_a, "warm", "--tenant", str(tenant), "--simulation", sim)
    lines = out.splitlines()
    assert code == 0 and [line.split()[0] for line in lines[2:]] == [
        "episodes",
        "facts",
        "entities",
        "word",
    ]
    assert all(line.rstrip().endswith("rows") for line in lines[2:])

    code, out, _ = run(capsys, "--dsn", admin, "audit")
    table_rows = out.splitlines()[2:]
    assert code == 0 and len(table_rows) >= 12
    assert all(row.rstrip().endswith("ok") for row in table_rows)


def test_cli_reports_errors_with_their_sqlstate(world, capsys):
    code, _, err = run(
        capsys,
        "--dsn",
        world.dsn("app_b"),
        "nodes",
        "--tenant",
        str(world.tenant_a),
        "--simulation",
        str(world.sim_a),
    )
    assert code == 2 and "42501" in err
    code, _, err = run(
        capsys,
        "--dsn",
        world.dsn("app_a"),
        "neighbors",
        "no-such-node",
        "--tenant",
        str(world.tenant_a),
        "--simulation",
        str(world.sim_a),
    )
    assert code == 2 and "P0002" in err


def test_cli_import_refuses_a_bad_file_naming_it(world, capsys, tmp_path):
    run_dir = tmp_path / "run"
    (run_dir / "twitter").mkdir(parents=True)
    (run_dir / "twitter" / "actions.jsonl").write_text(
        json.dumps({"round": 1, "agent_id": 1, "action_type": "DO_NOTHING"}) + "\n{oops\n"
    )
    code, _, err = run(
        capsys,
        "--dsn",
        world.dsn("app_a"),
        "import",
        str(run_dir),
        "--tenant",
        str(world.tenant_a),
        "--simulation",
        str(world.sim_a),
        "--quiet",
    )
    assert code == 2 and "actions.jsonl:2" in err


def test_tenants_and_simulations_by_name(world, capsys, tmp_path):
    import shutil

    admin = world.dsn("admin")
    app_a = world.dsn("app_a")
    code, _, err = run(capsys, "--dsn", admin, "tenant", "create", "acme", "--grant", "app_a")
    assert code == 0, err
    # A MiroFish simulation folder: the actions of one platform and its state.json.
    folder = tmp_path / "sim_3f2a9c1b7d4e"
    shutil.copytree(EXAMPLE / "twitter", folder / "twitter")
    (folder / "state.json").write_text(
        json.dumps({"simulation_id": "sim_3f2a9c1b7d4e"}), encoding="utf-8"
    )
    code, out, err = run(
        capsys,
        "--dsn",
        app_a,
        "import",
        str(folder),
        "--tenant",
        "acme",
        "--simulation",
        "riverside",
    )
    assert code == 0, err
    code, out, err = run(capsys, "--dsn", app_a, "simulations", "--tenant", "acme")
    assert code == 0 and "riverside" in out and "sim_3f2a9c1b7d4e" in out, err
    for name in ("riverside", "sim_3f2a9c1b7d4e"):  # by name and by MiroFish id
        code, out, err = run(
            capsys, "--dsn", app_a, "stats", "--tenant", "acme", "--simulation", name
        )
        assert code == 0 and "riverside" in out, err
    code, out, _ = run(capsys, "--dsn", app_a, "tenants")
    assert "acme" in out and str(world.tenant_a) in out
    code, _, err = run(capsys, "--dsn", app_a, "stats", "--tenant", "acme", "--simulation", "x")
    assert code == 2 and "no simulation named 'x'" in err and "swarm-memory simulations" in err
    code, _, err = run(capsys, "--dsn", world.dsn("app_b"), "tenants")
    assert code == 0
    code, _, err = run(
        capsys,
        "--dsn",
        world.dsn("app_b"),
        "stats",
        "--tenant",
        "acme",
        "--simulation",
        "riverside",
    )
    assert code == 2 and "no tenant named 'acme'" in err


def test_profiles_and_episodes_read_back_a_page_at_a_time(world, capsys):
    app_a = world.dsn("app_a")
    code, _, err = run(
        capsys,
        "--dsn",
        app_a,
        "import",
        str(EXAMPLE),
        "--tenant",
        str(world.tenant_a),
        "--simulation",
        str(world.sim_a),
        "--quiet",
    )
    assert code == 0, err
    where = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    code, out, _ = run(
        capsys, "--dsn", app_a, "profiles", *where, "--platform", "reddit", "--agent-id", "0"
    )
    assert code == 0 and "Maya Okafor" in out
    code, out, _ = run(
        capsys, "--dsn", app_a, "episodes", *where, "--action-type", "create_post", "--limit", "5"
    )
    assert code == 0 and out.count("CREATE_POST") == 5 and "next page: --after" in out
    after = out.strip().splitlines()[-1].split()[-1]
    code, out2, _ = run(
        capsys,
        "--dsn",
        app_a,
        "episodes",
        *where,
        "--action-type",
        "CREATE_POST",
        "--limit",
        "5",
        "--after",
        after,
    )
    assert code == 0 and out2.count("CREATE_POST") == 5 and out2 != out


def test_neighbors_takes_a_node_name_and_hints_name_commands(world, capsys):
    app_a = world.dsn("app_a")
    where = ["--tenant", str(world.tenant_a), "--simulation", str(world.sim_a)]
    code, _, err = run(capsys, "--dsn", app_a, "import", str(EXAMPLE), *where, "--quiet")
    assert code == 0, err
    by_id = read_graph(EXAMPLE / "graph.json").nodes[0]
    code, out_id, _ = run(capsys, "--dsn", app_a, "neighbors", by_id["id"], *where)
    code2, out_name, _ = run(capsys, "--dsn", app_a, "neighbors", by_id["name"].upper(), *where)
    assert code == code2 == 0 and out_id == out_name
    code, _, err = run(capsys, "--dsn", app_a, "neighbors", "nobody-by-that-name", *where)
    assert code == 2 and "[P0002]" in err
    # --ids: the lean walk, the same nodes at the same depths by the same edges
    from swarm_memory.client import Memory

    with Memory(app_a) as mem:
        full = mem.neighbors(world.tenant_a, world.sim_a, by_id["id"], 2)
    args = ["neighbors", by_id["name"], *where, "--depth", "2", "--ids", "--json"]
    code, out, err = run(capsys, "--dsn", app_a, *args)
    assert code == 0, err
    lean = [(r["node_id"], r["depth"], r["edge_id"]) for r in map(json.loads, out.splitlines())]
    assert lean == [(r.node_id, r.depth, r.edge_id) for r in full] and len(lean) > 1
    code, out, _ = run(capsys, "--dsn", app_a, *args[:-1])
    assert code == 0 and all(r.node_id in out and r.edge_id in out for r in full)
    code, _, err = run(capsys, "--dsn", app_a, *args[:-1], "--format", "dot")
    assert code == 2 and "--ids" in err
    unknown = str(uuid.uuid4())
    code, _, err = run(
        capsys,
        "--dsn",
        world.dsn("app_a"),
        "stats",
        "--tenant",
        unknown,
        "--simulation",
        str(world.sim_a),
    )
    assert code == 2 and "`swarm-memory tenant grant ROLE TENANT`" in err
