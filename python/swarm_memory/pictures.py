"""Pictures of the graph: a neighbourhood (memory.neighbors' answer) as Graphviz DOT and as
SVG, and the page `swarm-memory serve` serves at /pictures (docs/pictures.md).

One home for how a neighbourhood is drawn: which node is joined to which (each row's path
ends in its parent and itself), where each node sits (a radial tree: the start in the middle,
depth d on ring d, each subtree in a sector as wide as its leaves), and how a fact's state
looks (current solid, ended and expired dashed grey, future dotted grey). The SVG is laid out
here rather than by Graphviz: the command needs no program beyond the package, the output
is the same on every machine (a test compares it byte for byte), and the page gets the same
positions from its JSON endpoint, so the browser draws what the command draws.

The page's endpoints are each one SQL call under the key's role (zep.py's `answer`, as
every endpoint of the service): simulations, nodes, the neighbourhood and the facts of an
entity at an as-of time, its timeline, and a fact's history.
"""

from __future__ import annotations

import dataclasses
import json
import math
import uuid
import zlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import date, datetime
from decimal import Decimal
from importlib import resources
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

__all__ = [
    "FORMATS",
    "STATE_STYLES",
    "Picture",
    "neighbourhood",
    "picture_routes",
    "to_dot",
    "to_svg",
]

FORMATS = ("dot", "svg")

# How a fact's state at the as-of time is drawn: (DOT style, colour, SVG dash pattern).
STATE_STYLES: dict[str, tuple[str, str, str | None]] = {
    "current": ("solid", "#333333", None),
    "ended": ("dashed", "#9a9a9a", "6 4"),
    "expired": ("dashed", "#9a9a9a", "6 4"),
    "future": ("dotted", "#9a9a9a", "2 4"),
}
# A node's fill, by a stable hash of its type (the same colour for a type on every run).
PALETTE = (
    "#cfe2f3",
    "#d9ead3",
    "#fff2cc",
    "#f4cccc",
    "#d9d2e9",
    "#fce5cd",
    "#d0e0e3",
    "#ead1dc",
)
CENTRE_FILL = "#ffd966"
RING = 190.0  # the least distance between rings
NODE_GAP = 34.0  # the least arc between two nodes of a ring, beyond their widths
FONT = 12.0
CHAR_WIDTH = 6.8  # an average glyph of FONT-sized sans-serif, for box widths
NODE_HEIGHT = 34.0


class Row(Protocol):
    """What a picture reads of a memory.neighbors row (client.rows.Neighbor)."""

    node_id: str
    name: str
    type: str
    depth: int
    path: list[str]
    edge_id: str
    edge_type: str
    fact: str | None
    valid_at: datetime | None
    invalid_at: datetime | None
    state: str


@dataclasses.dataclass(frozen=True)
class PlacedNode:
    node_id: str
    name: str | None
    type: str | None
    depth: int
    x: float
    y: float
    width: float
    fill: str


@dataclasses.dataclass(frozen=True)
class PlacedEdge:
    edge_id: str
    source: str  # the walk's parent
    target: str  # the node it reached
    type: str
    fact: str | None
    state: str
    valid_at: datetime | None
    invalid_at: datetime | None


@dataclasses.dataclass(frozen=True)
class Picture:
    """A neighbourhood laid out: the start (depth 0) and each node reached, nearest first
    and then by id as memory.neighbors orders them, and the edge that reached each."""

    centre: str
    direction: str
    nodes: list[PlacedNode]
    edges: list[PlacedEdge]

    def as_json(self) -> dict[str, Any]:
        return plain(dataclasses.asdict(self))


def _width(name: str | None, type_: str | None) -> float:
    return max(len(name or ""), len(type_ or ""), 4) * CHAR_WIDTH + 18


