"""Name matching on names shaped like a real run's (issue 12): the bench's own entities are all
`Entity <n>`, where every name shares most of its trigrams with every other. Here: 10,000
names of people (Latin and Chinese), places and organisations in one simulation, and 150
questions that name one of them, misspell one, name two, ask in Chinese, or name none.

memory.match_entities is measured beside its peer, every name compared (memory._name_match
over the simulation's names, the definition it must equal, ties broken by node id as
match_entities breaks them): the same rows for every question, and the latency of each, the
two asked in turn.

    python -m bench.names DSN TENANT   (a role with memory_writer and memory_reader, granted
                                        the tenant; prints JSON)
"""

from __future__ import annotations

import json
import random
import sys
import time
import uuid

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

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
    "William",
    "Barbara",
    "Richard",
    "Susan",
    "Joseph",
    "Jessica",
    "Thomas",
    "Sarah",
    "Charles",
    "Karen",
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
    "Rodriguez",
    "Martinez",
    "Hernandez",
    "Lopez",
    "Gonzalez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Bello",
    "Chen",
    "Wang",
    "Okafor",
    "Tanaka",
    "Sharma",
    "Silva",
    "Rossi",
    "Ivanova",
]
ZH_LAST = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
ZH_FIRST = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂"
ORGS = [
    "University",
    "Council",
    "Union",
    "Bakery",
    "Hospital",
    "Trust",
    "Museum",
    "Library",
    "Police",
    "Bank",
    "Times",
    "Post",
    "Radio",
    "Club",
    "Market",
    "Committee",
]
PLACES = [
    "River",
    "Elm",
    "Oak",
    "North",
    "South",
    "East",
    "West",
    "Central",
    "Harbor",
    "Hill",
    "Lake",
    "Park",
    "Bridge",
    "Station",
]
OTHER = [
    "what happened at the market",
    "为什么大家都在讨论交通罢工",
    "the mayor and the union",
    "River",
    "王",
]


def names(n: int = 10_000, seed: int = 3) -> list[str]:
    rnd = random.Random(seed)
    out: set[str] = set()
    while len(out) < n:
        r = rnd.random()
        if r < 0.45:
            out.add(f"{rnd.choice(FIRST)} {rnd.choice(LAST)}")
        elif r < 0.7:
            given = rnd.choice(ZH_FIRST) + (rnd.choice(ZH_FIRST) if rnd.random() < 0.6 else "")
            out.add(rnd.choice(ZH_LAST) + given)
        else:
            number = f" {rnd.randrange(100)}" if rnd.random() < 0.5 else ""
            out.add(f"{rnd.choice(PLACES)} {rnd.choice(ORGS)}{number}")
    return sorted(out)


def questions(pool: list[str], n: int = 150, seed: int = 3) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        name, r = rnd.choice(pool), rnd.random()
        if r < 0.3:
            out.append(f"What did {name} say about the strike?")
        elif r < 0.5:
            out.append(f"{name}对这件事怎么看？")
        elif r < 0.65 and len(name) > 4:
            i = rnd.randrange(1, len(name) - 1)
            out.append(f"who is {name[:i] + name[i + 1 :]}")  # a letter dropped
        elif r < 0.8:
            out.append(f"relationship between {name} and {rnd.choice(pool)}")
        elif r < 0.9:
            out.append(rnd.choice(OTHER))
        else:
            out.append(name.split()[0] if " " in name else name[:2])
    return out


MATCH = "SELECT node_id, similarity FROM memory.match_entities(%s, %s, %s, 10)"
# every name compared: the simulation's names (tenant entered first, as match_entities does)
EVERY = """
SELECT m.node_id, m.similarity
  FROM (SELECT n.node_id, memory._name_match(n.name, lower(memory._words_text(%(q)s))) AS similarity
          FROM memory.nodes AS n WHERE n.tenant_id = %(t)s AND n.simulation_id = %(s)s) AS m
 WHERE m.similarity IS NOT NULL
 ORDER BY m.similarity DESC, m.node_id
 LIMIT 10"""


def measure(app_dsn: str, tenant: uuid.UUID, log=print, n_names: int = 10_000) -> dict:
    sim = uuid.uuid4()
    pool = names(n_names)
    with psycopg.connect(app_dsn, autocommit=True) as conn:
        conn.execute("SELECT memory.upsert_simulation(%s, %s, 'names-bench')", (tenant, sim))
        started = time.perf_counter()
        for i in range(0, len(pool), 5000):
            batch = [
                {"id": f"n{j}", "name": pool[j], "type": "Person"}
                for j in range(i, min(i + 5000, len(pool)))
            ]
            conn.execute("SELECT memory.upsert_nodes(%s, %s, %s)", (tenant, sim, Jsonb(batch)))
        loaded = time.perf_counter() - started
        log(f"names: {len(pool)} names loaded in {loaded:.1f} s")
        asked = questions(pool)
        lat: dict[str, list[float]] = {"match_entities": [], "every_name": []}
        got: dict[str, list] = {"match_entities": [], "every_name": []}
        # each in its own pass, the calls one after another: the reference (every name
        # compared, a scan of all of them) run between the timed calls of match_entities
        # would empty the CPU caches before each (bench/README.md, "How a call is timed")
        for label in ("match_entities", "every_name"):
            for q in asked:
                with conn.transaction():
                    if label == "every_name":
                        conn.execute("SELECT memory._require_simulation(%s, %s)", (tenant, sim))
                    t0 = time.perf_counter()
                    if label == "every_name":
                        rows = conn.execute(EVERY, {"q": q, "t": tenant, "s": sim}).fetchall()
                    else:
                        rows = conn.execute(MATCH, (tenant, sim, q)).fetchall()
                    lat[label].append((time.perf_counter() - t0) * 1000)
                got[label].append(rows)
        same = sum(a == b for a, b in zip(got["match_entities"], got["every_name"], strict=True))
        conn.execute("SELECT memory.delete_simulation(%s, %s)", (tenant, sim))
    out = {"names": len(pool), "questions": len(asked), "same": same, "load_s": loaded}
    for label, v in lat.items():
        out[label] = {
            "p50_ms": float(np.percentile(v, 50)),
            "p99_ms": float(np.percentile(v, 99)),
            "max_ms": float(np.max(v)),
        }
    return out


def row(r: dict) -> str:
    m, e = r["match_entities"], r["every_name"]
    met = "met" if r["same"] == r["questions"] else "NOT MET"
    return (
        f"| name matching, {r['names']:,} realistic names (people, Chinese names, places), "
        f"{r['questions']} questions | the rows of every name compared | "
        f"{r['same']}/{r['questions']} the same; match_entities p50 {m['p50_ms']:.1f} ms, "
        f"p99 {m['p99_ms']:.1f} ms; every name compared p50 {e['p50_ms']:.1f} ms, "
        f"p99 {e['p99_ms']:.1f} ms | {met} |"
    )


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], uuid.UUID(sys.argv[2])), indent=2))
