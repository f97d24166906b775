"""The change feed's lag: a writer commits small upserts (nodes and edges of one
simulation, one batch a commit) while the example consumer (examples/change_consumer.py,
woken by LISTEN memory_changes) keeps its networkx copy in sync; lag = from the writer's
commit returning to the consumer having applied that change (read it and fetched its rows).
At the end the copy must equal the simulation's graph.

    python -m bench.feed DSN   (a role with memory_writer, granted a tenant; prints JSON)
"""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid
from pathlib import Path

import numpy as np
import psycopg
from psycopg.types.json import Jsonb
from swarm_memory import Memory

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from change_consumer import GraphMirror  # noqa: E402


def measure(app_dsn: str, tenant: uuid.UUID, log=print, commits: int = 200) -> dict:
    sim = uuid.uuid4()
    committed: dict[int, float] = {}  # seq of the writer's n-th change -> commit time
    applied: dict[int, float] = {}
    with psycopg.connect(app_dsn, autocommit=True) as w:
        w.execute("SELECT memory.upsert_simulation(%s, %s, 'feed-bench')", (tenant, sim))
    with Memory(app_dsn) as mem:
        mirror = GraphMirror(mem, tenant, sim)
        mirror.resync_from_start()
        stop = threading.Event()

        def consume() -> None:
            with psycopg.connect(app_dsn, autocommit=True) as listener:
                listener.execute("LISTEN memory_changes")
                while not stop.is_set():
                    mirror.poll(lambda c: applied.setdefault(c.change_id, time.perf_counter()))
                    for _ in listener.notifies(timeout=0.2, stop_after=1):
                        pass
                mirror.poll(lambda c: applied.setdefault(c.change_id, time.perf_counter()))

        t = threading.Thread(target=consume)
        t.start()
        with psycopg.connect(app_dsn, autocommit=True) as w:
            for i in range(commits):
                node = [{"id": f"n{i}", "name": f"node {i}", "type": "Person"}]
                _write(w, committed, "upsert_nodes", tenant, sim, node)
                if i:
                    edge = [
                        {
                            "id": f"e{i}",
                            "type": "KNOWS",
                            "source_id": f"n{i - 1}",
                            "target_id": f"n{i}",
                        }
                    ]
                    _write(w, committed, "upsert_edges", tenant, sim, edge)
                time.sleep(0.005)
        time.sleep(0.5)
        stop.set()
        t.join()
        lags = np.array([(applied[c] - at) * 1000 for c, at in committed.items() if c in applied])
        in_sync = (
            mirror.graph.number_of_nodes() == commits
            and mirror.graph.number_of_edges() == commits - 1
        )
    out = {
        "changes": len(committed),
        "applied": int(len(lags)),
        "lag_ms_p50": float(np.percentile(lags, 50)) if len(lags) else None,
        "lag_ms_p95": float(np.percentile(lags, 95)) if len(lags) else None,
        "lag_ms_max": float(lags.max()) if len(lags) else None,
        "copy_in_sync": in_sync,
    }
    log(
        f"bench: change feed lag p50 {out['lag_ms_p50']:.1f} ms, p95 {out['lag_ms_p95']:.1f} ms "
        f"over {out['changes']} commits (copy in sync: {in_sync})"
    )
    return out


def _write(conn, committed: dict[int, float], fn: str, tenant, sim, items) -> None:
    """One upsert in its own transaction; the time its commit returned, by its change id
    (read inside the transaction, which has entered the tenant)."""
    with conn.transaction():
        conn.execute(f"SELECT * FROM memory.{fn}(%s, %s, %s)", (tenant, sim, Jsonb(items)))
        (change_id,) = conn.execute(
            "SELECT max(change_id) FROM memory.changes WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    committed[change_id] = time.perf_counter()


if __name__ == "__main__":
    dsn = sys.argv[1]
    with psycopg.connect(dsn, autocommit=True) as c:
        tenant = c.execute("SELECT tenant_id FROM memory.list_tenants() LIMIT 1").fetchone()[0]
    print(json.dumps(measure(dsn, tenant), indent=2))