def neighbourhood(
    centre_id: str,
    rows: Sequence[Row],
    *,
    centre_name: str | None = None,
    centre_type: str | None = None,
    direction: str = "both",
) -> Picture:
    """Lay out a walk's answer: a radial tree, the same positions for the same answer."""
    children: dict[str, list[Row]] = {}
    for r in rows:
        parent = r.path[-2] if len(r.path) >= 2 else centre_id
        children.setdefault(parent, []).append(r)
    for kids in children.values():
        kids.sort(key=lambda r: r.node_id)

    leaves: dict[str, int] = {}

    def count(node: str) -> int:
        n = sum(count(k.node_id) for k in children.get(node, [])) or 1
        leaves[node] = n
        return n

    count(centre_id)
    widths = {centre_id: _width(centre_name, centre_type)}
    widths.update({r.node_id: _width(r.name, r.type) for r in rows})
    angle: dict[str, float] = {centre_id: 0.0}
    share: dict[str, float] = {centre_id: 2 * math.pi}

    def place(node: str, start: float, span: float) -> None:
        at = start
        for k in children.get(node, []):
            share[k.node_id] = span * leaves[k.node_id] / leaves[node]
            angle[k.node_id] = at + share[k.node_id] / 2
            place(k.node_id, at, share[k.node_id])
            at += share[k.node_id]

    # start at the top and go clockwise
    place(centre_id, -math.pi / 2, 2 * math.pi)
    # each ring far enough out that every node fits in its sector: what a box needs along the
    # ring is its width at the top and bottom, its height at the sides
    radius = [0.0]
    for d in range(1, max((r.depth for r in rows), default=0) + 1):
        need = max(
            (
                abs(widths[r.node_id] * math.sin(angle[r.node_id]))
                + abs(NODE_HEIGHT * math.cos(angle[r.node_id]))
                + NODE_GAP
            )
            / share[r.node_id]
            for r in rows
            if r.depth == d
        )
        radius.append(max(radius[-1] + RING, need))

    def spot(node: str, depth: int) -> tuple[float, float]:
        r = radius[depth]
        # + 0.0: no "-0.0" in the output
        return round(r * math.cos(angle[node]), 1) + 0.0, round(r * math.sin(angle[node]), 1) + 0.0

    nodes = [
        PlacedNode(
            centre_id, centre_name, centre_type, 0, 0.0, 0.0, widths[centre_id], CENTRE_FILL
        ),
        *(
            PlacedNode(
                r.node_id,
                r.name,
                r.type,
                r.depth,
                *spot(r.node_id, r.depth),
                widths[r.node_id],
                fill(r.type),
            )
            for r in rows
        ),
    ]
    edges = [
        PlacedEdge(
            r.edge_id,
            r.path[-2] if len(r.path) >= 2 else centre_id,
            r.node_id,
            r.edge_type,
            r.fact,
            r.state,
            r.valid_at,
            r.invalid_at,
        )
        for r in rows
    ]
    return Picture(centre_id, direction, nodes, edges)


def fill(type_: str | None) -> str:
    return PALETTE[zlib.crc32((type_ or "").encode()) % len(PALETTE)]


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _label(node: PlacedNode) -> str:
    """A node's label: its name over its type (the start's id when its name is unknown)."""
    return "\n".join(x for x in (node.name or node.node_id, node.type) if x)


