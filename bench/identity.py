"""One identity across runs (the identity wing): the quality of memory.link_runs on labelled
pairs, and its cost on a 10,000-entity run linked against a tenant's history.

Quality: two labelled sets, each a first run and a second made from it with new ids (so the
right pairs are known) and real changes:
  - the example scenario: examples/mirofish_run and the run examples/make_second_run.py makes
    (a stance that turns, an entity renamed with an alias, a new actor);
  - the Chinese run (bench/zh_run): a second run in which organisations are renamed the way
    extractions differ (a short form, with the long one as an alias, or without it), a
    transliterated name spelt with another separator, three entities gone and three new.
Both runs' graphs are imported by the importer with the real embedding model (their actions
are left out: linking reads entities and facts). Precision = right links / links made;
recall = right links / pairs that should be linked.

Cost: two runs of N entities (N = 10,000 at full scale) of people, organisations and places
with realistic names, two facts an entity, the second run the first with a tenth of the names
changed (a letter dropped, a title added) and a twentieth replaced; vectors are not a
model's (each entity a fixed random direction, its second-run copy near it: the cost of
linking depends on their number and dimension, not their meaning). The first link (every
link written), then replays (nothing to write) beside the peer, a single exact-name join
over the same nodes, asked in turn; and memory.diff of the two runs.

    python -m bench.identity DSN TENANT [N]   (a role with memory_writer, granted the tenant)
    python -m bench.identity against DSN SU_DSN TENANT N OLD_SQL [ROUNDS]
        (replays by the installed _link_pair and by an earlier one, in turn: before and after)
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "mirofish_run"
ZH = ROOT / "bench" / "zh_run" / "run"
NS = uuid.UUID("0d6c6a1e-8f7b-4c3e-9a51-6b1d3f0e2c55")

# the Chinese run's second version: renames (new name, alias kept?), spellings, gone, new
ZH_RENAMED = {
    "临江市交通运输局": ("临江交通局", True),
    "临江市第一人民医院": ("临江一院", True),
    "临江地铁集团": ("临江地铁", False),
    "卡洛斯·席尔瓦": ("卡洛斯 席尔瓦", False),
}
ZH_GONE = {"卢浮宫", "《蒙娜丽莎》", "暴雨预警"}
ZH_NEW = [
    ("林晓", "Person", "林晓是临江日报的新任记者，报道滨江路试点。"),
    ("临江商会", "Organization", "临江商会代表滨江路沿线商户。"),
    ("江北公园", "Location", "江北公园位于清河北岸。"),
]


def _new_id(old: str) -> str:
    return str(uuid.uuid5(NS, old))


def zh_second(first: dict) -> tuple[dict, set[tuple[str, str]]]:
    """The Chinese run again: its graph and the right pairs (second id, first id)."""
    data = first.get("data", first)
    nodes, truth, ids = [], set(), {}
    for n in data["nodes"]:
        if n["name"] in ZH_GONE:
            continue
        n = json.loads(json.dumps(n))
        ids[n["uuid"]] = _new_id(n["uuid"])
        truth.add((ids[n["uuid"]], n["uuid"]))
        if n["name"] in ZH_RENAMED:
            new, alias = ZH_RENAMED[n["name"]]
            if alias:
                n.setdefault("attributes", {})["aliases"] = [n["name"]]
            n["summary"] = (n.get("summary") or "").replace(n["name"], new)
            n["name"] = new
        n["uuid"] = ids[n["uuid"]]
        nodes.append(n)
    for name, label, summary in ZH_NEW:
        nodes.append(
            {
                "uuid": _new_id("new:" + name),
                "name": name,
                "labels": ["Entity", label],
                "summary": summary,
                "attributes": {},
                "created_at": "2025-06-01T00:00:00Z",
            }
        )
    edges = []
    for e in data["edges"]:
        if e["source_node_uuid"] in ids and e["target_node_uuid"] in ids:
            e = json.loads(json.dumps(e))
            e["uuid"] = _new_id(e["uuid"])
            e["source_node_uuid"] = ids[e["source_node_uuid"]]
            e["target_node_uuid"] = ids[e["target_node_uuid"]]
            edges.append(e)
    return {"graph_id": "zh-2", "nodes": nodes, "edges": edges}, truth


def _import_graph(dsn: str, tenant: uuid.UUID, name: str, graph: dict, embedder) -> uuid.UUID:
    from swarm_memory.importer import import_run

    sim = uuid.uuid5(NS, f"{tenant}:{name}")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "graph.json").write_text(
            json.dumps(graph, ensure_ascii=False), encoding="utf-8"
        )
        import_run(dsn, tenant, sim, tmp, name=name, embedder=embedder, allow_empty=True)
    return sim


def _score(conn: psycopg.Connection, tenant, first, second, truth: set[tuple[str, str]]) -> dict:
    conn.execute("SELECT * FROM memory.link_runs(%s, %s, %s)", (tenant, second, first))
    links = {
        (a, b)
        for a, b in conn.execute(
            "SELECT node_id, other_node_id FROM memory.identity_links(%s, %s, %s)",
            (tenant, second, first),
        ).fetchall()
    }
    right = len(links & truth)
    return {
        "pairs": len(truth),
        "links": len(links),
        "right": right,
        "precision": right / len(links) if links else 1.0,
        "recall": right / len(truth) if truth else 1.0,
        "wrong": sorted(links - truth)[:5],
    }


def quality(dsn: str, tenant: uuid.UUID, log=print, embedder=None) -> dict:
    """Precision and recall of the links on the two labelled sets."""
    from swarm_memory.embed import Embedder

    embedder = embedder or Embedder()
    sys.path.insert(0, str(ROOT / "examples"))
    import make_second_run  # examples/make_second_run.py

    out = {}
    first = json.loads((EXAMPLE / "graph.json").read_text(encoding="utf-8"))
    second = make_second_run.graph(first)
    truth = {
        (make_second_run.new_id(n["uuid"]), n["uuid"]) for n in first.get("data", first)["nodes"]
    }
    a = _import_graph(dsn, tenant, "identity-example-1", first, embedder)
    b = _import_graph(dsn, tenant, "identity-example-2", second, embedder)
    with psycopg.connect(dsn, autocommit=True) as conn:
        out["example"] = _score(conn, tenant, a, b, truth)
    log(f"identity: example {out['example']}")
    first = json.loads((ZH / "graph.json").read_text(encoding="utf-8"))
    second, truth = zh_second(first)
    a = _import_graph(dsn, tenant, "identity-zh-1", first, embedder)
    b = _import_graph(dsn, tenant, "identity-zh-2", second, embedder)
    with psycopg.connect(dsn, autocommit=True) as conn:
        out["zh_run"] = _score(conn, tenant, a, b, truth)
    log(f"identity: zh_run {out['zh_run']}")
    return out


FIRST = [
    "James",
    "Mary",
    "Robert",
    "Patricia",
    "John",
    "Jennifer",
    "Michael",
    "Linda",
    "David",
    "Elizabeth",
    "Aisha",
    "Wei",
    "Fatima",
    "Olu",
    "Hiroshi",
    "Priya",
    "Carlos",
    "Sofia",
    "Ahmed",
    "Elena",
    "Grace",
    "Tom",
    "Nadia",
    "Marcus",
    "Rosa",
    "Helen",
    "Frank",
    "Maya",
]
LAST = [
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Garcia",
    "Miller",
    "Davis",
    "Okafor",
    "Reyes",
    "Marsh",
    "Natarajan",
    "Gallagher",
    "Bello",
    "Delaney",
    "Lindqvist",
    "Chen",
    "Fernandes",
    "Mbeki",
    "Haddad",
    "Tanaka",
    "Kowalski",
    "Novak",
    "Silva",
    "Dubois",
]
ORG = ["Association", "Council", "Group", "Lab", "Authority", "Campaign", "Cooperative", "Trust"]
PLACE = ["Road", "Bridge", "Quay", "Market", "Square", "Park", "Street", "Lane"]
TOWNS = [
    "Harbourton",
    "Riverside",
    "Eastbank",
    "Millbrook",
    "Northgate",
    "Westfield",
    "Linjiang",
    "Oakham",
    "Fairview",
    "Stonebridge",
    "Ashford",
    "Kingsway",
]


def synthetic(n: int, seed: int = 7) -> tuple[list[dict], list[dict], list[dict], list[dict]]:
    """Two runs of n entities: nodes and edges of each (the second's ids derived)."""
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    names: set[str] = set()
    first: list[dict] = []
    while len(first) < n:
        kind = rng.random()
        if kind < 0.6:
            name, type_ = f"{rng.choice(FIRST)} {rng.choice(LAST)}", "Person"
            if name in names:
                name = f"{name} {rng.choice(LAST)}"
        elif kind < 0.85:
            name, type_ = (
                f"{rng.choice(TOWNS)} {rng.choice(LAST)} {rng.choice(ORG)}",
                "Organization",
            )
        else:
            name, type_ = f"{rng.choice(TOWNS)} {rng.choice(LAST)} {rng.choice(PLACE)}", "Location"
        if name in names:
            continue
        names.add(name)
        first.append(
            {
                "id": f"r1-{len(first)}",
                "name": name,
                "type": type_,
                "summary": f"{name}, a {type_.lower()}.",
            }
        )
    base = nprng.standard_normal((n, 384)).astype(np.float32)
    for i, node in enumerate(first):
        node["embedding"] = (base[i] / np.linalg.norm(base[i])).tolist()
        node["summary_embedding"] = node["embedding"]
    second = []
    for i, node in enumerate(first):
        copy = dict(node, id=f"r2-{i}")
        r = rng.random()
        if r < 0.05:  # replaced by someone else
            copy["name"] = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)} {i}"
            v = nprng.standard_normal(384).astype(np.float32)
        else:
            if r < 0.10:  # a letter dropped
                k = rng.randrange(1, len(copy["name"]) - 1)
                copy["name"] = copy["name"][:k] + copy["name"][k + 1 :]
            elif r < 0.15:  # a title
                copy["name"] = "Dr " + copy["name"]
            v = base[i] + 0.3 * nprng.standard_normal(384).astype(np.float32)
        copy["embedding"] = (v / np.linalg.norm(v)).tolist()
        copy["summary_embedding"] = copy["embedding"]
        copy["summary"] = f"{copy['name']}, a {copy['type'].lower()}."
        second.append(copy)
    e1, e2 = [], []
    for i in range(n):
        for j in {rng.randrange(n), rng.randrange(n)}:
            if j != i:
                e1.append(
                    {
                        "id": f"r1-e{i}-{j}",
                        "type": "KNOWS",
                        "source_id": f"r1-{i}",
                        "target_id": f"r1-{j}",
                    }
                )
                e2.append(
                    {
                        "id": f"r2-e{i}-{j}",
                        "type": "KNOWS",
                        "source_id": f"r2-{i}",
                        "target_id": f"r2-{j}",
                    }
                )
    return first, e1, second, e2


