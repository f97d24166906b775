"""`swarm-memory neighbors --format dot|svg` (swarm_memory.pictures) against memory.neighbors'
own answer on the example run: every node and edge of the walk drawn, each edge styled by its
state (the run holds ended facts), the same bytes on every call."""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as ET

import pytest
from swarm_memory.cli import main
from swarm_memory.client import Memory
from swarm_memory.importer import import_run

from tests.test_zep_serve import NAME, RUN

# her job at the Beacon ended in January 2025: an ended fact within two steps, even now
REPORTER = "Sofia Lindqvist"
PLAN = "River Road Car-Free Plan"
NODE_LINE = re.compile(r'^  "((?:[^"\\]|\\.)*)" \[label="((?:[^"\\]|\\.)*)", ')
EDGE_LINE = re.compile(r'^  "([^"]*)" -> "([^"]*)" \[id="([^"]*)", .*?style=(\w+), color="([^"]*)"')


@pytest.fixture
def riverside(world, minilm) -> uuid.UUID:
    simulation = uuid.uuid4()
    import_run(world.dsn("app_a"), world.tenant_a, simulation, RUN, name=NAME, embedder=minilm)
    return simulation


def _picture(capsys, world, centre: str, fmt: str, *extra: str) -> str:
    code = main(
        ["--dsn", world.dsn("app_a"), "neighbors", centre, "--tenant", str(world.tenant_a)]
        + ["--simulation", NAME, "--format", fmt, *extra]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _walk(world, simulation: uuid.UUID, name: str, **options):
    with Memory(world.dsn("app_a")) as mem:
        (centre,) = mem.nodes_named(world.tenant_a, simulation, name)
        return centre, mem.neighbors(world.tenant_a, simulation, centre.node_id, 2, **options)


def test_pictures_draw_every_node_and_edge_of_the_walk_by_state(world, riverside, capsys):
    """One import for the three pictures: DOT and SVG of the same walk, and DOT at a time."""
    _dot_of_the_walk(world, riverside, capsys)
    _svg_of_the_walk(world, riverside, capsys)
    _dot_at_a_world_time(world, riverside, capsys)


def _dot_of_the_walk(world, riverside, capsys):
    dot = _picture(capsys, world, REPORTER, "dot", "--depth", "2", "--include-ended")
    centre, rows = _walk(world, riverside, REPORTER, include_ended=True)
    assert {r.state for r in rows} >= {"current", "ended"}, "the example run has ended facts"

    nodes = dict(m.groups() for line in dot.splitlines() if (m := NODE_LINE.match(line)))
    assert set(nodes) == {centre.node_id} | {r.node_id for r in rows}
    assert nodes[centre.node_id] == f"{REPORTER}\\n{centre.type}"
    for r in rows:
        assert nodes[r.node_id] == f"{r.name}\\n{r.type}".replace('"', '\\"')

    edges = {m[3]: m.groups() for line in dot.splitlines() if (m := EDGE_LINE.match(line))}
    assert set(edges) == {r.edge_id for r in rows}
    for r in rows:
        source, target, _, style, colour = edges[r.edge_id]
        # drawn from the node the walk came from to the node it reached
        assert (source, target) == (r.path[-2], r.node_id)
        if r.state == "current":
            assert (style, colour) == ("solid", "#333333")
        else:
            assert style in ("dashed", "dotted") and colour == "#9a9a9a", r
    assert all(f'class="{r.state}"' in line for r in rows for line in dot.splitlines() if
               f'id="{r.edge_id}"' in line)  # fmt: skip

    # stable: the same answer, the same bytes
    assert _picture(capsys, world, REPORTER, "dot", "--depth", "2", "--include-ended") == dot


def _dot_at_a_world_time(world, riverside, capsys):
    """As of a moment before the Chamber of Commerce turned against the plan, its support is
    current: the picture follows memory.neighbors' answer at that time."""
    at = "2025-03-01T00:00:00Z"
    dot = _picture(capsys, world, PLAN, "dot", "--as-of", at, "--direction", "in", "--depth", "2")
    _, rows = _walk(world, riverside, PLAN, as_of=at, direction="in")
    edges = {m[3]: m.groups() for line in dot.splitlines() if (m := EDGE_LINE.match(line))}
    assert set(edges) == {r.edge_id for r in rows}
    supports = [r for r in rows if r.edge_type == "SUPPORTS" and "Chamber" in r.name]
    assert supports and supports[0].state == "current"
    # --direction in: the arrow points from the node reached to the node the walk came from
    source, target, *_ = edges[supports[0].edge_id]
    assert (source, target) == (supports[0].node_id, supports[0].path[-2])
    assert "dir=none" not in dot


def _svg_of_the_walk(world, riverside, capsys):
    svg = _picture(capsys, world, REPORTER, "svg", "--depth", "2", "--include-ended")
    centre, rows = _walk(world, riverside, REPORTER, include_ended=True)
    root = ET.fromstring(svg)  # well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    groups = list(root.iter(f"{ns}g"))
    drawn = {g.get("data-node-id") for g in groups if g.get("data-node-id")}
    assert drawn == {centre.node_id} | {r.node_id for r in rows}
    states = {g.get("data-edge-id"): g for g in groups if g.get("data-edge-id")}
    assert {k: g.get("data-state") for k, g in states.items()} == {r.edge_id: r.state for r in rows}
    for r in rows:
        line = states[r.edge_id].find(f"{ns}line")
        assert (line.get("stroke-dasharray") is None) == (r.state == "current")
    # no two nodes on one spot
    spots = [
        (g.find(f"{ns}rect").get("x"), g.find(f"{ns}rect").get("y"))
        for g in groups
        if g.get("data-node-id")
    ]
    assert len(set(spots)) == len(spots)
    assert _picture(capsys, world, REPORTER, "svg", "--depth", "2", "--include-ended") == svg


def test_an_unknown_format_is_refused(world, capsys):
    with pytest.raises(SystemExit) as exc:
        main(
            ["--dsn", world.dsn("app_a"), "neighbors", PLAN, "--tenant", str(world.tenant_a)]
            + ["--simulation", NAME, "--format", "png"]
        )
    assert exc.value.code == 2
    assert "invalid choice: 'png'" in capsys.readouterr().err