def to_dot(picture: Picture) -> str:
    """The neighbourhood as a Graphviz digraph: nodes labelled by name and type, edges by
    type, each edge's id and fact as its id and tooltip; arrows only where the walk went one
    way (--direction out: parent to node, in: node to parent)."""
    out = [
        "digraph neighbourhood {",
        '  graph [overlap=false, splines=true, fontname="Helvetica"];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for n in picture.nodes:
        extra = ", penwidth=2" if n.depth == 0 else ""
        out.append(
            f"  {_dot_quote(n.node_id)} [label={_dot_quote(_label(n))}, "
            f'fillcolor="{n.fill}"{extra}];'
        )
    for e in picture.edges:
        style, colour, _ = STATE_STYLES.get(e.state, STATE_STYLES["current"])
        source, target = (e.target, e.source) if picture.direction == "in" else (e.source, e.target)
        attrs = [
            f"id={_dot_quote(e.edge_id)}",
            f"label={_dot_quote(e.type)}",
            f"tooltip={_dot_quote(e.fact or e.type)}",
            f"style={style}",
            f'color="{colour}"',
            f'fontcolor="{colour}"',
            f"class={_dot_quote(e.state)}",
        ]
        if picture.direction == "both":
            attrs.append("dir=none")
        out.append(f"  {_dot_quote(source)} -> {_dot_quote(target)} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def to_svg(picture: Picture) -> str:
    """The neighbourhood as a standalone SVG in the radial layout: every node a group with
    data-node-id, every edge a group with data-edge-id and data-state."""
    pos = {n.node_id: n for n in picture.nodes}
    pad = 40.0
    left = min(n.x - n.width / 2 for n in picture.nodes) - pad
    right = max(n.x + n.width / 2 for n in picture.nodes) + pad
    top = min(n.y - NODE_HEIGHT / 2 for n in picture.nodes) - pad
    bottom = max(n.y + NODE_HEIGHT / 2 for n in picture.nodes) + pad
    w, h = right - left, bottom - top
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(w)}" height="{_num(h)}" '
        f'viewBox="{_num(left)} {_num(top)} {_num(w)} {_num(h)}" '
        f'font-family="Helvetica, Arial, sans-serif" font-size="{_num(FONT)}">',
        "<defs>"
        '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
        'fill="context-stroke"/></marker></defs>',
        f'<rect x="{_num(left)}" y="{_num(top)}" width="{_num(w)}" height="{_num(h)}" '
        'fill="white"/>',
    ]
    for e in picture.edges:
        a, b = pos[e.source], pos[e.target]
        _, colour, dash = STATE_STYLES.get(e.state, STATE_STYLES["current"])
        marker = ""
        if picture.direction == "out":
            marker = ' marker-end="url(#arrow)"'
        elif picture.direction == "in":
            marker = ' marker-start="url(#arrow)"'
        x1, y1 = _rim(a, b)
        x2, y2 = _rim(b, a)
        mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
        out.append(
            f"<g class={quoteattr('edge ' + e.state)} data-edge-id={quoteattr(e.edge_id)} "
            f"data-state={quoteattr(e.state)}><title>{escape(e.fact or e.type)}</title>"
            f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
            f'stroke="{colour}" stroke-width="1.5"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + ("" if e.state == "current" else ' opacity="0.6"')
            + f"{marker}/>"
            f'<text x="{_num(mx)}" y="{_num(my - 4)}" text-anchor="middle" fill="{colour}" '
            f'font-size="{_num(FONT - 2)}" stroke="white" stroke-width="3" '
            f'paint-order="stroke">{escape(e.type)}</text></g>'
        )
    for n in picture.nodes:
        x, y = n.x - n.width / 2, n.y - NODE_HEIGHT / 2
        out.append(
            f'<g class="node" data-node-id={quoteattr(n.node_id)} data-depth="{n.depth}">'
            f"<title>{escape(n.node_id)}</title>"
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(n.width)}" '
            f'height="{_num(NODE_HEIGHT)}" rx="8" fill="{n.fill}" stroke="#555555" '
            f'stroke-width="{2 if n.depth == 0 else 1}"/>'
            f'<text x="{_num(n.x)}" y="{_num(n.y - 2)}" text-anchor="middle" '
            f'font-weight="bold">{escape(n.name or n.node_id)}</text>'
            f'<text x="{_num(n.x)}" y="{_num(n.y + 11)}" text-anchor="middle" '
            f'font-size="{_num(FONT - 2)}" fill="#555555">{escape(n.type or "")}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rim(a: PlacedNode, b: PlacedNode) -> tuple[float, float]:
    """Where the segment from a's centre towards b leaves a's box."""
    dx, dy = b.x - a.x, b.y - a.y
    if dx == 0 and dy == 0:
        return a.x, a.y
    sx = (a.width / 2) / abs(dx) if dx else math.inf
    sy = (NODE_HEIGHT / 2) / abs(dy) if dy else math.inf
    s = min(sx, sy, 1.0)
    return a.x + dx * s, a.y + dy * s


def render(fmt: str, picture: Picture) -> str:
    if fmt == "dot":
        return to_dot(picture)
    if fmt == "svg":
        return to_svg(picture)
    raise ValueError(f"unknown picture format {fmt!r}: pass one of {', '.join(FORMATS)}")


def plain(value: Any) -> Any:
    """A value as JSON holds it: datetimes in ISO 8601, UUIDs as text, dataclasses as
    objects."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, Decimal):
        return float(value)
    return value


# The page and its endpoints (served by swarm_memory.zep.create_app).

Answer = Callable[..., Awaitable[Response]]
PAGE = "/pictures"
API = f"{PAGE}/api"
DIRECTIONS = ("both", "out", "in")
MAX_NODES = 200  # the page's walk: more than a screen shows


def page_html() -> str:
    """The page (pictures.html, no data in it), with this module's styles and sizes put in."""
    css = []
    for name, (_, colour, dash) in STATE_STYLES.items():
        faded = "" if name == "current" else " opacity: 0.6;"
        dashed = f" stroke-dasharray: {dash};" if dash else ""
        css.append(f".edge.{name} path {{ stroke: {colour};{dashed}{faded} }}")
        css.append(f".edge.{name} text {{ fill: {colour};{faded} }}")
    config = {"api": API, "nodeHeight": NODE_HEIGHT, "centreFill": CENTRE_FILL}
    html = resources.files("swarm_memory").joinpath("pictures.html").read_text("utf-8")
    return html.replace("/*STATE_STYLES*/", "\n  ".join(css)).replace(
        "/*PICTURE_CONFIG*/{}", json.dumps(config)
    )