def _load(conn, tenant, sim, name, nodes, edges, model: str) -> None:
    conn.execute("SELECT memory.upsert_simulation(%s, %s, %s)", (tenant, sim, name))
    for k in range(0, len(nodes), 1000):
        items = [dict(x, embedding_model=model) for x in nodes[k : k + 1000]]
        conn.execute("SELECT * FROM memory.upsert_nodes(%s, %s, %s)", (tenant, sim, Jsonb(items)))
    for k in range(0, len(edges), 5000):
        conn.execute(
            "SELECT * FROM memory.upsert_edges(%s, %s, %s)",
            (tenant, sim, Jsonb(edges[k : k + 5000])),
        )


PEER = """
SELECT count(*) FROM memory.nodes AS a JOIN memory.nodes AS b
    ON b.tenant_id = a.tenant_id AND b.simulation_id = %s AND lower(b.name) = lower(a.name) AND b.type = a.type
 WHERE a.tenant_id = %s AND a.simulation_id = %s
"""


def cost(dsn: str, tenant: uuid.UUID, n: int = 10_000, rounds: int = 3, log=print) -> dict:
    """The cost of linking an n-entity run against the history (one earlier run of n)."""
    first, e1, second, e2 = synthetic(n)
    a, b = uuid.uuid4(), uuid.uuid4()
    with psycopg.connect(dsn, autocommit=True) as conn:
        model = conn.execute("SELECT memory._default_model()").fetchone()[0]
        _load(conn, tenant, a, f"identity-{n}-1", first, e1, model)
        _load(conn, tenant, b, f"identity-{n}-2", second, e2, model)
        conn.execute("ANALYZE memory.nodes")
        conn.execute("ANALYZE memory.edges")
        t = time.perf_counter()
        (row,) = conn.execute(
            "SELECT linked, added FROM memory.link_runs(%s, %s, %s)", (tenant, b, a)
        ).fetchall()
        first_s = time.perf_counter() - t
        truth = {
            (f"r2-{i}", f"r1-{i}") for i, x in enumerate(second) if not x["name"].endswith(f" {i}")
        }
        links = set(
            conn.execute(
                "SELECT node_id, other_node_id FROM memory.identity_links(%s, %s, %s)",
                (tenant, b, a),
            ).fetchall()
        )
        replay, peer, diff = [], [], []
        for _ in range(rounds):  # interleaved: ours, the peer's, the diff
            t = time.perf_counter()
            conn.execute("SELECT * FROM memory.link_runs(%s, %s, %s)", (tenant, b, a)).fetchall()
            replay.append(time.perf_counter() - t)
            t = time.perf_counter()
            conn.execute(PEER, (b, tenant, a)).fetchall()
            peer.append(time.perf_counter() - t)
            t = time.perf_counter()
            rows = conn.execute(
                "SELECT count(*) FROM memory.diff(%s, %s, %s)", (tenant, a, b)
            ).fetchone()[0]
            diff.append(time.perf_counter() - t)
    right = len(links & truth)
    out = {
        "entities": n,
        "linked": row[0],
        "first_link_s": first_s,
        "replay_s": statistics.median(replay),
        "peer_exact_name_s": statistics.median(peer),
        "ratio_replay_to_peer": statistics.median(replay) / statistics.median(peer),
        "diff_s": statistics.median(diff),
        "diff_rows": rows,
        "precision": right / len(links) if links else 1.0,
        "recall": right / len(truth),
    }
    log(f"identity: cost {out}")
    return out