def picture_routes(answer: Answer) -> list[Route]:
    """The page and its JSON endpoints; `answer(request, call)` runs `call(mem, conn,
    tenant)` as the request key's role (zep.py), so each endpoint is one SQL call under
    row-level security."""
    from swarm_memory.zep_http import ZepError
    from swarm_memory.zep_http import int_field as _int

    def param(request: Request, name: str, *, required: bool = True) -> str | None:
        value = request.query_params.get(name)
        if value is not None and value.strip():
            return value
        if required:
            raise ZepError(400, f"missing query parameter {name}")
        return None

    def simulation(request: Request) -> uuid.UUID:
        text = param(request, "simulation")
        try:
            return uuid.UUID(text)
        except ValueError:
            raise ZepError(400, f"simulation must be a UUID, not {text!r}") from None

    async def page(request: Request) -> Response:
        return HTMLResponse(page_html(), headers={"cache-control": "no-store"})

    async def simulations(request: Request) -> Response:
        return await answer(request, lambda mem, conn, t: plain(mem.list_simulations(t, conn=conn)))

    async def nodes(request: Request) -> Response:
        sim = simulation(request)
        return await answer(
            request,
            lambda mem, conn, t: [
                {"node_id": n.node_id, "name": n.name, "type": n.type}
                for n in mem.nodes_by_type(t, sim, None, 1000, conn=conn)
            ],
        )

    async def neighbors(request: Request) -> Response:
        sim = simulation(request)
        node = param(request, "node")
        depth = _int(request.query_params.get("depth"), "depth") or 1
        as_of = param(request, "as_of", required=False)
        direction = param(request, "direction", required=False) or "both"
        if direction not in DIRECTIONS:
            raise ZepError(400, f"direction must be one of {', '.join(DIRECTIONS)}")

        def call(mem: Any, conn: Any, tenant: uuid.UUID) -> Any:
            rows = mem.neighbors(
                tenant,
                sim,
                node,
                depth,
                None,
                direction,
                as_of=as_of,
                include_ended=True,
                limit=MAX_NODES,
                conn=conn,
            )
            picture = neighbourhood(node, rows, direction=direction)
            return {**picture.as_json(), "as_of": as_of}

        return await answer(request, call)

    async def facts(request: Request) -> Response:
        sim = simulation(request)
        node = param(request, "node")
        as_of = param(request, "as_of", required=False)
        return await answer(
            request,
            lambda mem, conn, t: plain(mem.facts(t, sim, node, "all", as_of, 1000, conn=conn)),
        )

    async def timeline(request: Request) -> Response:
        sim = simulation(request)
        node = param(request, "node")
        return await answer(
            request, lambda mem, conn, t: plain(mem.timeline(t, sim, node, 200, conn=conn))
        )

    async def history(request: Request) -> Response:
        sim = simulation(request)
        kind = param(request, "kind", required=False) or "edge"
        row_id = param(request, "id")
        return await answer(
            request, lambda mem, conn, t: plain(mem.history(t, sim, kind, row_id, conn=conn))
        )

    return [
        Route(PAGE, page, methods=["GET"]),
        Route(f"{API}/simulations", simulations, methods=["GET"]),
        Route(f"{API}/nodes", nodes, methods=["GET"]),
        Route(f"{API}/neighbors", neighbors, methods=["GET"]),
        Route(f"{API}/facts", facts, methods=["GET"]),
        Route(f"{API}/timeline", timeline, methods=["GET"]),
        Route(f"{API}/history", history, methods=["GET"]),
    ]


def print_neighbourhood(args: Any, mem: Any, node_id: str, rows: Sequence[Row]) -> int:
    """`swarm-memory neighbors --format dot|svg`: the picture of the walk's rows on stdout,
    the start node labelled by its name and type."""
    start = mem.get_node(args.tenant, args.simulation, node_id)
    picture = neighbourhood(
        node_id, rows, centre_name=start.name, centre_type=start.type, direction=args.direction
    )
    print(render(args.format, picture), end="")
    return 0