def _backend_cpu(pid: int) -> float:
    """CPU seconds a backend has used (user and system): unlike wall time, not stretched by
    the other work of a loaded machine. The server is on this machine (the embedded one)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def against(dsn: str, su_dsn: str, tenant: uuid.UUID, n: int, old_sql: str, rounds: int = 3,
            log=print) -> dict:  # fmt: skip
    """Replays of the link of two n-entity runs by the installed memory._link_pair and by an
    earlier version (old_sql: its file, e.g. `git show REV:sql/functions/wings/identity/
    _link_pair.sql`, installed beside it as memory._link_pair_then by su_dsn), in turn, on one
    connection: wall and backend CPU seconds of each, and the links each found (equal, or
    the comparison says nothing)."""
    src = Path(old_sql).read_text().replace("memory._link_pair(", "memory._link_pair_then(")
    with psycopg.connect(su_dsn, autocommit=True) as su:
        su.execute(src)
    first, e1, second, e2 = synthetic(n)
    a, b = sorted([uuid.uuid4(), uuid.uuid4()])
    out: dict = {"entities": n, "then": {"wall": [], "cpu": []}, "now": {"wall": [], "cpu": []}}
    with psycopg.connect(dsn, autocommit=True) as conn:
        model = conn.execute("SELECT memory._default_model()").fetchone()[0]
        _load(conn, tenant, a, f"identity-{n}-then", first, e1, model)
        _load(conn, tenant, b, f"identity-{n}-now", second, e2, model)
    # the new rows vacuumed (hint bits, visibility) and counted, as autovacuum leaves them a
    # while after a load: right after it both versions ran several times slower
    with psycopg.connect(su_dsn, autocommit=True) as su:
        su.execute("VACUUM (ANALYZE) memory.nodes, memory.edges, memory.identity_links")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT * FROM memory.link_runs(%s, %s, %s)", (tenant, b, a)).fetchall()
        pid = conn.info.backend_pid
        for i in range(rounds):
            for fn in (
                ("_link_pair_then", "_link_pair")
                if i % 2 == 0
                else ("_link_pair", "_link_pair_then")
            ):
                key = "then" if fn == "_link_pair_then" else "now"
                c, t = _backend_cpu(pid), time.perf_counter()
                with conn.transaction():
                    conn.execute("SELECT memory._require_simulation(%s, %s)", (tenant, a))
                    got = conn.execute(
                        f"SELECT linked, added, changed FROM memory.{fn}(%s, %s, %s, memory._link_threshold())",
                        (tenant, a, b),
                    ).fetchone()
                out[key]["wall"].append(time.perf_counter() - t)
                out[key]["cpu"].append(_backend_cpu(pid) - c)
                out[key]["links"] = got
                log(
                    f"identity: {fn} {out[key]['wall'][-1]:.2f} s, cpu {out[key]['cpu'][-1]:.2f} s, {got}"
                )
    for key in ("then", "now"):
        out[key]["wall_median"] = statistics.median(out[key]["wall"])
        out[key]["cpu_median"] = statistics.median(out[key]["cpu"])
    out["ratio_wall"] = out["then"]["wall_median"] / out["now"]["wall_median"]
    out["ratio_cpu"] = out["then"]["cpu_median"] / out["now"]["cpu_median"]
    log(f"identity: then against now {out}")
    return out


def measure(dsn: str, tenant: uuid.UUID, log=print, n: int = 10_000, embedder=None) -> dict:
    return {"quality": quality(dsn, tenant, log, embedder), "cost": cost(dsn, tenant, n, log=log)}


def rows(results: dict) -> list[str]:
    r = results.get("identity")
    if not r:
        return []
    q, c = r["quality"], r["cost"]
    return [
        f"| identity links, labelled pairs | precision and recall | example: P {q['example']['precision']:.2f} "
        f"R {q['example']['recall']:.2f} ({q['example']['pairs']} pairs); Chinese run: P "
        f"{q['zh_run']['precision']:.2f} R {q['zh_run']['recall']:.2f} ({q['zh_run']['pairs']} pairs) | |",
        f"| linking a {c['entities']:,}-entity run against another | cost | first {c['first_link_s']:.1f} s, "
        f"replay {c['replay_s']:.1f} s ({c['ratio_replay_to_peer']:.0f}x an exact-name join); diff "
        f"{c['diff_s']:.1f} s | |",
    ]


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "against":
    # python -m bench.identity against DSN SU_DSN TENANT N OLD_SQL [ROUNDS]
    print(
        json.dumps(
            against(
                sys.argv[2], sys.argv[3], uuid.UUID(sys.argv[4]), int(sys.argv[5]), sys.argv[6],
                int(sys.argv[7]) if len(sys.argv) > 7 else 3,
                log=lambda m: print(m, file=sys.stderr),
            ),
            default=str,
        )
    )  # fmt: skip
elif __name__ == "__main__":
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
    print(
        json.dumps(
            measure(
                sys.argv[1], uuid.UUID(sys.argv[2]), log=lambda m: print(m, file=sys.stderr), n=n
            ),
            default=str,
        )
    )
